"""FULLY_CONNECTED golden cases: int8 per-tensor and per-channel, with and
without bias, weights zero point, keep_num_dims; float32."""

import numpy as np
from golden_lib import Case, T, calibrated


def fc_int8(
    name,
    seed,
    in_shape,
    units,
    act="NONE",
    per_channel=False,
    bias=True,
    keep_num_dims=False,
    w_zp=0,
    in_zp=4,
    out_zp=-6,
):
    rng = np.random.default_rng(seed)
    depth = in_shape[-1]
    batches = int(np.prod(in_shape)) // depth
    in_scale = float(rng.uniform(0.01, 0.03))
    w_scales = rng.uniform(0.003, 0.01, units) if per_channel else [rng.uniform(0.003, 0.01)]
    x = T(in_shape, "int8", rng.integers(-128, 128, in_shape), in_scale, in_zp)
    w = T(
        [units, depth],
        "int8",
        rng.integers(-127, 128, (units, depth)),
        w_scales,
        [w_zp] * len(w_scales),
        qdim=0,
        constant=True,
    )
    b = None
    if bias:
        b_scales = [np.float32(in_scale) * np.float32(s) for s in w_scales]
        b = T(
            [units],
            "int32",
            rng.integers(-4000, 4000, units),
            b_scales,
            [0] * len(b_scales),
            constant=True,
        )
    out_shape = in_shape[:-1] + [units] if keep_num_dims else [batches, units]
    y = T(out_shape, "int8", None, 1.0, out_zp)
    opts = {"fused_activation_function": act, "keep_num_dims": keep_num_dims}
    return calibrated(Case(name, "FULLY_CONNECTED", opts, [x, w, b], y), rng)


def fc_float(name, seed, in_shape, units, act):
    rng = np.random.default_rng(seed)
    depth = in_shape[-1]
    x = T(in_shape, "float32", rng.normal(0, 1, in_shape))
    w = T(
        [units, depth], "float32", rng.normal(0, 1 / np.sqrt(depth), (units, depth)), constant=True
    )
    b = T([units], "float32", rng.normal(0, 0.3, units), constant=True)
    y = T([int(np.prod(in_shape)) // depth, units], "float32")
    return Case(name, "FULLY_CONNECTED", {"fused_activation_function": act}, [x, w, b], y)


def cases():
    return [
        fc_int8("fc_int8_bias_relu", 301, [2, 10], 6, act="RELU"),
        fc_int8(
            "fc_int8_per_channel_keep_num_dims",
            302,
            [1, 3, 8],
            5,
            per_channel=True,
            keep_num_dims=True,
        ),
        fc_int8("fc_int8_weights_zero_point", 303, [3, 7], 4, bias=False, w_zp=3),
        fc_float("fc_float_bias_relu", 503, [3, 6], 4, "RELU"),
    ]
