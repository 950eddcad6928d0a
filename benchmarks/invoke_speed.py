"""Invoke and allocation speed: our Interpreter vs tflite-micro's, same process.

For every shared model our interpreter runs (models with a missing kernel are
listed with the reason and skipped) and for single-kernel micro-models built
here with the model builder (ADD int8 / int16 / float32 with and without
broadcasting, CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, pooling, SOFTMAX,
QUANTIZE, ...; then every other kernel of kernel_list.h, in int8 / int16 /
float32 where both interpreters take it, sized for invokes of tens of
microseconds or more; `--only "[micro]"` runs just these):

  invoke   both interpreters get the same random inputs; the time of one
           invoke() is the median over many rounds, each round timing a batch
           of invokes of ours and then of theirs (interleaved, so that drift
           of a shared machine hits both); ratio = ours / TFLM (< 1: faster).
           The outputs are compared once ('same': int exact, float 1e-5).
  alloc    ours: Interpreter(model) + allocate_tensors() with arena_size=None
           (the exact size is computed, then the arena of that size
           allocated); TFLM: runtime.Interpreter.from_bytes(data,
           arena_size=8 MiB), which builds the interpreter and allocates.
           Both exclude reading the file; ours also excludes Model.from_bytes
           (parsed once). Median of interleaved rounds; ratio = ours / TFLM.
           from_bytes also pays fixed costs that are not allocation (its op
           resolver, the Python wrapper): 'net' divides by TFLM's time minus
           its time on a one-operator model (a conservative ratio; shown
           only where that difference is at least the fixed cost, as for
           tiny models it is noise), and
           'x fixed' is ours with arena_size=None over ours with the exact
           size given (the cost of measuring: one extra allocation run).

Absolute times on a shared machine are noisy; quote the ratios.

    python benchmarks/invoke_speed.py [--models-dir DIR]
        [--rounds 31] [--target-ms 2] [--only NAME ...] [--no-micro] [--no-shared]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import tflm_arena as ta
from tflm_arena import _sample_models as sm
from tflm_arena.builder import ModelBuilder

TFLM_ARENA = 8 << 20


def default_models_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "shared" / "models"


# ---- micro-models (one kernel each) ------------------------------------------


_q = sm.quantized


def _add(dtype: str, shape_a, shape_b, act: str = "NONE") -> bytes:
    mb = ModelBuilder()
    out_shape = list(np.broadcast_shapes(tuple(shape_a), tuple(shape_b)))
    if dtype == "float32":
        a, b = mb.add_tensor(shape_a, dtype, "a"), mb.add_tensor(shape_b, dtype, "b")
        y = mb.add_tensor(out_shape, dtype, "y")
    else:
        zp = 0 if dtype == "int16" else 3
        a = _q(mb, shape_a, "a", 0.05, zp, dtype)
        b = _q(mb, shape_b, "b", 0.02, -zp, dtype)
        y = _q(mb, out_shape, "y", 0.06, -zp // 2 if zp else 0, dtype)
    mb.add_operator("ADD", [a, b], [y], options={"fused_activation_function": act})
    mb.set_io([a, b], [y])
    return mb.build()


def _conv(op: str, in_shape, filt_shape, out_shape, opts, per_channel_dim: int) -> bytes:
    rng = np.random.default_rng(1)
    return sm.conv_int8(op, opts, in_shape, filt_shape, out_shape, per_channel_dim, rng)


def _fc(batch: int, n_in: int, n_out: int) -> bytes:
    rng = np.random.default_rng(2)
    mb = ModelBuilder()
    x = _q(mb, [batch, n_in], "x", 0.03, 1)
    w, b = sm.fc_int8_weights(mb, n_in, n_out, rng, 500)
    y = _q(mb, [batch, n_out], "y", 0.2, -10)
    mb.add_operator("FULLY_CONNECTED", [x, w, b], [y])
    mb.set_io([x], [y])
    return mb.build()


def _pool(op: str, dtype: str) -> bytes:
    return sm.pool(op, dtype, [1, 48, 48, 16], [1, 24, 24, 16])


def _unary(op: str, in_dtype: str, out_dtype: str, shape, opts=None) -> bytes:
    mb = ModelBuilder()
    qin = {"int8": (0.05, 3), "int16": (0.001, 0)}
    qout = {
        "int8": (1.0 / 256, -128) if op == "SOFTMAX" else (0.04, -2),
        "int16": (1.0 / 32768, 0) if op == "SOFTMAX" else (0.002, 0),
    }
    x = (
        _q(mb, shape, "x", *qin[in_dtype], in_dtype)
        if in_dtype in qin
        else mb.add_tensor(shape, in_dtype, "x")
    )
    y = (
        _q(mb, shape, "y", *qout[out_dtype], out_dtype)
        if out_dtype in qout
        else mb.add_tensor(shape, out_dtype, "y")
    )
    mb.add_operator(op, [x], [y], options=opts or {})
    mb.set_io([x], [y])
    return mb.build()


# Per-kernel micro-models for the other shipped kernels (builder calls as in
# the parity tests tests_py/test_kernel_*.py, copied: benchmarks do not
# import tests). Quantization: int8 in/out (0.05, 3) / (0.04, -2); int16
# symmetric, as TFLM requires.
_QIN = {"int8": (0.05, 3), "int16": (0.001, 0)}
_QOUT = {"int8": (0.04, -2), "int16": (0.002, 0)}


def _t(mb, shape, dtype, name, q=None, data=None):
    """A tensor; `q` = (scale, zero_point) or None; `data` makes it constant."""
    kw = {} if q is None else {"scale": [q[0]], "zero_point": [q[1]]}
    if data is not None:
        kw["data"] = np.asarray(data, dtype=dtype)
    return mb.add_tensor(list(shape), dtype, name, **kw)


def _binary(op: str, dtype: str, shape, q_same: bool = False, const2=None, opts=None) -> bytes:
    """in1 op in2 -> out, same shapes; q_same: one quantization for all three
    (MAXIMUM / MINIMUM); const2: constant in2 (DIV int8, avoiding its zero point)."""
    mb = ModelBuilder()
    qa = _QIN.get(dtype)
    qb = None if qa is None else (qa if q_same else (qa[0] * 0.4, -qa[1]))
    qo = None if qa is None else (qa if q_same else _QOUT[dtype])
    a = _t(mb, shape, dtype, "a", qa)
    b = _t(mb, shape, dtype, "b", qb, const2)
    y = _t(mb, shape, dtype, "y", qo)
    mb.add_operator(op, [a, b], [y], options=opts)
    mb.set_io([a] if const2 is not None else [a, b], [y])
    return mb.build()


def _div_int8(shape) -> bytes:
    rng = np.random.default_rng(3)
    d = rng.integers(-128, 128, size=shape)
    d[d == -3] = 50  # in2's zero point (-3): TFLM's result is undefined there
    return _binary("DIV", "int8", shape, const2=d)


def _elementwise(
    op: str, dtype: str, shape, q_in=None, q_out=None, opts=None, out_dtype: str | None = None
) -> bytes:
    mb = ModelBuilder()
    x = _t(mb, shape, dtype, "x", q_in if q_in else _QIN.get(dtype))
    od = out_dtype or dtype
    y = _t(mb, shape, od, "y", q_out if q_out else _QOUT.get(od))
    mb.add_operator(op, [x], [y], options=opts)
    mb.set_io([x], [y])
    return mb.build()


def _sigmoid_like(op: str, dtype: str, shape) -> bytes:
    """LOGISTIC / TANH with the output quantization their tests use."""
    q_out = {"int8": (1.0 / 256, -128), "int16": (2.0**-15, 0)}.get(dtype)
    return _elementwise(op, dtype, shape, q_out=q_out)


def _one_input(op: str, dtype: str, shape, out_shape, consts=(), opts=None, q=None) -> bytes:
    """x plus constant int32 operands (begin/end/strides, paddings, ...) -> y;
    `consts` items are (shape, values[, dtype])."""
    mb = ModelBuilder()
    q = q if q is not None else _QIN.get(dtype)
    x = _t(mb, shape, dtype, "x", q)
    ins = [x]
    for i, c in enumerate(consts):
        cd = c[2] if len(c) > 2 else "int32"
        cq = q if cd == dtype else None
        ins.append(_t(mb, c[0], cd, f"c{i}", cq, c[1]))
    y = _t(mb, out_shape, dtype, "y", q)
    mb.add_operator(op, ins, [y], options=opts)
    mb.set_io([x], [y])
    return mb.build()


def _many(op: str, dtype: str, in_shapes, out_shapes, opts, lead_const=None) -> bytes:
    """CONCATENATION / PACK (many inputs), SPLIT / UNPACK (many outputs);
    lead_const: SPLIT's constant axis operand, first."""
    mb = ModelBuilder()
    q = _QIN.get(dtype)
    xs = [_t(mb, s, dtype, f"x{i}", q) for i, s in enumerate(in_shapes)]
    ys = [_t(mb, s, dtype, f"y{i}", q) for i, s in enumerate(out_shapes)]
    ins = xs if lead_const is None else [_t(mb, [], "int32", "axis", None, [lead_const])] + xs
    mb.add_operator(op, ins, ys, options=opts)
    mb.set_io(xs, ys)
    return mb.build()


def _mean(dtype: str) -> bytes:
    mb = ModelBuilder()
    x = _t(mb, [1, 64, 64, 32], dtype, "x", _QIN.get(dtype))
    a = _t(mb, [2], "int32", "axis", None, [1, 2])
    y = _t(mb, [1, 1, 1, 32], dtype, "y", _QOUT.get(dtype))
    mb.add_operator("MEAN", [x, a], [y], options={"keep_dims": True})
    mb.set_io([x], [y])
    return mb.build()


def _gather(dtype: str) -> bytes:
    pos = np.random.default_rng(4).integers(0, 4096, 2048)
    return _one_input(
        "GATHER",
        dtype,
        [4096, 256],
        [2048, 256],
        consts=[([2048], pos)],
        opts={"axis": 0, "batch_dims": 0},
    )


def _svdf(dtype: str, batch=2, n_in=256, units=64, rank=2, memory=16) -> bytes:
    rng = np.random.default_rng(5)
    filters = units * rank
    mb = ModelBuilder()
    if dtype == "float32":
        x = _t(mb, [batch, n_in], "float32", "x")
        wf = _t(
            mb, [filters, n_in], "float32", "wf", None, rng.standard_normal((filters, n_in)) * 0.3
        )
        wt = _t(
            mb,
            [filters, memory],
            "float32",
            "wt",
            None,
            rng.standard_normal((filters, memory)) * 0.3,
        )
        b = _t(mb, [units], "float32", "b", None, rng.standard_normal(units))
        s = mb.add_tensor([batch, memory * filters], "float32", "state", is_variable=True)
        y = _t(mb, [batch, units], "float32", "y")
    else:  # int8 with an int16 state
        x = _t(mb, [batch, n_in], "int8", "x", (0.05, -10))
        wf = _t(
            mb, [filters, n_in], "int8", "wf", (0.01, 0), rng.integers(-127, 128, (filters, n_in))
        )
        wt = _t(
            mb,
            [filters, memory],
            "int16",
            "wt",
            (0.004, 0),
            rng.integers(-32767, 32767, (filters, memory)),
        )
        b = _t(mb, [units], "int32", "b", (0.003 * 0.004, 0), rng.integers(-20000, 20000, units))
        s = mb.add_tensor(
            [batch, memory * filters],
            "int16",
            "state",
            scale=[0.003],
            zero_point=[0],
            is_variable=True,
        )
        y = _t(mb, [batch, units], "int8", "y", (0.08, 3))
    mb.add_operator(
        "SVDF", [x, wf, wt, b, s], [y], options={"rank": rank, "fused_activation_function": "RELU"}
    )
    mb.set_io([x], [y])
    return mb.build()


def _lstm(dtype: str, batch=2, time=16, n_in=32, n_state=32) -> bytes:
    rng = np.random.default_rng(6)
    mb = ModelBuilder()
    q = dtype != "float32"
    in_q, hidden_q = (0.02, 3), (2.0**-7, 0)
    if dtype == "int16":
        in_q, hidden_q = (0.02 / 64, 0), (2.0**-14, 0)
    bdt = {"float32": "float32", "int8": "int32", "int16": "int64"}[dtype]

    def weights(shape, name):
        if not q:
            return _t(mb, shape, "float32", name, None, rng.standard_normal(shape) * 0.4)
        return _t(
            mb,
            shape,
            "int8",
            name,
            (float(rng.uniform(0.004, 0.02)), 0),
            rng.integers(-127, 128, shape),
        )

    def bias(name):
        if not q:
            return _t(mb, [n_state], "float32", name, None, rng.standard_normal(n_state) * 0.2)
        return _t(mb, [n_state], bdt, name, (1e-5, 0), rng.integers(-3000, 3000, n_state))

    qa = (lambda s: dict(scale=[s[0]], zero_point=[s[1]])) if q else (lambda s: {})
    x = mb.add_tensor([batch, time, n_in], dtype, "x", **qa(in_q))
    ops = [x] + [weights([n_state, n_in], f"w_x{g}") for g in range(4)]
    ops += [weights([n_state, n_state], f"w_h{g}") for g in range(4)]
    ops += [-1, -1, -1] + [bias(f"b{g}") for g in range(4)] + [-1, -1]
    h = mb.add_tensor([batch, n_state], dtype, "h", is_variable=True, **qa(hidden_q))
    c = mb.add_tensor(
        [batch, n_state],
        "int16" if q else "float32",
        "c",
        is_variable=True,
        **(dict(scale=[2.0**-11], zero_point=[0]) if q else {}),
    )
    ops += [h, c, -1, -1, -1, -1]
    y = mb.add_tensor([batch, time, n_state], dtype, "y", **qa(hidden_q))
    mb.add_operator(
        "UNIDIRECTIONAL_SEQUENCE_LSTM",
        ops,
        [y],
        options={"fused_activation_function": "TANH", "cell_clip": 0.0, "time_major": False},
    )
    mb.set_io([x], [y])
    return mb.build()


def _transpose_conv(
    dtype: str, in_shape=(1, 16, 16, 16), f_shape=(16, 3, 3, 16), out_shape=(1, 32, 32, 16)
) -> bytes:
    rng = np.random.default_rng(7)
    cout = f_shape[0]
    mb = ModelBuilder()
    os_t = _t(mb, [4], "int32", "output_shape", None, out_shape)
    if dtype == "float32":
        w = _t(mb, f_shape, "float32", "w", None, rng.standard_normal(f_shape))
        x, y = _t(mb, in_shape, "float32", "x"), _t(mb, out_shape, "float32", "y")
        b = _t(mb, [cout], "float32", "b", None, rng.standard_normal(cout))
    else:
        fs = rng.uniform(0.002, 0.02, cout).tolist()
        w = mb.add_tensor(
            list(f_shape),
            "int8",
            "w",
            scale=fs,
            zero_point=[0] * cout,
            quantized_dimension=0,
            data=rng.integers(-127, 128, f_shape).astype(np.int8),
        )
        in_q, out_q = ((0.05, 3), (0.1, -7)) if dtype == "int8" else ((0.001, 0), (0.004, 0))
        x, y = _t(mb, in_shape, dtype, "x", in_q), _t(mb, out_shape, dtype, "y", out_q)
        bd = "int32" if dtype == "int8" else "int64"
        b = mb.add_tensor(
            [cout],
            bd,
            "b",
            scale=[in_q[0] * s for s in fs],
            zero_point=[0] * cout,
            data=rng.integers(-5000, 5000, cout).astype(bd),
        )
    mb.add_operator(
        "TRANSPOSE_CONV",
        [os_t, w, x, b],
        [y],
        options={
            "padding": "SAME",
            "stride_h": 2,
            "stride_w": 2,
            "fused_activation_function": "NONE",
        },
    )
    mb.set_io([x], [y])
    return mb.build()


def _batch_matmul(dtype: str, lhs=(4, 64, 64), rhs=(4, 64, 64), out=(4, 64, 64)) -> bytes:
    qs = ((0.05, 3), (0.02, -7), (0.3, 10))
    if dtype == "int16":
        qs = tuple((s / 100, 0) for s, _ in qs)
    mb = ModelBuilder()
    q = (lambda i: qs[i]) if dtype != "float32" else (lambda i: None)
    a, b = _t(mb, lhs, dtype, "a", q(0)), _t(mb, rhs, dtype, "b", q(1))
    y = _t(mb, out, dtype, "y", q(2))
    mb.add_operator("BATCH_MATMUL", [a, b], [y], options={"adj_x": False, "adj_y": False})
    mb.set_io([a, b], [y])
    return mb.build()


def other_kernels() -> list[tuple[str, Callable[[], bytes]]]:
    """One micro-model per remaining kernel and type (int8, float32, int16
    where the kernel takes it), sized for invokes of tens of microseconds or
    more."""
    big = [1, 64, 64, 32]
    rows: list[tuple[str, Callable[[], bytes]]] = []
    for op in ("SUB", "MUL"):
        for dt in ("int8", "int16", "float32"):
            rows.append((f"{op.lower()} {dt}", lambda op=op, dt=dt: _binary(op, dt, big)))
    rows.append(("div int8", lambda: _div_int8(big)))
    rows.append(("div float32", lambda: _binary("DIV", "float32", big)))
    for op in ("MAXIMUM", "MINIMUM"):
        for dt in ("int8", "int16", "float32"):
            rows.append(
                (f"{op.lower()} {dt}", lambda op=op, dt=dt: _binary(op, dt, big, q_same=True))
            )
    for dt in ("int8", "int16", "float32"):
        rows.append(
            (
                f"leaky_relu {dt}",
                lambda dt=dt: _elementwise("LEAKY_RELU", dt, big, opts={"alpha": 0.2}),
            )
        )
    for op in ("RELU", "RELU6"):
        for dt in ("int8", "int16", "float32"):
            rows.append((f"{op.lower()} {dt}", lambda op=op, dt=dt: _elementwise(op, dt, big)))
    for op in ("LOGISTIC", "TANH"):
        for dt in ("int8", "int16", "float32"):
            rows.append((f"{op.lower()} {dt}", lambda op=op, dt=dt: _sigmoid_like(op, dt, big)))
    for dt in ("int8", "float32"):  # no INT16 HARD_SWISH in TFLM either
        rows.append(
            (
                f"hard_swish {dt}",
                lambda dt=dt: _elementwise(
                    "HARD_SWISH", dt, big, q_out=(0.05, 0) if dt != "float32" else None
                ),
            )
        )
    rows.append(
        ("cast int8->float32", lambda: _elementwise("CAST", "int8", big, out_dtype="float32"))
    )
    rows.append(
        ("cast float32->int32", lambda: _elementwise("CAST", "float32", big, out_dtype="int32"))
    )
    # Data movement is a few instructions per element: four times the
    # elements, so that the copy, not the call, dominates.
    mov, quarter = [1, 128, 128, 32], [1, 128, 128, 8]
    for dt in ("int8", "float32"):
        rows += [
            (
                f"strided_slice {dt}",
                lambda dt=dt: _one_input(
                    "STRIDED_SLICE",
                    dt,
                    mov,
                    [1, 126, 64, 32],
                    consts=[([4], [0, 1, 0, 0]), ([4], [1, 127, 128, 32]), ([4], [1, 1, 2, 1])],
                ),
            ),
            (
                f"pad {dt}",
                lambda dt=dt: _one_input(
                    "PAD",
                    dt,
                    mov,
                    [1, 130, 130, 32],
                    consts=[([4, 2], [[0, 0], [1, 1], [1, 1], [0, 0]])],
                ),
            ),
            (
                f"padv2 {dt}",
                lambda dt=dt: _one_input(
                    "PADV2",
                    dt,
                    mov,
                    [1, 130, 130, 32],
                    consts=[([4, 2], [[0, 0], [1, 1], [1, 1], [0, 0]]), ([], [5], dt)],
                ),
            ),
            (
                f"concatenation {dt}",
                lambda dt=dt: _many(
                    "CONCATENATION", dt, [[1, 128, 128, 16]] * 2, [mov], {"axis": 3}
                ),
            ),
            (f"mean {dt}", lambda dt=dt: _mean(dt)),
            (
                f"transpose {dt}",
                lambda dt=dt: _one_input("TRANSPOSE", dt, mov, mov, consts=[([4], [0, 2, 1, 3])]),
            ),
            (
                f"squeeze {dt}",
                lambda dt=dt: _one_input("SQUEEZE", dt, mov, mov[1:], opts={"squeeze_dims": [0]}),
            ),
            (
                f"expand_dims {dt}",
                lambda dt=dt: _one_input("EXPAND_DIMS", dt, mov, [1] + mov, consts=[([], [1])]),
            ),
            (
                f"pack {dt}",
                lambda dt=dt: _many(
                    "PACK",
                    dt,
                    [[64, 64, 32]] * 4,
                    [[64, 4, 64, 32]],
                    {"values_count": 4, "axis": 1},
                ),
            ),
            (
                f"unpack {dt}",
                lambda dt=dt: _many(
                    "UNPACK", dt, [[64, 4, 64, 32]], [[64, 64, 32]] * 4, {"num": 4, "axis": 1}
                ),
            ),
            (
                f"split {dt}",
                lambda dt=dt: _many(
                    "SPLIT", dt, [mov], [quarter] * 4, {"num_splits": 4}, lead_const=3
                ),
            ),
            (f"gather {dt}", lambda dt=dt: _gather(dt)),
        ]
    rows += [("svdf int8", lambda: _svdf("int8")), ("svdf float32", lambda: _svdf("float32"))]
    for dt in ("int8", "int16", "float32"):
        rows.append((f"lstm {dt}", lambda dt=dt: _lstm(dt)))
    for dt in ("int8", "int16", "float32"):
        rows.append((f"transpose_conv {dt}", lambda dt=dt: _transpose_conv(dt)))
    for dt in ("int8", "int16", "float32"):
        rows.append((f"batch_matmul {dt}", lambda dt=dt: _batch_matmul(dt)))
    return rows


def micro_models() -> list[tuple[str, Callable[[], bytes]]]:
    big, row = [1, 64, 64, 32], [1, 1, 1, 32]
    same = {"padding": "SAME"}
    return [
        ("add int8", lambda: _add("int8", big, big)),
        ("add int8 relu", lambda: _add("int8", big, big, "RELU")),
        ("add int8 broadcast", lambda: _add("int8", big, row)),
        ("add int8 small", lambda: _add("int8", [1, 8, 8, 8], [1, 8, 8, 8])),
        ("add int16", lambda: _add("int16", big, big)),
        ("add int16 broadcast", lambda: _add("int16", big, row)),
        ("add float32", lambda: _add("float32", big, big)),
        ("add float32 broadcast", lambda: _add("float32", big, row)),
        (
            "conv int8 3x3",
            lambda: _conv("CONV_2D", [1, 24, 24, 16], [16, 3, 3, 16], [1, 24, 24, 16], same, 0),
        ),
        (
            "depthwise int8 3x3",
            lambda: _conv(
                "DEPTHWISE_CONV_2D",
                [1, 48, 48, 32],
                [1, 3, 3, 32],
                [1, 48, 48, 32],
                {"padding": "SAME", "depth_multiplier": 1},
                3,
            ),
        ),
        ("fully_connected int8", lambda: _fc(4, 512, 256)),
        ("max_pool int8", lambda: _pool("MAX_POOL_2D", "int8")),
        ("avg_pool int8", lambda: _pool("AVERAGE_POOL_2D", "int8")),
        ("avg_pool float32", lambda: _pool("AVERAGE_POOL_2D", "float32")),
        ("softmax int8", lambda: _unary("SOFTMAX", "int8", "int8", [64, 256], {"beta": 1.0})),
        (
            "softmax float32",
            lambda: _unary("SOFTMAX", "float32", "float32", [64, 256], {"beta": 1.0}),
        ),
        ("quantize f32->int8", lambda: _unary("QUANTIZE", "float32", "int8", big)),
        ("dequantize int8->f32", lambda: _unary("DEQUANTIZE", "int8", "float32", big)),
        ("reshape int8", lambda: _reshape()),
    ] + other_kernels()


def _reshape() -> bytes:
    mb = ModelBuilder()
    x = _q(mb, [1, 64, 64, 32], "x", 0.05, 3)
    y = _q(mb, [4096, 32], "y", 0.05, 3)
    mb.add_operator("RESHAPE", [x], [y])
    mb.set_io([x], [y])
    return mb.build()


# ---- timing --------------------------------------------------------------------


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        return bool(np.allclose(a, b, rtol=1e-5, atol=1e-6))
    return bool(np.array_equal(a, b))


def _batch_time(fn: Callable[[], None], k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        fn()
    return (time.perf_counter() - t0) / k


def interleaved_medians(
    ours: Callable[[], None], theirs: Callable[[], None], rounds: int, target_s: float
) -> tuple[float, float]:
    """Median seconds per call of each, batches sized to ~target_s, alternating
    which goes first."""
    one = max(_batch_time(ours, 1), _batch_time(theirs, 1), 1e-7)
    k = max(1, min(10000, int(target_s / one)))
    a, b = [], []
    for r in range(rounds):
        if r % 2:
            b.append(_batch_time(theirs, k))
            a.append(_batch_time(ours, k))
        else:
            a.append(_batch_time(ours, k))
            b.append(_batch_time(theirs, k))
    return statistics.median(a), statistics.median(b)


def tflm_fixed_cost(rounds: int, target_s: float) -> float:
    """Median from_bytes time of a one-operator model with one-element
    tensors: TFLM's per-interpreter cost that is not allocating a model."""
    from tflite_micro import runtime

    mb = ModelBuilder()
    x, y = _q(mb, [1], "x", 0.05, 3), _q(mb, [1], "y", 0.05, 3)
    mb.add_operator("RESHAPE", [x], [y])
    mb.set_io([x], [y])
    data = mb.build()
    t, _ = interleaved_medians(
        lambda: runtime.Interpreter.from_bytes(data, arena_size=TFLM_ARENA),
        lambda: None,
        rounds,
        target_s,
    )
    return t


def measure(
    name: str, data: bytes, rounds: int, target_s: float, alloc_rounds: int, tflm_fixed: float
) -> dict:
    from tflite_micro import runtime

    m = ta.Model.from_bytes(data)
    try:
        ours = ta.Interpreter(m)
        ours.allocate_tensors()
    except (NotImplementedError, ValueError, RuntimeError) as e:
        return {"name": name, "skip": f"ours: {str(e).splitlines()[0][:90]}"}
    try:
        theirs = runtime.Interpreter.from_bytes(data, arena_size=TFLM_ARENA)
    except Exception as e:  # the wheel raises plain RuntimeError / ValueError
        return {"name": name, "skip": f"TFLM: {str(e).splitlines()[0][:90]}"}
    rng = np.random.default_rng(0)
    xs = sm.random_inputs(theirs, len(m.inputs), rng)
    for i, x in enumerate(xs):
        ours.set_input(x, i)
        theirs.set_input(x, i)
    ours.invoke()
    theirs.invoke()
    same = all(_same(ours.get_output(o), theirs.get_output(o)) for o in range(len(m.outputs)))
    t_ours, t_theirs = interleaved_medians(ours.invoke, theirs.invoke, rounds, target_s)

    def alloc_ours():
        ta.Interpreter(m).allocate_tensors()

    def alloc_theirs():
        runtime.Interpreter.from_bytes(data, arena_size=TFLM_ARENA)

    exact = ours.arena_size

    def alloc_fixed():
        ta.Interpreter(m, arena_size=exact).allocate_tensors()

    a_ours, a_theirs = interleaved_medians(alloc_ours, alloc_theirs, alloc_rounds, target_s)
    a_none, a_fixed = interleaved_medians(alloc_ours, alloc_fixed, alloc_rounds, target_s)
    net = a_theirs - tflm_fixed if a_theirs >= 2 * tflm_fixed else 0.0
    return {
        "name": name,
        "same": same,
        "ours": t_ours,
        "tflm": t_theirs,
        "ratio": t_ours / t_theirs,
        "alloc_ours": a_ours,
        "alloc_tflm": a_theirs,
        "alloc_ratio": a_ours / a_theirs,
        "alloc_net": a_ours / net if net > 0 else float("nan"),
        "x_fixed": a_none / a_fixed,
        "arena": exact,
    }


def _fmt_s(s: float) -> str:
    return f"{s * 1e6:,.1f} us" if s < 1e-3 else f"{s * 1e3:,.2f} ms"


def _fmt_ratio(x: float) -> str:
    return "-" if x != x else f"{x:.3f}"  # NaN: not measured


def print_table(rows: list[dict]) -> None:
    print(
        f"{'model':<34} {'ours':>11} {'TFLM':>11} {'ratio':>6} {'same':>5} | "
        f"{'alloc ours':>11} {'alloc TFLM':>11} {'ratio':>6} {'net':>6} {'x fixed':>7} "
        f"{'arena':>10}"
    )
    for r in rows:
        if "skip" in r:
            print(f"{r['name']:<34} skipped: {r['skip']}")
            continue
        print(
            f"{r['name']:<34} {_fmt_s(r['ours']):>11} {_fmt_s(r['tflm']):>11} "
            f"{r['ratio']:>6.3f} {'yes' if r['same'] else 'NO':>5} | "
            f"{_fmt_s(r['alloc_ours']):>11} {_fmt_s(r['alloc_tflm']):>11} "
            f"{r['alloc_ratio']:>6.3f} {_fmt_ratio(r['alloc_net']):>6} {r['x_fixed']:>7.2f} "
            f"{r['arena']:>10,}"
        )
    done = [r for r in rows if "skip" not in r]
    if done:
        gm = float(np.exp(np.mean(np.log([r["ratio"] for r in done]))))
        ga = float(np.exp(np.mean(np.log([r["alloc_ratio"] for r in done]))))
        # r == r drops NaN (a run without a net figure).
        net = max(
            (r["alloc_net"] for r in done if r["alloc_net"] == r["alloc_net"]), default=float("nan")
        )
        print(
            f"geometric mean ratio: invoke {gm:.3f}, allocation {ga:.3f} "
            f"(max: invoke {max(r['ratio'] for r in done):.3f}, allocation "
            f"{max(r['alloc_ratio'] for r in done):.3f}, net {_fmt_ratio(net)})"
        )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models-dir", type=Path, default=default_models_dir())
    p.add_argument("--rounds", type=int, default=31, help="interleaved invoke rounds")
    p.add_argument("--alloc-rounds", type=int, default=15, help="interleaved allocation rounds")
    p.add_argument("--target-ms", type=float, default=2.0, help="time per timed batch")
    p.add_argument("--only", nargs="*", help="model names (file stems / micro names)")
    p.add_argument("--no-micro", action="store_true")
    p.add_argument("--no-shared", action="store_true")
    args = p.parse_args(argv)
    target = args.target_ms / 1e3
    work: list[tuple[str, Callable[[], bytes]]] = []
    if not args.no_shared:
        for f in sorted(args.models_dir.glob("*.tflite")):
            work.append((f.stem, f.read_bytes))
    if not args.no_micro:
        work += [(f"[micro] {n}", fn) for n, fn in micro_models()]
    rows = []
    fixed = tflm_fixed_cost(args.alloc_rounds, target)
    print(f"TFLM from_bytes on a one-operator model (fixed cost): {_fmt_s(fixed)}")
    for name, make in work:
        if args.only and not any(o in name for o in args.only):
            continue
        row = measure(name, make(), args.rounds, target, args.alloc_rounds, fixed)
        rows.append(row)
        print(f"measured {name}", file=sys.stderr, flush=True)
    print_table(rows)


if __name__ == "__main__":
    main()
