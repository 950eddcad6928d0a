"""ADD golden cases: int8 and int16 same shape and broadcast (one- and
two-way), int32 broadcast, float32; activations."""

import numpy as np
from golden_lib import Case, T, calibrated


def broadcast_shape(a, b):
    return list(np.broadcast_shapes(tuple(a), tuple(b)))


def add_quantized(name, seed, shape1, shape2, act="NONE", zps=(-5, 7, -3), dtype="int8"):
    rng = np.random.default_rng(seed)
    # int16 inputs span about +-6 so a fused RELU6 does not saturate everything.
    s_lo, s_hi = (0.01, 0.06) if dtype == "int8" else (0.00005, 0.0002)
    s1, s2 = (float(v) for v in rng.uniform(s_lo, s_hi, 2))
    lo, hi = (-128, 128) if dtype == "int8" else (-32768, 32768)
    x1 = T(shape1, dtype, rng.integers(lo, hi, shape1), s1, zps[0])
    x2 = T(shape2, dtype, rng.integers(lo, hi, shape2), s2, zps[1])
    y = T(broadcast_shape(shape1, shape2), dtype, None, 1.0, zps[2])
    return calibrated(Case(name, "ADD", {"fused_activation_function": act}, [x1, x2], y), rng)


def add_int32(name, seed, shape1, shape2):
    rng = np.random.default_rng(seed)
    x1 = T(shape1, "int32", rng.integers(-(1 << 30), 1 << 30, shape1))
    x2 = T(shape2, "int32", rng.integers(-(1 << 30), 1 << 30, shape2))
    y = T(broadcast_shape(shape1, shape2), "int32")
    return Case(name, "ADD", {}, [x1, x2], y)


def add_float(name, seed, shape1, shape2, act):
    rng = np.random.default_rng(seed)
    x1 = T(shape1, "float32", rng.normal(0, 1, shape1))
    x2 = T(shape2, "float32", rng.normal(0, 1, shape2))
    y = T(broadcast_shape(shape1, shape2), "float32")
    return Case(name, "ADD", {"fused_activation_function": act}, [x1, x2], y)


def cases():
    return [
        add_quantized("add_int8_same_shape", 401, [1, 4, 4, 3], [1, 4, 4, 3], act="RELU"),
        add_quantized("add_int8_broadcast_channel", 402, [1, 3, 4, 5], [5]),
        add_quantized(
            "add_int8_broadcast_two_way",
            403,
            [2, 1, 3, 1],
            [1, 4, 1, 2],
            act="RELU6",
            zps=(3, -9, 0),
        ),
        add_quantized(
            "add_int16_same_shape", 404, [1, 2, 5, 4], [1, 2, 5, 4], zps=(0, 0, 0), dtype="int16"
        ),
        add_quantized(
            "add_int16_broadcast_relu",
            405,
            [3, 4, 4],
            [4, 1],
            act="RELU",
            zps=(0, 0, 0),
            dtype="int16",
        ),
        add_int32("add_int32_broadcast", 406, [2, 3], [3]),
        add_float("add_float_broadcast", 504, [2, 3, 1], [1, 4], "RELU"),
        add_float("add_float_same_shape", 505, [2, 5], [2, 5], "NONE"),
    ]
