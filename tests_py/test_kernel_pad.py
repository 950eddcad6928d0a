"""PAD and PADV2 end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32,
int8, int16 and int32 over ranks 1-5, image-style and generic paddings, PAD's
implicit pad value (0; the output zero point for int8) and PADV2's constant.
Also the memory (TFLM's 56-byte OpData, same head), the shared seanet_pad0
model, and hostile models refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from shape_kernel_util import assert_memory_matches, assert_refused, compare, shared_model_matches

from tflm_arena.builder import ModelBuilder


def _model(
    dtype,
    shape,
    paddings,
    value=None,
    q=None,
    value_q=None,
    out_shape=None,
    paddings_dtype="int32",
    const_paddings=True,
    op=None,
) -> bytes:
    paddings = np.asarray(paddings, dtype=np.int64).reshape(-1, 2)
    if out_shape is None:
        out_shape = [d + int(lo) + int(hi) for d, (lo, hi) in zip(shape, paddings, strict=True)]
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    x = mb.add_tensor(shape, dtype, "x", **kw)
    p = mb.add_tensor(
        list(paddings.shape), paddings_dtype, "paddings", data=paddings if const_paddings else None
    )
    inputs = [x, p]
    if value is not None:
        vq = kw if value_q is None else {"scale": [value_q[0]], "zero_point": [value_q[1]]}
        inputs.append(mb.add_tensor([], dtype, "value", data=[value], **vq))
    y = mb.add_tensor(out_shape, dtype, "y", **kw)
    mb.add_operator(op or ("PADV2" if value is not None else "PAD"), inputs, [y])
    mb.set_io([x] if const_paddings else [x, p], [y])
    return mb.build()


CASES = [
    ([1, 5, 5, 3], [[0, 0], [1, 2], [2, 1], [0, 0]]),  # image style
    ([1, 4, 4, 2], [[1, 0], [0, 1], [1, 1], [2, 3]]),
    ([2, 3, 7], [[0, 1], [2, 0], [3, 3]]),
    ([9], [[4, 1]]),
    ([2, 3], [[0, 0], [0, 0]]),
    ([1, 2, 3, 2, 2], [[1, 0], [0, 1], [1, 0], [0, 2], [1, 1]]),
    ([1, 1, 16, 8], [[0, 0], [0, 0], [3, 0], [0, 0]]),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_float32(case):
    shape, paddings = CASES[case]
    compare(_model("float32", shape, paddings), seed=case)
    compare(_model("float32", shape, paddings, value=-2.5), n_runs=1, seed=case)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32"])
def test_integer_types(dtype):
    q = {"int8": (0.05, -7), "int16": (0.001, 0)}.get(dtype)
    for i, (shape, paddings) in enumerate(CASES):
        compare(_model(dtype, shape, paddings, q=q), n_runs=2, seed=i)
        compare(_model(dtype, shape, paddings, value=-3, q=q), n_runs=1, seed=i)


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_memory_requests_match_tflm(dtype):
    q = (0.05, 4) if dtype == "int8" else None
    for value in (None, 1):
        ours, theirs = compare(_model(dtype, [1, 5, 5, 3], CASES[0][1], value=value, q=q), n_runs=1)
        assert_memory_matches(ours, theirs, 56)


def test_shared_seanet_pad_model_matches_tflm(models_dir):
    path = models_dir / "seanet_pad0.tflite"
    shared_model_matches(path)


def test_hostile_models_are_refused_by_name():
    shape, paddings = [2, 3, 7], [[0, 1], [2, 0], [3, 3]]
    assert_refused(
        _model("float32", shape, paddings, out_shape=[3, 5, 12]),
        r"PAD: output dimension 2 is 12, input \+ paddings make 13",
    )
    assert_refused(
        _model("float32", shape, [[0, 1], [2, 0], [-1, 3]], out_shape=[3, 5, 9]),
        r"PAD: negative padding \(-1, 3\) on dimension 2",
    )
    assert_refused(
        _model("float32", shape, paddings, paddings_dtype="int64"),
        r"PAD: paddings tensor is INT64, needs INT32",
    )
    assert_refused(
        _model("float32", shape, paddings, const_paddings=False),
        r"PAD: non-constant paddings tensor is not supported",
    )
    assert_refused(
        _model("float32", shape, [[0, 1], [2, 0]], out_shape=[3, 5, 7]),
        r"PAD: paddings has 4 entries, needs 6",
    )
    assert_refused(
        _model("int8", shape, paddings, value=1, q=(0.05, 0), value_q=(0.05, 1)),
        r"PADV2: constant_values must have the output's scale and zero point",
    )
    assert_refused(_model("float64", shape, paddings), r"PAD: input type FLOAT64 not supported")
    assert_refused(
        _model("float32", [1, 1, 1, 1, 1, 2], [[0, 0]] * 6),
        r"PAD: input rank 6, at most 5 supported",
    )
