"""UNIDIRECTIONAL_SEQUENCE_LSTM end to end through our interpreter against
the real TFLM (tflite_micro wheel) on one-operator models built with our
builder: float32 within 1e-5 relative, int8 and int16 activations bit for
bit, batch-major and time-major, with and without cell clipping, several
cell-state scales and hidden zero points. Hidden and cell states are
variable tensors carried over between invocations in both runtimes, so each
case compares a sequence of invocations. Also the memory (TFLM's 688-byte
OpData and four scratch buffers: the same head), the shared trained_lstm_int8
model, and hostile nodes refused by name."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _model(
    dtype,
    batch,
    time,
    n_in,
    n_state,
    time_major=False,
    cell_clip=0.0,
    seed=0,
    cell_scale=2.0**-11,
    hidden_q=(2.0**-7, 0),
    in_q=(0.02, 3),
    hidden_variable=True,
    activation="TANH",
    out_shape=None,
    extra_operand=None,
):
    rng = np.random.default_rng(seed)
    mb = ModelBuilder()
    in_shape = [time, batch, n_in] if time_major else [batch, time, n_in]
    q = dtype != "float32"
    bdt = {"float32": "float32", "int8": "int32", "int16": "int64"}[dtype]
    if dtype == "int16":
        in_q, hidden_q = (in_q[0] / 64, 0), (hidden_q[0] / 128, 0)

    def weights(shape, name):
        if not q:
            return mb.add_tensor(
                shape, "float32", name, data=(rng.standard_normal(shape) * 0.4).astype(np.float32)
            )
        s = float(rng.uniform(0.004, 0.02))
        return mb.add_tensor(
            shape,
            "int8",
            name,
            scale=[s],
            zero_point=[0],
            data=rng.integers(-127, 128, shape).astype(np.int8),
        )

    def bias(name):
        if not q:
            return mb.add_tensor(
                [n_state],
                "float32",
                name,
                data=rng.standard_normal(n_state).astype(np.float32) * 0.2,
            )
        return mb.add_tensor(
            [n_state],
            bdt,
            name,
            scale=[1e-5],
            zero_point=[0],
            data=rng.integers(-3000, 3000, n_state).astype(bdt),
        )

    qa = (lambda s: dict(scale=[s[0]], zero_point=[s[1]])) if q else (lambda s: {})
    x = mb.add_tensor(in_shape, dtype, "x", **qa(in_q))
    ops = [x]
    ops += [weights([n_state, n_in], f"w_x{g}") for g in range(4)]
    ops += [weights([n_state, n_state], f"w_h{g}") for g in range(4)]
    ops += [-1, -1, -1]
    ops += [bias(f"b{g}") for g in range(4)]
    ops += [-1, -1]
    h = mb.add_tensor([batch, n_state], dtype, "h", is_variable=hidden_variable, **qa(hidden_q))
    c = mb.add_tensor(
        [batch, n_state],
        "int16" if q else "float32",
        "c",
        is_variable=True,
        **(dict(scale=[cell_scale], zero_point=[0]) if q else {}),
    )
    ops += [h, c, -1, -1, -1, -1]
    if extra_operand is not None:
        ops[extra_operand] = weights([n_state], "peephole")
    y = mb.add_tensor(out_shape or [*in_shape[:2], n_state], dtype, "y", **qa(hidden_q))
    mb.add_operator(
        "UNIDIRECTIONAL_SEQUENCE_LSTM",
        ops,
        [y],
        options={
            "fused_activation_function": activation,
            "cell_clip": cell_clip,
            "time_major": time_major,
        },
    )
    mb.set_io([x] if hidden_variable else [x, h], [y])
    return mb.build()


def _sequence(data: bytes, n_runs=4, seed=0):
    ours, theirs = ref.compare_runs(data, n_runs, seed)
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
    return ours, theirs


# (batch, time, input, state, time_major, cell_clip)
GEOMETRIES = [
    (1, 5, 4, 6, False, 0.0),
    (2, 3, 7, 5, False, 1.5),
    (3, 4, 3, 8, True, 0.0),
    (2, 2, 5, 3, True, 0.7),
]


def test_float32():
    for i, (b, t, n_in, n_s, tm, clip) in enumerate(GEOMETRIES):
        _sequence(_model("float32", b, t, n_in, n_s, tm, clip, seed=i), seed=i)


def test_int8():
    variants = [
        {},
        dict(cell_scale=2.0**-10, hidden_q=(0.01, -5)),
        dict(cell_scale=0.0003, hidden_q=(0.02, 17), in_q=(0.05, -128)),
    ]
    for i, (b, t, n_in, n_s, tm, clip) in enumerate(GEOMETRIES):
        for j, v in enumerate(variants):
            _sequence(_model("int8", b, t, n_in, n_s, tm, clip, seed=i + 10 * j, **v), seed=i + j)


def test_int16():
    for i, (b, t, n_in, n_s, tm, clip) in enumerate(GEOMETRIES):
        for cs in (2.0**-11, 2.0**-12):
            _sequence(_model("int16", b, t, n_in, n_s, tm, clip, seed=i, cell_scale=cs), seed=i)


@pytest.mark.parametrize("dtype,cell_bytes", [("float32", 4), ("int8", 2), ("int16", 2)])
def test_memory_requests_match_tflm(dtype, cell_bytes):
    # The 688-byte OpData; four scratch buffers of batch x state cell-type
    # elements, in the head _sequence compares.
    ours, _ = _sequence(_model(dtype, 2, 3, 7, 5), n_runs=1)
    persistent = ours.allocations()["categories"]["Persistent buffer data"]
    assert persistent["requested_bytes"] == 688
    assert persistent["count"] == 1
    assert ours.allocations()["head"] >= 4 * 2 * 5 * cell_bytes


def test_hostile_nodes_are_refused_by_name():
    op = "UNIDIRECTIONAL_SEQUENCE_LSTM"
    cases = [
        (dict(hidden_variable=False), f"{op}: the hidden state \\(operand 18\\) is not a variable"),
        (dict(activation="RELU"), f"{op}: cell gate activation 1 not supported"),
        (dict(out_shape=[1, 5, 7]), f"{op}: the output's shape must be"),
        (dict(extra_operand=9), f"{op}: operand 9 must be omitted"),
    ]
    for kw, message in cases:
        data = _model("int8", 1, 5, 4, 6, **kw)
        with pytest.raises(Exception, match=message):
            ta.Interpreter(ta.Model.from_bytes(data)).allocate_tensors()


def test_shared_trained_lstm_model_matches_tflm(models_dir):
    # int8 LSTM with variable hidden / cell states and intermediates, then
    # RESHAPE, FULLY_CONNECTED, SOFTMAX: 20 random inputs in sequence (the
    # states carry over in both), outputs identical, the same head.
    path = models_dir / "trained_lstm_int8.tflite"
    assert path.exists(), f"{path} is missing from the shared models"
    _sequence(path.read_bytes(), n_runs=20, seed=44)
