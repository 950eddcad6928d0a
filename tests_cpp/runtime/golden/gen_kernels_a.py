#!/usr/bin/env python3
"""Generate golden vectors for the kernels-A unit tests from the real TFLM.

Each case is a one-operator model (CONV_2D, DEPTHWISE_CONV_2D,
FULLY_CONNECTED or ADD) with seeded random inputs and weights, built with
``tflm_arena.builder`` and run by the ``tflite_micro`` Python interpreter
(TFLM's reference kernels). The inputs, parameters and TFLM's outputs are
written to ``kernels_a_golden.h`` beside this script, which
``tests_cpp/runtime/kernels_a_test.cc`` replays through our kernel math.

Usage: python3 gen_kernels_a.py [output.h]

int8 output scales are calibrated by re-running TFLM until the largest output
magnitude is around 100 (few saturated values), then perturbed so the
requantization multipliers are not round numbers.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Optional

import numpy as np
import tflite_micro
from tflite_micro.python.tflite_micro import runtime

from tflm_arena import builder

_PADDING = {"SAME": 0, "VALID": 1}

ACTIVATIONS = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3}
TYPE_CODES = {"float32": 0, "int32": 2, "int64": 4, "int16": 7, "int8": 9}


class T:
    """One tensor of a case: shape, dtype, quantization, contents."""

    def __init__(self, shape, dtype, data=None, scale=None, zero_point=None, qdim=0):
        self.shape = list(shape)
        self.dtype = dtype
        self.data = None if data is None else np.asarray(data).astype(dtype).reshape(shape)
        self.scale = None if scale is None else [float(np.float32(s)) for s in np.atleast_1d(scale)]
        if self.scale is not None and zero_point is None:
            zero_point = [0] * len(self.scale)
        self.zero_point = (None if zero_point is None
                           else [int(z) for z in np.atleast_1d(zero_point)])
        self.qdim = qdim

    def add_to(self, mb: builder.ModelBuilder, name: str, constant: bool) -> int:
        kwargs: dict[str, Any] = {}
        if self.scale is not None:
            kwargs.update(scale=self.scale, zero_point=self.zero_point,
                          quantized_dimension=self.qdim)
        data = self.data if constant else None
        return mb.add_tensor(self.shape, self.dtype, name, data=data, **kwargs)


def run_tflm(case: dict) -> np.ndarray:
    """Build the case's one-op model and return TFLM's output."""
    mb = builder.ModelBuilder()
    op = case["op"]
    x = case["input"].add_to(mb, "input", constant=False)
    if op == "ADD":
        w = case["weights"].add_to(mb, "input2", constant=False)
        graph_inputs = [x, w]
    else:
        w = case["weights"].add_to(mb, "weights", constant=True)
        graph_inputs = [x]
    inputs = [x, w]
    if op != "ADD":
        inputs.append(case["bias"].add_to(mb, "bias", constant=True) if case["bias"] else -1)
    y = case["output"].add_to(mb, "output", constant=False)
    mb.add_operator(op, inputs, [y], options=case["options"])
    mb.set_io(graph_inputs, [y])
    interp = runtime.Interpreter.from_bytes(mb.build(), arena_size=1 << 20)
    interp.set_input(case["input"].data, 0)
    if op == "ADD":
        interp.set_input(case["weights"].data, 1)
    interp.invoke()
    return np.array(interp.get_output(0)).reshape(case["output"].shape)


def calibrate(case: dict, rng: np.random.Generator) -> None:
    """Pick the quantized output scale so outputs use most of the range
    (peak around 100 for int8, 25000 for int16)."""
    out = case["output"]
    if out.dtype not in ("int8", "int16"):
        return
    top = 127 if out.dtype == "int8" else 32767
    target = 100 if out.dtype == "int8" else 25000
    zp = out.zero_point[0]
    scale = out.scale[0]
    for _ in range(12):
        out.scale = [float(np.float32(scale))]
        q = run_tflm(case).astype(np.int64) - zp
        peak = int(np.max(np.abs(q)))
        if peak >= top:
            scale *= 4.0
        elif peak < target * 0.6:
            scale *= max(peak, 1) / target
        else:
            break
    out.scale = [float(np.float32(scale * rng.uniform(1.0, 1.1)))]


# --- cases -----------------------------------------------------------------

def conv_int8(name, seed, in_shape, filter_shape, opts, per_channel=True, bias=True,
              in_zp=5, out_zp=-3):
    rng = np.random.default_rng(seed)
    cout = filter_shape[0]
    in_scale = float(rng.uniform(0.01, 0.03))
    f_scales = rng.uniform(0.002, 0.01, cout) if per_channel else [rng.uniform(0.002, 0.01)]
    x = T(in_shape, "int8", rng.integers(-128, 128, in_shape), in_scale, in_zp)
    w = T(filter_shape, "int8", rng.integers(-127, 128, filter_shape), f_scales,
          [0] * len(f_scales), qdim=0)
    b = None
    if bias:
        b_scales = [np.float32(in_scale) * np.float32(s) for s in np.broadcast_to(f_scales, cout)]
        b = T([cout], "int32", rng.integers(-3000, 3000, cout), b_scales, [0] * cout)
    out_shape = conv_out_shape(in_shape, filter_shape, opts, cout)
    y = T(out_shape, "int8", None, 1.0, out_zp)
    return dict(name=name, op="CONV_2D", options=opts, input=x, weights=w, bias=b, output=y), rng


def conv_int16(name, seed, in_shape, filter_shape, opts, bias_type="int64"):
    """int16 activations, int8 per-channel filter (zero points 0)."""
    rng = np.random.default_rng(seed)
    cout = filter_shape[0]
    in_scale = float(rng.uniform(0.0005, 0.002))
    f_scales = rng.uniform(0.002, 0.01, cout)
    x = T(in_shape, "int16", rng.integers(-32768, 32768, in_shape), in_scale, 0)
    w = T(filter_shape, "int8", rng.integers(-127, 128, filter_shape), f_scales, [0] * cout)
    b = None
    if bias_type:
        b_scales = [np.float32(in_scale) * np.float32(s) for s in f_scales]
        b = T([cout], bias_type, rng.integers(-300000, 300000, cout), b_scales, [0] * cout)
    y = T(conv_out_shape(in_shape, filter_shape, opts, cout), "int16", None, 1.0, 0)
    return dict(name=name, op="CONV_2D", options=opts, input=x, weights=w, bias=b, output=y), rng


def conv_out_shape(in_shape, filter_shape, opts, cout):
    def size(n, k, s, d):
        eff = (k - 1) * d + 1
        return (n + s - 1) // s if opts["padding"] == "SAME" else (n + s - eff) // s
    return [in_shape[0],
            size(in_shape[1], filter_shape[1], opts["stride_h"], opts["dilation_h_factor"]),
            size(in_shape[2], filter_shape[2], opts["stride_w"], opts["dilation_w_factor"]),
            cout]


def conv_opts(padding, stride_w, stride_h, dil_w=1, dil_h=1, act="NONE", dm=None):
    o = {"padding": padding, "stride_w": stride_w, "stride_h": stride_h,
         "dilation_w_factor": dil_w, "dilation_h_factor": dil_h,
         "fused_activation_function": act}
    if dm is not None:
        o["depth_multiplier"] = dm
    return o


def dw_int8(name, seed, in_shape, dm, ksize, opts, in_zp=-3, out_zp=4):
    rng = np.random.default_rng(seed)
    cout = in_shape[3] * dm
    in_scale = float(rng.uniform(0.01, 0.03))
    f_scales = rng.uniform(0.002, 0.02, cout)
    f_shape = [1, ksize[0], ksize[1], cout]
    x = T(in_shape, "int8", rng.integers(-128, 128, in_shape), in_scale, in_zp)
    w = T(f_shape, "int8", rng.integers(-127, 128, f_shape), f_scales, [0] * cout, qdim=3)
    b_scales = [np.float32(in_scale) * np.float32(s) for s in f_scales]
    # TFLM's depthwise crashes when the bias is omitted, so always give one.
    b = T([cout], "int32", rng.integers(-2000, 2000, cout), b_scales, [0] * cout)
    y = T(conv_out_shape(in_shape, f_shape, opts, cout), "int8", None, 1.0, out_zp)
    return dict(name=name, op="DEPTHWISE_CONV_2D", options=opts, input=x, weights=w, bias=b,
                output=y), rng


def fc_int8(name, seed, in_shape, units, act="NONE", per_channel=False, bias=True,
            keep_num_dims=False, w_zp=0, in_zp=4, out_zp=-6):
    rng = np.random.default_rng(seed)
    depth = in_shape[-1]
    batches = int(np.prod(in_shape)) // depth
    in_scale = float(rng.uniform(0.01, 0.03))
    w_scales = rng.uniform(0.003, 0.01, units) if per_channel else [rng.uniform(0.003, 0.01)]
    x = T(in_shape, "int8", rng.integers(-128, 128, in_shape), in_scale, in_zp)
    w = T([units, depth], "int8", rng.integers(-127, 128, (units, depth)), w_scales,
          [w_zp] * len(w_scales), qdim=0)
    b = None
    if bias:
        b_scales = [np.float32(in_scale) * np.float32(s) for s in w_scales]
        b = T([units], "int32", rng.integers(-4000, 4000, units), b_scales, [0] * len(b_scales))
    out_shape = in_shape[:-1] + [units] if keep_num_dims else [batches, units]
    y = T(out_shape, "int8", None, 1.0, out_zp)
    opts = {"fused_activation_function": act, "keep_num_dims": keep_num_dims}
    return dict(name=name, op="FULLY_CONNECTED", options=opts, input=x, weights=w, bias=b,
                output=y), rng


def broadcast_shape(a, b):
    return list(np.broadcast_shapes(tuple(a), tuple(b)))


def add_int8(name, seed, shape1, shape2, act="NONE", zps=(-5, 7, -3), dtype="int8"):
    rng = np.random.default_rng(seed)
    # int16 inputs span about +-6 so a fused RELU6 does not saturate everything.
    s_lo, s_hi = (0.01, 0.06) if dtype == "int8" else (0.00005, 0.0002)
    s1, s2 = (float(v) for v in rng.uniform(s_lo, s_hi, 2))
    lo, hi = (-128, 128) if dtype == "int8" else (-32768, 32768)
    x1 = T(shape1, dtype, rng.integers(lo, hi, shape1), s1, zps[0])
    x2 = T(shape2, dtype, rng.integers(lo, hi, shape2), s2, zps[1])
    y = T(broadcast_shape(shape1, shape2), dtype, None, 1.0, zps[2])
    opts = {"fused_activation_function": act}
    return dict(name=name, op="ADD", options=opts, input=x1, weights=x2, bias=None,
                output=y), rng


def conv_float(name, seed, in_shape, filter_shape, opts, op="CONV_2D"):
    rng = np.random.default_rng(seed)
    cout = filter_shape[0] if op == "CONV_2D" else filter_shape[3]
    k = int(np.prod(filter_shape[1:])) if op == "CONV_2D" else filter_shape[1] * filter_shape[2]
    x = T(in_shape, "float32", rng.normal(0, 1, in_shape))
    w = T(filter_shape, "float32", rng.normal(0, 1 / np.sqrt(k), filter_shape))
    b = T([cout], "float32", rng.normal(0, 0.3, cout))
    y = T(conv_out_shape(in_shape, filter_shape, opts, cout), "float32")
    return dict(name=name, op=op, options=opts, input=x, weights=w, bias=b, output=y), rng


def fc_float(name, seed, in_shape, units, act):
    rng = np.random.default_rng(seed)
    depth = in_shape[-1]
    x = T(in_shape, "float32", rng.normal(0, 1, in_shape))
    w = T([units, depth], "float32", rng.normal(0, 1 / np.sqrt(depth), (units, depth)))
    b = T([units], "float32", rng.normal(0, 0.3, units))
    y = T([int(np.prod(in_shape)) // depth, units], "float32")
    opts = {"fused_activation_function": act}
    return dict(name=name, op="FULLY_CONNECTED", options=opts, input=x, weights=w, bias=b,
                output=y), rng


def add_int32(name, seed, shape1, shape2):
    rng = np.random.default_rng(seed)
    x1 = T(shape1, "int32", rng.integers(-(1 << 30), 1 << 30, shape1))
    x2 = T(shape2, "int32", rng.integers(-(1 << 30), 1 << 30, shape2))
    y = T(broadcast_shape(shape1, shape2), "int32")
    return dict(name=name, op="ADD", options={}, input=x1, weights=x2, bias=None, output=y), rng


def add_float(name, seed, shape1, shape2, act):
    rng = np.random.default_rng(seed)
    x1 = T(shape1, "float32", rng.normal(0, 1, shape1))
    x2 = T(shape2, "float32", rng.normal(0, 1, shape2))
    y = T(broadcast_shape(shape1, shape2), "float32")
    return dict(name=name, op="ADD", options={"fused_activation_function": act}, input=x1,
                weights=x2, bias=None, output=y), rng


CASES: list[Callable[[], tuple[dict, np.random.Generator]]] = [
    lambda: conv_int8("conv_int8_same_stride2", 101, [1, 7, 7, 3], [4, 3, 3, 3],
                      conv_opts("SAME", 2, 2, act="RELU")),
    lambda: conv_int8("conv_int8_same_dilation2", 102, [1, 8, 8, 2], [3, 3, 3, 2],
                      conv_opts("SAME", 1, 1, 2, 2), per_channel=False, bias=False),
    lambda: conv_int8("conv_int8_valid_mixed_stride_dilation", 103, [2, 7, 6, 2], [3, 2, 3, 2],
                      conv_opts("VALID", 2, 1, 1, 2, act="RELU6"), in_zp=-7, out_zp=10),
    lambda: conv_int8("conv_int8_grouped", 104, [1, 5, 5, 4], [6, 3, 3, 2],
                      conv_opts("SAME", 1, 1)),
    lambda: dw_int8("depthwise_int8_dm1", 201, [1, 6, 6, 4], 1, (3, 3),
                    conv_opts("SAME", 1, 1, act="RELU6", dm=1)),
    lambda: dw_int8("depthwise_int8_dm2_stride2", 202, [1, 5, 5, 3], 2, (3, 3),
                    conv_opts("SAME", 2, 2, dm=2)),
    lambda: dw_int8("depthwise_int8_valid_dilation2", 203, [2, 7, 7, 2], 1, (3, 3),
                    conv_opts("VALID", 1, 1, 2, 2, act="RELU", dm=1), in_zp=12, out_zp=-20),
    lambda: fc_int8("fc_int8_bias_relu", 301, [2, 10], 6, act="RELU"),
    lambda: fc_int8("fc_int8_per_channel_keep_num_dims", 302, [1, 3, 8], 5, per_channel=True,
                    keep_num_dims=True),
    lambda: fc_int8("fc_int8_weights_zero_point", 303, [3, 7], 4, bias=False, w_zp=3),
    lambda: add_int8("add_int8_same_shape", 401, [1, 4, 4, 3], [1, 4, 4, 3], act="RELU"),
    lambda: add_int8("add_int8_broadcast_channel", 402, [1, 3, 4, 5], [5]),
    lambda: add_int8("add_int8_broadcast_two_way", 403, [2, 1, 3, 1], [1, 4, 1, 2],
                     act="RELU6", zps=(3, -9, 0)),
    lambda: conv_int16("conv_int16_int64_bias_valid", 601, [1, 6, 9, 2], [4, 3, 3, 2],
                       conv_opts("VALID", 2, 1)),
    lambda: conv_int16("conv_int16_int32_bias_same_relu", 602, [1, 5, 5, 3], [3, 3, 3, 3],
                       conv_opts("SAME", 1, 1, act="RELU"), bias_type="int32"),
    lambda: conv_int16("conv_int16_no_bias_dilation2", 603, [1, 7, 7, 2], [2, 3, 3, 2],
                       conv_opts("SAME", 1, 1, 2, 2), bias_type=None),
    lambda: add_int8("add_int16_same_shape", 404, [1, 2, 5, 4], [1, 2, 5, 4], zps=(0, 0, 0),
                     dtype="int16"),
    lambda: add_int8("add_int16_broadcast_relu", 405, [3, 4, 4], [4, 1], act="RELU",
                     zps=(0, 0, 0), dtype="int16"),
    lambda: add_int32("add_int32_broadcast", 406, [2, 3], [3]),
    lambda: conv_float("conv_float_same_stride2", 501, [1, 6, 6, 2], [3, 3, 3, 2],
                       conv_opts("SAME", 2, 2, act="RELU6")),
    lambda: conv_float("depthwise_float_dm2", 502, [1, 5, 5, 2], [1, 3, 3, 4],
                       conv_opts("SAME", 1, 1, dm=2), op="DEPTHWISE_CONV_2D"),
    lambda: fc_float("fc_float_bias_relu", 503, [3, 6], 4, "RELU"),
    lambda: add_float("add_float_broadcast", 504, [2, 3, 1], [1, 4], "RELU"),
    lambda: add_float("add_float_same_shape", 505, [2, 5], [2, 5], "NONE"),
]


# --- C++ emission ------------------------------------------------------------

def c_float(v: float) -> str:
    return float(np.float32(v)).hex() + "f"


def c_array(ctype: str, name: str, values, fmt=str) -> str:
    items = [fmt(v) for v in values]
    head = f"constexpr {ctype} {name}[] = {{"
    if len(head) + sum(len(i) + 2 for i in items) < 100:
        return head + ", ".join(items) + "};\n"
    per_line = 6 if fmt is c_float else 16
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return head + "\n    " + ",\n    ".join(lines) + "};\n"


def emit_tensor(prefix: str, t: Optional[T], data: Optional[np.ndarray]) -> tuple[str, str]:
    """Returns (array definitions, GoldenTensor initializer)."""
    if t is None:
        return "", "{}"
    defs = ""
    defs += c_array("int32_t", f"{prefix}_shape", t.shape) if t.shape else ""
    shape = f"{prefix}_shape" if t.shape else "nullptr"
    scale, zp, nscale = "nullptr", "nullptr", 0
    if t.scale is not None:
        defs += c_array("float", f"{prefix}_scale", t.scale, c_float)
        defs += c_array("int64_t", f"{prefix}_zero_point", t.zero_point)
        scale, zp, nscale = f"{prefix}_scale", f"{prefix}_zero_point", len(t.scale)
    ctype = {"int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
             "float32": "float"}[t.dtype]
    flat = np.asarray(data).reshape(-1)
    fmt = c_float if t.dtype == "float32" else (lambda v: str(int(v)))
    defs += c_array(ctype, f"{prefix}_data", flat, fmt)
    init = (f"{{{TYPE_CODES[t.dtype]}, {shape}, {len(t.shape)}, {scale}, {nscale}, {zp}, "
            f"{t.qdim}, {prefix}_data, {flat.size}}}")
    return defs, init


HEADER = """\
// GENERATED by gen_kernels_a.py with tflite_micro {version} -- do not edit.
// Golden vectors: one-operator models run by TFLM's reference kernels.
#ifndef TFLM_ARENA_TESTS_RUNTIME_GOLDEN_KERNELS_A_GOLDEN_H_
#define TFLM_ARENA_TESTS_RUNTIME_GOLDEN_KERNELS_A_GOLDEN_H_

#include <cstdint>

namespace kernels_a_golden {{

struct GoldenTensor {{
  int32_t type = -1;                   // model::TensorType value; -1 = absent
  const int32_t* shape = nullptr;
  int32_t rank = 0;
  const float* scale = nullptr;        // nullptr when not quantized
  int32_t num_scales = 0;
  const int64_t* zero_point = nullptr; // num_scales entries
  int32_t quantized_dimension = 0;
  const void* data = nullptr;          // contents; for the output, TFLM's result
  int64_t num_elements = 0;
}};

struct GoldenCase {{
  const char* name;
  const char* op;                      // CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD
  int32_t padding;                     // 0 SAME, 1 VALID
  int32_t stride_w, stride_h, dilation_w, dilation_h, depth_multiplier;
  int32_t activation;                  // model::Activation value
  bool keep_num_dims;
  GoldenTensor input;
  GoldenTensor weights;                // filter / weights, or ADD's second input
  GoldenTensor bias;                   // type -1 when omitted
  GoldenTensor output;
}};

"""


def main() -> None:
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "kernels_a_golden.h")
    text = HEADER.format(version=tflite_micro.__version__)
    inits = []
    for make in CASES:
        case, rng = make()
        calibrate(case, rng)
        result = run_tflm(case)
        name = case["name"]
        text += f"// {name}\n"
        parts = []
        for role in ("input", "weights", "bias", "output"):
            t = case[role]
            data = result if role == "output" else (t.data if t is not None else None)
            defs, init = emit_tensor(f"k_{name}_{role}", t, data)
            text += defs
            parts.append(init)
        o = case["options"]
        act = ACTIVATIONS[o.get("fused_activation_function", "NONE")]
        padding = _PADDING.get(o.get("padding", "SAME"))
        inits.append(
            f"    {{\"{name}\", \"{case['op']}\", {padding}, {o.get('stride_w', 0)}, "
            f"{o.get('stride_h', 0)}, {o.get('dilation_w_factor', 1)}, "
            f"{o.get('dilation_h_factor', 1)}, {o.get('depth_multiplier', 0)}, {act}, "
            f"{'true' if o.get('keep_num_dims') else 'false'},\n     "
            + ",\n     ".join(parts) + "},\n")
        text += "\n"
    text += "constexpr GoldenCase kCases[] = {\n" + "".join(inits) + "};\n\n"
    text += "}  // namespace kernels_a_golden\n\n"
    text += "#endif  // TFLM_ARENA_TESTS_RUNTIME_GOLDEN_KERNELS_A_GOLDEN_H_\n"
    with open(out_path, "w") as f:
        f.write(text)
    print(f"wrote {len(CASES)} cases to {out_path}")


if __name__ == "__main__":
    main()
