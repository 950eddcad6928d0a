"""The Interpreter as a drop-in for tf.lite.Interpreter (constructor
keywords, tensor() callables, signatures, resize_tensor_input, op details),
a TFLite-style script run unchanged against the real TFLM, and allocations
that say whose figures they are (ours next to stock TFLM's)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import tflm_reference as ref
from conftest import shared_models

import tflm_arena as ta
from tflm_arena import interpreter as interpreter_module
from tflm_arena.builder import ModelBuilder
from tflm_arena.tflm_size import DEFAULT_TARGET

MODELS = [p.stem for p in shared_models()] or ["hello_world_int8"]
WHEEL = json.loads(Path(__file__).with_name("tflm_size_wheel.json").read_text())
SCRIPT = Path(__file__).with_name("tflite_style_script.py")


def _signature_model() -> bytes:
    """Two float inputs, two outputs, one SignatureDef whose names differ
    from the tensor names and whose sorted order differs from file order."""
    mb = ModelBuilder()
    a = mb.add_tensor([1, 4], "float32", "serving_a:0")
    b = mb.add_tensor([1, 4], "float32", "serving_b:0")
    s = mb.add_tensor([1, 4], "float32", "sum")
    p = mb.add_tensor([1, 4], "float32", "product")
    mb.add_operator("ADD", [a, b], [s])
    mb.add_operator("MUL", [s, b], [p])
    mb.set_io([a, b], [s, p])
    mb.add_signature("combine", {"y": a, "x": b}, {"total": s, "prod": p})
    return mb.build()


# --- item 1: whose figures ---------------------------------------------------
@pytest.mark.parametrize("name", MODELS)
def test_allocations_label_ours_and_give_stock_tflm(name, models_dir):
    m = ta.Model.load(models_dir / f"{name}.tflite")
    it = ta.Interpreter(m)
    a = it.allocations()
    assert a["runtime"] == "tflm_arena"
    stock = a["stock_tflm"]
    want = ta.tflm_arena(m, target=DEFAULT_TARGET)
    assert stock["target"] == DEFAULT_TARGET == "cortex-m"
    assert {k: stock[k] for k in want.as_dict()} == want.as_dict()
    assert stock["kTensorArenaSize"] == want.firmware_line() and stock["error"] is None
    # The wheel's configuration: its measured figures.
    wheel = it.allocations(target="x86-64", recording=True)["stock_tflm"]
    assert wheel == {
        **ta.tflm_arena(m, target="x86-64", recording=True).as_dict(),
        "kTensorArenaSize": wheel["kTensorArenaSize"],
        "error": None,
    }
    fixture = WHEEL[name]
    assert (wheel["min_arena_bytes"], wheel["head"], wheel["tail"]) == (
        fixture["min_arena_bytes"],
        fixture["head"],
        fixture["tail"],
    )
    printed = {
        c["name"]: {"count": c["count"], "requested": c["requested"], "used": c["used"]}
        for c in wheel["categories"].values()
        if c["used"] or c["requested"]
    }
    assert printed == fixture["categories"]
    # Our own runtime's figures are not TFLM's: never worded as TFLM's.
    text = it.print_allocations(target="x86-64", recording=True)
    lines = text.splitlines()
    assert lines[0].startswith("tflm_arena runtime: arena") and "not stock TFLM" in lines[0]
    assert f"head {a['head']}, tail {a['tail']}" in lines[0]
    assert not any(
        "RecordingMicroAllocator]" in line or "Arena allocation" in line for line in lines
    )
    block = lines.index("stock TFLM (x86-64, RecordingMicroAllocator, greedy planner), same model:")
    assert lines[block + 1] == (
        f"  minimum arena {fixture['min_arena_bytes']:,} bytes "
        f"(head {fixture['head']:,}, tail {fixture['tail']:,})"
    )
    assert (
        lines[block + 2]
        == f"  constexpr int kTensorArenaSize = {-(-fixture['min_arena_bytes'] // 16) * 16};"
    )


def test_print_allocations_default_target_and_our_categories(models_dir, capsys):
    it = ta.Interpreter(models_dir / "hello_world_int8.tflite")
    text = it.print_allocations()
    assert capsys.readouterr().out == text
    a = it.allocations()
    cortex = ta.tflm_arena(it.model, target="cortex-m")
    lines = text.splitlines()
    assert lines[0] == (
        f"tflm_arena runtime: arena {a['total']} bytes used (head {a['head']}, "
        f"tail {a['tail']}); not stock TFLM's figures"
    )
    e = a["categories"]["TfLiteEvalTensor data"]
    assert lines[1] == (
        f"  TfLiteEvalTensor data: {e['used_bytes']} bytes used "
        f"({e['requested_bytes']} requested for {e['count']} allocations)"
    )
    assert "stock TFLM (cortex-m, MicroAllocator, greedy planner), same model:" in lines
    assert lines[-1] == "  " + cortex.firmware_line()


def test_stock_figures_follow_the_strategy_and_unknown_target_raises(models_dir):
    m = ta.Model.load(models_dir / "person_detect.tflite")
    linear = ta.Interpreter(m, strategy="linear").allocations(target="x86-64")["stock_tflm"]
    assert linear["planner"] == "linear"
    assert linear["min_arena_bytes"] == ta.tflm_arena(m, "x86-64", planner="linear").min_arena_bytes
    with pytest.raises(ValueError, match="unknown target 'arm'"):
        ta.Interpreter(m).allocations(target="arm")


def test_stock_entry_says_when_tflm_cannot_be_predicted():
    # Stock TFLM has no kernel for a custom operator the application adds
    # itself: the stock entry gives no figure and says why.
    from tflm_arena._stock_tflm import StockTflm

    mb = ModelBuilder()
    a = mb.add_tensor([2, 3], "float32", "a")
    y = mb.add_tensor([2, 3], "float32", "y")
    mb.add_operator("CUSTOM", [a], [y], custom_code="MyOwnKernel")
    mb.set_io([a], [y])
    stock = StockTflm(ta.Model.from_bytes(mb.build()), "tflm_greedy").figures("cortex-m", None)
    assert stock["min_arena_bytes"] is None and stock["kTensorArenaSize"] is None
    assert "cannot be predicted" in stock["error"] and "MyOwnKernel" in stock["error"]


def test_stock_entry_of_a_batch_matmul_model():
    # BATCH_MATMUL runs in our runtime and is sized for stock TFLM too.
    mb = ModelBuilder()
    a = mb.add_tensor([2, 3], "float32", "a")
    b = mb.add_tensor([3, 4], "float32", "b")
    y = mb.add_tensor([2, 4], "float32", "y")
    mb.add_operator("BATCH_MATMUL", [a, b], [y])
    mb.set_io([a, b], [y])
    it = ta.Interpreter(mb.build())
    stock = it.allocations()["stock_tflm"]
    assert stock["min_arena_bytes"] == ta.tflm_arena(mb.build(), "cortex-m").min_arena_bytes
    text = it.print_allocations()
    assert "same model:" in text
    assert f"minimum arena {stock['min_arena_bytes']:,} bytes" in text


# --- item 2: TFLite's calling code -------------------------------------------
def test_tflite_constructor_keywords(models_dir):
    path = str(models_dir / "hello_world_int8.tflite")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        it = ta.Interpreter(
            model_path=path,
            num_threads=4,
            experimental_delegates=[],
            experimental_op_resolver_type=1,
            experimental_disable_delegate_clustering=True,
            experimental_default_delegate_latest_features=True,
        )
        assert ta.Interpreter(model_path=path, num_threads=-1).strategy == "tflm_greedy"
    with pytest.warns(UserWarning, match="delegates .* not used: TFLM has no delegates"):
        ta.Interpreter(model_path=path, experimental_delegates=[object()])
    for bad in (0, -2, 1.5, "2"):
        with pytest.raises(ValueError, match="num_threads"):
            ta.Interpreter(model_path=path, num_threads=bad)
    x = np.array([[17]], np.int8)
    it.set_tensor(0, x)
    it.invoke()
    # TFLite's positional (model_path, model_content) form.
    content = ta.Interpreter(None, Path(path).read_bytes())
    content.set_tensor(0, x)
    content.invoke()
    np.testing.assert_array_equal(content.get_tensor(9), it.get_tensor(9))


def test_preserve_all_tensors_keeps_intermediates(models_dir):
    path = models_dir / "hello_world_float.tflite"
    keep = ta.Interpreter(model_path=path, experimental_preserve_all_tensors=True)
    assert keep.strategy == "linear"
    x = np.array([[0.7]], np.float32)
    keep.set_tensor(0, x)
    keep.invoke()
    # Each intermediate is still what its operator wrote: recompute the
    # outputs from the intermediates (the last op reads tensor 8).
    ops = keep._get_ops_details()
    for op in ops:
        (out,) = op["outputs"]
        assert not np.all(keep.get_tensor(int(out)) == 0)
    with pytest.raises(ValueError, match="strategy='linear'"):
        ta.Interpreter(
            model_path=path, strategy="tflm_greedy", experimental_preserve_all_tensors=True
        )
    # The greedy plan reuses an intermediate's bytes; linear never does.
    plan = keep.memory_plan()
    spans = sorted((int(o), int(o + s)) for o, s in zip(plan["offset"], plan["size"], strict=True))
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


def test_tensor_returns_a_function_giving_a_view(models_dir):
    it = ta.Interpreter(models_dir / "hello_world_int8.tflite")
    out = it.get_output_details()[0]["index"]
    get = it.tensor(out)
    assert callable(get)
    for v in (17, -90):
        it.set_tensor(0, np.array([[v]], np.int8))
        it.invoke()
        assert np.shares_memory(get(), it.tensor_view(out))
        np.testing.assert_array_equal(get(), it.get_tensor(out))  # the current bytes
    get()[...] = 5  # a view: writes reach the arena
    assert it.get_tensor(out)[0, 0] == 5
    with pytest.raises(IndexError, match="tensor index 10 out of range"):
        it.tensor(10)


def test_resize_tensor_input_same_shape_only(models_dir):
    it = ta.Interpreter(models_dir / "hello_world_int8.tflite")
    it.resize_tensor_input(0, [1, 1])
    it.resize_tensor_input(0, np.array([1, 1], np.int32), strict=True)
    it.allocate_tensors()
    with pytest.raises(
        ValueError,
        match=r"from \[1, 1\] to \[4, 1\]: TFLM runs the shapes "
        r"stored in the model .* convert the model again",
    ):
        it.resize_tensor_input(0, [4, 1])
    with pytest.raises(ValueError, match="list of integers"):
        it.resize_tensor_input(0, [1.5, 1])
    with pytest.raises(IndexError, match="tensor index 99"):
        it.resize_tensor_input(99, [1])
    it.resize_tensor_input(0, [1, 1])
    it.allocate_tensors()  # still works after a refused resize
    it.set_tensor(0, np.array([[17]], np.int8))
    it.invoke()
    assert it.get_tensor(9).tolist() == [[-43]]


def test_missing_tflite_names_stay_attribute_errors(models_dir):
    it = ta.Interpreter(models_dir / "hello_world_int8.tflite")
    with pytest.raises(AttributeError):
        it.no_such_method()
    ops = it._get_ops_details()
    assert [o["op_name"] for o in ops] == [op.name for op in it.model.operators]
    assert ops[1]["inputs"].dtype == np.int32
    assert ops[1]["inputs"].tolist() == list(it.model.operators[1].inputs)
    assert it._get_op_details(2)["outputs"].tolist() == [9]


def test_signatures_of_a_builder_model():
    m = ta.Model.from_bytes(_signature_model())
    assert m.signatures == {
        "combine": {"subgraph": 0, "inputs": {"y": 0, "x": 1}, "outputs": {"total": 2, "prod": 3}}
    }
    it = ta.Interpreter(m)
    assert it.get_signature_list() == {
        "combine": {"inputs": ["x", "y"], "outputs": ["prod", "total"]}
    }
    run = it.get_signature_runner()
    assert run is not None and it.get_signature_runner("combine").signature_key == "combine"
    assert list(run.get_input_details()) == ["x", "y"]
    assert run.get_input_details()["y"]["index"] == 0
    assert run.get_output_details()["prod"]["name"] == "product"
    x = np.array([[1, 2, 3, 4]], np.float32)
    y = np.array([[10, 20, 30, 40]], np.float32)
    out = run(x=x, y=y)
    assert list(out) == ["prod", "total"]
    np.testing.assert_array_equal(out["total"], x + y)
    np.testing.assert_array_equal(out["prod"], (x + y) * x)
    with pytest.raises(ValueError, match=r"Invalid number of inputs .* expected 2 vs provided 1"):
        run(x=x)
    with pytest.raises(ValueError, match=r"Invalid Input name \(z\)"):
        run(x=x, z=y)
    with pytest.raises(ValueError, match="cannot resize"):
        run(x=np.zeros((2, 4), np.float32), y=y)
    with pytest.raises(ValueError, match="Invalid signature_key provided: 'serving_default'"):
        it.get_signature_runner("serving_default")


def test_model_without_signatures(models_dir):
    it = ta.Interpreter(models_dir / "person_detect.tflite")
    assert it.model.signatures == {} and it.get_signature_list() == {}
    with pytest.raises(ValueError, match="signature_key is None and model has 0 Signatures"):
        it.get_signature_runner()


def test_signature_of_another_subgraph_and_two_signatures():
    mb = ModelBuilder()
    a = mb.add_tensor([1, 4], "float32", "a")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("RELU", [a], [y])
    mb.set_io([a], [y])
    sg = mb.add_subgraph("other")
    b = mb.add_tensor([1, 4], "float32", "b", subgraph=sg)
    z = mb.add_tensor([1, 4], "float32", "z", subgraph=sg)
    mb.add_operator("RELU", [b], [z], subgraph=sg)
    mb.set_io([b], [z], subgraph=sg)
    mb.add_signature("main", {"a": a}, {"y": y})
    mb.add_signature("side", {"b": b}, {"z": z}, subgraph=sg)
    it = ta.Interpreter(mb.build())
    assert it.model.signatures["side"]["subgraph"] == 1
    with pytest.raises(ValueError, match=r"runs subgraph 1; TFLM .* run subgraph 0 only"):
        it.get_signature_runner("side")
    with pytest.raises(ValueError, match="model has 2 Signatures"):
        it.get_signature_runner()
    out = it.get_signature_runner("main")(a=np.array([[-1, 2, -3, 4]], np.float32))
    assert out["y"].tolist() == [[0, 2, 0, 4]]


class _Unchecked(ModelBuilder):
    """Writes signatures without the builder's own index checks."""

    def _check_signatures(self) -> None:
        pass


@pytest.mark.parametrize(
    "inputs, subgraph, message",
    [
        (
            {"a": 5},
            0,
            r"signature 0 \('s'\) input 0 \('a'\): tensor index 5 out of range "
            r"\(subgraph 0 has 2 tensors\)",
        ),
        (
            {"a": 0},
            3,
            r"signature 0 \('s'\): subgraph index 3 out of range \(model has 1 subgraphs\)",
        ),
    ],
)
def test_bad_signature_indices_are_refused_at_load(inputs, subgraph, message):
    mb = _Unchecked()
    a = mb.add_tensor([1, 4], "float32", "a")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("RELU", [a], [y])
    mb.set_io([a], [y])
    mb._signatures.append(("s", inputs, {"y": y}, subgraph))
    with pytest.raises(ValueError, match=message):
        ta.Model.from_bytes(mb.build())
    with pytest.raises(ValueError, match="refers to tensor 5"):
        ModelBuilder.build(_with_signature(ModelBuilder(), {"a": 5}))


def _with_signature(mb, inputs):
    a = mb.add_tensor([1, 4], "float32", "a")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("RELU", [a], [y])
    mb.set_io([a], [y])
    mb.add_signature("s", inputs, {"y": y})
    return mb


def test_duplicate_signature_names_raise_on_access():
    mb = _Unchecked()
    a = mb.add_tensor([1, 4], "float32", "a")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("RELU", [a], [y])
    mb.set_io([a], [y])
    mb._signatures += [("s", {"a": a}, {"y": y}, 0), ("s", {"a": a}, {"y": y}, 0)]
    m = ta.Model.from_bytes(mb.build())
    with pytest.raises(ValueError, match="two SignatureDefs with the key 's'"):
        _ = m.signatures
    with pytest.raises(ValueError, match="already used"):
        _with_signature(ModelBuilder(), {"a": 0}).add_signature("s", {}, {})


# --- a TFLite-style script, unchanged, against the real TFLM -----------------
SCRIPT_MODELS = [
    "hello_world_int8",
    "hello_world_float",
    "simple_add_model",
    "trained_lstm_int8",
    "person_detect",
    "kws_ref_model",
]


def _run_script(model_path: Path, out: Path) -> dict:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(model_path), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    with np.load(out) as z:
        return {k: z[k] for k in z.files}


def _check_against_wheel(data: bytes, saved: dict) -> None:
    theirs = ref.interpreter(data)
    m = ta.Model.from_bytes(data)
    xs = [saved[f"input{k}"] for k in range(len(m.inputs))]
    want = ref.run(theirs, xs, len(m.outputs))
    got = [saved[f"output{k}"] for k in range(len(m.outputs))]
    by_index = dict(zip(m.outputs, want, strict=True))
    signature_outputs = [
        (int(k.rsplit("/", 1)[1]), v) for k, v in saved.items() if k.startswith("signature/")
    ]
    assert len(signature_outputs) == sum(len(s["outputs"]) for s in m.signatures.values())
    for g, y in [*zip(got, want, strict=True), *((v, by_index[i]) for i, v in signature_outputs)]:
        assert g.dtype == y.dtype and g.shape == y.shape
        if y.dtype.kind == "f":
            np.testing.assert_allclose(g, y, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(g, y)


@pytest.mark.parametrize("name", SCRIPT_MODELS)
def test_tflite_style_script_runs_unchanged(name, models_dir, tmp_path):
    path = models_dir / f"{name}.tflite"
    saved = _run_script(path, tmp_path / "out.npz")
    _check_against_wheel(path.read_bytes(), saved)
    if ta.Model.load(path).signatures:
        assert any(k.startswith("signature/") for k in saved)


def test_tflite_style_script_on_a_builder_model_with_signatures(tmp_path):
    data = _signature_model()
    path = tmp_path / "combine.tflite"
    path.write_bytes(data)
    saved = _run_script(path, tmp_path / "out.npz")
    assert sorted(k for k in saved if k.startswith("signature/")) == [
        "signature/combine/prod/3",
        "signature/combine/total/2",
    ]
    _check_against_wheel(data, saved)


def test_script_uses_only_tflite_api():
    # The script imports nothing of ours but the Interpreter, and calls no
    # method tf.lite.Interpreter lacks.
    text = SCRIPT.read_text()
    assert "tflm_arena" in text and text.count("import tflm_arena") == 0
    for ours in (
        "tensor_view",
        "allocations",
        "set_input",
        "get_output(",
        "strategy",
        "arena_size",
        "memory_plan",
    ):
        assert ours not in text
    assert interpreter_module.Interpreter is ta.Interpreter
