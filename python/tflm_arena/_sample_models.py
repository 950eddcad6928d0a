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
