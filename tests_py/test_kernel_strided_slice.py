"""STRIDED_SLICE end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: every
type TFLM's kernel takes (float32, int8, int16, int32, bool) over ranks 1-4,
positive and negative strides, negative indices, begin / end / shrink masks.
Also the memory (TFLM's 84-byte StridedSliceParams, same head), the shared
seanet_strided_slice0 model, and hostile models refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from shape_kernel_util import assert_memory_matches, assert_refused, compare, shared_model_matches

from tflm_arena.builder import ModelBuilder


def _slice_shape(shape, begin, end, strides, begin_mask=0, end_mask=0, shrink=0):
    index = []
    for a, (b, e, s) in enumerate(zip(begin, end, strides, strict=True)):
        if shrink >> a & 1:
            index.append(b)
        else:
            index.append(
                slice(None if begin_mask >> a & 1 else b, None if end_mask >> a & 1 else e, s)
            )
    return list(np.empty(shape)[tuple(index)].shape)


def _model(
    dtype,
    shape,
    begin,
    end,
    strides,
    out_shape=None,
    q=None,
    index_dtype="int32",
    const_begin=True,
    **masks,
) -> bytes:
    if out_shape is None:
        out_shape = _slice_shape(
            shape,
            begin,
            end,
            strides,
            masks.get("begin_mask", 0),
            masks.get("end_mask", 0),
            masks.get("shrink_axis_mask", 0),
        )
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    x = mb.add_tensor(shape, dtype, "x", **kw)
    n = len(shape)
    b = mb.add_tensor([n], index_dtype, "begin", data=begin if const_begin else None)
    e = mb.add_tensor([n], "int32", "end", data=end)
    s = mb.add_tensor([n], "int32", "strides", data=strides)
    y = mb.add_tensor(out_shape, dtype, "y", **kw)
    mb.add_operator("STRIDED_SLICE", [x, b, e, s], [y], options=masks or None)
    mb.set_io([x] if const_begin else [x, b], [y])
    return mb.build()


CASES = [
    # shape, begin, end, strides, masks
    ([1, 8, 8, 3], [0, 1, 2, 0], [1, 7, 8, 3], [1, 2, 3, 1], {}),
    ([1, 8, 8, 3], [0, -1, -2, 2], [1, -9, 0, -4], [1, -1, -3, -1], {}),
    ([2, 6, 5], [1, 0, 4], [2, 6, 0], [1, 1, -2], {"begin_mask": 2, "end_mask": 4}),
    ([2, 6, 5], [1, 3, 0], [2, 4, 5], [1, 1, 1], {"shrink_axis_mask": 3}),
    ([3, 4, 5], [-1, 0, -3], [0, 4, 5], [1, 3, 1], {"shrink_axis_mask": 1}),
    ([17], [-5], [100], [2], {}),
    ([17], [3], [4], [1], {}),  # one element
    ([4, 9], [0, 0], [0, 0], [1, 2], {"begin_mask": 3, "end_mask": 3}),
    ([1, 1, 40, 16], [0, 0, 0, 0], [1, 1, 39, 16], [1, 1, 1, 1], {}),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_float32(case):
    shape, begin, end, strides, masks = CASES[case]
    compare(_model("float32", shape, begin, end, strides, **masks), seed=case)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "bool"])
def test_other_types(dtype):
    q = {"int8": (0.05, -3), "int16": (0.001, 0)}.get(dtype)
    for i, (shape, begin, end, strides, masks) in enumerate(CASES):
        compare(_model(dtype, shape, begin, end, strides, q=q, **masks), n_runs=2, seed=i)


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_memory_requests_match_tflm(dtype):
    q = (0.05, 1) if dtype == "int8" else None
    ours, theirs = compare(
        _model(dtype, [1, 8, 8, 3], [0, 1, 2, 0], [1, 7, 8, 3], [1, 2, 3, 1], q=q), n_runs=1
    )
    assert_memory_matches(ours, theirs, 84)


def test_shared_seanet_strided_slice_model_matches_tflm(models_dir):
    path = models_dir / "seanet_strided_slice0.tflite"
    shared_model_matches(path)


def test_hostile_models_are_refused_by_name():
    shape = [2, 6, 5]
    assert_refused(
        _model("float32", shape, [0, 0, 0], [2, 6, 5], [1, 0, 1], out_shape=[2, 6, 5]),
        r"STRIDED_SLICE: stride of axis 1 is 0",
    )
    assert_refused(
        _model("float32", shape, [0, 0, 0], [2, 6, 5], [1, 1, 1], out_shape=[2, 6, 6]),
        r"STRIDED_SLICE: output dimension 2 should be 5",
    )
    assert_refused(
        _model("float32", shape, [0, 0, 0], [2, 6, 5], [1, 1, 1], out_shape=[2, 6, 5, 1]),
        r"STRIDED_SLICE: output dimension 3 should be|STRIDED_SLICE: output has rank 4",
    )
    assert_refused(
        _model("float32", shape, [0, 0, 0], [2, 6, 5], [1, 1, 1], const_begin=False),
        r"STRIDED_SLICE: non-constant begin tensor is not supported",
    )
    assert_refused(
        _model("float32", shape, [0, 0, 0], [2, 6, 5], [1, 1, 1], index_dtype="int64"),
        r"STRIDED_SLICE: begin tensor is INT64, needs INT32",
    )
    assert_refused(
        _model("float32", [1, 2, 2, 2, 2], [0] * 5, [1, 2, 2, 2, 2], [1] * 5),
        r"STRIDED_SLICE: input rank 5, at most 4 supported|STRIDED_SLICE: input has rank 5",
    )
    assert_refused(
        _model("float64", shape, [0, 0, 0], [2, 6, 5], [1, 1, 1]),
        r"STRIDED_SLICE: input type FLOAT64 not supported",
    )
    # Output type differs from the input's.
    mb = ModelBuilder()
    x = mb.add_tensor([4], "float32", "x")
    b = mb.add_tensor([1], "int32", "b", data=[0])
    e = mb.add_tensor([1], "int32", "e", data=[4])
    s = mb.add_tensor([1], "int32", "s", data=[1])
    y = mb.add_tensor([4], "int8", "y", scale=[0.1], zero_point=[0])
    mb.add_operator("STRIDED_SLICE", [x, b, e, s], [y])
    mb.set_io([x], [y])
    assert_refused(mb.build(), r"STRIDED_SLICE: input is FLOAT32 but output is INT8")
    # begin with the wrong number of entries.
    mb = ModelBuilder()
    x = mb.add_tensor([4, 4], "float32", "x")
    b = mb.add_tensor([1], "int32", "b", data=[0])
    e = mb.add_tensor([2], "int32", "e", data=[4, 4])
    s = mb.add_tensor([2], "int32", "s", data=[1, 1])
    y = mb.add_tensor([4, 4], "float32", "y")
    mb.add_operator("STRIDED_SLICE", [x, b, e, s], [y])
    mb.set_io([x], [y])
    assert_refused(mb.build(), r"STRIDED_SLICE: begin has 1 entries, the input rank is 2")


@pytest.mark.parametrize("masks", [{"offset": True}, {"ellipsis_mask": 1}, {"new_axis_mask": 2}])
def test_options_tflm_ignores_are_ignored(masks):
    # TFLM's prepare never copies offset and zeroes ellipsis / new_axis
    # masks: the slice [1:2, 1:3] keeps its plain meaning, as in the wheel.
    compare(_model("float32", [4, 6], [1, 1], [2, 3], [1, 1], out_shape=[1, 2], **masks), n_runs=2)
