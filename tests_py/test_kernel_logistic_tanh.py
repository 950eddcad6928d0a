"""LOGISTIC and TANH end to end through our interpreter against the real TFLM
(tflite_micro wheel): float32 (incl. LOGISTIC's cutoffs), every int8 value
and every int16 value for several input scales and zero points (int16 with
power-of-two and general scales); the memory each asks for (TFLM's 16-byte
OpData, same head); hostile nodes refused by name."""

from __future__ import annotations

import elementwise_parity as ep
import numpy as np
import pytest

OPS = ["LOGISTIC", "TANH"]


def _all_values(dtype):
    info = np.iinfo(dtype)
    x = np.arange(info.min, info.max + 1).astype(dtype)

    def make(d, rng):
        return x.reshape(d["shape"])

    return x.size, make


@pytest.mark.parametrize("op", OPS)
def test_float32(op):
    for shape in ([1, 6, 6, 3], [40]):
        ep.compare(ep.unary_model(op, "float32", shape), n_runs=3)

    def edges(d, rng):
        x = np.linspace(-20, 20, 64).astype(np.float32)
        x[:4] = [16.619047164916992188, 16.62, -9.0, -9.0001]
        return x

    ep.compare(ep.unary_model(op, "float32", [64]), n_runs=1, make_inputs=edges)


# Input (scale, zero point); outputs as TFLM assumes them.
INT8_IN = [(0.05, 0), (0.1, -20), (0.02, 100), (1.0 / 16, -128), (0.3, 5), (0.004, 0)]


@pytest.mark.parametrize("op", OPS)
def test_int8_every_value(op):
    n, make = _all_values(np.int8)
    q_out = (1.0 / 256, -128) if op == "LOGISTIC" else (1.0 / 128, 0)
    for q_in in INT8_IN:
        ep.compare(ep.unary_model(op, "int8", [n], q_in, q_out), n_runs=1, make_inputs=make)


# int16 input scales: 2^-12 (power of two), 2^-11 (TANH's second power of
# two; LOGISTIC's general path), general ones.
INT16_IN = [2.0**-12, 2.0**-11, 0.001, 3.0517578125e-05, 0.0002, 0.00123]


@pytest.mark.parametrize("op", OPS)
def test_int16_every_value(op):
    n, make = _all_values(np.int16)
    for s in INT16_IN:
        ep.compare(
            ep.unary_model(op, "int16", [n], (s, 0), (2.0**-15, 0)), n_runs=1, make_inputs=make
        )


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
def test_memory_requests_match_tflm(op, dtype):
    q_in = {"float32": None, "int8": (0.05, 0), "int16": (0.001, 0)}[dtype]
    q_out = {"float32": None, "int8": (1.0 / 256, -128), "int16": (2.0**-15, 0)}[dtype]
    ep.assert_memory_matches(ep.unary_model(op, dtype, [1, 5, 5, 4], q_in, q_out), 16)


@pytest.mark.parametrize("op", OPS)
def test_hostile_nodes_are_refused_by_name(op):
    mb = ep.ModelBuilder()
    x = mb.add_tensor([4], "float32", "x")
    y = mb.add_tensor([5], "float32", "y")
    mb.add_operator(op, [x], [y])
    mb.set_io([x], [y])
    ep.assert_refused(mb.build(), rf"{op}: input has 4 elements but output has 5")
    ep.assert_refused(
        ep.unary_model(op, "int32", [4]), rf"{op}: input INT32, output INT32 not supported"
    )
    ep.assert_refused(
        ep.unary_model(op, "int16", [4], (0.001, 0), (0.001, 0)),
        rf"{op}: INT16 output scale must be 2\^-15",
    )
    ep.assert_refused(
        ep.unary_model(op, "int16", [4], (0.001, 2), (2.0**-15, 0)), rf"{op}.*zero point"
    )
    ep.assert_refused(
        ep.unary_model(op, "int16", [4], (5.0, 0), (2.0**-15, 0)),
        rf"{op}: INT16 input scale .* too large",
    )
    ep.assert_refused(
        ep.unary_model(op, "int8", [4], (1000.0, 0), (1.0 / 256, -128)),
        rf"{op}: input scale .* outside",
    )
    ep.assert_refused(ep.unary_model(op, "int8", [4], None, (1.0 / 256, -128)), rf"{op}")


def test_logistic_int8_output_zero_point_must_be_minus_128():
    ep.assert_refused(
        ep.unary_model("LOGISTIC", "int8", [4], (0.05, 0), (1.0 / 256, 0)),
        r"LOGISTIC: INT8 output zero point must be -128, got 0",
    )
