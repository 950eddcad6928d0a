"""Tests for tflm_arena.builder: models are checked by running them in the
real TFLM interpreter (``tflite_micro``) and by reading the bytes back."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tflite_micro

from tflm_arena import builder as B

REPO = Path(__file__).resolve().parents[1]

ModelBuilder = B.ModelBuilder


@pytest.fixture(scope="module")
def tflm():
    return require_tflite_micro()


def _interp(tflm, model: bytes, arena: int = 16384):
    return tflm.runtime.Interpreter.from_bytes(model, arena_size=arena)


def _run(tflm, model: bytes, inputs, arena: int = 16384):
    it = _interp(tflm, model, arena)
    for i, x in enumerate(inputs):
        it.set_input(x, i)
    it.invoke()
    return it.get_output(0)


def _read(tflm, model: bytes):
    """Parse with the schema reader shipped in tflite_micro (independent of
    the builder's own slot tables)."""
    return tflm.runtime.convert_bytearray_to_object(model)


# ----------------------------------------------------------------------------
# Models
# ----------------------------------------------------------------------------


def _float_add_model(act: str = "NONE") -> bytes:
    mb = ModelBuilder()
    a = mb.add_tensor([1, 4], "float32", "a")
    b = mb.add_tensor([1, 4], np.float32, "b")
    y = mb.add_tensor([1, 4], "FLOAT32", "y")
    mb.add_operator("ADD", [a, b], [y], options={"fused_activation_function": act})
    mb.set_io([a, b], [y])
    return mb.build()


def _add_reshape_model(offsets=None) -> bytes:
    """ADD(relu) [1,4] -> RESHAPE to [2,2]; 5 tensors (one constant)."""
    mb = ModelBuilder()
    a = mb.add_tensor([1, 4], "float32", "a")
    b = mb.add_tensor([1, 4], "float32", "b")
    s = mb.add_tensor([1, 4], "float32", "sum")
    shape = mb.add_tensor([2], "int32", "shape", [2, 2])
    y = mb.add_tensor([2, 2], "float32", "y")
    mb.add_operator("ADD", [a, b], [s], options={"fused_activation_function": "RELU"})
    mb.add_operator("RESHAPE", [s, shape], [y], options={"new_shape": [2, 2]})
    mb.set_io([a, b], [y])
    if offsets is not None:
        mb.add_metadata(B.OFFLINE_PLAN_METADATA_NAME, B.offline_plan_metadata(offsets))
    return mb.build()


_A = np.array([[1.0, -2.0, 3.0, -4.0]], np.float32)
_ONES = np.ones((1, 4), np.float32)
_CHAIN_EXPECTED = np.array([[2.0, 0.0], [4.0, 0.0]], np.float32)


# ----------------------------------------------------------------------------
# Runs in TFLM
# ----------------------------------------------------------------------------


def test_float_add_sums(tflm):
    model = _float_add_model()
    assert model[4:8] == b"TFL3"
    x = np.array([[1, 2, 3, 4]], np.float32)
    z = np.array([[10, 20, 30, -40]], np.float32)
    out = _run(tflm, model, [x, z])
    np.testing.assert_array_equal(out, x + z)
    assert out.dtype == np.float32 and out.shape == (1, 4)


def test_float_add_relu6_activation(tflm):
    x = np.array([[1, 2, 3, -4]], np.float32)
    z = np.array([[1, 2, 30, 1]], np.float32)
    out = _run(tflm, _float_add_model("RELU6"), [x, z])
    np.testing.assert_array_equal(out, np.clip(x + z, 0, 6))


def test_int8_fully_connected_exact(tflm):
    # in_scale * w_scale / out_scale == 1, so the requantization is exact.
    W = np.array([[1, 2, 3, 4], [-1, 0, 1, 0], [2, -2, 2, -2]], np.int8)
    bias = np.array([5, -7, 0], np.int32)
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "int8", "x", scale=0.5, zero_point=-3)
    w = mb.add_tensor([3, 4], "int8", "w", W, scale=0.5, zero_point=0)
    b = mb.add_tensor([3], "int32", "bias", bias, scale=0.25, zero_point=0)
    y = mb.add_tensor([1, 3], "int8", "y", scale=0.25, zero_point=2)
    mb.add_operator("FULLY_CONNECTED", [x, w, b], [y])
    mb.set_io([x], [y])
    xin = np.array([[-3, 1, 5, -10]], np.int8)
    out = _run(tflm, mb.build(), [xin])
    expected = (xin.astype(np.int32) + 3) @ W.T.astype(np.int32) + bias + 2
    assert out.dtype == np.int8
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(out, [[11, 3, 24]])


def test_int8_fully_connected_per_channel_without_bias(tflm):
    W = np.array([[1, 2, 3, 4], [-1, 0, 1, 0], [2, -2, 2, -2]], np.int8)
    w_scales = np.array([0.5, 1.0, 0.25])
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "int8", "x", scale=0.5, zero_point=0)
    w = mb.add_tensor([3, 4], "int8", "w", W, scale=w_scales, zero_point=0, quantized_dimension=0)
    y = mb.add_tensor([1, 3], "int8", "y", scale=0.25, zero_point=0)
    mb.add_operator("FULLY_CONNECTED", [x, w, -1], [y])  # -1: no bias
    mb.set_io([x], [y])
    xin = np.array([[1, 2, -1, 3]], np.int8)
    out = _run(tflm, mb.build(), [xin])
    expected = (xin.astype(np.int64) @ W.T.astype(np.int64)) * w_scales * 0.5 / 0.25
    np.testing.assert_array_equal(out, expected.astype(np.int8))
    np.testing.assert_array_equal(out, [[14, -4, -5]])


def test_int8_add_matches_reference(tflm):
    mb = ModelBuilder()
    a = mb.add_tensor([1, 8], "int8", "a", scale=0.1, zero_point=-5)
    b = mb.add_tensor([1, 8], np.int8, "b", scale=0.2, zero_point=3)
    y = mb.add_tensor([1, 8], "int8", "y", scale=0.3, zero_point=-1)
    mb.add_operator("ADD", [a, b], [y])
    mb.set_io([a, b], [y])
    qa = np.arange(-40, 40, 10, dtype=np.int8).reshape(1, 8)
    qb = (np.arange(8, dtype=np.int8) * 7 - 20).reshape(1, 8)
    out = _run(tflm, mb.build(), [qa, qb])
    real = (qa.astype(np.float64) + 5) * 0.1 + (qb.astype(np.float64) - 3) * 0.2
    ref = np.clip(np.round(real / 0.3) - 1, -128, 127)
    assert out.dtype == np.int8
    assert np.max(np.abs(out.astype(np.int32) - ref)) <= 1
    np.testing.assert_array_equal(out, [[-28, -20, -12, -4, 4, 12, 20, 28]])


def test_two_op_chain_with_reshape(tflm):
    out = _run(tflm, _add_reshape_model(), [_A, _ONES])
    assert out.shape == (2, 2)
    np.testing.assert_array_equal(out, _CHAIN_EXPECTED)


def test_softmax_default_beta_is_one(tflm):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("SOFTMAX", [x], [y])
    mb.set_io([x], [y])
    xin = np.array([[1, 2, 3, 4]], np.float32)
    out = _run(tflm, mb.build(), [xin])
    e = np.exp(xin - xin.max())
    np.testing.assert_allclose(out, e / e.sum(), rtol=1e-5)


def test_offline_plan_loads_and_gives_identical_output(tflm):
    plain = _run(tflm, _add_reshape_model(), [_A, _ONES])
    # 5 tensors: a, b, sum, shape (constant: ignored, -1), y; 16 B each.
    planned = _run(tflm, _add_reshape_model([0, 16, 32, -1, 48]), [_A, _ONES])
    np.testing.assert_array_equal(planned, plain)
    np.testing.assert_array_equal(planned, _CHAIN_EXPECTED)


def test_offline_plan_is_read_by_tflm(tflm):
    # A wrong offset count is rejected (TFLM's micro_allocation_info.cc: the offline
    # plan must hold one offset per tensor of all subgraphs, else planning
    # fails) ...
    with pytest.raises(RuntimeError):
        _interp(tflm, _add_reshape_model([0, 16, 32, -1]), arena=8192)
    # ... and a far-away offset makes the head larger than the arena.
    with pytest.raises(RuntimeError):
        _interp(tflm, _add_reshape_model([0, 16, 32, -1, 1 << 20]), arena=8192)
    # The same model with a near offset fits.
    out = _run(tflm, _add_reshape_model([0, 16, 32, -1, 1024]), [_A, _ONES], arena=8192)
    np.testing.assert_array_equal(out, _CHAIN_EXPECTED)


def _if_model() -> bytes:
    """IF(cond): then -> a + b, else -> a + a."""
    mb = ModelBuilder()
    c = mb.add_tensor([1], "bool", "cond")
    a = mb.add_tensor([1, 2], "float32", "a")
    b = mb.add_tensor([1, 2], "float32", "b")
    o = mb.add_tensor([1, 2], "float32", "out")
    then_sg = mb.add_subgraph("then")
    else_sg = mb.add_subgraph("else")
    for sg, use_b in ((then_sg, True), (else_sg, False)):
        ta = mb.add_tensor([1, 2], "float32", "a", subgraph=sg)
        tb = mb.add_tensor([1, 2], "float32", "b", subgraph=sg)
        to = mb.add_tensor([1, 2], "float32", "out", subgraph=sg)
        mb.add_operator("ADD", [ta, tb if use_b else ta], [to], subgraph=sg)
        mb.set_io([ta, tb], [to], subgraph=sg)
    mb.add_operator(
        "IF",
        [c, a, b],
        [o],
        options={"then_subgraph_index": then_sg, "else_subgraph_index": else_sg},
    )
    mb.set_io([c, a, b], [o])
    return mb.build()


@pytest.mark.parametrize("cond, expected", [(True, [[11.0, 22.0]]), (False, [[2.0, 4.0]])])
def test_if_selects_branch(tflm, cond, expected):
    out = _run(
        tflm,
        _if_model(),
        [np.array([cond]), np.array([[1, 2]], np.float32), np.array([[10, 20]], np.float32)],
    )
    np.testing.assert_array_equal(out, expected)


def test_while_loops_until_condition_false(tflm):
    mb = ModelBuilder()
    x = mb.add_tensor([1], "float32", "x")
    y = mb.add_tensor([1], "float32", "y")
    cond = mb.add_subgraph("cond")
    body = mb.add_subgraph("body")
    cx = mb.add_tensor([1], "float32", "x", subgraph=cond)
    lim = mb.add_tensor([1], "float32", "limit", [10.0], subgraph=cond)
    cb = mb.add_tensor([1], "bool", "keep_going", subgraph=cond)
    mb.add_operator("LESS", [cx, lim], [cb], subgraph=cond)
    mb.set_io([cx], [cb], subgraph=cond)
    bx = mb.add_tensor([1], "float32", "x", subgraph=body)
    one = mb.add_tensor([1], "float32", "one", [1.0], subgraph=body)
    bo = mb.add_tensor([1], "float32", "x_next", subgraph=body)
    mb.add_operator("ADD", [bx, one], [bo], subgraph=body)
    mb.set_io([bx], [bo], subgraph=body)
    mb.add_operator(
        "WHILE", [x], [y], options={"cond_subgraph_index": cond, "body_subgraph_index": body}
    )
    mb.set_io([x], [y])
    model = mb.build()
    np.testing.assert_array_equal(_run(tflm, model, [np.array([0.5], np.float32)]), [10.5])
    np.testing.assert_array_equal(_run(tflm, model, [np.array([42.0], np.float32)]), [42.0])


def test_call_once_opcode_above_127_runs(tflm):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 3], "float32", "x")
    two = mb.add_tensor([1, 3], "float32", "two", np.full((1, 3), 2.0))
    y = mb.add_tensor([1, 3], "float32", "y")
    init = mb.add_subgraph("init")
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": init})
    mb.add_operator("ADD", [x, two], [y])
    mb.set_io([x], [y])
    model = mb.build()
    out = _run(tflm, model, [np.array([[1, 2, 3]], np.float32)])
    np.testing.assert_array_equal(out, [[3, 4, 5]])
    codes = _read(tflm, model).operatorCodes
    assert [(c.deprecatedBuiltinCode, c.builtinCode) for c in codes] == [(127, 129), (0, 0)]


# ----------------------------------------------------------------------------
# Structure read back
# ----------------------------------------------------------------------------


def test_structure_round_trip(tflm):
    mb = ModelBuilder(description="unit test")
    x = mb.add_tensor([1, 4], "int8", "x", scale=0.5, zero_point=-3)
    w = mb.add_tensor(
        [3, 4],
        "int8",
        "w",
        np.ones((3, 4), np.int8),
        scale=[0.5, 1.0, 0.25],
        quantized_dimension=0,
    )
    v = mb.add_tensor([2], "float32", "state", is_variable=True)
    y = mb.add_tensor([1, 3], "int8", "y", scale=0.25, zero_point=2, shape_signature=[-1, 3])
    mb.add_operator(
        "FULLY_CONNECTED",
        [x, w, -1],
        [y],
        intermediates=[v],
        options={"fused_activation_function": "RELU", "keep_num_dims": True},
    )
    mb.add_operator("CUSTOM", [x], [y], custom_code="MyOp", version=2)
    mb.add_operator("FULLY_CONNECTED", [x, w, -1], [y])  # reuses opcode 0
    mb.add_operator(9, [x, w, -1], [y], version=3)  # same op, new version
    sub = mb.add_subgraph("second")
    mb.add_tensor([], "int32", "scalar", subgraph=sub)
    md_buf = mb.add_metadata("foo", b"abc")
    mb.set_io([x], [y])
    model = mb.build()
    assert mb.build() == model  # deterministic

    M = _read(tflm, model)
    assert M.version == 3
    assert M.description == b"unit test"
    # Buffer 0 is the empty sentinel; constant data lives in buffer 1.
    assert M.buffers[0].data is None
    assert M.buffers[1].data.tolist() == [1] * 12
    assert len(M.buffers) == 3 and md_buf == 2
    assert [(m.name, m.buffer) for m in M.metadata] == [(b"foo", 2)]
    assert M.buffers[2].data.tobytes() == b"abc"

    codes = [
        (c.deprecatedBuiltinCode, c.builtinCode, c.version, c.customCode) for c in M.operatorCodes
    ]
    assert codes == [(9, 9, 1, None), (32, 32, 2, b"MyOp"), (9, 9, 3, None)]

    sg = M.subgraphs[0]
    assert sg.inputs.tolist() == [x] and sg.outputs.tolist() == [y]
    tx, tw, tv, ty = sg.tensors
    assert tx.name == b"x" and tx.type == 9 and tx.buffer == 0 and tx.hasRank
    assert tx.shape.tolist() == [1, 4]
    assert tx.quantization.scale.tolist() == [0.5]
    assert tx.quantization.zeroPoint.tolist() == [-3]
    assert tw.buffer == 1
    assert tw.quantization.scale.tolist() == [0.5, 1.0, 0.25]
    assert tw.quantization.zeroPoint.tolist() == [0, 0, 0]
    assert tw.quantization.quantizedDimension == 0
    assert tv.isVariable and tv.type == 0 and tv.quantization is None
    assert ty.shapeSignature.tolist() == [-1, 3]

    op0, op1, op2, op3 = sg.operators
    assert op0.opcodeIndex == 0 and op2.opcodeIndex == 0 and op3.opcodeIndex == 2
    assert op0.inputs.tolist() == [0, 1, -1] and op0.outputs.tolist() == [3]
    assert op0.intermediates.tolist() == [v]
    assert op0.builtinOptionsType == 8  # FullyConnectedOptions
    assert op0.builtinOptions.fusedActivationFunction == 1
    assert op0.builtinOptions.keepNumDims is True
    assert op1.opcodeIndex == 1 and op1.builtinOptionsType == 0

    assert M.subgraphs[1].name == b"second"
    (scalar,) = M.subgraphs[1].tensors
    assert scalar.shape.tolist() == [] and scalar.hasRank and scalar.type == 2


def test_options_union_types_and_fields(tflm):
    M = _read(tflm, _if_model())
    (if_op,) = M.subgraphs[0].operators
    assert if_op.builtinOptionsType == 92
    assert (if_op.builtinOptions.thenSubgraphIndex, if_op.builtinOptions.elseSubgraphIndex) == (
        1,
        2,
    )
    assert M.operatorCodes[if_op.opcodeIndex].builtinCode == 118
    add_op = M.subgraphs[1].operators[0]
    assert add_op.builtinOptionsType == 11  # AddOptions written by default
    assert add_op.builtinOptions.potScaleInt16 is True

    M = _read(tflm, _add_reshape_model())
    add_op, reshape_op = M.subgraphs[0].operators
    assert add_op.builtinOptions.fusedActivationFunction == 1
    assert reshape_op.builtinOptionsType == 17
    assert reshape_op.builtinOptions.newShape.tolist() == [2, 2]
    assert M.operatorCodes[reshape_op.opcodeIndex].builtinCode == 22


def test_buffer_data_is_16_byte_aligned():
    payloads = [bytes(range(1, 34)), bytes(range(100, 107)), np.arange(5, dtype="<i4")]
    mb = ModelBuilder()
    for p in payloads:
        mb.add_buffer(p)
    t = mb.add_tensor([3], "int16", "c", [-1, 2, 300])
    mb.set_io([], [t])
    model = mb.build()
    for p in payloads + [np.array([-1, 2, 300], "<i2")]:
        raw = p.tobytes() if isinstance(p, np.ndarray) else p
        pos = model.find(raw)
        assert pos > 0 and pos % 16 == 0, pos
        assert struct.unpack_from("<I", model, pos - 4)[0] == len(raw)
    assert len(model) % 16 == 0


def test_offline_plan_metadata_words():
    words = B.offline_plan_metadata([0, -1, 64, 1024], num_subgraphs=2)
    assert struct.unpack("<7i", words) == (0, 2, 4, 0, -1, 64, 1024)
    assert B.offline_plan_metadata([]) == struct.pack("<3i", 0, 1, 0)
    with pytest.raises(ValueError):
        B.offline_plan_metadata([1 << 31])


def test_offline_plan_metadata_in_model(tflm):
    model = _add_reshape_model([0, 16, 32, -1, 48])
    M = _read(tflm, model)
    (md,) = M.metadata
    assert md.name == b"OfflineMemoryAllocation"
    words = np.frombuffer(M.buffers[md.buffer].data.tobytes(), "<i4").tolist()
    assert words == [0, 1, 5, 0, 16, 32, -1, 48]


def test_tables_hold_schema_facts():
    ops = B.BUILTIN_OPERATORS
    assert (ops["ADD"], ops["FULLY_CONNECTED"], ops["RESHAPE"], ops["SOFTMAX"]) == (0, 9, 22, 25)
    assert (ops["IF"], ops["WHILE"], ops["CALL_ONCE"]) == (118, 119, 129)
    assert ops["PLACEHOLDER_FOR_GREATER_OP_CODES"] == 127
    assert len(set(ops.values())) == len(ops) == 210
    assert B.TENSOR_TYPES["INT8"] == 9 and B.TENSOR_TYPES["INT4"] == 17


def test_tensor_count_and_subgraphs():
    mb = ModelBuilder()
    assert mb.num_subgraphs == 1 and mb.tensor_count() == 0
    mb.add_tensor([1], "int8")
    s = mb.add_subgraph()
    mb.add_tensor([1], "int8", subgraph=s)
    mb.add_tensor([2], "int8", subgraph=s)
    assert (mb.tensor_count(), mb.tensor_count(0), mb.tensor_count(1)) == (3, 1, 2)


# ----------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------


def test_errors_are_raised_early():
    mb = ModelBuilder()
    t = mb.add_tensor([1, 4], "float32", "t")
    with pytest.raises(ValueError, match="unknown builtin operator"):
        mb.add_operator("NOT_AN_OP", [t], [t])
    with pytest.raises(ValueError, match="unknown AddOptions"):
        mb.add_operator("ADD", [t, t], [t], options={"beta": 1.0})
    with pytest.raises(ValueError, match="not supported"):
        mb.add_operator("SKIP_GRAM", [t], [t], options={"ngram_size": 2})
    with pytest.raises(ValueError, match="IfOptions needs"):
        mb.add_operator("IF", [t], [t], options={"then_subgraph_index": 0})
    with pytest.raises(ValueError, match="custom_code"):
        mb.add_operator("CUSTOM", [t], [t])
    with pytest.raises(ValueError, match="custom_code"):
        mb.add_operator("ADD", [t], [t], custom_code="X")
    with pytest.raises(ValueError, match="fused_activation_function"):
        mb.add_operator("ADD", [t, t], [t], options={"fused_activation_function": "GELU"})
    with pytest.raises(ValueError, match="elements"):
        mb.add_tensor([2, 2], "float32", data=[1.0, 2.0])
    with pytest.raises(ValueError, match="do not fit"):
        mb.add_tensor([1], "int8", data=[200])
    with pytest.raises(ValueError):
        mb.add_tensor([1], "not_a_type")
    with pytest.raises(ValueError, match="zero_point"):
        mb.add_tensor([1], "int8", zero_point=3)
    with pytest.raises(IndexError):
        mb.add_tensor([1], "int8", subgraph=5)
    with pytest.raises(TypeError):
        mb.add_tensor([2], "int4", data=[1, 2])  # numpy has no int4: pass bytes
    mb.add_tensor([2], "int4", data=b"\x21")  # raw packed bytes are fine


def test_build_validates_indices():
    mb = ModelBuilder()
    t = mb.add_tensor([1], "float32")
    mb.add_operator("ADD", [t, 3], [t])
    with pytest.raises(ValueError, match="refers to tensor 3"):
        mb.build()

    mb = ModelBuilder()
    t = mb.add_tensor([1], "bool")
    mb.add_operator("IF", [t], [], options={"then_subgraph_index": 1, "else_subgraph_index": 2})
    with pytest.raises(ValueError, match="subgraphs"):
        mb.build()
    mb.add_subgraph()
    mb.add_subgraph()
    mb.build()  # now valid
