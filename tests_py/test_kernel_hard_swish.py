"""HARD_SWISH end to end through our interpreter against the real TFLM
(tflite_micro wheel): float32 and every int8 value for several input /
output scales and zero points (reluish exponents positive, zero and
negative; output exponents down to the 16-bit mask truncation); the memory
it asks for (TFLM's 20-byte HardSwishParams, same head); hostile nodes
refused by name."""

from __future__ import annotations

import elementwise_parity as ep
import numpy as np
import pytest


def test_float32():
    for shape in ([1, 6, 6, 3], [40]):
        ep.compare(ep.unary_model("HARD_SWISH", "float32", shape), n_runs=3)


# (input q, output q)
INT8_QUANT = [
    ((0.05, 0), (0.05, 0)),
    ((0.1, -20), (0.03, -128)),
    ((0.02, 100), (0.02, 3)),
    ((0.5, -128), (0.25, 127)),
    ((0.004, 5), (0.3, -1)),  # tiny input scale: negative reluish exponent
    ((2.0, 0), (1.5, 0)),  # large: positive reluish exponent, saturation
    ((0.01, 0), (40.0, 0)),  # output exponent past 16 bits
]


def test_int8_every_value():
    x = np.arange(-128, 128).astype(np.int8)
    for q_in, q_out in INT8_QUANT:
        ep.compare(
            ep.unary_model("HARD_SWISH", "int8", [256], q_in, q_out),
            n_runs=1,
            make_inputs=lambda d, rng: x,
        )


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_memory_requests_match_tflm(dtype):
    q = None if dtype == "float32" else (0.05, 0)
    ep.assert_memory_matches(ep.unary_model("HARD_SWISH", dtype, [1, 5, 5, 4], q, q), 20)


def test_hostile_nodes_are_refused_by_name():
    mb = ep.ModelBuilder()
    x = mb.add_tensor([4], "float32", "x")
    y = mb.add_tensor([5], "float32", "y")
    mb.add_operator("HARD_SWISH", [x], [y])
    mb.set_io([x], [y])
    ep.assert_refused(mb.build(), r"HARD_SWISH: input has 4 elements but output has 5")
    ep.assert_refused(
        ep.unary_model("HARD_SWISH", "int16", [4], (0.01, 0), (0.01, 0)),
        r"HARD_SWISH: input INT16, output INT16 not supported",
    )
    ep.assert_refused(
        ep.unary_model("HARD_SWISH", "int8", [4], (1.0, 0), (0.001, 0)),
        r"HARD_SWISH: output scale .* too small",
    )
    ep.assert_refused(ep.unary_model("HARD_SWISH", "int8", [4], None, (0.01, 0)), r"HARD_SWISH")
