"""GATHER end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32
and int8, several shapes, axes (negative too), batch_dims, constant and
runtime positions. Also the memory (TFLM's persistent copy of the output
dims, 4 + 4 * rank bytes; same head) and hostile models refused by name,
including out-of-range positions at invoke."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref
from shape_kernel_util import assert_memory_matches, assert_same, compare, random_input

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _out_shape(shape, pos_shape, axis, batch_dims):
    a = axis % len(shape)
    b = batch_dims % len(pos_shape) if batch_dims < 0 else batch_dims
    return list(shape[:a]) + list(pos_shape[b:]) + list(shape[a + 1 :])


def _model(
    dtype,
    shape,
    positions,
    axis=0,
    batch_dims=0,
    out_shape=None,
    q=None,
    const_positions=True,
    pos_dtype="int32",
) -> bytes:
    positions = np.asarray(positions)
    if out_shape is None:
        out_shape = _out_shape(shape, list(positions.shape), axis, batch_dims)
    mb = ModelBuilder()
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    x = mb.add_tensor(shape, dtype, "x", **kw)
    p = mb.add_tensor(
        list(positions.shape), pos_dtype, "positions", data=positions if const_positions else None
    )
    y = mb.add_tensor(out_shape, dtype, "y", **kw)
    mb.add_operator("GATHER", [x, p], [y], options={"axis": axis, "batch_dims": batch_dims})
    mb.set_io([x] if const_positions else [x, p], [y])
    return mb.build()


CASES = [
    ([10, 4], [3, 0, 9, 3], 0, 0),
    ([2, 7, 3], [[6, 0], [1, 1]], 1, 0),
    ([2, 7, 3], [2, 0], -1, 0),
    ([2, 7, 3], [[1, 6, 2], [0, 0, 5]], 1, 1),
    ([3, 5], [[4], [0], [2]], 1, -1),
    ([20], [[19, 0], [7, 7]], 0, 0),
]


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_types(dtype):
    q = {"int8": (0.05, -7)}.get(dtype)
    for i, (shape, positions, axis, batch_dims) in enumerate(CASES):
        compare(_model(dtype, shape, positions, axis, batch_dims, q=q), n_runs=2, seed=i)


def test_runtime_positions():
    # Positions as a model input: valid ones match TFLM, an out-of-range one
    # is refused at invoke by name.
    data = _model("float32", [10, 4], [0, 0, 0], const_positions=False)
    m = ta.Model.from_bytes(data)
    ours = ta.Interpreter(m)
    theirs = ref.interpreter(data)
    rng = np.random.default_rng(3)
    for _ in range(3):
        x = random_input("float32", [10, 4], rng)
        p = rng.integers(0, 10, size=[3]).astype(np.int32)
        (want,) = ref.run(theirs, [x, p], 1)
        ours.set_input(x, 0)
        ours.set_input(p, 1)
        ours.invoke()
        assert_same(ours.get_output(0), want)
    ours.set_input(np.array([0, 10, 1], np.int32), 1)
    with pytest.raises(Exception, match=r"GATHER: position 10 \(entry 1\) outside \[0, 10\)"):
        ours.invoke()


@pytest.mark.parametrize("case", [0, 1, 3])
def test_memory_requests_match_tflm(case):
    shape, positions, axis, batch_dims = CASES[case]
    ours, theirs = compare(_model("float32", shape, positions, axis, batch_dims), n_runs=1)
    rank = len(_out_shape(shape, list(np.asarray(positions).shape), axis, batch_dims))
    assert_memory_matches(ours, theirs, 4 + 4 * rank)


def _fails(data: bytes, pattern: str):
    it = ta.Interpreter(ta.Model.from_bytes(data))
    with pytest.raises(Exception, match=pattern):
        it.allocate_tensors()


def test_hostile_models_are_refused_by_name():
    _fails(
        _model("float32", [10, 4], [3, 10]), r"GATHER: position 10 \(entry 1\) outside \[0, 10\)"
    )
    _fails(
        _model("float32", [10, 4], [3, -1]), r"GATHER: position -1 \(entry 1\) outside \[0, 10\)"
    )
    _fails(
        _model("float32", [10, 4], [3, 1], axis=2, out_shape=[10, 4]),
        r"GATHER: axis 2 outside \[-2, 2\)",
    )
    _fails(
        _model("float32", [10, 4], [3, 1], out_shape=[2, 5]),
        r"GATHER: output dimension 1 is 5, the gather's 4",
    )
    _fails(
        _model("float32", [10, 4], [3, 1], pos_dtype="int64"),
        r"GATHER: positions of type INT64 not supported",
    )
    _fails(_model("int16", [10, 4], [3, 1]), r"GATHER: input type INT16 not supported")
    _fails(
        _model("float32", [2, 7, 3], [[1, 6], [0, 0]], axis=0, batch_dims=1, out_shape=[2, 7, 3]),
        r"GATHER: batch_dims 1 must lie in",
    )
