"""QUANTIZE golden cases: float32 -> int8 / int16 (ties, extremes, +-inf)
and every requantization pair TFLM's reference kernel runs."""

import numpy as np
from golden_lib import Case, T, rand_ints


def quantize_case(name, in_type, out_type, in_scale, in_zp, out_scale, out_zp, x):
    q_in = (None, None) if in_type == "float32" else (in_scale, in_zp)
    a = T([x.size], in_type, x, *q_in)
    b = T([x.size], out_type, None, out_scale, out_zp)
    return Case(name, "QUANTIZE", {}, [a], b)


def cases():
    out = []
    rng = np.random.default_rng(200)
    xf = (rng.standard_normal(160) * 3.0).astype(np.float32)
    halves = ((np.arange(-20, 20) + 0.5) * 0.05).astype(np.float32)  # ties in x / scale
    xf = np.concatenate([xf, halves, np.array([7.0, -7.0, 1e3, -1e3, 0.0, -0.0], dtype=np.float32)])
    out.append(quantize_case("f32_s8", "float32", "int8", 0.0, 0, 0.05, -10, xf))
    xf16 = (rng.standard_normal(120) * 10.0).astype(np.float32)
    xf16 = np.concatenate(
        [xf16, np.array([40.0, -40.0, 0.0005, -0.0005, 0.0015], dtype=np.float32)]
    )
    out.append(quantize_case("f32_s16", "float32", "int16", 0.0, 0, 0.001, 0, xf16))
    ext = np.array([1e10, -1e10, np.inf, -np.inf, 3e9, -3e9], dtype=np.float32)
    out.append(quantize_case("f32_s8_extremes_zp_neg", "float32", "int8", 0.0, 0, 0.5, -3, ext))
    out.append(quantize_case("f32_s8_extremes_zp_pos", "float32", "int8", 0.0, 0, 0.5, 3, ext))
    rq = [
        ("s8_s8_up", "int8", "int8", 0.05, -3, 0.02, 7),
        ("s8_s8_down", "int8", "int8", 0.01, 0, 0.07, -100),
        ("s8_s8_same_scale", "int8", "int8", 0.03, 5, 0.03, -7),
        ("s8_u8", "int8", "uint8", 0.02, -128, 0.02, 0),
        ("s8_u8_rescale", "int8", "uint8", 0.02, 1, 0.015, 128),
        ("s8_s16", "int8", "int16", 0.05, 4, 0.0005, 0),
        ("s8_s32", "int8", "int32", 0.05, 4, 0.001, 0),
        ("s16_s8", "int16", "int8", 0.0005, 0, 0.1, -2),
        ("s16_s16", "int16", "int16", 0.0005, 0, 0.0007, 0),
        ("s16_s32", "int16", "int32", 0.0005, 0, 0.0001, 0),
        ("s32_s8", "int32", "int8", 0.0001, 0, 0.05, 3),
        ("s32_s16", "int32", "int16", 0.0001, 0, 0.001, 0),
        ("u8_s8", "uint8", "int8", 0.02, 128, 0.02, 0),
        ("u8_s8_rescale", "uint8", "int8", 0.02, 120, 0.03, -5),
    ]
    for i, (name, it, ot, s_in, z_in, s_out, z_out) in enumerate(rq):
        r = np.random.default_rng(300 + i)
        if it == "int32":
            x = r.integers(-200000, 200001, size=150).astype(np.int32)
        else:
            x = rand_ints(r, it, [150])
        out.append(quantize_case(name, it, ot, s_in, z_in, s_out, z_out, x))
    return out
