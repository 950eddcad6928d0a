"""SPLIT end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32,
int8, int16 and int32, several shapes, part counts and axes (negative too).
Also the memory (nothing persistent, same head) and hostile models refused
by name."""

from __future__ import annotations

import pytest
from shape_kernel_util import assert_memory_matches, compare

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _model(
    dtype, shape, count, axis, out_shape=None, q=None, const_axis=True, axis_values=None
) -> bytes:
    a = axis % len(shape)
    if out_shape is None:
        out_shape = list(shape)
        out_shape[a] //= count
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    values = axis_values if axis_values is not None else [axis]
    ax = mb.add_tensor(
        [] if len(values) == 1 else [len(values)],
        "int32",
        "axis",
        data=values if const_axis else None,
    )
    x = mb.add_tensor(shape, dtype, "x", **kw)
    ys = [mb.add_tensor(out_shape, dtype, f"y{i}", **kw) for i in range(count)]
    mb.add_operator("SPLIT", [ax, x], ys, options={"num_splits": count})
    mb.set_io([x] if const_axis else [ax, x], ys)
    return mb.build()


CASES = [
    ([1, 4, 6, 8], 2, 3),
    ([1, 4, 6, 8], 3, 2),
    ([6, 5], 6, 0),
    ([6, 5], 5, -1),
    ([12], 4, 0),
    ([2, 3, 4], 1, 1),
]


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16", "int32"])
def test_types(dtype):
    q = {"int8": (0.05, -7), "int16": (0.001, 0)}.get(dtype)
    for i, (shape, count, axis) in enumerate(CASES):
        compare(_model(dtype, shape, count, axis, q=q), n_runs=2, seed=i)


def test_memory_requests_match_tflm():
    ours, theirs = compare(_model("float32", [1, 4, 6, 8], 2, 3), n_runs=1)
    assert_memory_matches(ours, theirs, 0)


def _fails(data: bytes, pattern: str):
    it = ta.Interpreter(ta.Model.from_bytes(data))
    with pytest.raises(Exception, match=pattern):
        it.allocate_tensors()


def test_hostile_models_are_refused_by_name():
    _fails(
        _model("float32", [6, 5], 2, 1, out_shape=[6, 2]),
        r"SPLIT: axis extent 5 does not split into 2 equal parts",
    )
    _fails(
        _model("float32", [6, 5], 2, 0, out_shape=[3, 6]),
        r"SPLIT: output dimension 1 is 6, needs 5",
    )
    _fails(_model("float32", [6, 5], 2, 2, out_shape=[3, 5]), r"SPLIT: axis 2 outside \[-2, 2\)")
    _fails(
        _model("float32", [6, 5], 2, 0, const_axis=False),
        r"SPLIT: non-constant axis tensor is not supported",
    )
    _fails(
        _model("float32", [6, 5], 2, 0, axis_values=[0, 1]), r"SPLIT: axis has 2 elements, needs 1"
    )
    _fails(_model("bool", [6, 5], 2, 0), r"SPLIT: input type BOOL not supported")
