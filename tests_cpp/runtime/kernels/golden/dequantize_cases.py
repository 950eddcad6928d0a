"""DEQUANTIZE golden cases: int8, int16, uint8 -> float32."""

import numpy as np
from golden_lib import Case, T, rand_ints


def cases():
    dq = [
        ("s8_f32", "int8", 0.0374, -11),
        ("s8_f32_scale_third", "int8", 1.0 / 3.0, 0),
        ("s16_f32", "int16", 0.00012, 0),
        ("u8_f32", "uint8", 0.5, 128),
    ]
    out = []
    for i, (name, it, s_in, z_in) in enumerate(dq):
        x = rand_ints(np.random.default_rng(400 + i), it, [160])
        out.append(Case(name, "DEQUANTIZE", {}, [T([160], it, x, s_in, z_in)], T([160], "float32")))
    return out
