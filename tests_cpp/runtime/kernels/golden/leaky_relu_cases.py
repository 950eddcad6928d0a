"""LEAKY_RELU golden cases: float32, int8, int16; alphas below and above 1,
zero and negative; identity multipliers below and above 1; zero points at
both ends of the range."""

import numpy as np
from golden_lib import Case, T, rand_ints


def leaky(name, dtype, shape, alpha, in_q=None, out_q=None, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == "float32":
        x = (rng.standard_normal(shape) * 4.0).astype(np.float32)
        x.flat[:2] = [0.0, -0.0]
        return Case(name, "LEAKY_RELU", {"alpha": alpha}, [T(shape, dtype, x)], T(shape, dtype))
    x = rand_ints(rng, dtype, shape)
    info = np.iinfo(dtype)
    x.flat[:3] = [info.min, info.max, in_q[1]]  # extremes and the zero point
    return Case(
        name,
        "LEAKY_RELU",
        {"alpha": alpha},
        [T(shape, dtype, x, *in_q)],
        T(shape, dtype, None, *out_q),
    )


def cases():
    return [
        leaky("f32_alpha_0p2", "float32", [2, 3, 7], 0.2, seed=1),
        leaky("f32_alpha_neg_1p5", "float32", [40], -1.5, seed=2),
        leaky("s8_alpha_0p2", "int8", [1, 6, 6, 3], 0.2, (0.05, -3), (0.04, 5), seed=3),
        leaky("s8_alpha_1p7_left_shift", "int8", [64], 1.7, (0.05, -3), (0.04, 5), seed=4),
        leaky("s8_alpha_neg_0p3", "int8", [64], -0.3, (0.02, 10), (0.03, -20), seed=5),
        # alpha -0.5 with equal scales: every odd negative input is a tie,
        # where TFLM's negate-multiply-negate rounds differently from a
        # multiply by the negative multiplier.
        leaky("s8_alpha_neg_0p5_ties", "int8", [64], -0.5, (0.05, 0), (0.05, 0), seed=13),
        leaky("s8_alpha_0", "int8", [48], 0.0, (0.05, 0), (0.05, 0), seed=6),
        leaky("s8_alpha_0p5_zp_extremes", "int8", [64], 0.5, (0.02, 127), (0.015, 127), seed=11),
        leaky("s8_zp_min_identity_above_1", "int8", [64], 0.3, (0.03, -128), (0.02, -128), seed=12),
        leaky("s8_identity_above_1", "int8", [2, 40], 0.1, (0.1, 0), (0.013, 2), seed=7),
        leaky("s16_alpha_0p2", "int16", [3, 30], 0.2, (0.001, 0), (0.0008, 0), seed=8),
        leaky("s16_alpha_neg_2_zp", "int16", [90], -2.0, (0.01, 100), (0.03, -250), seed=9),
        leaky("s16_alpha_0p01_down", "int16", [70], 0.01, (0.0005, 0), (0.002, 0), seed=10),
    ]
