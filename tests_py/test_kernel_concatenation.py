"""CONCATENATION end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32,
int8, int16, int32, int64 and bool, 1 to 10 inputs, every axis (negative
too), ranks 1-5. Also the memory (TFLM's 80-byte OpData on the wheel, same
head) and hostile models refused by name."""

from __future__ import annotations

import pytest
from shape_kernel_util import assert_memory_matches, compare

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _model(
    dtype, shapes, axis, q=None, qs=None, out_shape=None, activation=None, const_input=False
) -> bytes:
    rank = len(shapes[0])
    a = axis % rank
    if out_shape is None:
        out_shape = list(shapes[0])
        out_shape[a] = sum(s[a] for s in shapes)
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    xs = []
    for i, s in enumerate(shapes):
        ikw = kw if qs is None else {"scale": [qs[i][0]], "zero_point": [qs[i][1]]}
        xs.append(mb.add_tensor(s, dtype, f"x{i}", **ikw))
    y = mb.add_tensor(out_shape, dtype, "y", **kw)
    options = {"axis": axis}
    if activation is not None:
        options["fused_activation_function"] = activation
    mb.add_operator("CONCATENATION", xs, [y], options=options)
    mb.set_io(xs, [y])
    return mb.build()


CASES = [
    ([[1, 4, 4, 3], [1, 4, 4, 5]], 3),
    ([[1, 4, 4, 3], [1, 4, 4, 3], [1, 4, 4, 1]], -1),
    ([[2, 3, 5], [2, 1, 5]], 1),
    ([[2, 3, 5], [4, 3, 5], [1, 3, 5]], -3),
    ([[7], [2], [1]], 0),
    ([[3, 2]] * 10, 0),
    ([[1, 2, 3, 2, 2], [1, 2, 3, 1, 2]], 3),
    ([[2, 6]], 1),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_float32(case):
    shapes, axis = CASES[case]
    compare(_model("float32", shapes, axis), seed=case)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "bool"])
def test_other_types(dtype):
    q = {"int8": (0.05, -7), "int16": (0.001, 0)}.get(dtype)
    for i, (shapes, axis) in enumerate(CASES):
        compare(_model(dtype, shapes, axis, q=q), n_runs=2, seed=i)


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_memory_requests_match_tflm(dtype):
    q = (0.05, 4) if dtype == "int8" else None
    ours, theirs = compare(_model(dtype, *CASES[1], q=q), n_runs=1)
    assert_memory_matches(ours, theirs, 80)


def _fails(data: bytes, pattern: str):
    it = ta.Interpreter(ta.Model.from_bytes(data))
    with pytest.raises(Exception, match=pattern):
        it.allocate_tensors()


def test_hostile_models_are_refused_by_name():
    shapes = [[2, 3], [2, 4]]
    _fails(
        _model("float32", shapes, 1, out_shape=[2, 8]),
        r"CONCATENATION: inputs sum to 7 along axis 1, the output has 8",
    )
    _fails(
        _model("float32", [[2, 3], [3, 4]], 1, out_shape=[2, 7]),
        r"CONCATENATION: input 1 has extent 3 on dimension 0, the output 2",
    )
    _fails(
        _model("float32", shapes, 2, out_shape=[2, 7]), r"CONCATENATION: axis 2 outside \[-2, 2\)"
    )
    _fails(
        _model("float32", shapes, 1, activation="RELU"),
        r"CONCATENATION: fused activation 1 not supported",
    )
    _fails(
        _model("int8", shapes, 1, q=(0.1, 0), qs=[(0.1, 0), (0.2, 0)]),
        r"CONCATENATION: input 1 must have the output's scale and zero point",
    )
    _fails(_model("float32", [[2, 3]] * 11, 0), r"CONCATENATION: needs 1 to 10 inputs, got 11")
    _fails(_model("float64", shapes, 1), r"CONCATENATION: output type FLOAT64 not supported")
    mb = ModelBuilder()
    a = mb.add_tensor([2, 3], "float32", "a")
    b = mb.add_tensor([2, 3, 1], "float32", "b")
    y = mb.add_tensor([2, 6], "float32", "y")
    mb.add_operator("CONCATENATION", [a, b], [y], options={"axis": 1})
    mb.set_io([a, b], [y])
    _fails(mb.build(), r"CONCATENATION: input 1 has rank 3, output 2")
