"""TRANSPOSE end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32,
int8 and int16 over ranks 1-5 and several permutations. Also the memory
(nothing persistent, same head) and hostile models refused by name."""

from __future__ import annotations

import pytest
from shape_kernel_util import assert_memory_matches, compare

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _model(dtype, shape, perm, q=None, out_shape=None, const_perm=True, perm_shape=None) -> bytes:
    if out_shape is None:
        out_shape = [shape[p] for p in perm]
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    x = mb.add_tensor(shape, dtype, "x", **kw)
    p = mb.add_tensor(perm_shape or [len(perm)], "int32", "perm", data=perm if const_perm else None)
    y = mb.add_tensor(out_shape, dtype, "y", **kw)
    mb.add_operator("TRANSPOSE", [x, p], [y])
    mb.set_io([x] if const_perm else [x, p], [y])
    return mb.build()


CASES = [
    ([1, 4, 6, 3], [0, 3, 1, 2]),
    ([1, 4, 6, 3], [0, 2, 1, 3]),
    ([2, 3, 5], [2, 0, 1]),
    ([7, 9], [1, 0]),
    ([11], [0]),
    ([2, 3, 2, 4, 3], [4, 2, 0, 3, 1]),
    ([1, 1, 8, 5], [3, 2, 1, 0]),
]


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
def test_types(dtype):
    q = {"int8": (0.05, -7), "int16": (0.001, 0)}.get(dtype)
    for i, (shape, perm) in enumerate(CASES):
        compare(_model(dtype, shape, perm, q=q), n_runs=2, seed=i)


def test_memory_requests_match_tflm():
    ours, theirs = compare(_model("float32", *CASES[0]), n_runs=1)
    assert_memory_matches(ours, theirs, 0)


def _fails(data: bytes, pattern: str):
    it = ta.Interpreter(ta.Model.from_bytes(data))
    with pytest.raises(Exception, match=pattern):
        it.allocate_tensors()


def test_hostile_models_are_refused_by_name():
    _fails(_model("float32", [2, 3], [0, 0], out_shape=[2, 2]), r"TRANSPOSE: perm repeats axis 0")
    _fails(
        _model("float32", [2, 3], [1, 2], out_shape=[3, 2]),
        r"TRANSPOSE: perm\[1\] = 2 outside \[0, 2\)",
    )
    _fails(
        _model("float32", [2, 3], [1, 0], out_shape=[2, 3]),
        r"TRANSPOSE: output dimension 0 is 2, input dimension 1 is 3",
    )
    _fails(
        _model("float32", [2, 3], [1, 0], const_perm=False),
        r"TRANSPOSE: non-constant perm tensor is not supported",
    )
    _fails(_model("int32", [2, 3], [1, 0]), r"TRANSPOSE: input type INT32 not supported")
    _fails(
        _model("float32", [1, 2, 1, 2, 1, 2], [0, 1, 2, 3, 4, 5]),
        r"TRANSPOSE: input rank 6, at most 5 supported",
    )
