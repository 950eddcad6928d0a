"""CONV_2D golden cases: int8 per-channel / per-tensor, int16 with int64,
int32 or no bias, float32; SAME / VALID, strides, dilations, activations."""

import numpy as np
from golden_lib import Case, T, calibrated, conv_float_case, conv_opts, conv_out_shape


def conv_int8(
    name, seed, in_shape, filter_shape, opts, per_channel=True, bias=True, in_zp=5, out_zp=-3
):
    rng = np.random.default_rng(seed)
    cout = filter_shape[0]
    in_scale = float(rng.uniform(0.01, 0.03))
    f_scales = rng.uniform(0.002, 0.01, cout) if per_channel else [rng.uniform(0.002, 0.01)]
    x = T(in_shape, "int8", rng.integers(-128, 128, in_shape), in_scale, in_zp)
    w = T(
        filter_shape,
        "int8",
        rng.integers(-127, 128, filter_shape),
        f_scales,
        [0] * len(f_scales),
        qdim=0,
        constant=True,
    )
    b = None
    if bias:
        b_scales = [np.float32(in_scale) * np.float32(s) for s in np.broadcast_to(f_scales, cout)]
        b = T([cout], "int32", rng.integers(-3000, 3000, cout), b_scales, [0] * cout, constant=True)
    y = T(conv_out_shape(in_shape, filter_shape, opts, cout), "int8", None, 1.0, out_zp)
    return calibrated(Case(name, "CONV_2D", opts, [x, w, b], y), rng)


def conv_int16(name, seed, in_shape, filter_shape, opts, bias_type="int64"):
    """int16 activations, int8 per-channel filter (zero points 0)."""
    rng = np.random.default_rng(seed)
    cout = filter_shape[0]
    in_scale = float(rng.uniform(0.0005, 0.002))
    f_scales = rng.uniform(0.002, 0.01, cout)
    x = T(in_shape, "int16", rng.integers(-32768, 32768, in_shape), in_scale, 0)
    w = T(
        filter_shape,
        "int8",
        rng.integers(-127, 128, filter_shape),
        f_scales,
        [0] * cout,
        constant=True,
    )
    b = None
    if bias_type:
        b_scales = [np.float32(in_scale) * np.float32(s) for s in f_scales]
        b = T(
            [cout],
            bias_type,
            rng.integers(-300000, 300000, cout),
            b_scales,
            [0] * cout,
            constant=True,
        )
    y = T(conv_out_shape(in_shape, filter_shape, opts, cout), "int16", None, 1.0, 0)
    return calibrated(Case(name, "CONV_2D", opts, [x, w, b], y), rng)


def conv_float(name, seed, in_shape, filter_shape, opts):
    k = int(np.prod(filter_shape[1:]))
    return conv_float_case("CONV_2D", name, seed, in_shape, filter_shape, opts, filter_shape[0], k)


def cases():
    return [
        conv_int8(
            "conv_int8_same_stride2",
            101,
            [1, 7, 7, 3],
            [4, 3, 3, 3],
            conv_opts("SAME", 2, 2, act="RELU"),
        ),
        conv_int8(
            "conv_int8_same_dilation2",
            102,
            [1, 8, 8, 2],
            [3, 3, 3, 2],
            conv_opts("SAME", 1, 1, 2, 2),
            per_channel=False,
            bias=False,
        ),
        conv_int8(
            "conv_int8_valid_mixed_stride_dilation",
            103,
            [2, 7, 6, 2],
            [3, 2, 3, 2],
            conv_opts("VALID", 2, 1, 1, 2, act="RELU6"),
            in_zp=-7,
            out_zp=10,
        ),
        conv_int8("conv_int8_grouped", 104, [1, 5, 5, 4], [6, 3, 3, 2], conv_opts("SAME", 1, 1)),
        conv_int16(
            "conv_int16_int64_bias_valid", 601, [1, 6, 9, 2], [4, 3, 3, 2], conv_opts("VALID", 2, 1)
        ),
        conv_int16(
            "conv_int16_int32_bias_same_relu",
            602,
            [1, 5, 5, 3],
            [3, 3, 3, 3],
            conv_opts("SAME", 1, 1, act="RELU"),
            bias_type="int32",
        ),
        conv_int16(
            "conv_int16_no_bias_dilation2",
            603,
            [1, 7, 7, 2],
            [2, 3, 3, 2],
            conv_opts("SAME", 1, 1, 2, 2),
            bias_type=None,
        ),
        conv_float(
            "conv_float_same_stride2",
            501,
            [1, 6, 6, 2],
            [3, 3, 3, 2],
            conv_opts("SAME", 2, 2, act="RELU6"),
        ),
    ]
