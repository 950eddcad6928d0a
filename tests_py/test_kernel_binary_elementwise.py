"""The two-input elementwise operators MUL, SUB, DIV, MAXIMUM and MINIMUM end
to end through our interpreter against the real TFLM (tflite_micro wheel),
one parametrized suite:

- MUL, SUB, DIV: float32, int32, int8 (and int16 for MUL and SUB), same
  shapes and broadcasting (both inputs variable, or one constant), fused
  activations, several scales and zero points (MUL's multipliers below and
  above 1; DIV's divisors never at their zero point: TFLM's result is
  undefined there; every int8 DIV pair once); the memory each asks for
  (TFLM's 36-byte OpDataMul, 52-byte OpDataSub, 28-byte OpDataDiv) and the
  same head; the shared seanet_sub0 model (SUB).
- MAXIMUM, MINIMUM: float32 (with NaNs in either input), int8, int16, int32
  and int64; quantized tensors compared as stored whatever their scales (as
  TFLM); no persistent memory and the same head.
- All five: hostile nodes refused with a message naming the operator."""

from __future__ import annotations

import elementwise_parity as ep
import numpy as np
import pytest

ACTS = ["NONE", "RELU", "RELU6", "RELU_N1_TO_1"]
# (shape1, shape2, output shape)
SHAPES = [
    ([2, 3, 4], [2, 3, 4], [2, 3, 4]),
    ([1, 4, 4, 3], [3], [1, 4, 4, 3]),
    ([2, 1, 5], [1, 3, 1], [2, 3, 5]),
    ([1], [2, 2, 1, 1, 2, 3], [2, 2, 1, 1, 2, 3]),
]
MINMAX_SHAPES = SHAPES[:3] + [([1, 2, 1, 2, 3], [2, 2, 1, 3], [1, 2, 2, 2, 3])]

ARITHMETIC = ["MUL", "SUB", "DIV"]
MINMAX = ["MAXIMUM", "MINIMUM"]

# Per arithmetic operator: the shapes each case runs over, the float32 runs
# per model, int32's shapes and activations, the (q1, q2, qout) of the int8
# and int16 cases (equal scales, input 1 or input 2 the larger, output scale
# below / above, zero points at both ends), the bytes of TFLM's OpData.
# MUL and SUB run the same shapes and activations, and share their first
# int8 cases and last int16 ones.
_MUL_SUB = dict(
    shapes=SHAPES,
    float_runs=3,
    int32_shapes=SHAPES[:3],
    int32_acts=["NONE", "RELU", "RELU6"],
)
_MUL_SUB_INT8 = [
    ((0.05, 0), (0.05, 0), (0.1, 0)),
    ((0.1, -3), (0.03, 7), (0.08, 5)),
    ((0.02, 127), (0.2, -128), (0.25, -128)),
    ((0.0078125, -128), (0.0039, 12), (0.007, 127)),
]
_MUL_SUB_INT16 = [
    ((3.0517578125e-05, 0), (0.0005, 0), (0.0006, 0)),
    ((0.01, 0), (0.004, 0), (0.009, 0)),
]
SPEC = {
    "MUL": dict(
        _MUL_SUB,
        int8=[
            *_MUL_SUB_INT8,
            ((0.1, 3), (0.2, -1), (0.001, 0)),  # multiplier 20: a left shift
        ],
        int16=[
            ((0.001, 0), (0.001, 0), (0.0000005, 0)),
            ((0.02, 0), (0.03, 0), (0.0001, 0)),
            *_MUL_SUB_INT16,
        ],
        op_data=36,
    ),
    "SUB": dict(
        _MUL_SUB,
        int8=_MUL_SUB_INT8,
        int16=[((0.001, 0), (0.001, 0), (0.002, 0)), *_MUL_SUB_INT16],
        op_data=52,
    ),
    "DIV": dict(
        shapes=SHAPES[:3],
        float_runs=2,
        int32_shapes=SHAPES[:3],
        int32_acts=["NONE", "RELU6"],
        int8=[
            ((0.05, 0), (0.05, 0), (0.05, 0)),
            ((0.1, -3), (0.03, 7), (0.08, 5)),
            ((0.02, 127), (0.2, -128), (0.001, -128)),
            ((0.5, -128), (0.0039, 12), (1.5, 127)),
            ((0.01, 0), (1.0, 0), (0.0001, 3)),
        ],
        int16=[],  # TFLM's DIV has no int16 kernel (refused below)
        op_data=28,
    ),
}


def _cases(key):
    """(op, index) for every entry of SPEC[op][key], as pytest parameters."""
    return [
        pytest.param(op, i, id=f"{op}-{i}") for op, s in SPEC.items() for i in range(len(s[key]))
    ]


def _inputs(op, zp2):
    """make_inputs for compare(): DIV's divisor (input 1) avoids `zp2`;
    None (random_like) for the other operators."""
    if op != "DIV":
        return None
    calls = []

    def make(d, rng):
        x = ep.random_like(d["dtype"], d["shape"], rng)
        if len(calls) % 2 == 1:
            x[x == zp2] = zp2 + 1 if zp2 < np.iinfo(x.dtype).max else zp2 - 1
        calls.append(1)
        return x

    return make


def _act(name):
    return {"fused_activation_function": name}


@pytest.mark.parametrize("op,i", _cases("shapes"))
def test_float32(op, i):
    s1, s2, so = SPEC[op]["shapes"][i]
    for act in ACTS:
        ep.compare(
            ep.binary_model(op, "float32", s1, s2, so, options=_act(act)),
            n_runs=SPEC[op]["float_runs"],
            seed=i,
        )


@pytest.mark.parametrize("op", ["MUL", "SUB"])
def test_float32_constant_operand_and_absent_options(op):
    rng = np.random.default_rng(5)
    c = rng.standard_normal([1, 1, 3]).astype(np.float32)
    ep.compare(ep.binary_model(op, "float32", [2, 4, 3], [1, 1, 3], [2, 4, 3], const2=c))


@pytest.mark.parametrize("op,i", _cases("int32_shapes"))
def test_int32(op, i):
    s1, s2, so = SPEC[op]["int32_shapes"][i]
    for act in SPEC[op]["int32_acts"]:
        ep.compare(
            ep.binary_model(op, "int32", s1, s2, so, options=_act(act)),
            n_runs=2,
            seed=i,
            make_inputs=_inputs(op, 0),
        )


@pytest.mark.parametrize(
    "op,dtype,i",
    [
        pytest.param(op, dtype, i, id=f"{op}-{dtype}-{i}")
        for op, s in SPEC.items()
        for dtype in ("int8", "int16")
        for i in range(len(s[dtype]))
    ],
)
def test_quantized(op, dtype, i):
    q1, q2, qo = SPEC[op][dtype][i]
    for j, (s1, s2, so) in enumerate(SPEC[op]["shapes"]):
        ep.compare(
            ep.binary_model(
                op, dtype, s1, s2, so, q1, q2, qo, options=_act(ACTS[(i + j) % len(ACTS)])
            ),
            n_runs=2,
            seed=i * 10 + j,
            make_inputs=_inputs(op, q2[1]),
        )


def test_div_int8_every_pair():
    # All 256 x 255 (dividend, divisor) pairs in one run per quantization.
    a = np.repeat(np.arange(-128, 128), 256).astype(np.int8)
    b = np.tile(np.arange(-128, 128), 256).astype(np.int8)
    for q1, q2, qo in SPEC["DIV"]["int8"][:3]:
        keep = b != q2[1]
        xs = [a[keep], b[keep]]
        n = int(keep.sum())
        calls: list[int] = []

        def make(d, rng, xs=xs, calls=calls):
            calls.append(1)
            return xs[(len(calls) - 1) % 2]

        ep.compare(
            ep.binary_model("DIV", "int8", [n], [n], [n], q1, q2, qo), n_runs=1, make_inputs=make
        )


@pytest.mark.parametrize(
    "op,dtype",
    [
        (op, dtype)
        for op in ARITHMETIC
        for dtype in ["float32", "int8"] + (["int16"] if SPEC[op]["int16"] else [])
    ],
)
def test_memory_requests_match_tflm(op, dtype):
    q = None if dtype == "float32" else (0.05, 0)
    ep.assert_memory_matches(
        ep.binary_model(op, dtype, [1, 5, 5, 4], [4], [1, 5, 5, 4], q, q, q), SPEC[op]["op_data"]
    )


@pytest.mark.parametrize("op", MINMAX)
def test_minmax_memory_requests_match_tflm(op):
    ep.assert_memory_matches(ep.binary_model(op, "int8", [1, 5, 5, 4], [4], [1, 5, 5, 4]), 0)


Q = (0.05, 0)
# Per operator, beyond the shape refusals every operator shares: binary_model
# arguments (dtype, s1, s2, so, q1, q2, qo[, out_dtype]) and the message.
REFUSALS = {
    "MUL": [
        (
            ("float32", [2, 3], [3], [2, 3], None, None, Q, "int8"),
            r"MUL: inputs FLOAT32, FLOAT32 and output INT8 not supported",
        ),
        (
            ("uint8", [4], [4], [4], Q, Q, Q),
            r"MUL: inputs UINT8, UINT8 and output UINT8 not supported",
        ),
        (("int16", [4], [4], [4], (0.05, 1), Q, Q), r"MUL.*zero point"),
        (("int8", [4], [4], [4], (1e30, 0), (1e30, 0), (1e-30, 0)), r"MUL.*multiplier"),
        (("int8", [4], [4], [4], None, Q, Q), r"MUL"),
    ],
    "SUB": [
        (
            ("float32", [2, 3], [3], [2, 3], None, None, Q, "int8"),
            r"SUB: inputs FLOAT32, FLOAT32 and output INT8 not supported",
        ),
        (
            ("uint8", [4], [4], [4], Q, Q, Q),
            r"SUB: inputs UINT8, UINT8 and output UINT8 not supported",
        ),
        # Output scale so small that the output multiplier exceeds 1.
        (
            ("int8", [4], [4], [4], Q, Q, (1e-9, 0)),
            r"SUB: scales .* give a multiplier outside \(0, 1\)",
        ),
        (("int8", [4], [4], [4], None, Q, Q), r"SUB"),
    ],
    "DIV": [
        (
            ("int16", [4], [4], [4], Q, Q, Q),
            r"DIV: inputs INT16, INT16 and output INT16 not supported",
        ),
        (("int8", [4], [4], [4], (1.0, 0), (1e-4, 0), (1e-4, 0)), r"DIV: scale ratio .* too large"),
        (("int8", [4], [4], [4], None, Q, Q), r"DIV"),
    ],
    **{
        op: [
            (
                ("float32", [3], [3], [3], None, None, None, "int32"),
                rf"{op}: inputs FLOAT32, FLOAT32 and output INT32 not supported",
            ),
            (
                ("uint8", [3], [3], [3]),
                rf"{op}: inputs UINT8, UINT8 and output UINT8 not supported",
            ),
        ]
        for op in MINMAX
    },
}


@pytest.mark.parametrize("op", ARITHMETIC + MINMAX)
def test_hostile_nodes_are_refused_by_name(op):
    ep.assert_refused(
        ep.binary_model(op, "float32", [2, 3], [2, 3], [3, 2]),
        rf"{op}: output 'y' shape \[3, 2\] differs from the inputs' \[2, 3\]",
    )
    ep.assert_refused(
        ep.binary_model(op, "float32", [2, 3], [4, 3], [4, 3]), rf"{op}: shapes do not broadcast"
    )
    for args, pattern in REFUSALS[op]:
        ep.assert_refused(
            ep.binary_model(op, *args[:7], out_dtype=args[7] if len(args) > 7 else None), pattern
        )


def test_shared_seanet_sub_model_matches_tflm(models_dir):
    ep.shared_model_matches(models_dir / "seanet_sub0.tflite")


# --- MAXIMUM and MINIMUM ------------------------------------------------------


@pytest.mark.parametrize("op", MINMAX)
@pytest.mark.parametrize("dtype", ["float32", "int8", "int16", "int32", "int64"])
def test_minmax_types_and_shapes(op, dtype):
    for i, (s1, s2, so) in enumerate(MINMAX_SHAPES):
        ep.compare(ep.binary_model(op, dtype, s1, s2, so), n_runs=2, seed=i)


@pytest.mark.parametrize("op", MINMAX)
def test_minmax_float_nans_follow_tflms_comparison(op):
    calls = []

    def inputs(d, rng):
        x = rng.standard_normal(d["shape"]).astype(np.float32)
        x.flat[len(calls) % 2 :: 2] = np.nan  # NaNs in different places per input
        calls.append(1)
        return x

    ep.compare(ep.binary_model(op, "float32", [6], [6], [6]), n_runs=1, make_inputs=inputs)


@pytest.mark.parametrize("op", MINMAX)
def test_minmax_int8_different_scales_compare_raw_values(op):
    c = np.array([-5, 0, 7], np.int8)
    ep.compare(
        ep.binary_model(
            op, "int8", [2, 2, 3], [3], [2, 2, 3], (0.1, 3), (0.5, -7), (0.02, 1), const2=c
        ),
        n_runs=3,
    )
