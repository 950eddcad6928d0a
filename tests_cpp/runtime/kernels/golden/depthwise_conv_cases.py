"""DEPTHWISE_CONV_2D golden cases: int8 per-channel with depth multipliers
1 and 2, strides, dilation, activations; float32."""

import numpy as np
from golden_lib import Case, T, calibrated, conv_float_case, conv_opts, conv_out_shape


def dw_int8(name, seed, in_shape, dm, ksize, opts, in_zp=-3, out_zp=4):
    rng = np.random.default_rng(seed)
    cout = in_shape[3] * dm
    in_scale = float(rng.uniform(0.01, 0.03))
    f_scales = rng.uniform(0.002, 0.02, cout)
    f_shape = [1, ksize[0], ksize[1], cout]
    x = T(in_shape, "int8", rng.integers(-128, 128, in_shape), in_scale, in_zp)
    w = T(
        f_shape,
        "int8",
        rng.integers(-127, 128, f_shape),
        f_scales,
        [0] * cout,
        qdim=3,
        constant=True,
    )
    b_scales = [np.float32(in_scale) * np.float32(s) for s in f_scales]
    # TFLM's depthwise crashes when the bias is omitted, so always give one.
    b = T([cout], "int32", rng.integers(-2000, 2000, cout), b_scales, [0] * cout, constant=True)
    y = T(conv_out_shape(in_shape, f_shape, opts, cout), "int8", None, 1.0, out_zp)
    return calibrated(Case(name, "DEPTHWISE_CONV_2D", opts, [x, w, b], y), rng)


def dw_float(name, seed, in_shape, filter_shape, opts):
    k = filter_shape[1] * filter_shape[2]
    cout = filter_shape[3]
    return conv_float_case("DEPTHWISE_CONV_2D", name, seed, in_shape, filter_shape, opts, cout, k)


def cases():
    return [
        dw_int8(
            "depthwise_int8_dm1",
            201,
            [1, 6, 6, 4],
            1,
            (3, 3),
            conv_opts("SAME", 1, 1, act="RELU6", dm=1),
        ),
        dw_int8(
            "depthwise_int8_dm2_stride2",
            202,
            [1, 5, 5, 3],
            2,
            (3, 3),
            conv_opts("SAME", 2, 2, dm=2),
        ),
        dw_int8(
            "depthwise_int8_valid_dilation2",
            203,
            [2, 7, 7, 2],
            1,
            (3, 3),
            conv_opts("VALID", 1, 1, 2, 2, act="RELU", dm=1),
            in_zp=12,
            out_zp=-20,
        ),
        dw_float(
            "depthwise_float_dm2", 502, [1, 5, 5, 2], [1, 3, 3, 4], conv_opts("SAME", 1, 1, dm=2)
        ),
    ]
