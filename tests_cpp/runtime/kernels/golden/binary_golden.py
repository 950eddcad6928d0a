"""Case builders shared by the two-input elementwise golden files (sub_cases.py,
mul_cases.py, div_cases.py): quantized (output scale calibrated on TFLM),
int32 and float32 cases, same shapes or broadcast."""

import numpy as np
from golden_lib import Case, T, calibrated


def broadcast_shape(a, b):
    return list(np.broadcast_shapes(tuple(a), tuple(b)))


def quantized(
    op,
    name,
    seed,
    shape1,
    shape2,
    act="NONE",
    zps=(-5, 7, -3),
    dtype="int8",
    avoid_zero_divisor=False,
):
    rng = np.random.default_rng(seed)
    s_lo, s_hi = (0.01, 0.06) if dtype == "int8" else (0.00005, 0.0002)
    s1, s2 = (float(v) for v in rng.uniform(s_lo, s_hi, 2))
    lo, hi = (-128, 128) if dtype == "int8" else (-32768, 32768)
    a = rng.integers(lo, hi, shape1)
    b = rng.integers(lo, hi, shape2)
    if avoid_zero_divisor:
        b[b == zps[1]] = zps[1] + 1
    x1 = T(shape1, dtype, a, s1, zps[0])
    x2 = T(shape2, dtype, b, s2, zps[1])
    y = T(broadcast_shape(shape1, shape2), dtype, None, 1.0, zps[2])
    return calibrated(Case(name, op, {"fused_activation_function": act}, [x1, x2], y), rng)


def int32(op, name, seed, shape1, shape2, act="NONE", bits=30, avoid_zero_divisor=False):
    rng = np.random.default_rng(seed)
    a = rng.integers(-(1 << bits), 1 << bits, shape1)
    b = rng.integers(-(1 << bits), 1 << bits, shape2)
    if avoid_zero_divisor:
        b[b == 0] = 1
    x1 = T(shape1, "int32", a)
    x2 = T(shape2, "int32", b)
    y = T(broadcast_shape(shape1, shape2), "int32")
    return Case(name, op, {"fused_activation_function": act}, [x1, x2], y)


def float32(op, name, seed, shape1, shape2, act="NONE"):
    rng = np.random.default_rng(seed)
    x1 = T(shape1, "float32", rng.normal(0, 2, shape1))
    x2 = T(shape2, "float32", rng.normal(0, 2, shape2))
    y = T(broadcast_shape(shape1, shape2), "float32")
    return Case(name, op, {"fused_activation_function": act}, [x1, x2], y)


def int8_int16_cases(op, seed):
    """The int8 and int16 cases MUL and SUB share (named after ``op``, seeds
    seed+1 ...): same shape with RELU, two-way broadcast with RELU6 and zero
    points, int16 same shape and broadcast."""
    p = op.lower()
    int16 = dict(zps=(0, 0, 0), dtype="int16")
    return [
        quantized(op, f"{p}_int8_same_shape", seed + 1, [1, 4, 4, 3], [1, 4, 4, 3], act="RELU"),
        quantized(
            op,
            f"{p}_int8_broadcast_two_way",
            seed + 2,
            [2, 1, 3, 1],
            [1, 4, 1, 2],
            act="RELU6",
            zps=(3, -9, 0),
        ),
        quantized(op, f"{p}_int16_same_shape", seed + 3, [1, 2, 5, 4], [1, 2, 5, 4], **int16),
        quantized(op, f"{p}_int16_broadcast", seed + 4, [3, 4, 4], [4, 1], **int16),
    ]
