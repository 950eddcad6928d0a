"""Code written for tf.lite.Interpreter runs unchanged on ours: the
same constructors, details dicts, get_tensor/set_tensor, and
the outputs of the real TFLM (the tflite_micro wheel)."""

from __future__ import annotations

import warnings
from typing import get_args

import numpy as np
import pytest
import tflm_reference as ref
from conftest import shared_models

import tflm_arena as ta
from tflm_arena.interpreter import RuntimeStrategy

MODELS = [p.stem for p in shared_models()] or ["hello_world_int8"]

# What tf.lite documents for get_input_details()/get_tensor_details().
DETAIL_KEYS = {
    "name",
    "index",
    "shape",
    "shape_signature",
    "dtype",
    "quantization",
    "quantization_parameters",
    "sparsity_parameters",
}


def _tflite_style_run(interpreter, xs):
    """Verbatim TFLite usage (only the constructor's module differs)."""
    interpreter.allocate_tensors()
    inp = interpreter.get_input_details()
    out = interpreter.get_output_details()
    for d, x in zip(inp, xs, strict=True):
        interpreter.set_tensor(d["index"], x)
    interpreter.invoke()
    return [interpreter.get_tensor(d["index"]) for d in out]


@pytest.mark.parametrize("name", MODELS)
def test_tflite_code_runs_unchanged_with_tflm_outputs(name, models_dir):
    path = models_dir / f"{name}.tflite"
    interpreter = ta.Interpreter(model_path=str(path))
    theirs = ref.interpreter(path.read_bytes())
    m = interpreter.model
    rng = np.random.default_rng(11)
    for _ in range(3):
        xs = ref.random_inputs(theirs, len(m.inputs), rng)
        want = ref.run(theirs, xs, len(m.outputs))
        got = _tflite_style_run(interpreter, xs)
        assert len(got) == len(want)
        for g, y in zip(got, want, strict=True):
            assert g.dtype == y.dtype and g.shape == y.shape
            if y.dtype.kind == "f":
                np.testing.assert_allclose(g, y, rtol=1e-5, atol=1e-6)
            else:
                np.testing.assert_array_equal(g, y)


@pytest.mark.parametrize("name", MODELS)
def test_details_have_tflite_keys_and_types(name, models_dir):
    it = ta.Interpreter.from_file(models_dir / f"{name}.tflite")
    theirs = ref.interpreter((models_dir / f"{name}.tflite").read_bytes())
    inp, out = it.get_input_details(), it.get_output_details()
    assert isinstance(inp, list) and isinstance(out, list)
    assert [d["index"] for d in inp] == list(it.model.inputs)
    assert [d["index"] for d in out] == list(it.model.outputs)
    for k, d in enumerate(inp):
        # The wheel's per-input dict agrees on the fields it has.
        w = theirs.get_input_details(k)
        assert d["dtype"] is w["dtype"]
        np.testing.assert_array_equal(d["shape"], w["shape"])
        for f in ("scales", "zero_points", "quantized_dimension"):
            np.testing.assert_array_equal(
                d["quantization_parameters"][f], w["quantization_parameters"][f]
            )
    for d in inp + out + it.get_tensor_details():
        assert set(d) == DETAIL_KEYS
        assert isinstance(d["name"], str) and isinstance(d["index"], int)
        assert d["shape"].dtype == np.int32 and d["shape_signature"].dtype == np.int32
        assert d["shape_signature"].shape == d["shape"].shape
        assert isinstance(d["dtype"], type) and issubclass(d["dtype"], np.generic)
        scale, zp = d["quantization"]
        assert type(scale) is float and type(zp) is int
        q = d["quantization_parameters"]
        assert set(q) == {"scales", "zero_points", "quantized_dimension"}
        assert q["scales"].dtype == np.float32 and q["zero_points"].dtype == np.int32
        assert type(q["quantized_dimension"]) is int
        if len(q["scales"]) == 1:
            assert (scale, zp) == (float(q["scales"][0]), int(q["zero_points"][0]))
        else:
            assert (scale, zp) == (0.0, 0)  # tf.lite's legacy pair: per-tensor only
    assert [d["index"] for d in it.get_tensor_details()] == list(range(len(it.model.tensors)))


def test_hello_world_details_values(models_dir):
    it = ta.Interpreter(models_dir / "hello_world_int8.tflite")
    (d,) = it.get_input_details()
    assert d["name"] == "serving_default_dense_input:0" and d["index"] == 0
    np.testing.assert_array_equal(d["shape"], [1, 1])
    np.testing.assert_array_equal(d["shape_signature"], [-1, 1])
    assert d["dtype"] is np.int8
    assert d["quantization"] == (pytest.approx(0.02448012), -128)
    # The one-dict form (used by existing callers and the wheel) still works.
    one = it.get_input_details(0)
    assert one["index"] == 0 and one["dtype"] is np.int8


def test_constructors_agree(models_dir):
    path = models_dir / "hello_world_int8.tflite"
    data = path.read_bytes()
    its = [
        ta.Interpreter(ta.Model.load(path)),
        ta.Interpreter(model_path=path),
        ta.Interpreter(model_content=data),
        ta.Interpreter.from_file(str(path)),
        ta.Interpreter.from_bytes(data, strategy="linear"),
        ta.Interpreter(data),
    ]
    x = np.array([[17]], dtype=np.int8)
    outs = []
    for it in its:
        it.set_tensor(0, x)
        it.invoke()  # no allocate_tensors(): invoke allocates, as in TFLM
        outs.append(it.get_tensor(it.get_output_details()[0]["index"]))
    for y in outs[1:]:
        np.testing.assert_array_equal(y, outs[0])
    assert its[4].strategy == "linear"
    with pytest.raises(ValueError, match="exactly one"):
        ta.Interpreter(model_path=path, model_content=data)
    with pytest.raises(ValueError, match="exactly one"):
        ta.Interpreter()


def test_invoke_before_allocate_allocates(models_dir):
    it = ta.Interpreter.from_file(models_dir / "hello_world_int8.tflite")
    assert it.arena_size == 0
    it.invoke()
    assert it.arena_size == it.required_arena_size() > 0
    assert "allocat" in ta.Interpreter.invoke.__doc__


def test_get_tensor_is_a_copy_and_set_tensor_checks(models_dir):
    it = ta.Interpreter.from_file(models_dir / "hello_world_int8.tflite")
    it.set_tensor(0, np.array([[5]], dtype=np.int8))
    y = it.get_tensor(0)
    y[...] = 9
    assert it.get_tensor(0)[0, 0] == 5  # writing the copy did not change the arena
    with pytest.raises(ValueError, match="expected int8"):
        it.set_tensor(0, np.array([[5]], dtype=np.float32))
    with pytest.raises(ValueError, match=r"expected shape \(1, 1\)"):
        it.set_tensor(0, np.zeros((1, 2), dtype=np.int8))
    const = next(t.index for t in it.model.tensors if t.is_constant)
    with pytest.raises(ValueError, match="constant"):
        it.set_tensor(const, np.zeros(it.get_tensor(const).shape, it.get_tensor(const).dtype))


def test_reset_all_variables_zeroes_state(models_dir):
    path = models_dir / "trained_lstm_int8.tflite"
    it = ta.Interpreter.from_file(path)
    variables = [t for t in it.model.tensors if t.is_variable]
    if not variables:
        pytest.skip("model has no variable tensors")
    rng = np.random.default_rng(3)
    for d in it.get_input_details():
        info = np.iinfo(d["dtype"]) if np.issubdtype(d["dtype"], np.integer) else None
        x = (
            rng.integers(info.min, info.max, size=d["shape"], endpoint=True)
            if info
            else rng.standard_normal(d["shape"])
        )
        it.set_tensor(d["index"], np.asarray(x, dtype=d["dtype"]))
    it.invoke()
    it.reset_all_variables()
    for t in variables:
        zp = int(t.zero_point[0]) if len(t.zero_point) else 0
        assert np.all(it.get_tensor(t.index) == zp)


def test_strategy_is_one_literal_and_planner_is_deprecated(models_dir):
    assert get_args(RuntimeStrategy) == ta.RUNTIME_PLANNERS
    m = ta.Model.load(models_dir / "hello_world_int8.tflite")
    with pytest.warns(DeprecationWarning, match="strategy"):
        old = ta.Interpreter(m, planner="linear")
    assert old.strategy == "linear"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ta.Interpreter(m, strategy="linear").strategy == "linear"
        assert ta.Interpreter(m, None, "linear").strategy == "linear"  # old positional slot
    with pytest.raises(ValueError, match="unknown strategy 'greedy'"):
        ta.Interpreter(m, strategy="greedy")
