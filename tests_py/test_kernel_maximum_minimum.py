"""MAXIMUM and MINIMUM end to end through our interpreter against the real
TFLM (tflite_micro wheel): float32 (with NaNs in either input), int8, int16,
int32 and int64, same shapes and broadcasting, one input constant; quantized
tensors compared as stored whatever their scales (as TFLM); no persistent
memory and the same head; hostile nodes refused by name."""
from __future__ import annotations

import numpy as np
import pytest

import elementwise_parity as ep

OPS = ["MAXIMUM", "MINIMUM"]
SHAPES = [
    ([2, 3, 4], [2, 3, 4], [2, 3, 4]),
    ([1, 4, 4, 3], [3], [1, 4, 4, 3]),
    ([2, 1, 5], [1, 3, 1], [2, 3, 5]),
    ([1, 2, 1, 2, 3], [2, 2, 1, 3], [1, 2, 2, 2, 3]),
]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["float32", "int8", "int16", "int32", "int64"])
def test_types_and_shapes(op, dtype):
    for i, (s1, s2, so) in enumerate(SHAPES):
        ep.compare(ep.binary_model(op, dtype, s1, s2, so), n_runs=2, seed=i)


@pytest.mark.parametrize("op", OPS)
def test_float_nans_follow_tflms_comparison(op):
    calls = []

    def inputs(d, rng):
        x = rng.standard_normal(d["shape"]).astype(np.float32)
        x.flat[len(calls) % 2::2] = np.nan  # NaNs in different places per input
        calls.append(1)
        return x
    ep.compare(ep.binary_model(op, "float32", [6], [6], [6]), n_runs=1, make_inputs=inputs)


@pytest.mark.parametrize("op", OPS)
def test_int8_different_scales_compare_raw_values(op):
    c = np.array([-5, 0, 7], np.int8)
    ep.compare(ep.binary_model(op, "int8", [2, 2, 3], [3], [2, 2, 3], (0.1, 3), (0.5, -7),
                               (0.02, 1), const2=c), n_runs=3)


@pytest.mark.parametrize("op", OPS)
def test_memory_requests_match_tflm(op):
    ep.assert_memory_matches(ep.binary_model(op, "int8", [1, 5, 5, 4], [4], [1, 5, 5, 4]), 0)


@pytest.mark.parametrize("op", OPS)
def test_hostile_nodes_are_refused_by_name(op):
    ep.assert_refused(ep.binary_model(op, "float32", [2, 3], [2, 3], [3, 2]),
                      rf"{op}: output 'y' shape \[3, 2\] differs from the inputs' \[2, 3\]")
    ep.assert_refused(ep.binary_model(op, "float32", [2, 3], [4, 3], [4, 3]),
                      rf"{op}: shapes do not broadcast")
    ep.assert_refused(ep.binary_model(op, "float32", [3], [3], [3], out_dtype="int32"),
                      rf"{op}: inputs FLOAT32, FLOAT32 and output INT32 not supported")
    ep.assert_refused(ep.binary_model(op, "uint8", [3], [3], [3]),
                      rf"{op}: inputs UINT8, UINT8 and output UINT8 not supported")
