#!/usr/bin/env python3
"""Golden vectors for the kernels_b math (pooling, softmax, quantize,
dequantize) computed by the REAL TFLM (the `tflite_micro` Python package).

For every case a one-operator model is built (tflm_arena.builder), run by
tflite_micro on seeded random inputs, and the inputs, parameters and TFLM's
outputs are written to kernels_b_golden.h next to this script. The header
also records how many persistent-buffer bytes TFLM's kernel requested for
the node (from the RecordingMicroAllocator report, minus the interpreter's
own 8-byte input and output pointer arrays).

Run from anywhere:  python3 tests_cpp/runtime/golden/gen_kernels_b.py
"""
from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np
from tflite_micro import runtime as tflm_runtime

from tflm_arena import builder as tb

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "kernels_b_golden.h")

TYPE_CODE = {"float32": 0, "int32": 2, "uint8": 3, "int16": 7, "int8": 9}
C_TYPE = {"float32": "float", "int32": "int32_t", "uint8": "uint8_t", "int16": "int16_t",
          "int8": "int8_t"}
PADDING = {"SAME": 0, "VALID": 1}
ACTIVATION = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3}


class PoolModelBuilder(tb.ModelBuilder):
    """ModelBuilder with a shorthand for pooling operators."""

    def __init__(self) -> None:
        super().__init__("kernels b golden")

    def add_pool(self, op: str, x: int, y: int, **opts: int) -> None:
        self.add_operator(op, [x], [y], options={
            "padding": opts["padding"], "stride_w": opts["stride_w"],
            "stride_h": opts["stride_h"], "filter_width": opts["filter_w"],
            "filter_height": opts["filter_h"],
            "fused_activation_function": opts["activation"]})


_PERSISTENT_RE = re.compile(
    r"'Persistent buffer data' used \d+ bytes with alignment overhead "
    r"\(requested (\d+) bytes for (\d+) allocations\)")


def run_tflm(model: bytes, x: np.ndarray) -> tuple[np.ndarray, int]:
    """Runs the model once; returns (output, kernel persistent bytes)."""
    interp = tflm_runtime.Interpreter.from_bytes(model, arena_size=256 * 1024)
    interp.set_input(x, 0)
    interp.invoke()
    y = interp.get_output(0)
    # print_allocations writes to the C-level stderr: capture fd 2.
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            interp.print_allocations()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode("utf-8", "replace")
    m = _PERSISTENT_RE.search(text)
    if m is None:
        raise RuntimeError("no persistent buffer line in:\n" + text)
    # The interpreter itself requests the input and output pointer arrays
    # (8 bytes each on 64-bit); the rest is the kernel's.
    kernel_bytes = int(m.group(1)) - 16
    return y, kernel_bytes


# --------------------------------------------------------------------------
# Case descriptions
# --------------------------------------------------------------------------

@dataclass
class Case:
    kind: str                 # softmax | pool | quantize | dequantize
    name: str
    in_type: str
    out_type: str
    in_shape: list[int]
    out_shape: list[int]
    x: np.ndarray
    y: np.ndarray = None
    persistent: int = 0
    in_scale: float = 0.0
    in_zp: int = 0
    out_scale: float = 0.0
    out_zp: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def rand_ints(rng, dtype: str, shape, lo=None, hi=None) -> np.ndarray:
    info = np.iinfo(np.dtype(dtype))
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return rng.integers(lo, hi + 1, size=shape, dtype=np.int64).astype(dtype)


def tensor(mb, shape, dtype, name, scale, zp):
    if dtype == "float32" and scale == 0.0:
        return mb.add_tensor(shape, dtype, name)
    return mb.add_tensor(shape, dtype, name, scale=scale, zero_point=zp)


def softmax_case(name, in_type, out_type, shape, in_scale, in_zp, beta, seed,
                 x: Optional[np.ndarray] = None) -> Case:
    rng = np.random.default_rng(seed)
    if x is None:
        if in_type == "float32":
            x = (rng.standard_normal(shape) * 3.0).astype(np.float32)
        else:
            x = rand_ints(rng, in_type, shape)
    out_scale, out_zp = {"float32": (0.0, 0), "int8": (1.0 / 256, -128),
                         "int16": ((1.0 / 65536, -32768) if in_type == "int8"
                                   else (1.0 / 32768, 0))}[out_type]
    mb = tb.ModelBuilder()
    a = tensor(mb, shape, in_type, "x", in_scale, in_zp)
    b = tensor(mb, shape, out_type, "y", out_scale, out_zp)
    mb.add_operator("SOFTMAX", [a], [b], options={"beta": beta})
    mb.set_io([a], [b])
    y, pers = run_tflm(mb.build(), x)
    return Case("softmax", name, in_type, out_type, list(shape), list(shape), x, y, pers,
                in_scale, in_zp, out_scale, out_zp, {"beta": beta})


def out_size(padding, size, filt, stride):
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size + stride - filt) // stride


def pool_case(name, op, dtype, in_shape, filt, stride, padding, activation, scale, zp, seed):
    rng = np.random.default_rng(seed)
    if dtype == "float32":
        x = (rng.standard_normal(in_shape) * 4.0).astype(np.float32)
    else:
        x = rand_ints(rng, dtype, in_shape)
    n, h, w, c = in_shape
    out_shape = [n, out_size(padding, h, filt[0], stride[0]),
                 out_size(padding, w, filt[1], stride[1]), c]
    mb = PoolModelBuilder()
    a = tensor(mb, in_shape, dtype, "x", scale, zp)
    b = tensor(mb, out_shape, dtype, "y", scale, zp)
    mb.add_pool(op, a, b, padding=PADDING[padding], stride_w=stride[1], stride_h=stride[0],
                filter_w=filt[1], filter_h=filt[0], activation=ACTIVATION[activation])
    mb.set_io([a], [b])
    y, pers = run_tflm(mb.build(), x)
    return Case("pool", name, dtype, dtype, list(in_shape), out_shape, x, y, pers,
                scale, zp, scale, zp,
                {"op": 0 if op == "AVERAGE_POOL_2D" else 1, "padding": PADDING[padding],
                 "stride_h": stride[0], "stride_w": stride[1], "filter_h": filt[0],
                 "filter_w": filt[1], "activation": ACTIVATION[activation]})


def unary_case(kind, name, in_type, out_type, shape, in_scale, in_zp, out_scale, out_zp, x):
    mb = tb.ModelBuilder()
    a = tensor(mb, shape, in_type, "x", in_scale, in_zp)
    b = tensor(mb, shape, out_type, "y", out_scale, out_zp)
    mb.add_operator(kind.upper(), [a], [b])
    mb.set_io([a], [b])
    y, pers = run_tflm(mb.build(), x)
    return Case(kind, name, in_type, out_type, list(shape), list(shape), x, y, pers,
                in_scale, in_zp, out_scale, out_zp)


def build_cases() -> list[Case]:
    cases: list[Case] = []
    # ---- SOFTMAX --------------------------------------------------------
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
    for name, it, ot, shape, scale, zp, beta, seed in sm:
        cases.append(softmax_case(name, it, ot, shape, scale, zp, beta, seed))
    # Rows with ties, extremes and a constant row.
    special = np.array([[127, 127, -128, 0, 5, 127, -1, -128],
                        [-128] * 8,
                        [3] * 8,
                        [-128, -127, -126, -125, 124, 125, 126, 127]], dtype=np.int8)
    cases.append(softmax_case("s8_special_rows_0p0625", "int8", "int8", [4, 8], 0.0625, 0,
                              1.0, 0, x=special))
    cases.append(softmax_case("s8_special_rows_0p0039", "int8", "int8", [4, 8], 0.00390625,
                              0, 1.0, 0, x=special))

    # ---- POOLING --------------------------------------------------------
    pl = [
        ("avg_s8_same_s2_f3", "AVERAGE_POOL_2D", "int8", [1, 7, 7, 3], (3, 3), (2, 2), "SAME",
         "NONE", 0.05, -3),
        ("avg_s8_valid_s2_f2", "AVERAGE_POOL_2D", "int8", [2, 8, 8, 2], (2, 2), (2, 2),
         "VALID", "NONE", 0.1, 0),
        ("avg_s8_same_s1_f4x3_relu6", "AVERAGE_POOL_2D", "int8", [1, 5, 6, 2], (4, 3), (1, 1),
         "SAME", "RELU6", 0.03, -20),
        ("avg_s8_global_valid", "AVERAGE_POOL_2D", "int8", [1, 6, 6, 8], (6, 6), (1, 1),
         "VALID", "NONE", 0.02, -128),
        ("avg_s8_same_s3_f2", "AVERAGE_POOL_2D", "int8", [1, 7, 7, 1], (2, 2), (3, 3), "SAME",
         "RELU", 0.04, 6),
        ("max_s8_same_s2_f3", "MAX_POOL_2D", "int8", [1, 9, 9, 4], (3, 3), (2, 2), "SAME",
         "NONE", 0.05, 0),
        ("max_s8_valid_s2_f2_relu", "MAX_POOL_2D", "int8", [1, 6, 8, 3], (2, 2), (2, 2),
         "VALID", "RELU", 0.05, 5),
        ("max_s8_same_s2_f2_relun1", "MAX_POOL_2D", "int8", [1, 5, 5, 2], (2, 2), (2, 2),
         "SAME", "RELU_N1_TO_1", 0.02, 10),
        ("avg_s16_same_s2_f3", "AVERAGE_POOL_2D", "int16", [1, 6, 6, 2], (3, 3), (2, 2),
         "SAME", "NONE", 0.001, 0),
        ("max_s16_valid_s1_f2", "MAX_POOL_2D", "int16", [1, 4, 4, 3], (2, 2), (1, 1), "VALID",
         "RELU6", 0.001, 0),
        ("avg_f32_same_s2_f3_relu", "AVERAGE_POOL_2D", "float32", [1, 7, 7, 3], (3, 3), (2, 2),
         "SAME", "RELU", 0.0, 0),
        ("avg_f32_valid_s2_f2", "AVERAGE_POOL_2D", "float32", [2, 6, 6, 2], (2, 2), (2, 2),
         "VALID", "NONE", 0.0, 0),
        ("max_f32_same_s1_f3_relu6", "MAX_POOL_2D", "float32", [1, 5, 5, 2], (3, 3), (1, 1),
         "SAME", "RELU6", 0.0, 0),
        ("max_f32_valid_s2_f3", "MAX_POOL_2D", "float32", [1, 7, 6, 2], (3, 3), (2, 2),
         "VALID", "NONE", 0.0, 0),
    ]
    for i, (name, op, dt, shape, f, s, pad, act, scale, zp) in enumerate(pl):
        cases.append(pool_case(name, op, dt, shape, f, s, pad, act, scale, zp, 100 + i))

    # ---- QUANTIZE -------------------------------------------------------
    rng = np.random.default_rng(200)
    xf = (rng.standard_normal(160) * 3.0).astype(np.float32)
    halves = ((np.arange(-20, 20) + 0.5) * 0.05).astype(np.float32)  # ties in x / scale
    xf = np.concatenate([xf, halves, np.array([7.0, -7.0, 1e3, -1e3, 0.0, -0.0],
                                              dtype=np.float32)])
    cases.append(unary_case("quantize", "f32_s8", "float32", "int8", [xf.size], 0.0, 0, 0.05,
                            -10, xf))
    xf16 = (rng.standard_normal(120) * 10.0).astype(np.float32)
    xf16 = np.concatenate([xf16, np.array([40.0, -40.0, 0.0005, -0.0005, 0.0015],
                                          dtype=np.float32)])
    cases.append(unary_case("quantize", "f32_s16", "float32", "int16", [xf16.size], 0.0, 0,
                            0.001, 0, xf16))
    ext = np.array([1e10, -1e10, np.inf, -np.inf, 3e9, -3e9], dtype=np.float32)
    cases.append(unary_case("quantize", "f32_s8_extremes_zp_neg", "float32", "int8",
                            [ext.size], 0.0, 0, 0.5, -3, ext))
    cases.append(unary_case("quantize", "f32_s8_extremes_zp_pos", "float32", "int8",
                            [ext.size], 0.0, 0, 0.5, 3, ext))
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
        cases.append(unary_case("quantize", name, it, ot, [150], s_in, z_in, s_out, z_out, x))

    # ---- DEQUANTIZE -----------------------------------------------------
    dq = [
        ("s8_f32", "int8", 0.0374, -11),
        ("s8_f32_scale_third", "int8", 1.0 / 3.0, 0),
        ("s16_f32", "int16", 0.00012, 0),
        ("u8_f32", "uint8", 0.5, 128),
    ]
    for i, (name, it, s_in, z_in) in enumerate(dq):
        r = np.random.default_rng(400 + i)
        x = rand_ints(r, it, [160])
        cases.append(unary_case("dequantize", name, it, "float32", [160], s_in, z_in, 0.0, 0, x))
    return cases


# --------------------------------------------------------------------------
# C++ emission
# --------------------------------------------------------------------------

def c_float(v: float) -> str:
    v = float(v)
    if math.isinf(v):
        return "__builtin_huge_valf()" if v > 0 else "-__builtin_huge_valf()"
    if math.isnan(v):
        return "__builtin_nanf(\"\")"
    if v == 0.0:
        return "-0.0f" if math.copysign(1.0, v) < 0 else "0.0f"
    return float(np.float32(v)).hex() + "f"


def c_array(name: str, dtype: str, values: np.ndarray) -> str:
    flat = np.asarray(values).reshape(-1)
    if dtype == "float32":
        items = [c_float(v) for v in flat]
    elif dtype == "int32":
        items = [f"{int(v)}" if int(v) != -2**31 else "(-2147483647 - 1)" for v in flat]
    else:
        items = [str(int(v)) for v in flat]
    lines = []
    per_line = 6 if dtype == "float32" else 16
    for i in range(0, len(items), per_line):
        lines.append("    " + ", ".join(items[i:i + per_line]) + ",")
    return (f"static const {C_TYPE[dtype]} {name}[{len(items)}] = {{\n" + "\n".join(lines)
            + "\n};\n")


def shape4(shape: list[int]) -> str:
    s = list(shape) + [0] * (4 - len(shape))
    return "{" + ", ".join(str(v) for v in s) + "}"


def emit(cases: list[Case]) -> str:
    out = []
    out.append("// GENERATED by gen_kernels_b.py from the real TFLM (tflite_micro "
               f"{getattr(sys.modules['tflite_micro'], '__version__', '?')}). Do not edit.\n")
    out.append("#ifndef TESTS_CPP_RUNTIME_GOLDEN_KERNELS_B_GOLDEN_H_\n"
               "#define TESTS_CPP_RUNTIME_GOLDEN_KERNELS_B_GOLDEN_H_\n\n"
               "#include <cstddef>\n#include <cstdint>\n\nnamespace kernels_b_golden {\n\n")
    out.append("// Element types use the TFLite TensorType codes.\n"
               "enum Type : int32_t { kFloat32 = 0, kInt32 = 2, kUint8 = 3, kInt16 = 7, "
               "kInt8 = 9 };\n\n")
    out.append(
        "// One single-operator TFLM run. kind: 0 softmax, 1 pool, 2 quantize, 3 dequantize.\n"
        "struct Case {\n"
        "  const char* name;\n"
        "  int32_t kind;\n"
        "  int32_t in_type, out_type;\n"
        "  int32_t in_rank; int32_t in_shape[4];\n"
        "  int32_t out_rank; int32_t out_shape[4];\n"
        "  int32_t in_count, out_count;\n"
        "  float in_scale; int32_t in_zero_point;\n"
        "  float out_scale; int32_t out_zero_point;\n"
        "  float beta;                        // softmax\n"
        "  int32_t pool_op;                   // 0 average, 1 max\n"
        "  int32_t padding;                   // 0 SAME, 1 VALID\n"
        "  int32_t stride_h, stride_w, filter_h, filter_w;\n"
        "  int32_t activation;                // 0 none, 1 relu, 2 relu_n1_to_1, 3 relu6\n"
        "  const void* input;\n"
        "  const void* expected;              // TFLM's output\n"
        "  int32_t tflm_persistent_bytes;     // kernel's persistent requests (LP64)\n"
        "};\n\n")
    kinds = {"softmax": 0, "pool": 1, "quantize": 2, "dequantize": 3}
    rows = []
    for i, c in enumerate(cases):
        xi, yi = f"k{c.kind}_{c.name}_in", f"k{c.kind}_{c.name}_out"
        out.append(c_array(xi, c.in_type, c.x))
        out.append(c_array(yi, c.out_type, c.y))
        e = c.extra
        rows.append(
            f"    {{\"{c.kind}/{c.name}\", {kinds[c.kind]}, {TYPE_CODE[c.in_type]}, "
            f"{TYPE_CODE[c.out_type]}, {len(c.in_shape)}, {shape4(c.in_shape)}, "
            f"{len(c.out_shape)}, {shape4(c.out_shape)}, {int(np.asarray(c.x).size)}, "
            f"{int(np.asarray(c.y).size)}, {c_float(c.in_scale)}, {c.in_zp}, "
            f"{c_float(c.out_scale)}, {c.out_zp}, {c_float(e.get('beta', 0.0))}, "
            f"{e.get('op', 0)}, {e.get('padding', 0)}, {e.get('stride_h', 0)}, "
            f"{e.get('stride_w', 0)}, {e.get('filter_h', 0)}, {e.get('filter_w', 0)}, "
            f"{e.get('activation', 0)}, {xi}, {yi}, {c.persistent}}},")
    out.append("static const Case kCases[] = {\n" + "\n".join(rows) + "\n};\n")
    out.append("constexpr size_t kNumCases = sizeof(kCases) / sizeof(kCases[0]);\n\n")
    out.append("}  // namespace kernels_b_golden\n\n"
               "#endif  // TESTS_CPP_RUNTIME_GOLDEN_KERNELS_B_GOLDEN_H_\n")
    return "".join(out)


def main() -> int:
    cases = build_cases()
    with open(OUT, "w") as f:
        f.write(emit(cases))
    total = sum(int(np.asarray(c.y).size) for c in cases)
    print(f"wrote {OUT}: {len(cases)} cases, {total} expected values")
    for c in cases:
        print(f"  {c.kind:10s} {c.name:32s} persistent {c.persistent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
