"""SQUEEZE and EXPAND_DIMS end to end through our interpreter against the
real TFLM (tflite_micro wheel) on one-operator models built with our
builder: several types, shapes, squeeze_dims lists (empty, negative) and
axes. Also the memory (nothing persistent, same head) and hostile models
refused by name."""

from __future__ import annotations

import pytest
from shape_kernel_util import assert_memory_matches, compare

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _squeeze(dtype, shape, dims, out_shape=None, q=None) -> bytes:
    rank = len(shape)
    if out_shape is None:
        drop = {d % rank for d in dims} if dims else {i for i, s in enumerate(shape) if s == 1}
        out_shape = [s for i, s in enumerate(shape) if i not in drop]
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    x = mb.add_tensor(shape, dtype, "x", **kw)
    y = mb.add_tensor(out_shape, dtype, "y", **kw)
    mb.add_operator("SQUEEZE", [x], [y], options={"squeeze_dims": dims} if dims else None)
    mb.set_io([x], [y])
    return mb.build()


def _expand(dtype, shape, axis, out_shape=None, q=None, axis_shape=(), const_axis=True) -> bytes:
    if out_shape is None:
        a = axis if axis >= 0 else len(shape) + 1 + axis
        out_shape = list(shape[:a]) + [1] + list(shape[a:])
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    x = mb.add_tensor(shape, dtype, "x", **kw)
    n = 1
    for d in axis_shape:
        n *= d
    a_t = mb.add_tensor(list(axis_shape), "int32", "axis", data=[axis] * n if const_axis else None)
    y = mb.add_tensor(out_shape, dtype, "y", **kw)
    mb.add_operator("EXPAND_DIMS", [x, a_t], [y])
    mb.set_io([x] if const_axis else [x, a_t], [y])
    return mb.build()


SQUEEZE_CASES = [
    ([1, 5, 1, 3], []),
    ([1, 5, 1, 3], [0]),
    ([1, 5, 1, 3], [-2, 0]),
    ([4, 1], [1]),
    ([1, 1, 1, 7], []),
]
EXPAND_CASES = [([5, 3], 0), ([5, 3], 1), ([5, 3], -1), ([2, 3, 4], -4), ([9], 1)]


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16", "int32", "bool"])
def test_squeeze(dtype):
    for i, (shape, dims) in enumerate(SQUEEZE_CASES):
        compare(_squeeze(dtype, shape, dims), n_runs=2, seed=i)


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
def test_expand_dims(dtype):
    for i, (shape, axis) in enumerate(EXPAND_CASES):
        compare(_expand(dtype, shape, axis), n_runs=2, seed=i)
        compare(_expand(dtype, shape, axis, axis_shape=(1,)), n_runs=1, seed=i)


def test_memory_requests_match_tflm():
    ours, theirs = compare(_squeeze("float32", [1, 5, 1, 3], [0]), n_runs=1)
    assert_memory_matches(ours, theirs, 0)
    ours, theirs = compare(_expand("int8", [5, 3], 1, q=(0.1, 2)), n_runs=1)
    assert_memory_matches(ours, theirs, 0)


def _fails(data: bytes, pattern: str):
    it = ta.Interpreter(ta.Model.from_bytes(data))
    with pytest.raises(Exception, match=pattern):
        it.allocate_tensors()


def test_hostile_models_are_refused_by_name():
    _fails(
        _squeeze("float32", [1, 5, 1, 3], [1], out_shape=[1, 1, 3]),
        r"SQUEEZE: dimension 1 has size 5, not 1",
    )
    _fails(
        _squeeze("float32", [1, 5, 1, 3], [4], out_shape=[1, 5, 1, 3]),
        r"SQUEEZE: squeeze_dims entry 4 outside \[-4, 4\)",
    )
    _fails(
        _squeeze("float32", [1, 5, 1, 3], [0], out_shape=[5, 2, 3]),
        r"SQUEEZE: input has 15 elements but output has 30",
    )
    _fails(
        _expand("float32", [5, 3], 0, out_shape=[5, 1, 3]),
        r"EXPAND_DIMS: output dimension 0 is 5, needs 1",
    )
    _fails(
        _expand("float32", [5, 3], 3, out_shape=[5, 3, 1]), r"EXPAND_DIMS: axis 3 outside \[-3, 2\]"
    )
    _fails(
        _expand("float32", [5, 3], 0, const_axis=False),
        r"EXPAND_DIMS: non-constant axis tensor is not supported",
    )
    _fails(
        _expand("float32", [5, 3], 0, axis_shape=(2,)),
        r"EXPAND_DIMS: axis must hold exactly one element",
    )
    _fails(_expand("int32", [5, 3], 0), r"EXPAND_DIMS: input type INT32 not supported")
