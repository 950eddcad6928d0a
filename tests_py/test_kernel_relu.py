"""RELU and RELU6 end to end through our interpreter against the real TFLM
(tflite_micro wheel): float32, int8 and int16 over several shapes, scales
and zero points (RELU requantizes with multipliers below and above 1; RELU6
clamps in the input's scale, six beyond the type saturating); the memory
each asks for (TFLM's 28- and 8-byte OpData, same head); hostile nodes
refused by name."""

from __future__ import annotations

import elementwise_parity as ep
import numpy as np
import pytest

SHAPES = [[1, 6, 6, 3], [33], [2, 1, 7]]
OPS = ["RELU", "RELU6"]


@pytest.mark.parametrize("op", OPS)
def test_float32(op):
    def inputs(d, rng):
        x = (rng.standard_normal(d["shape"]) * 5).astype(np.float32)
        x.flat[:4] = [0.0, -0.0, 6.0, np.nan]
        return x

    for shape in SHAPES:
        ep.compare(ep.unary_model(op, "float32", shape), n_runs=3)
    # NaN passes through both (TFLM's comparisons are false for NaN).
    ep.compare(ep.unary_model(op, "float32", [8]), n_runs=1, make_inputs=inputs)


# (input q, output q): RELU rescales; RELU6 reads only the input's.
INT8_QUANT = [
    ((0.05, 0), (0.05, 0)),
    ((0.1, -20), (0.03, -128)),  # multiplier above 1
    ((0.02, 10), (0.05, 3)),  # below 1
    ((0.01, 127), (0.02, -100)),  # six saturates at 127
    ((0.5, -128), (0.25, 0)),
]
INT16_QUANT = [
    ((0.001, 0), (0.001, 0)),
    ((0.0005, 0), (0.0002, 0)),
    ((3.0517578125e-05, 0), (0.0004, 0)),  # six saturates at 32767
]


@pytest.mark.parametrize("op", OPS)
def test_int8(op):
    for i, (qi, qo) in enumerate(INT8_QUANT):
        ep.compare(ep.unary_model(op, "int8", SHAPES[i % 3], qi, qo), n_runs=2, seed=i)


@pytest.mark.parametrize("op", OPS)
def test_int16(op):
    for i, (qi, qo) in enumerate(INT16_QUANT):
        ep.compare(ep.unary_model(op, "int16", SHAPES[i % 3], qi, qo), n_runs=2, seed=i)


@pytest.mark.parametrize("op,persistent", [("RELU", 28), ("RELU6", 8)])
@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_memory_requests_match_tflm(op, persistent, dtype):
    q = None if dtype == "float32" else (0.05, 0)
    ep.assert_memory_matches(ep.unary_model(op, dtype, [1, 5, 5, 4], q, q), persistent)


@pytest.mark.parametrize("op", OPS)
def test_hostile_nodes_are_refused_by_name(op):
    q = (0.05, 0)
    mb = ep.ModelBuilder()
    x = mb.add_tensor([4], "float32", "x")
    y = mb.add_tensor([5], "float32", "y")
    mb.add_operator(op, [x], [y])
    mb.set_io([x], [y])
    ep.assert_refused(mb.build(), rf"{op}: input has 4 elements but output has 5")
    ep.assert_refused(
        ep.unary_model(op, "float32", [4], out_dtype="int8", q_out=q),
        rf"{op}: input FLOAT32, output INT8 not supported",
    )
    ep.assert_refused(
        ep.unary_model(op, "int32", [4]), rf"{op}: input INT32, output INT32 not supported"
    )
    ep.assert_refused(ep.unary_model(op, "int8", [4], None, q), rf"{op}")


def test_relu_int16_needs_zero_points_zero():
    ep.assert_refused(
        ep.unary_model("RELU", "int16", [4], (0.01, 3), (0.01, 0)), r"RELU.*zero point"
    )
