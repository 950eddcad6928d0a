"""Every shipped kernel, end to end through our interpreter, against the real
TFLM on small models built with our builder: int8 bit for bit, float within
1e-5 relative. (Kernel math is also checked against TFLM golden vectors in
tests_cpp/runtime/kernels_*_test.cc.)"""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena import _sample_models as sm
from tflm_arena.builder import ModelBuilder


def _compare(data: bytes, n_runs: int = 5, seed: int = 0):
    return ref.compare_runs(data, n_runs, seed)[0]


def _conv_int8(op, opts, in_shape, filt_shape, per_channel_dim):
    cout = filt_shape[per_channel_dim]
    rng = np.random.default_rng(1)
    return sm.conv_int8(op, opts, in_shape, filt_shape, [1, 4, 4, cout], per_channel_dim, rng)


def test_conv_int8_per_channel_same_stride2_relu6():
    _compare(
        _conv_int8(
            "CONV_2D",
            {"padding": "SAME", "stride_w": 2, "stride_h": 2, "fused_activation_function": "RELU6"},
            [1, 8, 8, 3],
            [6, 3, 3, 3],
            0,
        )
    )


def test_depthwise_int8_multiplier2_same_stride2():
    _compare(
        _conv_int8(
            "DEPTHWISE_CONV_2D",
            {"padding": "SAME", "stride_w": 2, "stride_h": 2, "depth_multiplier": 2},
            [1, 8, 8, 3],
            [1, 3, 3, 6],
            3,
        )
    )


@pytest.mark.parametrize("op", ["MAX_POOL_2D", "AVERAGE_POOL_2D"])
@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_pooling(op, dtype):
    _compare(sm.pool(op, dtype, [1, 7, 7, 4], [1, 4, 4, 4], activation="RELU"))


def test_quantize_fc_softmax_dequantize_chain():
    rng = np.random.default_rng(4)
    _compare(sm.quantize_fc_softmax_dequantize(2, 16, 10, rng, 500), n_runs=20)


def test_add_int8_broadcast_and_reshape():
    mb = ModelBuilder()
    a = sm.quantized(mb, [1, 3, 4], "a", 0.05, 3)
    c = sm.quantized(mb, [1, 1, 4], "c", 0.02, -7)
    s = sm.quantized(mb, [1, 3, 4], "s", 0.06, 0)
    r = sm.quantized(mb, [12], "r", 0.06, 0)
    mb.add_operator("ADD", [a, c], [s], options={"fused_activation_function": "RELU"})
    mb.add_operator("RESHAPE", [s], [r])
    mb.set_io([a, c], [r])
    _compare(mb.build(), n_runs=20)


@pytest.mark.parametrize("bias_type", ["INT32", None])
def test_int16_conv_without_bias_follows_quantized_bias_type(bias_type):
    rng = np.random.default_rng(8)
    mb = ModelBuilder()
    x = mb.add_tensor([1, 5, 5, 2], "int16", "x", scale=[0.01], zero_point=[0])
    w = mb.add_tensor(
        [3, 3, 3, 2],
        "int8",
        "w",
        data=rng.integers(-127, 128, (3, 3, 3, 2)),
        scale=[0.02, 0.01, 0.03],
        zero_point=[0, 0, 0],
        quantized_dimension=0,
    )
    y = mb.add_tensor([1, 5, 5, 3], "int16", "y", scale=[0.05], zero_point=[0])
    opts = {"padding": "SAME"}
    if bias_type:
        opts["quantized_bias_type"] = bias_type
    mb.add_operator("CONV_2D", [x, w, -1], [y], options=opts)
    mb.set_io([x], [y])
    _compare(mb.build())


def _model_with_unrunnable_operators() -> bytes:
    """Two custom operators (one used twice) and a builtin without a kernel
    (FLOOR) around a runnable ADD."""
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8], "float32", "x")
    a, b, c, d, y = (mb.add_tensor([1, 8], "float32", n) for n in "abcdy")
    mb.add_operator("CUSTOM", [x], [a], custom_code="MyFirstOp")
    mb.add_operator("FLOOR", [a], [b])
    mb.add_operator("CUSTOM", [b], [c], custom_code="ethos-u")
    mb.add_operator("CUSTOM", [c], [d], custom_code="MyFirstOp")
    mb.add_operator("ADD", [d, x], [y])
    mb.set_io([x], [y])
    return mb.build()


def test_model_with_unrunnable_operators_loads_plans_and_names_every_missing_one():
    # Loading, usage records and tensors-only planning need no kernels; a
    # plan with TFLM's kernel scratch cannot be made for operators whose TFLM
    # has no kernel (stock TFLM refuses it), and says how to get the
    # tensors-only one. The
    # interpreter refuses once, naming every missing operator type (custom
    # ones by their custom_code) with where it first occurs.
    m = ta.Model.from_bytes(_model_with_unrunnable_operators())
    assert [o.builtin_code for o in m.operators] == [32, 8, 32, 32, 0]
    records = m.usage_records()
    assert len(records) == 6
    with pytest.raises(ta.TflmRefusesModelError, match=r"MyFirstOp.*pass scratch=False"):
        m.plan()
    p = m.plan(scratch=False)
    assert p.arena_bytes == 96 and len(p.offsets) == 6 and p.tensors_only
    with pytest.raises(NotImplementedError) as e:
        ta.Interpreter(m)
    assert str(e.value) == (
        "no kernel for 3 operator types: custom 'MyFirstOp' (operator 0 of subgraph 0, "
        "2 uses), FLOOR (operator 1 of subgraph 0), custom 'ethos-u' (operator 2 of "
        "subgraph 0)"
    )
    # Stock TFLM has no kernel for it either: its refusal, at the first.
    with pytest.raises(ta.TflmRefusesModelError, match="custom operator 'MyFirstOp'") as e:
        ta.tflm_arena(m)
    assert "Failed to get registration from op code CUSTOM" in str(e.value)
