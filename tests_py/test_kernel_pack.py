"""PACK and UNPACK end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: every
type TFLM takes for each, several shapes, counts and axes (negative too).
Also the memory (nothing persistent, same head) and hostile models refused
by name."""

from __future__ import annotations

import pytest
from shape_kernel_util import assert_memory_matches, compare

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _stacked(piece, count, axis):
    a = axis if axis >= 0 else len(piece) + 1 + axis
    return list(piece[:a]) + [count] + list(piece[a:])


def _pack(
    dtype, piece, count, axis, out_shape=None, values_count=None, q=None, shapes=None
) -> bytes:
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    xs = [mb.add_tensor((shapes or [piece] * count)[i], dtype, f"x{i}", **kw) for i in range(count)]
    y = mb.add_tensor(out_shape or _stacked(piece, count, axis), dtype, "y", **kw)
    mb.add_operator(
        "PACK",
        xs,
        [y],
        options={"values_count": count if values_count is None else values_count, "axis": axis},
    )
    mb.set_io(xs, [y])
    return mb.build()


def _unpack(dtype, piece, count, axis, out_shape=None, num=None, q=None) -> bytes:
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    x = mb.add_tensor(_stacked(piece, count, axis), dtype, "x", **kw)
    ys = [mb.add_tensor(out_shape or piece, dtype, f"y{i}", **kw) for i in range(count)]
    mb.add_operator("UNPACK", [x], ys, options={"num": count if num is None else num, "axis": axis})
    mb.set_io([x], ys)
    return mb.build()


CASES = [
    ([3, 4], 2, 0),
    ([3, 4], 3, 1),
    ([3, 4], 2, 2),
    ([3, 4], 4, -1),
    ([5], 5, 0),
    ([2, 3, 4], 2, -2),
    ([1, 6, 2, 2], 3, 3),
]


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16", "int32", "int64"])
def test_pack(dtype):
    q = {"int8": (0.05, -7), "int16": (0.001, 0)}.get(dtype)
    for i, (piece, count, axis) in enumerate(CASES):
        compare(_pack(dtype, piece, count, axis, q=q), n_runs=2, seed=i)


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16", "int32"])
def test_unpack(dtype):
    q = {"int8": (0.05, -7), "int16": (0.001, 0)}.get(dtype)
    for i, (piece, count, axis) in enumerate(CASES):
        compare(_unpack(dtype, piece, count, axis, q=q), n_runs=2, seed=i)


def test_memory_requests_match_tflm():
    ours, theirs = compare(_pack("float32", [3, 4], 3, 1), n_runs=1)
    assert_memory_matches(ours, theirs, 0)
    ours, theirs = compare(_unpack("int8", [3, 4], 3, 1, q=(0.1, 1)), n_runs=1)
    assert_memory_matches(ours, theirs, 0)


def _fails(data: bytes, pattern: str):
    it = ta.Interpreter(ta.Model.from_bytes(data))
    with pytest.raises(Exception, match=pattern):
        it.allocate_tensors()


def test_hostile_models_are_refused_by_name():
    _fails(
        _pack("float32", [3, 4], 2, 0, values_count=3),
        r"PACK: values_count 3 must equal the 2 inputs",
    )
    _fails(
        _pack("float32", [3, 4], 2, 0, out_shape=[2, 3, 5]),
        r"PACK: stacked dimension 2 is 5, needs 4",
    )
    _fails(_pack("float32", [3, 4], 2, 3, out_shape=[3, 4, 2]), r"PACK: axis 3 outside \[-3, 3\)")
    _fails(
        _pack("float32", [3, 4], 2, 0, shapes=[[3, 4], [4, 3]]),
        r"PACK: input 1's shape differs from input 0's",
    )
    _fails(_pack("bool", [3, 4], 2, 0), r"PACK: output type BOOL not supported")
    _fails(_unpack("float32", [3, 4], 2, 0, num=3), r"UNPACK: num 3 must equal the 2 outputs")
    _fails(
        _unpack("float32", [3, 4], 2, 0, out_shape=[3, 5]),
        r"UNPACK: stacked dimension 2 is 4, needs 5",
    )
    _fails(_unpack("int64", [3, 4], 2, 0), r"UNPACK: input type INT64 not supported")
