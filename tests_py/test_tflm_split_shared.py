"""Two buffers (ta.tflm_split_arena) and several models in one arena
(ta.tflm_shared_arena) against real TFLM built for 32-bit ARM (armhf under
qemu-arm; how: the headers of tests_py/data/oracle_armhf_split.tsv and
oracle_armhf_shared.tsv): every shared model split on the reference-kernel
build, a selection on the CMSIS-NN DSP build, and pairs of shared models in
both orders."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli import main

DATA = Path(__file__).resolve().parent / "data"
# The oracle's builds and the targets that must give its figures.
BUILD_TARGETS = {
    "reference": ("cortex-m",),
    "dsp": ("cortex-m4+cmsis-nn", "cortex-m7+cmsis-nn", "cortex-m33+cmsis-nn"),
}


def _rows(name: str) -> list[dict[str, str]]:
    with open(DATA / name) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


SPLIT = _rows("oracle_armhf_split.tsv")
SHARED = _rows("oracle_armhf_shared.tsv")


@pytest.mark.parametrize("row", SPLIT, ids=lambda r: f"{r['model']}-{r['build']}")
def test_split_minima_equal_tflm(row, models_dir):
    # The oracle's own checks: the pair works, one byte less of either fails.
    assert row["pair_ok"] == row["np_minus1_fails"] == row["p_minus1_fails"] == "1"
    m = ta.Model.load(models_dir / f"{row['model']}.tflite")
    for target in BUILD_TARGETS[row["build"]]:
        r = ta.tflm_split_arena(m, target=target)
        assert (r.min_non_persistent_bytes, r.min_persistent_bytes) == (
            int(row["min_non_persistent"]),
            int(row["min_persistent"]),
        ), target
        assert r.checked and r.target == target
        assert r.single_arena_bytes == ta.tflm_arena(m, target=target).min_arena_bytes


def test_every_shared_model_is_split_on_the_reference_build(models_dir):
    measured = {r["model"] for r in SPLIT if r["build"] == "reference"}
    assert measured == {p.stem for p in models_dir.glob("*.tflite")}
    assert len([r for r in SPLIT if r["build"] == "dsp"]) >= 5


@pytest.mark.parametrize("row", SHARED, ids=lambda r: f"{r['model_a']}+{r['model_b']}-{r['build']}")
def test_shared_arena_equals_tflm_in_both_orders(row, models_dir):
    a = models_dir / f"{row['model_a']}.tflite"
    b = models_dir / f"{row['model_b']}.tflite"
    for target in BUILD_TARGETS[row["build"]]:
        ab = ta.tflm_shared_arena([a, b], target=target)
        ba = ta.tflm_shared_arena([b, a], target=target)
        assert ab.min_arena_bytes == int(row["a_then_b"]), target
        assert ba.min_arena_bytes == int(row["b_then_a"]), target
        assert ab.single_arena_bytes == [int(row["single_a"]), int(row["single_b"])]
        # The first phase is the first model alone; the last is the answer.
        assert ab.phase_bytes[0] == int(row["single_a"])
        assert ab.phase_bytes[-1] == ab.min_arena_bytes
        best = min(int(row["a_then_b"]), int(row["b_then_a"]))
        assert ab.best_min_arena_bytes == ba.best_min_arena_bytes == best
        assert ab.all_orders_checked
        assert ab.best_order == ([0, 1] if int(row["a_then_b"]) <= best else [1, 0])


def test_the_pairs_cover_what_the_task_names():
    pairs = {(r["model_a"], r["model_b"]) for r in SHARED if r["build"] == "reference"}
    assert len(pairs) >= 10
    assert ("person_detect", "micro_speech_quantized") in pairs
    assert ("kws_ref_model", "vww_96_int8") in pairs  # a wake word and a classifier
    assert any(r["build"] == "dsp" for r in SHARED)


def test_shared_arena_is_phases_not_head_plus_tails(models_dir):
    # Measured: the order matters, and max(head) + sum(tails) is not the need.
    ordered = [r for r in SHARED if r["a_then_b"] != r["b_then_a"]]
    assert ordered
    differs = 0
    for row in SHARED:
        r = ta.tflm_shared_arena(
            [models_dir / f"{row['model_a']}.tflite", models_dir / f"{row['model_b']}.tflite"]
        )
        differs += r.min_arena_bytes != max(r.heads) + sum(r.tails)
    assert differs == len(SHARED)


def test_split_and_shared_results_name_their_target(models_dir):
    s = ta.tflm_split_arena(models_dir / "person_detect.tflite")
    text = str(s)
    assert "target cortex-m@90b983c:" in text and "55,296" in text and "27,024" in text
    assert "not checked" not in text
    assert s.as_dict()["min_persistent_bytes"] == 27024
    m = ta.tflm_shared_arena(
        [models_dir / "keyword_scrambled.tflite", models_dir / "ad01_int8.tflite"]
    )
    text = str(m)
    assert "target cortex-m@90b983c:" in text and "15,588" in text
    assert m.as_dict()["models"][1].endswith("ad01_int8.tflite")
    # An x86-64 figure is modelled only, and says so.
    x = ta.tflm_split_arena(models_dir / "person_detect.tflite", target="x86-64")
    assert not x.checked and "not checked against a real build" in str(x)


def test_layouts_refuse_what_tflm_cannot_do(models_dir):
    hello = models_dir / "hello_world_int8.tflite"
    with pytest.raises(ValueError, match="one arena"):
        ta.tflm_split_arena(hello, target="tflite-micro-wheel")
    with pytest.raises(ValueError, match="one allocator"):
        ta.tflm_shared_arena([hello, hello], target="tflite-micro-wheel")
    with pytest.raises(ValueError, match="at least two models"):
        ta.tflm_shared_arena([hello])
    with pytest.raises(ValueError, match="unknown target"):
        ta.tflm_split_arena(hello, target="cortex-m4")
    with pytest.raises(ValueError, match="RecordingMicroAllocator"):
        ta.tflm_shared_arena([hello, hello], recording=True, planner="linear")


def test_shared_arena_names_the_model_tflm_refuses(models_dir):
    mb = ModelBuilder()
    x, y = mb.add_tensor([1, 8], "float32"), mb.add_tensor([1, 4], "float32")
    w = mb.add_tensor([4, 8], "int8", data=np.ones((4, 8)), scale=0.1)
    mb.add_operator("FULLY_CONNECTED", [x, w, -1], [y])
    mb.set_io([x], [y])
    with pytest.raises(ta.TflmRefusesModelError, match=r"^model 2: "):
        ta.tflm_shared_arena([models_dir / "hello_world_int8.tflite", mb.build()])


def test_cli_split_and_shared_arena(models_dir, capsys):
    hello = str(models_dir / "hello_world_int8.tflite")
    flt = str(models_dir / "hello_world_float.tflite")
    assert main(["size", hello, "--split"]) == 0
    out = capsys.readouterr().out
    assert "target cortex-m@90b983c:" in out and "non-persistent" in out and "560" in out
    assert main(["size", hello, flt, "--split", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d[hello]["min_persistent_bytes"] == 704 and d[flt]["target"] == "cortex-m"
    assert main(["size", hello, flt, "--shared-arena"]) == 0
    out = capsys.readouterr().out
    assert "exact minimum 1676 bytes" in out and "1,628" in out
    assert main(["size", hello, flt, "--shared-arena", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["min_arena_bytes"], d["best_order"]) == (1676, [1, 0])
    assert main(["size", hello, "--shared-arena"]) == 1
    assert "at least two models" in capsys.readouterr().err
    assert main(["size", hello, "--split", "--recording"]) == 1
    assert main(["size", hello, "--split", "--target", "tflite-micro-wheel"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "tflite-micro-wheel" in err
