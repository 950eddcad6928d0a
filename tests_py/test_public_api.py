"""Small public objects behave: immutable model parts that
compare and hash, short reprs, FileNotFoundError and IndexError with
messages, and a runnable example in every public name's docstring."""

from __future__ import annotations

import dataclasses
import doctest
import inspect
import os
from pathlib import Path

import numpy as np
import pytest

import tflm_arena as ta


@pytest.fixture
def hello(models_dir):
    return models_dir / "hello_world_int8.tflite"


def test_model_parts_compare_hash_and_are_immutable(hello):
    a, b = ta.Model.load(hello), ta.Model.load(hello)
    t, op, sg = a.tensors[0], a.operators[0], a.subgraphs[0]
    assert t == b.tensors[0] and op == b.operators[0] and sg == b.subgraphs[0]
    assert hash(t) == hash(b.tensors[0]) and hash(sg) == hash(b.subgraphs[0])
    assert t != a.tensors[1] and sg.tensors[0] is not None
    assert len({*a.tensors, *b.tensors}) == len(a.tensors)  # usable in sets
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.name = "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        sg.tensors = ()
    with pytest.raises(ValueError, match="read-only"):
        t.scale[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        t.zero_point[0] = 1
    assert isinstance(sg.tensors, tuple) and isinstance(op.inputs, tuple)


def test_tensor_does_not_freeze_the_callers_array():
    scale = np.array([0.5], dtype=np.float32)
    t = ta.Tensor(
        subgraph=0,
        index=0,
        name="x",
        type="INT8",
        shape=(1,),
        shape_signature=None,
        buffer=0,
        is_variable=False,
        is_constant=False,
        bytes=1,
        scale=scale,
        zero_point=np.array([3]),
        quantized_dimension=0,
    )
    scale[0] = 2.0  # the caller's array stays writable and the tensor unchanged
    assert t.scale[0] == 0.5
    u = dataclasses.replace(t, scale=np.array([0.25], dtype=np.float32))
    assert u != t and hash(dataclasses.replace(u, scale=[0.5])) == hash(t)


def test_subgraphs_repr_is_short(models_dir):
    for path in sorted(models_dir.glob("*.tflite")):
        m = ta.Model.load(path)
        text = repr(m.subgraphs)
        assert len(text) < 150 * len(m.subgraphs), text
        assert f"{len(m.tensors)} tensors" in text and f"{len(m.operators)} operators" in text
    assert repr(ta.Model.load(models_dir / "hello_world_int8.tflite").subgraphs) == (
        "(Subgraph(index=0, name='main', inputs=(0,), outputs=(9,), 10 tensors, 3 operators),)"
    )


def test_missing_model_raises_file_not_found(tmp_path):
    missing = tmp_path / "missing.tflite"
    with pytest.raises(FileNotFoundError, match=r"missing\.tflite") as e:
        ta.Model.load(missing)
    assert e.value.filename == str(missing)
    assert isinstance(e.value, ValueError)  # older callers caught ValueError
    with pytest.raises(FileNotFoundError):
        ta.Interpreter(model_path=missing)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda it: it.tensor(10), "tensor index 10 out of range"),
        (lambda it: it.tensor(-1), "tensor index -1 out of range"),
        (lambda it: it.tensor(0, subgraph=1), "subgraph index 1 out of range"),
        (lambda it: it.tensor_view(10), "tensor index 10 out of range"),
        (lambda it: it.tensor_view(0, subgraph=1), "subgraph index 1 out of range"),
        (lambda it: it.input(1), "input index 1 out of range"),
        (lambda it: it.input(-1), "input index -1 out of range"),
        (lambda it: it.output(5), "output index 5 out of range"),
        (lambda it: it.get_output(-2), "output index -2 out of range"),
        (lambda it: it.set_input(np.zeros((1, 1), np.int8), 3), "input index 3 out of range"),
        (lambda it: it.get_tensor(99), "tensor index 99 out of range"),
        (lambda it: it.set_tensor(-5, np.zeros(1)), "tensor index -5 out of range"),
        (lambda it: it.get_input_details(1), "input index 1 out of range"),
        (lambda it: it.get_output_details(-1), "output index -1 out of range"),
    ],
)
def test_index_out_of_range_is_an_index_error(hello, call, message):
    it = ta.Interpreter(model_path=hello)
    with pytest.raises(IndexError, match=message):
        call(it)


def test_non_integer_index_is_a_plain_type_error(hello):
    it = ta.Interpreter(model_path=hello)
    with pytest.raises(TypeError, match="tensor index must be an integer, got str"):
        it.tensor("0")
    assert it.tensor(np.int64(0))().shape == (1, 1)  # numpy integers are indices
    assert it.tensor_view(np.int64(0)).shape == (1, 1)


def _public():
    return [(name, getattr(ta, name)) for name in ta.__all__]


def test_every_public_name_has_an_example():
    package_doc = ta.__doc__
    for name, obj in _public():
        if inspect.isclass(obj) or callable(obj):
            doc = obj.__doc__ or ""
            assert ">>>" in doc, f"{name} has no example in its docstring"
        else:  # constants cannot carry a docstring: the package's documents them
            assert f"``{name}``" in package_doc and f"ta.{name}" in package_doc, name


def test_docstring_examples_run(models_dir, monkeypatch):
    """Every example of the package's modules runs (from the models folder,
    where the examples' hello_world_int8.tflite lives)."""
    monkeypatch.chdir(models_dir)
    import tflm_arena._objects
    import tflm_arena._plan
    import tflm_arena._records
    import tflm_arena._stock_tflm
    import tflm_arena.boards
    import tflm_arena.interpreter
    import tflm_arena.model
    import tflm_arena.optimize
    import tflm_arena.reorder
    import tflm_arena.signature_runner
    import tflm_arena.stack_versions
    import tflm_arena.tflm_plan
    import tflm_arena.tflm_size

    modules = [
        ta,
        tflm_arena._objects,
        tflm_arena._plan,
        tflm_arena._records,
        tflm_arena._stock_tflm,
        tflm_arena.boards,
        tflm_arena.interpreter,
        tflm_arena.model,
        tflm_arena.optimize,
        tflm_arena.reorder,
        tflm_arena.signature_runner,
        tflm_arena.stack_versions,
        tflm_arena.tflm_plan,
        tflm_arena.tflm_size,
    ]
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran = 0
    for mod in modules:
        for test in finder.find(mod, globs=dict(vars(mod))):
            runner.run(test)
            ran += len(test.examples)
    # ArenaTooSmallError's docstring is set on a class of _core: run it too.
    for test in finder.find(ta.ArenaTooSmallError, "ArenaTooSmallError", globs={}):
        runner.run(test)
        ran += len(test.examples)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert ran >= 40 and Path(os.getcwd()).resolve() == models_dir.resolve()
