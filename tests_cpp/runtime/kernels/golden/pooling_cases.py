"""AVERAGE_POOL_2D / MAX_POOL_2D golden cases: int8, int16, float32; SAME /
VALID, strides, filter shapes, global pooling, activations."""

import numpy as np
from golden_lib import PADDINGS, Case, T, rand_ints


def out_size(padding, size, filt, stride):
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size + stride - filt) // stride


def pool_case(name, op, dtype, in_shape, filt, stride, padding, activation, scale, zp, seed):
    rng = np.random.default_rng(seed)
    if dtype == "float32":
        x = (rng.standard_normal(in_shape) * 4.0).astype(np.float32)
        q = (None, None)
    else:
        x = rand_ints(rng, dtype, in_shape)
        q = (scale, zp)
    n, h, w, c = in_shape
    out_shape = [
        n,
        out_size(padding, h, filt[0], stride[0]),
        out_size(padding, w, filt[1], stride[1]),
        c,
    ]
    assert padding in PADDINGS
    opts = {
        "padding": padding,
        "stride_w": stride[1],
        "stride_h": stride[0],
        "filter_width": filt[1],
        "filter_height": filt[0],
        "fused_activation_function": activation,
    }
    return Case(name, op, opts, [T(in_shape, dtype, x, *q)], T(out_shape, dtype, None, *q))


def cases():
    pl = [
        (
            "avg_s8_same_s2_f3",
            "AVERAGE_POOL_2D",
            "int8",
            [1, 7, 7, 3],
            (3, 3),
            (2, 2),
            "SAME",
            "NONE",
            0.05,
            -3,
        ),
        (
            "avg_s8_valid_s2_f2",
            "AVERAGE_POOL_2D",
            "int8",
            [2, 8, 8, 2],
            (2, 2),
            (2, 2),
            "VALID",
            "NONE",
            0.1,
            0,
        ),
        (
            "avg_s8_same_s1_f4x3_relu6",
            "AVERAGE_POOL_2D",
            "int8",
            [1, 5, 6, 2],
            (4, 3),
            (1, 1),
            "SAME",
            "RELU6",
            0.03,
            -20,
        ),
        (
            "avg_s8_global_valid",
            "AVERAGE_POOL_2D",
            "int8",
            [1, 6, 6, 8],
            (6, 6),
            (1, 1),
            "VALID",
            "NONE",
            0.02,
            -128,
        ),
        (
            "avg_s8_same_s3_f2",
            "AVERAGE_POOL_2D",
            "int8",
            [1, 7, 7, 1],
            (2, 2),
            (3, 3),
            "SAME",
            "RELU",
            0.04,
            6,
        ),
        (
            "max_s8_same_s2_f3",
            "MAX_POOL_2D",
            "int8",
            [1, 9, 9, 4],
            (3, 3),
            (2, 2),
            "SAME",
            "NONE",
            0.05,
            0,
        ),
        (
            "max_s8_valid_s2_f2_relu",
            "MAX_POOL_2D",
            "int8",
            [1, 6, 8, 3],
            (2, 2),
            (2, 2),
            "VALID",
            "RELU",
            0.05,
            5,
        ),
        (
            "max_s8_same_s2_f2_relun1",
            "MAX_POOL_2D",
            "int8",
            [1, 5, 5, 2],
            (2, 2),
            (2, 2),
            "SAME",
            "RELU_N1_TO_1",
            0.02,
            10,
        ),
        (
            "avg_s16_same_s2_f3",
            "AVERAGE_POOL_2D",
            "int16",
            [1, 6, 6, 2],
            (3, 3),
            (2, 2),
            "SAME",
            "NONE",
            0.001,
            0,
        ),
        (
            "max_s16_valid_s1_f2",
            "MAX_POOL_2D",
            "int16",
            [1, 4, 4, 3],
            (2, 2),
            (1, 1),
            "VALID",
            "RELU6",
            0.001,
            0,
        ),
        (
            "avg_f32_same_s2_f3_relu",
            "AVERAGE_POOL_2D",
            "float32",
            [1, 7, 7, 3],
            (3, 3),
            (2, 2),
            "SAME",
            "RELU",
            0.0,
            0,
        ),
        (
            "avg_f32_valid_s2_f2",
            "AVERAGE_POOL_2D",
            "float32",
            [2, 6, 6, 2],
            (2, 2),
            (2, 2),
            "VALID",
            "NONE",
            0.0,
            0,
        ),
        (
            "max_f32_same_s1_f3_relu6",
            "MAX_POOL_2D",
            "float32",
            [1, 5, 5, 2],
            (3, 3),
            (1, 1),
            "SAME",
            "RELU6",
            0.0,
            0,
        ),
        (
            "max_f32_valid_s2_f3",
            "MAX_POOL_2D",
            "float32",
            [1, 7, 6, 2],
            (3, 3),
            (2, 2),
            "VALID",
            "NONE",
            0.0,
            0,
        ),
    ]
    return [pool_case(*row, seed=100 + i) for i, row in enumerate(pl)]
