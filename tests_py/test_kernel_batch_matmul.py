"""BATCH_MATMUL end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32
within 1e-5 relative, int8 and int16 bit for bit, over ranks 2 to 5, batch
broadcasting, adj_x / adj_y, a constant rhs (transposed once) and zero
points. Also the memory (TFLM's persistent requests: OpData, quantization
data, transposed copies, output dims; the same head) and hostile nodes
refused by name."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _model(
    dtype,
    lhs_shape,
    rhs_shape,
    out_shape,
    adj_x=False,
    adj_y=False,
    const_rhs=False,
    qs=((0.05, 3), (0.02, -7), (0.3, 10)),
    seed=0,
):
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    if dtype == "int16":
        qs = tuple((s / 100, 0) for s, _ in qs)
    qa = (lambda q: dict(scale=[q[0]], zero_point=[q[1]])) if dtype != "float32" else (lambda q: {})
    a = mb.add_tensor(lhs_shape, dtype, "a", **qa(qs[0]))
    if const_rhs:
        if dtype == "float32":
            data = rng.standard_normal(rhs_shape).astype(np.float32)
        else:
            info = np.iinfo(dtype)
            data = rng.integers(info.min, info.max, rhs_shape, endpoint=True).astype(dtype)
        b = mb.add_tensor(rhs_shape, dtype, "b", data=data, **qa(qs[1]))
    else:
        b = mb.add_tensor(rhs_shape, dtype, "b", **qa(qs[1]))
    y = mb.add_tensor(out_shape, dtype, "y", **qa(qs[2]))
    mb.add_operator("BATCH_MATMUL", [a, b], [y], options={"adj_x": adj_x, "adj_y": adj_y})
    mb.set_io([a] if const_rhs else [a, b], [y])
    return mb.build()


def _compare(data: bytes, n_runs=3, seed=0):
    """Same outputs as TFLM on random inputs (float32 within 1e-5), same head."""
    ours, theirs = ref.compare_runs(data, n_runs, seed, atol=1e-5)
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
    return ours, theirs


# (lhs, rhs, output, adj_x, adj_y)
CASES = [
    ([3, 4], [4, 5], [3, 5], False, False),
    ([2, 3, 4], [2, 4, 5], [2, 3, 5], False, False),
    ([2, 4, 3], [2, 4, 5], [2, 3, 5], True, False),
    ([2, 3, 4], [2, 5, 4], [2, 3, 5], False, True),
    ([2, 4, 3], [1, 5, 4], [2, 3, 5], True, True),
    ([3, 2, 3, 4], [1, 4, 6], [3, 2, 3, 6], False, False),  # rhs batch broadcast
    ([1, 2, 3, 4], [3, 1, 4, 2], [3, 2, 3, 2], False, False),  # both broadcast
    ([2, 1, 2, 3, 4], [1, 2, 1, 4, 2], [2, 2, 2, 3, 2], False, False),
]


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
def test_parity(dtype):
    for i, (lhs, rhs, o, ax, ay) in enumerate(CASES):
        _compare(_model(dtype, lhs, rhs, o, ax, ay, seed=i), seed=i)
        if i % 3 == 0:  # a constant rhs is transposed once, then reused
            _compare(_model(dtype, lhs, rhs, o, ax, ay, const_rhs=True, seed=i), seed=i)


def test_int8_zero_points_at_the_extremes():
    qs = ((0.1, -128), (0.01, 127), (2.0, 0))
    _compare(_model("int8", [2, 3, 8], [2, 8, 4], [2, 3, 4], qs=qs))


@pytest.mark.parametrize(
    "adj_x,adj_y,dtype,want",
    [
        # OpData 32 (+ quantization 28) + transposed copies (24 + dims + data)
        # + the output's dims (4 + 4 x rank); lhs [2, 3, 4], rhs [2, 4, 5].
        (False, False, "float32", 32 + (24 + 16 + 160) + 16),
        (True, True, "int8", 32 + 28 + (24 + 16 + 24) + 16),
        (False, True, "int16", 32 + 28 + 16),
    ],
)
def test_memory_requests_match_tflm(adj_x, adj_y, dtype, want):
    lhs = [2, 4, 3] if adj_x else [2, 3, 4]
    rhs = [2, 5, 4] if adj_y else [2, 4, 5]
    ours, _theirs = _compare(_model(dtype, lhs, rhs, [2, 3, 5], adj_x, adj_y), n_runs=1)
    persistent = ours.allocations()["categories"]["Persistent buffer data"]
    assert persistent["requested_bytes"] == want


def test_default_options_mean_no_adjoints():
    # A BatchMatMulOptions table without fields: adj_x = adj_y = false in
    # both runtimes (the format's defaults).
    mb = ModelBuilder()
    a = mb.add_tensor([2, 3], "float32", "a")
    b = mb.add_tensor([3, 4], "float32", "b")
    y = mb.add_tensor([2, 4], "float32", "y")
    mb.add_operator("BATCH_MATMUL", [a, b], [y])
    mb.set_io([a, b], [y])
    data = mb.build()
    assert ta.Model.from_bytes(data).operators[0].name == "BATCH_MATMUL"
    _compare(data)
    it = ta.Interpreter(ta.Model.from_bytes(data))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    w = np.arange(12, dtype=np.float32).reshape(3, 4)
    it.set_input(x, 0)
    it.set_input(w, 1)
    it.invoke()
    np.testing.assert_array_equal(it.get_output(0), x @ w)


def test_hostile_nodes_are_refused_by_name():
    cases = [
        (([2, 3, 4], [3, 4, 5], [2, 3, 5]), "BATCH_MATMUL: batch dimensions 2 and 3 do not"),
        (([3, 4], [5, 6], [3, 6]), "BATCH_MATMUL: lhs depth 4 and rhs depth 5 differ"),
        (([3, 4], [4, 5], [3, 6]), r"BATCH_MATMUL: output 'y' has shape \[3, 6\]"),
        (([4], [4, 5], [5]), "BATCH_MATMUL: lhs and rhs ranks must be 2 to 5"),
    ]
    for (lhs, rhs, o), message in cases:
        with pytest.raises(Exception, match=message):
            ta.Interpreter(ta.Model.from_bytes(_model("int8", lhs, rhs, o))).allocate_tensors()
    mb = ModelBuilder()
    a = mb.add_tensor([2, 2], "float32", "a")
    b = mb.add_tensor([2, 2], "int8", "b", scale=[0.1], zero_point=[0])
    y = mb.add_tensor([2, 2], "float32", "y")
    mb.add_operator("BATCH_MATMUL", [a, b], [y])
    mb.set_io([a, b], [y])
    with pytest.raises(Exception, match="BATCH_MATMUL: lhs FLOAT32, rhs INT8"):
        ta.Interpreter(ta.Model.from_bytes(mb.build())).allocate_tensors()
