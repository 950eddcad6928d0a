"""MEAN end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32,
int8 and int16 over several shapes, axes (negative, repeated, several,
all), keep_dims on and off, scales and zero points. Also the memory
(TFLM's 44-byte OpDataReduce, its scratch requests: the same head) and
hostile models refused by name."""

from __future__ import annotations

import pytest
from shape_kernel_util import assert_memory_matches, compare

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _out_shape(shape, axes, keep_dims):
    rank = len(shape)
    red = {a % rank for a in axes}
    if keep_dims:
        return [1 if d in red else s for d, s in enumerate(shape)]
    return [s for d, s in enumerate(shape) if d not in red]


def _model(
    dtype, shape, axes, keep_dims, in_q=None, out_q=None, out_shape=None, axis_dtype="int32"
) -> bytes:
    if out_shape is None:
        out_shape = _out_shape(shape, axes, keep_dims)
    mb = ModelBuilder()
    ikw = {} if in_q is None else {"scale": [in_q[0]], "zero_point": [in_q[1]]}
    okw = {} if out_q is None else {"scale": [out_q[0]], "zero_point": [out_q[1]]}
    x = mb.add_tensor(shape, dtype, "x", **ikw)
    a = mb.add_tensor([len(axes)], axis_dtype, "axis", data=axes)
    y = mb.add_tensor(out_shape, dtype, "y", **okw)
    mb.add_operator("MEAN", [x, a], [y], options={"keep_dims": keep_dims})
    mb.set_io([x], [y])
    return mb.build()


CASES = [
    ([1, 7, 5, 8], [1, 2], True),  # TFLM's 4D special case
    ([1, 7, 5, 8], [2, 1], False),
    ([2, 6, 4, 3], [-1], True),
    ([2, 6, 4, 3], [0, 3, 0], False),
    ([3, 10], [0, 1], False),
    ([40], [0], True),
    ([2, 3, 4], [1], False),
    ([1, 100, 16], [1], True),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_float32(case):
    shape, axes, keep = CASES[case]
    compare(_model("float32", shape, axes, keep), seed=case)


QUANT = {
    "int8": [
        ((0.05, -3), (0.04, 5)),
        ((0.1, 0), (0.1, 0)),
        ((0.02, 100), (0.5, -128)),
        ((0.3, -128), (0.01, 0)),
    ],
    "int16": [
        ((0.001, 0), (0.0008, 0)),
        ((0.0005, 0), (0.002, 0)),
        ((3.0517578125e-05, 0), (3.0517578125e-05, 0)),
    ],
}


@pytest.mark.parametrize("dtype", ["int8", "int16"])
def test_quantized(dtype):
    for qi, (in_q, out_q) in enumerate(QUANT[dtype]):
        for i, (shape, axes, keep) in enumerate(CASES):
            compare(_model(dtype, shape, axes, keep, in_q, out_q), n_runs=2, seed=i + qi)


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
def test_memory_requests_match_tflm(dtype):
    q = {"float32": None, "int8": (0.05, 4), "int16": (0.001, 0)}[dtype]
    for shape, axes, keep in CASES[:4]:
        ours, theirs = compare(_model(dtype, shape, axes, keep, q, q), n_runs=1)
        assert_memory_matches(ours, theirs, 44)


def _fails(data: bytes, pattern: str):
    it = ta.Interpreter(ta.Model.from_bytes(data))
    with pytest.raises(Exception, match=pattern):
        it.allocate_tensors()


def test_hostile_models_are_refused_by_name():
    _fails(
        _model("float32", [2, 3, 4], [3], False, out_shape=[2, 3]),
        r"MEAN: axis 3 outside \[-3, 3\)",
    )
    _fails(
        _model("float32", [2, 3, 4], [1], False, out_shape=[2, 5]),
        r"MEAN: output has 10 elements, the reduction 8",
    )
    _fails(
        _model("float32", [2, 3, 4], [1], False, axis_dtype="int64"),
        r"MEAN: axis tensor is INT64, needs INT32",
    )
    _fails(_model("int8", [2, 3, 4], [1], False, (0.1, 0), (1e-30, 0)), r"MEAN: .*multiplier")
    _fails(_model("int32", [2, 3, 4], [1], False), r"MEAN: input type INT32 not supported")
