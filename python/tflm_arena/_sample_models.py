"""Small models built with :class:`tflm_arena.builder.ModelBuilder` that the
tests, the fuzz seed writer (fuzz/make_seeds.py) and the invoke benchmark
(benchmarks/invoke_speed.py) share, so that each graph is written once; each
caller chooses the sizes, quantization and random generator.

Example
-------
>>> import numpy as np
>>> data = pool("MAX_POOL_2D", "int8", [1, 4, 4, 1], [1, 2, 2, 1])
>>> data[4:8]
b'TFL3'
>>> rng = np.random.default_rng(0)
>>> len(conv_int8("CONV_2D", {}, [1, 3, 3, 1], [2, 1, 1, 1], [1, 3, 3, 2], 0, rng)) > 0
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from .builder import ModelBuilder


def quantized(
    mb: ModelBuilder,
    shape: Sequence[int],
    name: str,
    scale: float,
    zero_point: int,
    dtype: str = "int8",
    **kw: Any,
) -> int:
    """A tensor quantized per tensor (one scale, one zero point).

    >>> mb = ModelBuilder()
    >>> quantized(mb, [1, 4], "x", 0.05, -3)
    0
    """
    return mb.add_tensor(shape, dtype, name, scale=[scale], zero_point=[zero_point], **kw)


def conv_int8(
    op: str,
    options: Mapping[str, Any],
    in_shape: Sequence[int],
    filter_shape: Sequence[int],
    out_shape: Sequence[int],
    per_channel_dim: int,
    rng: np.random.Generator,
    bias_bound: int = 2000,
) -> bytes:
    """x -> ``op`` (CONV_2D or DEPTHWISE_CONV_2D) -> y, int8 with per-channel
    weights along ``per_channel_dim``; weights, their scales and the int32
    bias (in [-bias_bound, bias_bound)) drawn from ``rng`` in that order.

    >>> rng = np.random.default_rng(1)
    >>> opts = {"padding": "SAME"}
    >>> conv_int8("CONV_2D", opts, [1, 4, 4, 1], [2, 3, 3, 1], [1, 4, 4, 2], 0, rng)[4:8]
    b'TFL3'
    """
    mb = ModelBuilder()
    x = quantized(mb, in_shape, "x", 0.05, -3)
    cout = filter_shape[per_channel_dim]
    w = mb.add_tensor(
        filter_shape,
        "int8",
        "w",
        data=rng.integers(-127, 128, filter_shape),
        scale=list(rng.uniform(0.002, 0.02, cout)),
        zero_point=[0] * cout,
        quantized_dimension=per_channel_dim,
    )
    b = mb.add_tensor([cout], "int32", "b", data=rng.integers(-bias_bound, bias_bound, cout))
    y = quantized(mb, out_shape, "y", 0.1, 5)
    mb.add_operator(op, [x, w, b], [y], options=options)
    mb.set_io([x], [y])
    return mb.build()


def pool(
    op: str,
    dtype: str,
    in_shape: Sequence[int],
    out_shape: Sequence[int],
    *,
    q: tuple[float, int] = (0.1, 2),
    padding: str = "SAME",
    size: int = 3,
    stride: int = 2,
    activation: str | None = None,
) -> bytes:
    """x -> ``op`` (MAX_POOL_2D or AVERAGE_POOL_2D) -> y with a square
    ``size`` window and ``stride``; int8 tensors share the quantization ``q``
    (scale, zero point), float32 ones have none.

    >>> pool("AVERAGE_POOL_2D", "float32", [1, 4, 4, 2], [1, 2, 2, 2], activation="RELU")[4:8]
    b'TFL3'
    """
    mb = ModelBuilder()
    if dtype == "int8":
        x, y = quantized(mb, in_shape, "x", *q), quantized(mb, out_shape, "y", *q)
    else:
        x = mb.add_tensor(in_shape, dtype, "x")
        y = mb.add_tensor(out_shape, dtype, "y")
    options: dict[str, Any] = {
        "padding": padding,
        "stride_w": stride,
        "stride_h": stride,
        "filter_width": size,
        "filter_height": size,
    }
    if activation is not None:
        options["fused_activation_function"] = activation
    mb.add_operator(op, [x], [y], options=options)
    mb.set_io([x], [y])
    return mb.build()


def fc_int8_weights(
    mb: ModelBuilder, n_in: int, n_out: int, rng: np.random.Generator, bias_bound: int
) -> tuple[int, int]:
    """A FULLY_CONNECTED's constant int8 weights ``w`` [n_out, n_in] (scale
    0.01, per tensor) and int32 bias ``b`` in [-bias_bound, bias_bound),
    drawn from ``rng`` in that order; returns their tensor indices.

    >>> mb = ModelBuilder()
    >>> fc_int8_weights(mb, 4, 2, np.random.default_rng(0), 100)
    (0, 1)
    """
    w = mb.add_tensor(
        [n_out, n_in],
        "int8",
        "w",
        data=rng.integers(-127, 128, (n_out, n_in)),
        scale=[0.01],
        zero_point=[0],
    )
    b = mb.add_tensor([n_out], "int32", "b", data=rng.integers(-bias_bound, bias_bound, n_out))
    return w, b


def quantize_fc_softmax_dequantize(
    batch: int, n_in: int, n_out: int, rng: np.random.Generator, bias_bound: int
) -> bytes:
    """float32 x -> QUANTIZE -> FULLY_CONNECTED (int8, per-tensor weights and
    int32 bias in [-bias_bound, bias_bound) drawn from ``rng``) -> SOFTMAX ->
    DEQUANTIZE -> float32 y.

    >>> quantize_fc_softmax_dequantize(2, 8, 4, np.random.default_rng(0), 100)[4:8]
    b'TFL3'
    """
    mb = ModelBuilder()
    x = mb.add_tensor([batch, n_in], "float32", "x")
    qx = quantized(mb, [batch, n_in], "q", 0.03, 1)
    w, b = fc_int8_weights(mb, n_in, n_out, rng, bias_bound)
    f = quantized(mb, [batch, n_out], "fc", 0.2, -10)
    s = quantized(mb, [batch, n_out], "softmax", 1.0 / 256, -128)
    y = mb.add_tensor([batch, n_out], "float32", "y")
    mb.add_operator("QUANTIZE", [x], [qx])
    mb.add_operator("FULLY_CONNECTED", [qx, w, b], [f])
    mb.add_operator("SOFTMAX", [f], [s], options={"beta": 1.0})
    mb.add_operator("DEQUANTIZE", [s], [y])
    mb.set_io([x], [y])
    return mb.build()


def add_constant_twice() -> bytes:
    """x + c -> t, t + c -> y, float32 [1, 16] with c a constant of ones:
    x (tensor 0) is live at steps 0..1, t (2) at 1..2, y (3) from 2.

    >>> add_constant_twice()[4:8]
    b'TFL3'
    """
    mb = ModelBuilder()
    x = mb.add_tensor([1, 16], "float32", "x")
    c = mb.add_tensor([1, 16], "float32", "c", data=np.ones((1, 16), np.float32))
    t = mb.add_tensor([1, 16], "float32", "t")
    y = mb.add_tensor([1, 16], "float32", "y")
    mb.add_operator("ADD", [x, c], [t])
    mb.add_operator("ADD", [t, c], [y])
    mb.set_io([x], [y])
    return mb.build()


class _InputDetails(Protocol):
    def get_input_details(self, index: int) -> Mapping[str, Any]: ...


def random_inputs(
    interpreter: _InputDetails, n_inputs: int, rng: np.random.Generator
) -> list[np.ndarray]:
    """One random array for each of the first ``n_inputs`` inputs of an
    interpreter with TFLM's ``get_input_details(i)`` (dtype and shape):
    integers over the whole range of their type, floats standard normal.

    >>> class One:
    ...     def get_input_details(self, i):
    ...         return {"dtype": np.int8, "shape": (2,)}
    >>> random_inputs(One(), 1, np.random.default_rng(0))[0].dtype
    dtype('int8')
    """
    xs = []
    for i in range(n_inputs):
        d = interpreter.get_input_details(i)
        if np.issubdtype(d["dtype"], np.integer):
            info = np.iinfo(d["dtype"])
            x = rng.integers(info.min, info.max, size=d["shape"], endpoint=True)
        else:
            x = rng.standard_normal(d["shape"])
        xs.append(np.asarray(x, dtype=d["dtype"]))
    return xs


# --------------------------------------------------------------------------
# MobileNetV2
# --------------------------------------------------------------------------

# Inverted residual groups (expansion t, output channels c, repeats n, first
# stride s) of MobileNetV2 (Sandler et al. 2018, table 2).
_MOBILENET_V2_GROUPS = (
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
)


def _make_divisible(v: float, divisor: int = 8) -> int:
    """``v`` rounded to the nearest multiple of ``divisor`` (at least
    ``divisor``), going up one step when rounding lost more than 10 %: the
    channel rule of the Keras MobileNet family.

    >>> _make_divisible(32 * 0.35), _make_divisible(16 * 0.35), _make_divisible(24)
    (16, 8, 24)
    """
    new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
    return new_v + divisor if new_v < 0.9 * v else new_v


def _pad_same(x: np.ndarray, k: int, stride: int) -> tuple[np.ndarray, int, int]:
    """``x`` [N, H, W, C] zero-padded as TFLite's SAME padding pads a ``k``
    x ``k`` window at ``stride`` (output ceil(H / stride); the odd pixel of
    the padding goes after), with the output height and width."""
    _, h, w, _ = x.shape
    oh, ow = -(-h // stride), -(-w // stride)
    ph, pw = max((oh - 1) * stride + k - h, 0), max((ow - 1) * stride + k - w, 0)
    pads = ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0))
    return np.pad(x, pads), oh, ow


def _conv_f32(x: np.ndarray, w: np.ndarray, stride: int, depthwise: bool) -> np.ndarray:
    """SAME convolution of ``x`` [N, H, W, C] in float32: ``w`` is [O, K, K, I]
    (CONV_2D) or [1, K, K, C] (DEPTHWISE_CONV_2D, multiplier 1); no bias."""
    k = w.shape[1]
    if k == 1 and stride == 1 and not depthwise:
        flat = x.reshape(-1, x.shape[3]) @ w[:, 0, 0, :].T
        return np.asarray(flat.reshape(*x.shape[:3], w.shape[0]))
    xp, oh, ow = _pad_same(x, k, stride)
    out = np.zeros((x.shape[0], oh, ow, w.shape[3] if depthwise else w.shape[0]), np.float32)
    for dy in range(k):
        for dx in range(k):
            rows = slice(dy, dy + stride * (oh - 1) + 1, stride)
            cols = slice(dx, dx + stride * (ow - 1) + 1, stride)
            patch = xp[:, rows, cols]
            if depthwise:
                out += patch * w[0, dy, dx]
            else:
                out += (patch.reshape(-1, patch.shape[3]) @ w[:, dy, dx, :].T).reshape(out.shape)
    return out


# int8 (scale, zero point) of RELU6 outputs ([0, 6]) and of SOFTMAX outputs
# (TFLM's SOFTMAX kernel requires 1/256 and -128 for int8).
_RELU6 = (6.0 / 255, -128)
_SOFTMAX_INT8 = (1.0 / 256, -128)


def _fake_quant(y: np.ndarray, q: tuple[float, int]) -> np.ndarray:
    """``y`` rounded to the int8 grid ``q`` (scale, zero point), clamped."""
    scale, zero = q
    levels = np.clip(np.round(y / scale) + zero, -128, 127)
    return ((levels - zero) * scale).astype(np.float32)


def _affine(lo: float, hi: float) -> tuple[float, int]:
    """Per-tensor int8 (scale, zero point) covering [lo, hi] widened to hold 0."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = max(hi - lo, 1e-6) / 255.0
    return scale, int(np.clip(round(-128 - lo / scale), -128, 127))


def mobilenet_v2(
    dtype: str = "int8",
    resolution: int = 224,
    alpha: float = 1.0,
    seed: int = 0,
    num_classes: int = 1000,
) -> bytes:
    """MobileNetV2 (Sandler et al. 2018, the Keras ``MobileNetV2`` layer
    list) with fixed-seed random weights, as the TFLite converter lays it
    out: input [1, resolution, resolution, 3]; CONV_2D 3x3 stride 2 + RELU6;
    17 inverted residual blocks (expand 1x1 CONV_2D + RELU6, left out when
    the expansion is 1; DEPTHWISE_CONV_2D 3x3 + RELU6; project 1x1 CONV_2D;
    ADD of the block input when the stride is 1 and the channels match);
    CONV_2D 1x1 to 1280 channels + RELU6; MEAN over H and W (what the
    converter makes of Keras' GlobalAveragePooling2D); FULLY_CONNECTED
    ``num_classes``; SOFTMAX. Every convolution pads SAME. Channel counts
    are scaled by ``alpha`` with Keras' rounding to multiples of 8 (the last
    conv keeps 1280 unless ``alpha`` > 1).

    ``dtype="int8"``: int8 input and output; per-channel symmetric int8
    conv weights (quantized dimension 0 for CONV_2D [O, H, W, I], 3 for
    DEPTHWISE_CONV_2D [1, H, W, C]), per-tensor FULLY_CONNECTED weights,
    int32 biases at input scale x weight scale, per-tensor int8 activations
    (RELU6 outputs cover [0, 6]; the others the range a float forward pass
    on two uniform [-1, 1] calibration images reaches; the input maps int8
    to [-1, 1)). ``dtype="float32"``: the same graph and weights in float32.

    The weights come from ``numpy.random.default_rng(seed)``; each layer's
    gain is then set from the calibration pass (values rounded to their int8
    grids) so that its pre-activations have a fixed spread (nothing
    saturates or dies out), and the classifier is centred on the
    calibration images' mean features, so that the outputs depend on the
    input (int8: two random inputs differ in about 140 of the 1000
    probabilities). Meant for memory figures and bit-identity
    checks, not for accuracy.

    >>> data = mobilenet_v2(resolution=32, alpha=0.35)
    >>> data[4:8]
    b'TFL3'
    >>> len(mobilenet_v2("float32", resolution=32, alpha=0.35)) > len(data)
    True
    """
    if dtype not in ("int8", "float32"):
        raise ValueError(f"dtype must be 'int8' or 'float32', not {dtype!r}")
    if resolution < 1 or alpha <= 0 or num_classes < 1:
        raise ValueError("resolution, alpha and num_classes must be positive")
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, (2, resolution, resolution, 3)).astype(np.float32)
    # Each layer: (op, name, input values, float weights, float bias, stride,
    # RELU6); value 0 is the model input, layer i writes value i + 1, with
    # int8 quantization quants[i + 1]. The calibration values are rounded to
    # their int8 grids, so that the pass drifts from exact arithmetic as the
    # int8 model does (a deep random network amplifies rounding).
    layers: list[tuple[str, str, tuple[int, ...], Any, Any, int, bool]] = []
    quants: list[tuple[float, int]] = [(1.0 / 128, 0)]
    values = [_fake_quant(x, quants[0])]

    def settle(y: np.ndarray, q: tuple[float, int] | None = None) -> int:
        q = q or _affine(float(y.min()), float(y.max()))
        values.append(_fake_quant(y, q))
        quants.append(q)
        return len(values) - 1

    def conv(name: str, src: int, cout: int, k: int, stride: int, relu6: bool, dw: bool) -> int:
        cin = values[src].shape[3]
        shape = (1, k, k, cin) if dw else (cout, k, k, cin)
        w = rng.standard_normal(shape).astype(np.float32)
        b = rng.normal(0.0, 0.1, cin if dw else cout).astype(np.float32)
        y = _conv_f32(values[src], w, stride, dw)
        gain = np.float32((1.5 if relu6 else 1.0) / max(float(y.std()), 1e-6))
        w, y = w * gain, y * gain + b
        op = "DEPTHWISE_CONV_2D" if dw else "CONV_2D"
        layers.append((op, name, (src,), w, b, stride, relu6))
        return settle(np.clip(y, 0.0, 6.0), _RELU6) if relu6 else settle(y)

    t = conv("Conv1", 0, _make_divisible(32 * alpha), 3, 2, True, False)
    block = 0
    for expansion, c, n, s in _MOBILENET_V2_GROUPS:
        cout = _make_divisible(int(c * alpha))
        for i in range(n):
            stride = s if i == 0 else 1
            cin = values[t].shape[3]
            p = "expanded_conv" if block == 0 else f"block_{block}"
            h = t
            if expansion != 1:
                h = conv(f"{p}_expand", h, cin * expansion, 1, 1, True, False)
            h = conv(f"{p}_depthwise", h, 0, 3, stride, True, True)
            h = conv(f"{p}_project", h, cout, 1, 1, False, False)
            if stride == 1 and cin == cout:
                layers.append(("ADD", f"{p}_add", (t, h), None, None, 1, False))
                h = settle(values[t] + values[h])
            t, block = h, block + 1
    last = _make_divisible(1280 * alpha) if alpha > 1.0 else 1280
    t = conv("out_relu", t, last, 1, 1, True, False)
    layers.append(("MEAN", "global_average_pooling2d", (t,), None, None, 1, False))
    feats = values[settle(values[t].mean(axis=(1, 2)))]
    # Classifier: logits centred on the calibration images' mean features,
    # with a gain that spreads the two images' logits by 0.8 (other inputs
    # of the int8 model spread about 2.3: its rounding adds to the
    # differences); their range doubled, so that other inputs fit. A larger
    # spread makes the softmax pick one class, a smaller one rounds most
    # int8 probabilities to 0.
    w = rng.standard_normal((num_classes, last)).astype(np.float32)
    spread = float(np.std(feats @ w.T, axis=0).mean())
    w *= np.float32(0.8 / max(spread, 1e-6))
    b = -(feats.mean(axis=0) @ w.T).astype(np.float32)
    logits = feats @ w.T + b
    layers.append(("FULLY_CONNECTED", "predictions", (t + 1,), w, b, 1, False))
    settle(logits, _affine(2 * float(logits.min()), 2 * float(logits.max())))
    layers.append(("SOFTMAX", "softmax", (t + 2,), None, None, 1, False))
    quants.append(_SOFTMAX_INT8)
    return _write_mobilenet_v2(dtype, layers, [v.shape for v in values] + [logits.shape], quants)


def _write_mobilenet_v2(
    dtype: str,
    layers: Sequence[tuple[str, str, tuple[int, ...], Any, Any, int, bool]],
    shapes: Sequence[tuple[int, ...]],
    qs: Sequence[tuple[float, int]],
) -> bytes:
    """The model bytes of :func:`mobilenet_v2`'s layer list; ``shapes`` and
    ``qs`` (int8 scale, zero point) per value, the model input first; the
    shapes' batch dimension is replaced by 1."""
    int8 = dtype == "int8"
    mb = ModelBuilder("tflm_arena sample: MobileNetV2")
    shape0 = [1, *shapes[0][1:]]
    tensors = [
        quantized(mb, shape0, "input", *qs[0]) if int8 else mb.add_tensor(shape0, dtype, "input")
    ]
    for op, name, srcs, w, b, stride, relu6 in layers:
        q = qs[len(tensors)]
        shape = [1, *shapes[len(tensors)][1:]]
        y = quantized(mb, shape, name, *q) if int8 else mb.add_tensor(shape, dtype, name)
        ins = [tensors[s] for s in srcs]
        options: dict[str, Any] = {}
        if w is not None:
            s_in = qs[srcs[0]][0]
            if not int8:
                wt = mb.add_tensor(w.shape, dtype, f"{name}/weights", data=w)
                bt = mb.add_tensor(b.shape, dtype, f"{name}/bias", data=b)
            elif op == "FULLY_CONNECTED":
                s_w = float(np.abs(w).max()) / 127
                wq = np.round(w / s_w).astype(np.int8)
                wt = mb.add_tensor(w.shape, "int8", f"{name}/weights", data=wq, scale=[s_w])
                bq = np.round(b / (s_in * s_w)).astype(np.int32)
                bt = mb.add_tensor(b.shape, "int32", f"{name}/bias", data=bq, scale=[s_in * s_w])
            else:
                axis = 3 if op == "DEPTHWISE_CONV_2D" else 0
                reduce = tuple(a for a in range(4) if a != axis)
                s_w = np.maximum(np.abs(w).max(axis=reduce), 1e-9) / 127
                wq = np.round(w / np.expand_dims(s_w, reduce)).astype(np.int8)
                wt = mb.add_tensor(
                    w.shape,
                    "int8",
                    f"{name}/weights",
                    data=wq,
                    scale=list(s_w),
                    zero_point=[0] * len(s_w),
                    quantized_dimension=axis,
                )
                s_b = s_in * s_w
                bt = mb.add_tensor(
                    b.shape,
                    "int32",
                    f"{name}/bias",
                    data=np.round(b / s_b).astype(np.int32),
                    scale=list(s_b),
                    zero_point=[0] * len(s_b),
                )
            ins += [wt, bt]
        if op in ("CONV_2D", "DEPTHWISE_CONV_2D"):
            options = {"padding": "SAME", "stride_w": stride, "stride_h": stride}
            options["fused_activation_function"] = "RELU6" if relu6 else "NONE"
        elif op == "MEAN":
            ins.append(mb.add_tensor([2], "int32", f"{name}/axes", data=[1, 2]))
            options = {"keep_dims": False}
        elif op == "SOFTMAX":
            options = {"beta": 1.0}
        mb.add_operator(op, ins, [y], options=options or None)
        tensors.append(y)
    mb.set_io([tensors[0]], [tensors[-1]])
    return mb.build()
