"""SUB end to end through our interpreter against the real TFLM
(tflite_micro wheel): float32, int32, int8 and int16, same shapes and
broadcasting (both inputs variable, or one constant), every fused
activation, several scales and zero points; the memory it asks for (TFLM's
52-byte OpDataSub, same head); hostile nodes refused by name; and the
shared seanet_sub0 model."""
from __future__ import annotations

import numpy as np
import pytest

import elementwise_parity as ep

ACTS = ["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]
# (shape1, shape2, output shape)
SHAPES = [
    ([2, 3, 4], [2, 3, 4], [2, 3, 4]),
    ([1, 4, 4, 3], [3], [1, 4, 4, 3]),
    ([2, 1, 5], [1, 3, 1], [2, 3, 5]),
    ([1], [2, 2, 1, 1, 2, 3], [2, 2, 1, 1, 2, 3]),
]


def test_float32():
    for i, (s1, s2, so) in enumerate(SHAPES):
        for act in ACTS:
            ep.compare(ep.binary_model("SUB", "float32", s1, s2, so,
                                       options={"fused_activation_function": act}),
                       n_runs=3, seed=i)


def test_float32_constant_operand_and_absent_options():
    rng = np.random.default_rng(5)
    c = rng.standard_normal([1, 1, 3]).astype(np.float32)
    ep.compare(ep.binary_model("SUB", "float32", [2, 4, 3], [1, 1, 3], [2, 4, 3], const2=c))


def test_int32():
    for i, (s1, s2, so) in enumerate(SHAPES[:3]):
        for act in ["NONE", "RELU", "RELU6"]:
            ep.compare(ep.binary_model("SUB", "int32", s1, s2, so,
                                       options={"fused_activation_function": act}),
                       n_runs=2, seed=i)


# (q1, q2, qout): equal scales, input 1 or input 2 the larger, output scale
# below / above, zero points at both ends.
INT8_QUANT = [
    ((0.05, 0), (0.05, 0), (0.1, 0)),
    ((0.1, -3), (0.03, 7), (0.08, 5)),
    ((0.02, 127), (0.2, -128), (0.25, -128)),
    ((0.0078125, -128), (0.0039, 12), (0.007, 127)),
]


def test_int8():
    for i, (q1, q2, qo) in enumerate(INT8_QUANT):
        for j, (s1, s2, so) in enumerate(SHAPES):
            act = ACTS[(i + j) % len(ACTS)]
            ep.compare(ep.binary_model("SUB", "int8", s1, s2, so, q1, q2, qo,
                                       options={"fused_activation_function": act}),
                       n_runs=2, seed=i * 10 + j)


INT16_QUANT = [
    ((0.001, 0), (0.001, 0), (0.002, 0)),
    ((3.0517578125e-05, 0), (0.0005, 0), (0.0006, 0)),
    ((0.01, 0), (0.004, 0), (0.009, 0)),
]


def test_int16():
    for i, (q1, q2, qo) in enumerate(INT16_QUANT):
        for j, (s1, s2, so) in enumerate(SHAPES):
            act = ACTS[(i + j) % len(ACTS)]
            ep.compare(ep.binary_model("SUB", "int16", s1, s2, so, q1, q2, qo,
                                       options={"fused_activation_function": act}),
                       n_runs=2, seed=i * 10 + j)


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
def test_memory_requests_match_tflm(dtype):
    q = None if dtype == "float32" else (0.05, 0)
    ep.assert_memory_matches(
        ep.binary_model("SUB", dtype, [1, 5, 5, 4], [4], [1, 5, 5, 4], q, q, q), 52)


def test_hostile_nodes_are_refused_by_name():
    q = (0.05, 0)
    ep.assert_refused(ep.binary_model("SUB", "float32", [2, 3], [2, 3], [3, 2]),
                      r"SUB: output 'y' shape \[3, 2\] differs from the inputs' \[2, 3\]")
    ep.assert_refused(ep.binary_model("SUB", "float32", [2, 3], [4, 3], [4, 3]),
                      r"SUB: shapes do not broadcast")
    ep.assert_refused(ep.binary_model("SUB", "float32", [2, 3], [3], [2, 3], out_dtype="int8",
                                      qo=q),
                      r"SUB: inputs FLOAT32, FLOAT32 and output INT8 not supported")
    ep.assert_refused(ep.binary_model("SUB", "uint8", [4], [4], [4], q, q, q),
                      r"SUB: inputs UINT8, UINT8 and output UINT8 not supported")
    # Output scale so small that the output multiplier exceeds 1.
    ep.assert_refused(ep.binary_model("SUB", "int8", [4], [4], [4], q, q, (1e-9, 0)),
                      r"SUB: scales .* give a multiplier outside \(0, 1\)")
    ep.assert_refused(ep.binary_model("SUB", "int8", [4], [4], [4], None, q, q),
                      r"SUB")


def test_shared_seanet_sub_model_matches_tflm(models_dir):
    ep.shared_model_matches(models_dir / "seanet_sub0.tflite")
