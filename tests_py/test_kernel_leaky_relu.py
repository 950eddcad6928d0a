"""LEAKY_RELU end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: int8 and
int16 bit for bit, float32 within 1e-5 relative, over several shapes, alphas
(including 0, > 1, negative and absent), scales and zero points. Also the
memory the kernel asks for: the same persistent bytes and head as TFLM."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _model(dtype, shape, alpha, in_q=None, out_q=None) -> bytes:
    mb = ModelBuilder()
    if in_q is None:
        x = mb.add_tensor(shape, dtype, "x")
        y = mb.add_tensor(shape, dtype, "y")
    else:
        x = mb.add_tensor(shape, dtype, "x", scale=[in_q[0]], zero_point=[in_q[1]])
        y = mb.add_tensor(shape, dtype, "y", scale=[out_q[0]], zero_point=[out_q[1]])
    options = None if alpha is None else {"alpha": alpha}
    mb.add_operator("LEAKY_RELU", [x], [y], options=options)
    mb.set_io([x], [y])
    return mb.build()


def _inputs(dtype, shape, rng, n):
    if dtype == "float32":
        xs = [rng.standard_normal(shape).astype(np.float32) * 4 for _ in range(n)]
        xs[0].flat[:3] = [0.0, -0.0, 1e-30]  # the x > 0 boundary
        return xs
    info = np.iinfo(dtype)
    xs = [
        rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype) for _ in range(n)
    ]
    xs[0].flat[:2] = [info.min, info.max]
    return xs


def _compare(data: bytes, dtype, shape, n_runs=8, seed=0):
    m = ta.Model.from_bytes(data)
    ours = ta.Interpreter(m)
    theirs = ref.interpreter(data)
    rng = np.random.default_rng(seed)
    for x in _inputs(dtype, shape, rng, n_runs):
        (want,) = ref.run(theirs, [x], 1)
        ours.set_input(x, 0)
        ours.invoke()
        got = ours.get_output(0)
        if dtype == "float32":
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=0)
        else:
            np.testing.assert_array_equal(got, want)
    return ours, theirs


SHAPES = [[1, 8, 8, 3], [2, 5], [17], [1, 1, 1, 1]]
ALPHAS = [0.2, 0.01, 1.7, -0.3, -0.5, 0.0, None]  # -0.5: ties on equal scales


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("alpha", ALPHAS)
def test_float32(shape, alpha):
    _compare(_model("float32", shape, alpha), "float32", shape)


# (input scale, zero point), (output scale, zero point): identity multiplier
# below, at and above 1, zero points at both ends.
INT8_QUANT = [
    ((0.05, -3), (0.04, 5)),
    ((0.1, 0), (0.1, 0)),
    ((0.02, 10), (0.5, -100)),
    ((0.3, 127), (0.01, -128)),
    ((0.0078125, -128), (0.0123, 0)),
]


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("quant", INT8_QUANT)
@pytest.mark.parametrize("shape", [[1, 8, 8, 3], [33]])
def test_int8(shape, quant, alpha):
    in_q, out_q = quant
    _compare(_model("int8", shape, alpha, in_q, out_q), "int8", shape, seed=len(shape))


INT16_QUANT = [
    ((0.001, 0), (0.0008, 0)),
    ((0.0005, 0), (0.002, 0)),
    ((0.01, 100), (0.003, -250)),
    ((3.0517578125e-05, 0), (3.0517578125e-05, 0)),
]


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("quant", INT16_QUANT)
@pytest.mark.parametrize("shape", [[2, 7, 5], [64]])
def test_int16(shape, quant, alpha):
    in_q, out_q = quant
    _compare(_model("int16", shape, alpha, in_q, out_q), "int16", shape, seed=3)


def _tflm_persistent_requested(theirs) -> int:
    return ref.persistent_requested(theirs)


@pytest.mark.parametrize("dtype", ["float32", "int8", "int16"])
def test_memory_requests_match_tflm(dtype):
    # The kernel's persistent request (the 24-byte OpData, in init) and no
    # scratch: the same persistent-buffer bytes and the same head as TFLM.
    shape = [1, 6, 6, 4]
    q = None if dtype == "float32" else (0.05, 0)
    data = _model(dtype, shape, 0.25, q, q)
    ours, theirs = _compare(data, dtype, shape, n_runs=1)
    a = ours.allocations()
    persistent = a["categories"].get("Persistent buffer data", {"requested_bytes": 0})
    # TFLM's figure also holds its interpreter's input and output pointer
    # arrays (8 bytes each on 64-bit); the rest is the kernel's OpData.
    assert persistent["requested_bytes"] == 24
    assert _tflm_persistent_requested(theirs) - 16 == 24
    assert a["head"] == ref.allocations(theirs)["head"]


def test_options_of_another_type_are_rejected():
    # LEAKY_RELU carrying ConcatenationOptions (type 3, a table our reader
    # neither knows nor verifies): the kernel's registration names the table
    # it decodes, so the interpreter refuses the foreign one.
    mb = ModelBuilder()
    x = mb.add_tensor([4], "float32", "x")
    y = mb.add_tensor([4], "float32", "y")
    mb.add_operator("LEAKY_RELU", [x], [y], options={"alpha": 0.5})
    mb.set_io([x], [y])
    raw = _retype_first_options(mb.build(), 3)
    m = ta.Model.from_bytes(raw)  # loads and plans
    assert len(m.operators) == 1
    with pytest.raises(
        Exception,
        match=r"LEAKY_RELU carries builtin options of type 3; "
        r"it takes LeakyReluOptions",
    ):
        ta.Interpreter(m).allocate_tensors()


def test_options_table_outside_the_buffer_is_rejected():
    # LeakyReluOptions is not in our schema subset, so the verifier does not
    # check it; the kernel's parser reads it through bounds-checked field
    # reads. A table whose vtable offset points outside the file is refused
    # by name instead of being read.
    mb = ModelBuilder()
    x = mb.add_tensor([4], "float32", "x")
    y = mb.add_tensor([4], "float32", "y")
    mb.add_operator("LEAKY_RELU", [x], [y], options={"alpha": 0.5})
    mb.set_io([x], [y])
    good = mb.build()
    table = _first_options_table(good)
    bad = bytearray(good)
    bad[table : table + 4] = (-(1 << 30)).to_bytes(4, "little", signed=True)
    m = ta.Model.from_bytes(bytes(bad))  # loads: the reader does not know LEAKY_RELU
    with pytest.raises(
        Exception,
        match=r"LeakyReluOptions lies outside the model buffer; "
        r"subgraph 0 operator 0 \(LEAKY_RELU\)",
    ):
        ta.Interpreter(m).allocate_tensors()
    it = ta.Interpreter(ta.Model.from_bytes(good))
    it.set_input(np.array([-2.0, -1.0, 0.0, 3.0], np.float32), 0)
    it.invoke()
    np.testing.assert_array_equal(it.get_output(0), [-1.0, -0.5, 0.0, 3.0])


def _first_options_table(data: bytes) -> int:
    """Byte position of operator 0's builtin options table."""
    return _walk_to_first_operator(data)[1]


def _retype_first_options(data: bytes, new_type: int) -> bytes:
    """The model with operator 0's builtin_options_type byte set to new_type."""
    buf = bytearray(data)
    type_pos = _walk_to_first_operator(data)[0]
    assert buf[type_pos] == 75
    buf[type_pos] = new_type
    return bytes(buf)


def _walk_to_first_operator(data: bytes):
    """(position of operator 0's options type byte, of its options table)."""
    buf = bytearray(data)

    def u32(p):
        return int.from_bytes(buf[p : p + 4], "little")

    def i32(p):
        return int.from_bytes(buf[p : p + 4], "little", signed=True)

    def u16(p):
        return int.from_bytes(buf[p : p + 2], "little")

    def field(table, fid):
        vt = table - i32(table)
        if 4 + 2 * fid >= u16(vt):
            return 0
        off = u16(vt + 4 + 2 * fid)
        return table + off if off else 0

    def deref(p):
        return p + u32(p)

    root = deref(0)
    subgraphs = deref(field(root, 2))
    sg0 = deref(subgraphs + 4)
    ops = deref(field(sg0, 3))
    op0 = deref(ops + 4)
    type_pos = field(op0, 3)
    table = deref(field(op0, 4))
    assert type_pos and table
    return type_pos, table


def test_shared_seanet_leaky_relu_model_matches_tflm(models_dir):
    # The shared model that needed LEAKY_RELU now runs: outputs identical to
    # TFLM's on 20 random inputs, and the same head.
    path = models_dir / "seanet_leaky_relu0.tflite"
    assert path.exists(), f"{path} is missing from the shared models"
    data = path.read_bytes()
    m = ta.Model.from_bytes(data)
    ours = ta.Interpreter(m)
    theirs = ref.interpreter(data)
    rng = np.random.default_rng(10)
    for _ in range(20):
        xs = ref.random_inputs(theirs, len(m.inputs), rng)
        want = ref.run(theirs, xs, len(m.outputs))
        for i, x in enumerate(xs):
            ours.set_input(x, i)
        ours.invoke()
        for o, y in enumerate(want):
            got = ours.get_output(o)
            if y.dtype.kind == "f":
                np.testing.assert_allclose(got, y, rtol=1e-5, atol=0)
            else:
                np.testing.assert_array_equal(got, y)
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
