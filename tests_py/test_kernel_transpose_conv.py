"""TRANSPOSE_CONV end to end through our interpreter against the real TFLM
(tflite_micro wheel) on one-operator models built with our builder: float32
within 1e-5 relative, int8 and int16 (INT64 and INT16 bias) bit for bit, over
strides, paddings, activations, per-tensor and per-channel filter scales and
zero points. Also the memory: TFLM's persistent bytes and scratch (same head),
the shared seanet model, and hostile nodes refused by name."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

# (input shape, filter shape [Cout, KH, KW, Cin], output shape, stride, padding)
GEOMETRIES = [
    ([1, 3, 3, 2], [4, 3, 3, 2], [1, 6, 6, 4], (2, 2), "SAME"),
    ([1, 3, 3, 2], [4, 3, 3, 2], [1, 7, 7, 4], (2, 2), "VALID"),
    ([2, 4, 5, 3], [2, 2, 3, 3], [2, 4, 5, 2], (1, 1), "SAME"),
    ([1, 2, 6, 4], [3, 3, 4, 4], [1, 4, 13, 3], (2, 2), "VALID"),
    ([1, 5, 1, 3], [5, 4, 1, 3], [1, 15, 1, 5], (3, 1), "SAME"),
]


def _model(
    dtype,
    geom,
    activation="NONE",
    bias=True,
    bias_dtype=None,
    per_channel=True,
    in_q=(0.05, 3),
    out_q=(0.1, -7),
    seed=0,
    shape_as_input=False,
):
    in_shape, f_shape, out_shape, (sh, sw), padding = geom
    rng = np.random.default_rng(seed)
    cout = f_shape[0]
    mb = ModelBuilder()
    shape_buf = None if shape_as_input else np.asarray(out_shape, np.int32)
    os_t = mb.add_tensor([4], "int32", "output_shape", data=shape_buf)
    if dtype == "float32":
        w = mb.add_tensor(
            f_shape, "float32", "w", data=rng.standard_normal(f_shape).astype(np.float32)
        )
        x = mb.add_tensor(in_shape, "float32", "x")
        y = mb.add_tensor(out_shape, "float32", "y")
        b = (
            mb.add_tensor([cout], "float32", "b", data=rng.standard_normal(cout).astype(np.float32))
            if bias
            else -1
        )
    else:
        fs = rng.uniform(0.002, 0.02, cout).tolist() if per_channel else [0.01]
        w = mb.add_tensor(
            f_shape,
            "int8",
            "w",
            scale=fs,
            zero_point=[0] * len(fs),
            quantized_dimension=0,
            data=rng.integers(-127, 128, f_shape).astype(np.int8),
        )
        if dtype == "int16":
            in_q, out_q = (in_q[0], 0), (out_q[0], 0)
        x = mb.add_tensor(in_shape, dtype, "x", scale=[in_q[0]], zero_point=[in_q[1]])
        y = mb.add_tensor(out_shape, dtype, "y", scale=[out_q[0]], zero_point=[out_q[1]])
        if bias:
            bd = bias_dtype or ("int32" if dtype == "int8" else "int64")
            hi = 30000 if bd == "int16" else 5000
            bscale = [in_q[0] * s for s in fs] if per_channel else [in_q[0] * fs[0]]
            b = mb.add_tensor(
                [cout],
                bd,
                "b",
                scale=bscale,
                zero_point=[0] * len(bscale),
                data=rng.integers(-hi, hi, cout).astype(bd),
            )
        else:
            b = -1
    inputs = [os_t, w, x] + ([b] if bias else [])
    mb.add_operator(
        "TRANSPOSE_CONV",
        inputs,
        [y],
        options={
            "padding": padding,
            "stride_h": sh,
            "stride_w": sw,
            "fused_activation_function": activation,
        },
    )
    mb.set_io([os_t, x] if shape_as_input else [x], [y])
    return mb.build()


def _random(dtype, shape, rng):
    if dtype == "float32":
        return rng.standard_normal(shape).astype(np.float32)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)


def _random_inputs(d, rng):
    return _random(np.dtype(d["dtype"]).name, d["shape"], rng)


def _compare(data: bytes, n_runs=4, seed=0):
    """Same outputs as TFLM on _random inputs (float32 within 1e-5), same head."""
    ours, theirs = ref.compare_runs(data, n_runs, seed, atol=1e-6, make_inputs=_random_inputs)
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
    return ours, theirs


def test_float32():
    for i, geom in enumerate(GEOMETRIES):
        for act, bias in [("NONE", True), ("RELU", False), ("RELU6", True)]:
            _compare(_model("float32", geom, act, bias, seed=i), seed=i)


def test_int8():
    quants = [((0.05, 3), (0.1, -7)), ((0.02, -128), (0.3, 20)), ((0.5, 127), (0.01, 0))]
    for i, geom in enumerate(GEOMETRIES):
        for j, (in_q, out_q) in enumerate(quants):
            act = ["NONE", "RELU", "RELU_N1_TO_1"][j]
            _compare(
                _model(
                    "int8",
                    geom,
                    act,
                    bias=(j != 1),
                    per_channel=(i % 2 == 0),
                    in_q=in_q,
                    out_q=out_q,
                    seed=i,
                ),
                seed=j,
            )


def test_int16():
    for i, geom in enumerate(GEOMETRIES):
        for j, (bias, bd) in enumerate([(True, "int64"), (True, "int16"), (False, None)]):
            _compare(
                _model(
                    "int16",
                    geom,
                    ["NONE", "RELU", "RELU6"][j],
                    bias,
                    bd,
                    per_channel=(j != 2),
                    in_q=(0.001, 0),
                    out_q=(0.004, 0),
                    seed=i,
                ),
                seed=j,
            )


def test_output_shape_input_is_ignored():
    # The output-shape operand may be a runtime input; like TFLM we take the
    # output's shape from the model and never read it.
    _compare(_model("int8", GEOMETRIES[0], shape_as_input=True))


@pytest.mark.parametrize(
    "dtype,bias_dtype", [("float32", None), ("int8", None), ("int16", None), ("int16", "int16")]
)
def test_memory_requests_match_tflm(dtype, bias_dtype):
    # OpData (88 bytes) + two per-channel int32 arrays of Cout (4) entries, for
    # every type; the scratch (int32 accumulators for int8, int64 for int16,
    # + the widened INT16 bias) is in the head, which _compare checks.
    ours, _theirs = _compare(_model(dtype, GEOMETRIES[0], bias_dtype=bias_dtype), n_runs=1)
    persistent = ours.allocations()["categories"]["Persistent buffer data"]
    assert persistent["requested_bytes"] == 88 + 2 * 4 * 4
    assert persistent["count"] == 3
    out_elems = int(np.prod(GEOMETRIES[0][2]))
    acc = {"float32": 0, "int8": 4, "int16": 8}[dtype]
    widened = 8 * 4 if bias_dtype == "int16" else 0
    # Activations: input + output (int8 / int16 / float32 bytes), then scratch.
    assert ours.allocations()["head"] >= out_elems * acc + widened


def test_hostile_nodes_are_refused_by_name():
    in_shape, f_shape, out_shape, s, p = GEOMETRIES[0]
    cases = [
        (dict(geom=(in_shape, f_shape, [1, 6, 6, 5], s, p)), "TRANSPOSE_CONV: shapes do not match"),
        (
            dict(geom=(in_shape, [4, 3, 3, 3], out_shape, s, p)),
            "TRANSPOSE_CONV: shapes do not match",
        ),
        (dict(geom=(in_shape, f_shape, out_shape, (0, 1), p)), "TRANSPOSE_CONV: strides 1 x 0"),
        (dict(geom=([1, 3, 2], f_shape, out_shape, s, p)), "TRANSPOSE_CONV"),
        (dict(dtype="int16", bias_dtype="int32"), "TRANSPOSE_CONV: bias type INT32 not supported"),
    ]
    for kw, message in cases:
        data = _model(**{**dict(dtype="int8", geom=GEOMETRIES[0]), **kw})
        with pytest.raises(Exception, match=message):
            ta.Interpreter(ta.Model.from_bytes(data)).allocate_tensors()
    # Output of the wrong type.
    mb = ModelBuilder()
    os_t = mb.add_tensor([4], "int32", "os", data=np.asarray(out_shape, np.int32))
    w = mb.add_tensor(f_shape, "float32", "w", data=np.zeros(f_shape, np.float32))
    x = mb.add_tensor(in_shape, "float32", "x")
    y = mb.add_tensor(out_shape, "int8", "y", scale=[0.1], zero_point=[0])
    mb.add_operator("TRANSPOSE_CONV", [os_t, w, x], [y], options={"padding": "SAME"})
    mb.set_io([x], [y])
    with pytest.raises(
        Exception, match="TRANSPOSE_CONV: input FLOAT32, weights FLOAT32, output INT8 not supported"
    ):
        ta.Interpreter(ta.Model.from_bytes(mb.build())).allocate_tensors()


def test_shared_seanet_transpose_conv_model_matches_tflm(models_dir):
    # int16 with an INT64 bias and a 41,472-byte int64 scratch: outputs
    # identical to TFLM's on 20 random inputs, and the same head.
    path = models_dir / "seanet_transpose_conv4.tflite"
    assert path.exists(), f"{path} is missing from the shared models"
    ours, theirs = ref.compare_runs(path.read_bytes(), 20, 13, atol=0)  # int16: bit-exact
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
