"""DIV end to end through our interpreter against the real TFLM
(tflite_micro wheel): float32, int32 and int8, same shapes and broadcasting,
fused activations, several scales and zero points (divisors never at their
zero point: TFLM's result is undefined there); every int8 pair once; the
memory it asks for (TFLM's 28-byte OpDataDiv, same head); hostile nodes
refused by name."""
from __future__ import annotations

import numpy as np
import pytest

import elementwise_parity as ep

ACTS = ["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]
SHAPES = [
    ([2, 3, 4], [2, 3, 4], [2, 3, 4]),
    ([1, 4, 4, 3], [3], [1, 4, 4, 3]),
    ([2, 1, 5], [1, 3, 1], [2, 3, 5]),
]


def _nonzero_divisor(zp2):
    """make_inputs for compare(): input 1 (the divisor) avoids `zp2`."""
    calls = []

    def make(d, rng):
        x = ep.random_like(d["dtype"], d["shape"], rng)
        if len(calls) % 2 == 1:
            x[x == zp2] = zp2 + 1 if zp2 < np.iinfo(x.dtype).max else zp2 - 1
        calls.append(1)
        return x
    return make


def test_float32():
    for i, (s1, s2, so) in enumerate(SHAPES):
        for act in ACTS:
            ep.compare(ep.binary_model("DIV", "float32", s1, s2, so,
                                       options={"fused_activation_function": act}),
                       n_runs=2, seed=i)


def test_int32():
    for i, (s1, s2, so) in enumerate(SHAPES):
        for act in ["NONE", "RELU6"]:
            ep.compare(ep.binary_model("DIV", "int32", s1, s2, so,
                                       options={"fused_activation_function": act}),
                       n_runs=2, seed=i, make_inputs=_nonzero_divisor(0))


INT8_QUANT = [
    ((0.05, 0), (0.05, 0), (0.05, 0)),
    ((0.1, -3), (0.03, 7), (0.08, 5)),
    ((0.02, 127), (0.2, -128), (0.001, -128)),
    ((0.5, -128), (0.0039, 12), (1.5, 127)),
    ((0.01, 0), (1.0, 0), (0.0001, 3)),
]


def test_int8():
    for i, (q1, q2, qo) in enumerate(INT8_QUANT):
        for j, (s1, s2, so) in enumerate(SHAPES):
            act = ACTS[(i + j) % len(ACTS)]
            ep.compare(ep.binary_model("DIV", "int8", s1, s2, so, q1, q2, qo,
                                       options={"fused_activation_function": act}),
                       n_runs=2, seed=i * 10 + j, make_inputs=_nonzero_divisor(q2[1]))


def test_int8_every_pair():
    # All 256 x 255 (dividend, divisor) pairs in one run per quantization.
    a = np.repeat(np.arange(-128, 128), 256).astype(np.int8)
    b = np.tile(np.arange(-128, 128), 256).astype(np.int8)
    for q1, q2, qo in INT8_QUANT[:3]:
        keep = b != q2[1]
        xs = [a[keep], b[keep]]
        n = int(keep.sum())
        calls = []

        def make(d, rng):
            calls.append(1)
            return xs[(len(calls) - 1) % 2]
        ep.compare(ep.binary_model("DIV", "int8", [n], [n], [n], q1, q2, qo), n_runs=1,
                   make_inputs=make)


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_memory_requests_match_tflm(dtype):
    q = None if dtype == "float32" else (0.05, 0)
    ep.assert_memory_matches(
        ep.binary_model("DIV", dtype, [1, 5, 5, 4], [4], [1, 5, 5, 4], q, q, q), 28)


def test_hostile_nodes_are_refused_by_name():
    q = (0.05, 0)
    ep.assert_refused(ep.binary_model("DIV", "float32", [2, 3], [2, 3], [3, 2]),
                      r"DIV: output 'y' shape \[3, 2\] differs from the inputs' \[2, 3\]")
    ep.assert_refused(ep.binary_model("DIV", "float32", [2, 3], [4, 3], [4, 3]),
                      r"DIV: shapes do not broadcast")
    ep.assert_refused(ep.binary_model("DIV", "int16", [4], [4], [4], q, q, q),
                      r"DIV: inputs INT16, INT16 and output INT16 not supported")
    ep.assert_refused(ep.binary_model("DIV", "int8", [4], [4], [4], (1.0, 0), (1e-4, 0),
                                      (1e-4, 0)),
                      r"DIV: scale ratio .* too large")
    ep.assert_refused(ep.binary_model("DIV", "int8", [4], [4], [4], None, q, q), r"DIV")
