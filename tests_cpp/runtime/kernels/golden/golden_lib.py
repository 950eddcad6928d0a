"""The one golden-vector pipeline of the kernel tests: one-operator models
built with ``tflm_arena.builder``, run by the real TFLM (the ``tflite_micro``
package, i.e. TFLM's reference kernels), written as C++ headers in one
format (golden_case.h) that tests_cpp/runtime/kernels/<op>_test.cc replay
through our kernel math.

A case names the operator, its builder options, its input tensors in operator
order (input, second input / weights, bias; None = omitted) and its output.
Constant tensors go into the model; the others are graph inputs set at run
time. The header records TFLM's output and the persistent-buffer bytes
TFLM's kernel requested for the node (RecordingMicroAllocator report minus
the interpreter's own input and output pointer arrays, 8 bytes per tensor on
64-bit).
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import tflite_micro
from tflite_micro.python.tflite_micro import runtime

from tflm_arena import builder

TYPE_CODES = {"float32": 0, "int32": 2, "uint8": 3, "int64": 4, "int16": 7, "int8": 9}
C_TYPES = {
    "float32": "float",
    "int32": "int32_t",
    "uint8": "uint8_t",
    "int64": "int64_t",
    "int16": "int16_t",
    "int8": "int8_t",
}
PADDINGS = {"SAME": 0, "VALID": 1}
ACTIVATIONS = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3}


class T:
    """One tensor of a case: shape, dtype, quantization, contents."""

    def __init__(
        self, shape, dtype, data=None, scale=None, zero_point=None, qdim=0, constant=False
    ):
        self.shape = list(shape)
        self.dtype = dtype
        self.data = None if data is None else np.asarray(data).astype(dtype).reshape(shape)
        self.scale = None if scale is None else [float(np.float32(s)) for s in np.atleast_1d(scale)]
        if self.scale is not None and zero_point is None:
            zero_point = [0] * len(self.scale)
        self.zero_point = (
            None if zero_point is None else [int(z) for z in np.atleast_1d(zero_point)]
        )
        self.qdim = qdim
        self.constant = constant

    def add_to(self, mb: builder.ModelBuilder, name: str) -> int:
        kwargs: dict[str, Any] = {}
        if self.scale is not None:
            kwargs.update(
                scale=self.scale, zero_point=self.zero_point, quantized_dimension=self.qdim
            )
        data = self.data if self.constant else None
        return mb.add_tensor(self.shape, self.dtype, name, data=data, **kwargs)


@dataclass
class Case:
    name: str
    op: str
    options: dict
    inputs: list  # list[Optional[T]]: input, second input / weights, bias
    output: T
    # Filled by run():
    result: np.ndarray | None = None
    persistent: int = 0
    extra: dict = field(default_factory=dict)


_ROLES = ("input", "input2", "bias")
_PERSISTENT_RE = re.compile(
    r"'Persistent buffer data' used \d+ bytes with alignment overhead "
    r"\(requested (\d+) bytes for (\d+) allocations\)"
)


def run(case: Case) -> Case:
    """Runs the case's one-operator model in TFLM; fills result and persistent."""
    mb = builder.ModelBuilder("golden " + case.op)
    indices, graph_inputs, feeds = [], [], []
    for role, t in zip(_ROLES, case.inputs, strict=False):
        if t is None:
            indices.append(-1)
            continue
        i = t.add_to(mb, role)
        indices.append(i)
        if not t.constant:
            graph_inputs.append(i)
            feeds.append(t.data)
    y = case.output.add_to(mb, "output")
    mb.add_operator(case.op, indices, [y], options=case.options or None)
    mb.set_io(graph_inputs, [y])
    interp = runtime.Interpreter.from_bytes(mb.build(), arena_size=1 << 20)
    for k, x in enumerate(feeds):
        interp.set_input(x, k)
    interp.invoke()
    case.result = np.array(interp.get_output(0)).reshape(case.output.shape)
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
    requested = int(m.group(1)) if m else 0
    case.persistent = requested - 8 * (len(graph_inputs) + 1)
    return case


def calibrate(case: Case, rng: np.random.Generator) -> None:
    """Pick the quantized output scale so outputs use most of the range
    (peak around 100 for int8, 25000 for int16), then perturb it so the
    requantization multipliers are not round numbers."""
    out = case.output
    if out.dtype not in ("int8", "int16"):
        return
    top = 127 if out.dtype == "int8" else 32767
    target = 100 if out.dtype == "int8" else 25000
    zp = out.zero_point[0]
    scale = out.scale[0]
    for _ in range(12):
        out.scale = [float(np.float32(scale))]
        q = run(case).result.astype(np.int64) - zp
        peak = int(np.max(np.abs(q)))
        if peak >= top:
            scale *= 4.0
        elif peak < target * 0.6:
            scale *= max(peak, 1) / target
        else:
            break
    out.scale = [float(np.float32(scale * rng.uniform(1.0, 1.1)))]


def rand_ints(rng, dtype: str, shape, lo=None, hi=None) -> np.ndarray:
    info = np.iinfo(np.dtype(dtype))
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return rng.integers(lo, hi + 1, size=shape, dtype=np.int64).astype(dtype)


# --- C++ emission (the one header format: golden_case.h) --------------------


def c_float(v: float) -> str:
    v = float(v)
    if math.isinf(v):
        return "__builtin_huge_valf()" if v > 0 else "-__builtin_huge_valf()"
    if math.isnan(v):
        return '__builtin_nanf("")'
    if v == 0.0:
        return "-0.0f" if math.copysign(1.0, v) < 0 else "0.0f"
    return float(np.float32(v)).hex() + "f"


def c_int(dtype: str, v) -> str:
    v = int(v)
    if dtype == "int32" and v == -(2**31):
        return "(-2147483647 - 1)"
    if dtype == "int64" and v == -(2**63):
        return "(-9223372036854775807LL - 1)"
    return str(v)


def c_array(ctype_dtype: str, name: str, values) -> str:
    flat = list(np.asarray(values).reshape(-1))
    if ctype_dtype == "float32":
        items = [c_float(v) for v in flat]
    else:
        items = [c_int(ctype_dtype, v) for v in flat]
    ctype = C_TYPES[ctype_dtype]
    head = f"constexpr {ctype} {name}[] = {{"
    if len(head) + sum(len(i) + 2 for i in items) < 96:
        return head + ", ".join(items) + "};\n"
    per_line = 6 if ctype_dtype == "float32" else 16
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return head + "\n    " + ",\n    ".join(lines) + "};\n"


def emit_tensor(prefix: str, t: T | None, data) -> tuple[str, str]:
    """(array definitions, golden::Tensor initializer)."""
    if t is None:
        return "", "{}"
    defs = c_array("int32", f"{prefix}_shape", t.shape) if t.shape else ""
    shape = f"{prefix}_shape" if t.shape else "nullptr"
    scale, zp, nscale = "nullptr", "nullptr", 0
    if t.scale is not None:
        defs += c_array("float32", f"{prefix}_scale", t.scale)
        defs += c_array("int64", f"{prefix}_zero_point", t.zero_point)
        scale, zp, nscale = f"{prefix}_scale", f"{prefix}_zero_point", len(t.scale)
    flat = np.asarray(data).reshape(-1)
    defs += c_array(t.dtype, f"{prefix}_data", flat)
    init = (
        f"{{{TYPE_CODES[t.dtype]}, {shape}, {len(t.shape)}, {scale}, {nscale}, {zp}, "
        f"{t.qdim}, {prefix}_data, {flat.size}}}"
    )
    return defs, init


def emit_options(o: dict) -> str:
    act = ACTIVATIONS[o.get("fused_activation_function", "NONE")]
    return (
        f"{{{PADDINGS[o.get('padding', 'SAME')]}, {o.get('stride_w', 0)}, "
        f"{o.get('stride_h', 0)}, {o.get('dilation_w_factor', 1)}, "
        f"{o.get('dilation_h_factor', 1)}, {o.get('depth_multiplier', 0)}, "
        f"{o.get('filter_width', 0)}, {o.get('filter_height', 0)}, {act}, "
        f"{'true' if o.get('keep_num_dims') else 'false'}, "
        f"{c_float(o.get('beta', 0.0))}, {c_float(o.get('alpha', 0.0))}, "
        f"{'true' if 'alpha' in o else 'false'}}}"
    )


def emit_header(stem: str, generator: str, cases: list[Case]) -> str:
    guard = f"TFLM_ARENA_TESTS_RUNTIME_KERNELS_GOLDEN_{stem.upper()}_GOLDEN_H_"
    version = getattr(tflite_micro, "__version__", "?")
    text = (
        f"// GENERATED by {generator} ({stem}_cases.py) with tflite_micro {version}"
        " -- do not edit.\n"
        "// Golden vectors: one-operator models run by TFLM's reference kernels\n"
        "// (format: golden_case.h).\n"
        f"#ifndef {guard}\n#define {guard}\n\n#include <cstdint>\n\n"
        '#include "golden/golden_case.h"\n\n'
        f"namespace golden {{\nnamespace {stem} {{\n\n"
    )
    rows = []
    for c in cases:
        text += f"// {c.name}\n"
        parts = []
        padded = list(c.inputs) + [None] * (3 - len(c.inputs))
        for role, t in zip(_ROLES, padded, strict=False):
            defs, init = emit_tensor(f"k_{c.name}_{role}", t, None if t is None else t.data)
            text += defs
            parts.append(init)
        defs, init = emit_tensor(f"k_{c.name}_output", c.output, c.result)
        text += defs + "\n"
        parts.append(init)
        rows.append(
            f'    {{"{c.name}", "{c.op}", {emit_options(c.options)},\n     '
            + ",\n     ".join(parts)
            + f",\n     {c.persistent}}},\n"
        )
    text += "constexpr Case kCases[] = {\n" + "".join(rows) + "};\n\n"
    text += f"}}  // namespace {stem}\n}}  // namespace golden\n\n#endif  // {guard}\n"
    return text


# --- shape helpers shared by the window operators ------------------------------


def conv_out_shape(in_shape, filter_shape, opts, cout):
    def size(n, k, s, d):
        eff = (k - 1) * d + 1
        return (n + s - 1) // s if opts["padding"] == "SAME" else (n + s - eff) // s

    return [
        in_shape[0],
        size(in_shape[1], filter_shape[1], opts["stride_h"], opts["dilation_h_factor"]),
        size(in_shape[2], filter_shape[2], opts["stride_w"], opts["dilation_w_factor"]),
        cout,
    ]


def conv_opts(padding, stride_w, stride_h, dil_w=1, dil_h=1, act="NONE", dm=None):
    o = {
        "padding": padding,
        "stride_w": stride_w,
        "stride_h": stride_h,
        "dilation_w_factor": dil_w,
        "dilation_h_factor": dil_h,
        "fused_activation_function": act,
    }
    if dm is not None:
        o["depth_multiplier"] = dm
    return o


def calibrated(case: Case, rng: np.random.Generator) -> Case:
    calibrate(case, rng)
    return case


def conv_float_case(op, name, seed, in_shape, filter_shape, opts, cout, fan_in):
    """A float32 CONV_2D or DEPTHWISE_CONV_2D case with ``cout`` output
    channels: input N(0, 1), weights N(0, 1/sqrt(fan_in)), bias N(0, 0.3)."""
    rng = np.random.default_rng(seed)
    x = T(in_shape, "float32", rng.normal(0, 1, in_shape))
    w = T(filter_shape, "float32", rng.normal(0, 1 / np.sqrt(fan_in), filter_shape), constant=True)
    b = T([cout], "float32", rng.normal(0, 0.3, cout), constant=True)
    y = T(conv_out_shape(in_shape, filter_shape, opts, cout), "float32")
    return Case(name, op, opts, [x, w, b], y)
