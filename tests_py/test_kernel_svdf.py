"""SVDF end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32
within 1e-5 relative, int8 with int16 and int8 state bit for bit, over
shapes, ranks, memory sizes, activations and quantization. The activation
state is a variable tensor that carries over between invocations in both
runtimes, so each case compares a sequence of invocations. Also the memory
(TFLM's 36-byte OpData and scratch: the same head), the shared
keyword_scrambled model, and hostile nodes refused by name."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _model(
    dtype,
    batch,
    input_size,
    units,
    rank,
    memory,
    activation="NONE",
    bias=True,
    state_dtype="int16",
    seed=0,
    in_q=(0.05, -10),
    out_q=(0.08, 3),
    state_zp=0,
    state_variable=True,
    out_shape=None,
):
    rng = np.random.default_rng(seed)
    filters = units * rank
    mb = ModelBuilder()
    if dtype == "float32":
        x = mb.add_tensor([batch, input_size], "float32", "x")
        wf = mb.add_tensor(
            [filters, input_size],
            "float32",
            "wf",
            data=rng.standard_normal((filters, input_size)).astype(np.float32) * 0.3,
        )
        wt = mb.add_tensor(
            [filters, memory],
            "float32",
            "wt",
            data=rng.standard_normal((filters, memory)).astype(np.float32) * 0.3,
        )
        b = (
            mb.add_tensor(
                [units], "float32", "b", data=rng.standard_normal(units).astype(np.float32)
            )
            if bias
            else -1
        )
        s = mb.add_tensor([batch, memory * filters], "float32", "state", is_variable=state_variable)
        y = mb.add_tensor(out_shape or [batch, units], "float32", "y")
    else:
        wf_s, wt_s, st_s = 0.01, 0.004 if state_dtype == "int16" else 0.02, 0.003
        if state_dtype == "int8":
            st_s = 0.1
        x = mb.add_tensor([batch, input_size], "int8", "x", scale=[in_q[0]], zero_point=[in_q[1]])
        wf = mb.add_tensor(
            [filters, input_size],
            "int8",
            "wf",
            scale=[wf_s],
            zero_point=[0],
            data=rng.integers(-127, 128, (filters, input_size)).astype(np.int8),
        )
        info = np.iinfo(state_dtype)
        wt = mb.add_tensor(
            [filters, memory],
            state_dtype,
            "wt",
            scale=[wt_s],
            zero_point=[0],
            data=rng.integers(info.min + 1, info.max, (filters, memory)).astype(state_dtype),
        )
        b = (
            mb.add_tensor(
                [units],
                "int32",
                "b",
                scale=[st_s * wt_s],
                zero_point=[0],
                data=rng.integers(-20000, 20000, units).astype(np.int32),
            )
            if bias
            else -1
        )
        s = mb.add_tensor(
            [batch, memory * filters],
            state_dtype,
            "state",
            scale=[st_s],
            zero_point=[state_zp],
            is_variable=state_variable,
        )
        y = mb.add_tensor(
            out_shape or [batch, units], "int8", "y", scale=[out_q[0]], zero_point=[out_q[1]]
        )
    mb.add_operator(
        "SVDF",
        [x, wf, wt, b, s],
        [y],
        options={"rank": rank, "fused_activation_function": activation},
    )
    # A non-variable state is given as a graph input (else the interpreter's
    # read-before-write check refuses it before the kernel does).
    mb.set_io([x] if state_variable else [x, s], [y])
    return mb.build()


def _sequence(data: bytes, n_runs=6, seed=0, check_head=True):
    """Runs the same input sequence through both (state carried over)."""
    ours, theirs = ref.compare_runs(data, n_runs, seed)
    if check_head:
        assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
    return ours, theirs


# (batch, input_size, units, rank, memory)
SHAPES = [(1, 16, 4, 1, 5), (2, 7, 3, 2, 4), (1, 24, 8, 2, 10), (3, 5, 2, 3, 1)]


def test_float32():
    for i, shp in enumerate(SHAPES):
        # TFLM dereferences the optional bias (its TODO #1751): always given.
        for act in ["NONE", "RELU", "TANH"]:
            _sequence(_model("float32", *shp, activation=act, seed=i), seed=i)


def test_int8_int16_state():
    quants = [((0.05, -10), (0.08, 3), 0), ((0.02, 127), (0.3, -128), 0)]
    for i, shp in enumerate(SHAPES):
        for j, (in_q, out_q, zp) in enumerate(quants):
            _sequence(_model("int8", *shp, seed=i, in_q=in_q, out_q=out_q, state_zp=zp), seed=i + j)


def test_int8_int8_state():
    for i, shp in enumerate(SHAPES):
        _sequence(
            _model("int8", *shp, state_dtype="int8", seed=i, state_zp=[0, 4, -3, 0][i]), seed=i
        )


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_memory_requests_match_tflm(dtype):
    # The 36-byte OpData; scratch batch x filters x 4 (+ batch x units x 4 for
    # int8), in the head _sequence compares.
    ours, _ = _sequence(_model(dtype, 2, 7, 3, 2, 4), n_runs=1)
    persistent = ours.allocations()["categories"]["Persistent buffer data"]
    assert persistent["requested_bytes"] == 36
    assert persistent["count"] == 1


def test_hostile_nodes_are_refused_by_name():
    cases = [
        (dict(state_variable=False), "SVDF: the activation state 'state' .* is not a variable"),
        (dict(out_shape=[1, 5]), r"SVDF: the output's width is 5, expected 4"),
        (dict(out_shape=[1, 4, 1]), r"SVDF: output 'y' must be rank 2"),
    ]
    base = dict(dtype="int8", batch=1, input_size=16, units=4, rank=1, memory=5)
    for kw, message in cases:
        with pytest.raises(Exception, match=message):
            ta.Interpreter(ta.Model.from_bytes(_model(**{**base, **kw}))).allocate_tensors()
    # rank 0 (from the options) must not divide by zero.
    bad = ModelBuilder()
    x = bad.add_tensor([1, 4], "float32", "x")
    wf = bad.add_tensor([6, 4], "float32", "wf", data=np.zeros((6, 4), np.float32))
    wt = bad.add_tensor([6, 2], "float32", "wt", data=np.zeros((6, 2), np.float32))
    s = bad.add_tensor([1, 12], "float32", "s", is_variable=True)
    y = bad.add_tensor([1, 6], "float32", "y")
    bad.add_operator("SVDF", [x, wf, wt, -1, s], [y], options={"rank": 0})
    bad.set_io([x], [y])
    with pytest.raises(Exception, match=r"SVDF: rank 0 must be >= 1"):
        ta.Interpreter(ta.Model.from_bytes(bad.build())).allocate_tensors()
    # int8 input with float weights.
    bad = ModelBuilder()
    x = bad.add_tensor([1, 4], "int8", "x", scale=[0.1], zero_point=[0])
    wf = bad.add_tensor([2, 4], "float32", "wf", data=np.zeros((2, 4), np.float32))
    wt = bad.add_tensor([2, 2], "int16", "wt", scale=[0.1], data=np.zeros((2, 2), np.int16))
    s = bad.add_tensor([1, 4], "int16", "s", scale=[0.1], is_variable=True)
    y = bad.add_tensor([1, 2], "int8", "y", scale=[0.1], zero_point=[0])
    bad.add_operator("SVDF", [x, wf, wt, -1, s], [y], options={"rank": 1})
    bad.set_io([x], [y])
    with pytest.raises(Exception, match=r"SVDF: input INT8, weights_feature FLOAT32"):
        ta.Interpreter(ta.Model.from_bytes(bad.build())).allocate_tensors()


def test_shared_keyword_scrambled_model_matches_tflm(models_dir):
    # Seven int8 SVDFs with int16 state (variable tensors, 14 scratch
    # requests): 20 random inputs in sequence, outputs identical to TFLM's
    # (the state carries over in both), and the same head.
    path = models_dir / "keyword_scrambled.tflite"
    assert path.exists(), f"{path} is missing from the shared models"
    _sequence(path.read_bytes(), n_runs=20, seed=27)
