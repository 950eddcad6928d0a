"""SOFTMAX golden cases: int8 -> int8 / int16, int16 -> int16, float32;
scales, zero points, betas, ranks, a 300-wide row, rows with ties,
extremes and constants."""

import numpy as np
from golden_lib import Case, T, rand_ints


def quant(dtype, scale, zp):
    return (None, None) if dtype == "float32" else (scale, zp)


def softmax_case(name, in_type, out_type, shape, in_scale, in_zp, beta, seed, x=None):
    rng = np.random.default_rng(seed)
    if x is None:
        if in_type == "float32":
            x = (rng.standard_normal(shape) * 3.0).astype(np.float32)
        else:
            x = rand_ints(rng, in_type, shape)
    out_scale, out_zp = {
        "float32": (None, None),
        "int8": (1.0 / 256, -128),
        "int16": ((1.0 / 65536, -32768) if in_type == "int8" else (1.0 / 32768, 0)),
    }[out_type]
    a = T(shape, in_type, x, *quant(in_type, in_scale, in_zp))
    b = T(shape, out_type, None, out_scale, out_zp)
    return Case(name, "SOFTMAX", {"beta": beta}, [a], b)


def cases():
    sm = [
        ("s8_1d_scale_1_256", "int8", "int8", [16], 1.0 / 256, 0, 1.0, 1),
        ("s8_2d_scale_0039", "int8", "int8", [4, 16], 0.00390625, -128, 1.0, 2),
        ("s8_3d_scale_1_255", "int8", "int8", [2, 3, 8], 1.0 / 255, -5, 1.0, 3),
        ("s8_2d_scale_0p1", "int8", "int8", [1, 40], 0.1, 10, 1.0, 4),
        ("s8_2d_scale_0p05_beta2", "int8", "int8", [3, 20], 0.05, 0, 2.0, 5),
        ("s8_2d_scale_0p5_beta0p5", "int8", "int8", [2, 25], 0.5, 3, 0.5, 6),
        ("s8_2d_scale_1", "int8", "int8", [1, 30], 1.0, 0, 1.0, 7),
        ("s8_2d_scale_0p02_depth300", "int8", "int8", [1, 300], 0.02, -1, 1.0, 8),
        ("s8_2d_scale_40_capped", "int8", "int8", [2, 10], 40.0, 0, 1.0, 9),
        ("s8_2d_scale_0p17", "int8", "int8", [5, 12], 0.17, -20, 1.0, 10),
        ("s8_to_s16_scale_0p05", "int8", "int16", [2, 12], 0.05, 0, 1.0, 11),
        ("s8_to_s16_scale_0039", "int8", "int16", [1, 64], 0.00390625, -128, 1.0, 12),
        ("s16_scale_0p001", "int16", "int16", [2, 16], 0.001, 0, 1.0, 13),
        ("s16_scale_0p0003", "int16", "int16", [3, 10], 0.0003, 0, 1.0, 14),
        ("f32_2d_beta1", "float32", "float32", [3, 7], 0.0, 0, 1.0, 15),
        ("f32_1d_beta0p7", "float32", "float32", [10], 0.0, 0, 0.7, 16),
        ("f32_3d_beta2", "float32", "float32", [2, 2, 5], 0.0, 0, 2.0, 17),
    ]
    out = [softmax_case(*row) for row in sm]
    # Rows with ties, extremes and a constant row.
    special = np.array(
        [
            [127, 127, -128, 0, 5, 127, -1, -128],
            [-128] * 8,
            [3] * 8,
            [-128, -127, -126, -125, 124, 125, 126, 127],
        ],
        dtype=np.int8,
    )
    out.append(
        softmax_case("s8_special_rows_0p0625", "int8", "int8", [4, 8], 0.0625, 0, 1.0, 0, x=special)
    )
    out.append(
        softmax_case(
            "s8_special_rows_0p0039", "int8", "int8", [4, 8], 0.00390625, 0, 1.0, 0, x=special
        )
    )
    return out
