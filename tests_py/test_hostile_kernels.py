"""Hostile models through Python, at least one per kernel: where TFLM itself
would reject the model or misbehave (write past a tensor, shift by >= 32, ...)
our interpreter must raise ValueError/RuntimeError naming the operator and the
problem, never crash; where the model is legal but extreme (int32 overflow
that TFLM wraps), our outputs must equal the real tflite-micro's bit for bit.
The C++ twin is tests_cpp/runtime/kernel_hostile_test.cc."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

I32_MAX = np.iinfo(np.int32).max


def _q(mb, shape, name, scale, zp, dtype="int8"):
    return mb.add_tensor(shape, dtype, name, scale=[scale], zero_point=[zp])


def _one_op(op, inputs, outputs, options=None, mb=None):
    """One unary operator: input 0 is the graph input."""
    mb.add_operator(op, inputs, outputs, options=options)
    mb.set_io([inputs[0]], outputs)
    return mb.build()


def _expect_rejected(data: bytes, match: str):
    m = ta.Model.from_bytes(data)
    with pytest.raises((ValueError, RuntimeError), match=match):
        it = ta.Interpreter(m)
        it.invoke()


def _same_as_tflm(data: bytes, xs):
    m = ta.Model.from_bytes(data)
    ours = ta.Interpreter(m)
    theirs = ref.interpreter(data)
    want = ref.run(theirs, xs, len(m.outputs))
    for i, x in enumerate(xs):
        ours.set_input(x, i)
    ours.invoke()
    for o, y in enumerate(want):
        np.testing.assert_array_equal(ours.get_output(o), y)


# ---------------------------------------------------------------- rejected


def test_quantize_element_count_mismatch():
    mb = ModelBuilder()
    x = mb.add_tensor([16], "float32", "x")
    y = _q(mb, [4], "y", 0.5, 0)
    _expect_rejected(
        _one_op("QUANTIZE", [x], [y], mb=mb), "QUANTIZE: input has 16 elements but output has 4"
    )


def test_quantize_absurd_scale():
    mb = ModelBuilder()
    x = _q(mb, [4], "x", 1.0, 0)
    y = _q(mb, [4], "y", 1e-30, 0)
    _expect_rejected(_one_op("QUANTIZE", [x], [y], mb=mb), "QUANTIZE: requantize multiplier")


def test_dequantize_element_count_mismatch():
    mb = ModelBuilder()
    x = _q(mb, [16], "x", 0.5, 0)
    y = mb.add_tensor([4], "float32", "y")
    _expect_rejected(
        _one_op("DEQUANTIZE", [x], [y], mb=mb), "DEQUANTIZE: input has 16 elements but output has 4"
    )


def test_softmax_output_shape_lies():
    mb = ModelBuilder()
    x = mb.add_tensor([2, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    _expect_rejected(
        _one_op("SOFTMAX", [x], [y], {"beta": 1.0}, mb=mb),
        r"SOFTMAX: output shape \[1, 4\] differs from input shape \[2, 4\]",
    )


def test_reshape_legacy_scalar_output():
    mb = ModelBuilder()
    x = mb.add_tensor([1], "float32", "x")
    y = mb.add_tensor([0], "float32", "y")
    _expect_rejected(_one_op("RESHAPE", [x], [y], mb=mb), "legacy scalar shape")


def test_add_output_zero_point_out_of_range():
    mb = ModelBuilder()
    a, b = _q(mb, [4], "a", 0.5, 0), _q(mb, [4], "b", 0.5, 0)
    y = _q(mb, [4], "y", 0.5, 1000)
    mb.add_operator("ADD", [a, b], [y])
    mb.set_io([a, b], [y])
    _expect_rejected(mb.build(), r"ADD: output tensor 'y' zero_point\[0\] = 1000 is outside")


@pytest.mark.parametrize("op", ["MAX_POOL_2D", "AVERAGE_POOL_2D"])
def test_pool_output_shape_lies(op):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4, 4, 1], "float32", "x")
    y = mb.add_tensor([1, 4, 4, 1], "float32", "y")
    opts = {"padding": "VALID", "stride_w": 2, "stride_h": 2, "filter_width": 2, "filter_height": 2}
    _expect_rejected(
        _one_op(op, [x], [y], opts, mb=mb),
        op + r": output shape \[1, 4, 4, 1\] differs from the computed \[1, 2, 2, 1\]",
    )


def _conv(op, out_scale=1.0, bias=0, out_shape=(1, 2, 2, 2), dtype="int8", bias_dtype="int32"):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4, 4, 2], dtype, "x", scale=[1.0], zero_point=[0])
    if op == "CONV_2D":
        w = mb.add_tensor(
            [2, 3, 3, 2], "int8", "w", data=np.ones([2, 3, 3, 2]), scale=[1.0], zero_point=[0]
        )
        opts = {"padding": "VALID", "stride_w": 1, "stride_h": 1}
    else:
        w = mb.add_tensor(
            [1, 3, 3, 2], "int8", "w", data=np.ones([1, 3, 3, 2]), scale=[1.0], zero_point=[0]
        )
        opts = {"padding": "VALID", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1}
    b = mb.add_tensor([2], bias_dtype, "b", data=[bias, bias])
    y = mb.add_tensor(list(out_shape), dtype, "y", scale=[out_scale], zero_point=[0])
    mb.add_operator(op, [x, w, b], [y], options=opts)
    mb.set_io([x], [y])
    return mb.build()


@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_conv_absurd_output_scale(op):
    _expect_rejected(_conv(op, out_scale=1e-30), op + r": output \(per-channel\) multiplier")


@pytest.mark.parametrize("op", ["CONV_2D", "DEPTHWISE_CONV_2D"])
def test_conv_output_shape_lies(op):
    _expect_rejected(
        _conv(op, out_shape=(1, 4, 4, 2)),
        op + ": output height x width 4 x 4 differs from the computed 2 x 2",
    )


def _fc(out_zp=0, out_scale=1.0, bias=0):
    mb = ModelBuilder()
    x = _q(mb, [1, 4], "x", 1.0, 0)
    w = mb.add_tensor([3, 4], "int8", "w", data=np.ones([3, 4]), scale=[1.0], zero_point=[0])
    b = mb.add_tensor([3], "int32", "b", data=[bias] * 3, scale=[1.0], zero_point=[0])
    y = _q(mb, [1, 3], "y", out_scale, out_zp)
    mb.add_operator("FULLY_CONNECTED", [x, w, b], [y])
    mb.set_io([x], [y])
    return mb.build()


def test_fully_connected_output_zero_point_out_of_range():
    _expect_rejected(
        _fc(out_zp=-129), r"FULLY_CONNECTED: output tensor 'y' zero_point\[0\] = -129 is outside"
    )


# ---------------------------------------------------------------- legal, extreme


def _int8_inputs(data: bytes, value: int):
    """Every input filled with `value` (shapes and types as TFLM reports)."""
    theirs = ref.interpreter(data)
    details = [theirs.get_input_details(i) for i in range(len(ta.Model.from_bytes(data).inputs))]
    return [np.full(d["shape"], value, d["dtype"]) for d in details]


def test_conv_extreme_bias_wraps_like_tflm():
    # Output multiplier 4 (left shift 2): accumulator INT32_MAX-ish overflows
    # when shifted; TFLM wraps, so must we (without UB).
    data = _conv("CONV_2D", out_scale=0.25, bias=I32_MAX)
    _same_as_tflm(data, _int8_inputs(data, 100))


def test_fully_connected_extreme_bias_wraps_like_tflm():
    data = _fc(out_scale=0.25, bias=I32_MAX)
    _same_as_tflm(data, _int8_inputs(data, 127))


def test_add_int32_overflow_wraps_like_tflm():
    mb = ModelBuilder()
    a, b = mb.add_tensor([4], "int32", "a"), mb.add_tensor([4], "int32", "b")
    y = mb.add_tensor([4], "int32", "y")
    mb.add_operator("ADD", [a, b], [y])
    mb.set_io([a, b], [y])
    x = np.array([I32_MAX, -I32_MAX - 1, 5, I32_MAX], np.int32)
    _same_as_tflm(mb.build(), [x, x])
