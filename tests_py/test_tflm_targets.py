"""Target names mean one build each, and every command that prints a stock
TFLM figure for a model and target prints the same figure: ``tflm_arena``,
``tflm-arena size`` and ``optimize`` (the report is checked in
test_report.py)."""

from __future__ import annotations

import io
import json

import pytest
from conftest import _models_dir, model_params

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli import main

# Under ASan the per-model tests below run on these models only (each test
# covers every target; a convolution network, an LSTM and the smallest
# model): the other models repeat the same C++ paths, and
# test_tflm_size*.py size every model on every target under ASan too.
ASAN_MODELS = ("hello_world_int8", "person_detect", "trained_lstm_int8")


def test_targets_come_from_the_core_with_the_default_first():
    from tflm_arena import _core

    names = [t["name"] for t in _core.tflm_targets()]
    assert list(ta.TARGETS) == names == list(ta.targets())
    assert ta.DEFAULT_TARGET == names[0] == "cortex-m"
    assert {"cortex-m", "x86-64", "tflite-micro-wheel"} <= set(names)
    assert all(len(text) > 20 for text in ta.targets().values())
    with pytest.raises(ValueError, match="known: cortex-m, x86-64, tflite-micro-wheel"):
        ta.tflm_arena(_models_dir() / "hello_world_int8.tflite", target="x86")


def test_one_allocator_per_wheel_configuration(models_dir):
    path = models_dir / "hello_world_int8.tflite"
    with pytest.raises(ValueError, match="for another combination use target x86-64"):
        ta.tflm_arena(path, target="tflite-micro-wheel", recording=False)
    with pytest.raises(ValueError, match="for another combination use target x86-64"):
        ta.tflm_arena(path, target="tflite-micro-wheel", recording=True, planner="linear")
    assert ta.tflm_arena(path, target="tflite-micro-wheel").recording is True
    assert ta.tflm_arena(path, target="tflite-micro-wheel", planner="linear").recording is False
    assert ta.tflm_arena(path, target="x86-64").recording is False
    assert ta.tflm_arena(path, target="cortex-m", recording=True).recording is True


@pytest.mark.parametrize("model_path", model_params(asan_keep=ASAN_MODELS), indirect=True)
def test_size_tflm_arena_and_optimize_agree_on_every_target(model_path):
    figures = {}
    for target in ta.TARGETS:
        r = ta.tflm_arena(model_path, target=target)
        out = io.StringIO()
        assert main(["size", str(model_path), "--target", target, "--json"], out=out) == 0
        cli = json.loads(out.getvalue())[str(model_path)]
        assert cli == json.loads(json.dumps(r.as_dict()))
        o = ta.optimize(model_path, target=target, strategies=("tflm_greedy",), time_limit=0.1)
        assert (o.original_min_arena, o.original_head) == (r.min_arena_bytes, r.head)
        figures[target] = r.min_arena_bytes
    # The wheel's recording allocator costs the x86-64 build 232 bytes more.
    assert figures["tflite-micro-wheel"] - figures["x86-64"] == 232


def _unmodelled_model(tmp_path):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("LSH_PROJECTION", [x], [y])  # a builtin TFLM has no kernel for
    mb.set_io([x], [y])
    p = tmp_path / "custom.tflite"
    p.write_bytes(mb.build())
    return p


def test_cli_size_of_several_models_reports_each_and_fails_if_any_failed(
    models_dir, tmp_path, capsys
):
    good = str(models_dir / "hello_world_int8.tflite")
    other = str(models_dir / "ad01_int8.tflite")
    missing = str(tmp_path / "missing.tflite")
    broken = tmp_path / "broken.tflite"
    broken.write_bytes(b"not a model")
    custom = str(_unmodelled_model(tmp_path))
    assert main(["size", good, missing, str(broken), custom, other]) == 1
    cap = capsys.readouterr()
    # Both good models are sized, in order, with their figures.
    assert cap.out.index(good + ":") < cap.out.index(other + ":")
    want = ta.tflm_arena(other).min_arena_bytes
    assert f"exact minimum {want} bytes" in cap.out
    errors = cap.err.strip().splitlines()
    assert len(errors) == 3
    assert errors[0] == f"tflm-arena: error: {missing}: cannot read model {missing}: no such file"
    assert errors[1].startswith(f"tflm-arena: error: {broken}: ")
    assert errors[2].startswith(f"tflm-arena: error: {custom}: ") and "LSH_PROJECTION" in errors[2]
    assert "[Errno" not in cap.err

    assert main(["size", good, missing, "--json"]) == 1
    d = json.loads(capsys.readouterr().out)
    assert d[good]["min_arena_bytes"] == ta.tflm_arena(good).min_arena_bytes
    assert d[missing] == {"error": f"cannot read model {missing}: no such file"}
    # All good: exit 0.
    assert main(["size", good, other]) == 0


def test_missing_model_file_message_is_one_sentence(tmp_path):
    p = tmp_path / "nope.tflite"
    with pytest.raises(FileNotFoundError) as e:
        ta.Model.load(p)
    assert str(e.value) == f"cannot read model {p}: no such file"
    assert e.value.errno == 2 and e.value.filename == str(p)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("model_path", model_params(asan_keep=ASAN_MODELS), indirect=True)
def test_the_report_prints_the_same_stock_tflm_figures(model_path):
    from test_report import Page, _by_id

    # Every target, the CMSIS-NN ones included (the report's default is the
    # reference-kernel builds).
    text = ta.report_html(
        model_path, strategies=["tflm_greedy"], targets=ta.TARGETS, time_limit=0.05
    )
    page = Page(text)
    rows = {r[0]: r for r in page.tables["tflm-size"]}
    assert list(rows) == list(ta.TARGETS)
    for target in ta.TARGETS:
        r = ta.tflm_arena(model_path, target=target)
        assert _by_id(text, f"arena-line-{target}") == r.firmware_line()
        assert tuple(int(c.replace(",", "")) for c in rows[target][1:6]) == (
            r.min_arena_bytes,
            r.min_arena_bytes_16,
            r.head,
            r.tail,
            r.temp_peak,
        )
