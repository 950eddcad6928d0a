"""Stack versions (``TARGET@VERSION``) against real builds of each version:
esp-nn releases (ESP-NN targets) and TFLM releases (Zephyr's module).

tests_py/data/oracle_esp_nn_versions.tsv holds, per model and build, the
smallest arena of esp-tflite-micro 1.4.0 built with each esp-nn release
(how: the table's header), for every shared model and the streaming models
of test_tflm_resource_variables.py; build ``SET@RELEASE`` maps to a target
in data/oracle_builds.json (build ``ref``: the fork's reference kernels, the
``cortex-m`` figures). Every figure must be the target's at that
version, byte for byte, and the tests below say which releases differ from
which, on which models and by how much.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path

import pytest
from test_tflm_resource_variables import CASES, streaming_model

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena.builder import ModelBuilder

DATA = Path(__file__).resolve().parent / "data" / "oracle_esp_nn_versions.tsv"
BUILD_TARGETS = {
    build: targets[0]
    for build, targets in json.loads((DATA.parent / "oracle_builds.json").read_text())[
        DATA.name
    ].items()
}


def _rows() -> list[dict[str, str]]:
    with open(DATA) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


def _model(name: str, models_dir: Path) -> Path | bytes:
    if name in CASES:
        return streaming_model(**CASES[name])
    return models_dir / f"{name}.tflite"


def _figures() -> dict[tuple[str, str], int]:
    """(model, build) -> the oracle's minimum."""
    return {(r["model"], r["build"]): int(r["min_arena"]) for r in _rows()}


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['model']}-{r['build']}")
def test_each_version_equals_its_real_build(row, models_dir):
    assert row["status"] == "ok"
    assert row["nonmono_below"] == row["fail_above"] == "0"
    r = ta.tflm_arena(_model(row["model"], models_dir), target=BUILD_TARGETS[row["build"]])
    assert (r.min_arena_bytes, r.head, r.tail) == (
        int(row["min_arena"]),
        int(row["head"]),
        int(row["tail"]),
    )
    if "@" in row["build"]:
        assert r.version == row["build"].split("@")[1]


def test_every_model_and_build_is_covered(models_dir):
    measured = {(r["model"], r["build"]) for r in _rows()}
    models = {p.stem for p in models_dir.glob("*.tflite")} | set(CASES)
    assert measured == {(m, b) for m in models for b in BUILD_TARGETS}


def test_checked_versions_say_so_and_only_they():
    # Every esp-nn release in the table is checked; the description of a
    # release without a real build would say "modelled from source only".
    checked = {b.split("@")[1] for b in BUILD_TARGETS if "@" in b}
    for v in _core.tflm_stack_versions():
        if v["family"] != "esp-nn":
            continue
        r = _core.tflm_resolve_target(f"esp32s3+esp-nn@{v['name']}")
        assert v["checked"] is (v["name"] in checked), v["name"]
        assert ("modelled from source only" in r["description"]) is (not v["checked"])


# What the oracle measured, release against 1.2.3 (min arena, bytes), for
# every model and release whose figure moves; every other figure is 1.2.3's.
DIFFERENCES_FROM_1_2_3 = {
    "esp32p4": {
        # Before 1.2.3 the P4 convolution was the S3 function of 1.2.0.
        "1.2.2": {"kws_ref_model": 29280, "pretrainedResnet_quant": 35888},
        "1.2.1": {"kws_ref_model": 29280, "pretrainedResnet_quant": 35888},
        "1.2.0": {"kws_ref_model": 29280, "pretrainedResnet_quant": 35888},
        "1.1.2": {"kws_ref_model": 29280, "pretrainedResnet_quant": 35888},
    },
    "esp32s3": {
        # 1.2.1 and 1.2.2: only the convolutions' alignment allowance (32,
        # 1.2.3: 64), where a convolution's scratch is the arena's peak.
        "1.2.2": {"pretrainedResnet_quant": -32},
        "1.2.1": {"pretrainedResnet_quant": -32},
        # 1.2.0: without 1.2.1's filter-alignment and boundary terms
        # ResNet's scratch peak is 19,616 smaller, but kws_ref_model's first
        # convolution (10x4 filter on 1 channel: a 4-byte filter row, a
        # 40-byte window) had no im2col path: its scratch is 41,932 bytes,
        # not 3,472, and the arena 21,744 larger.
        "1.2.0": {"kws_ref_model": 21744, "pretrainedResnet_quant": -19616},
        # 1.1.2: as 1.2.0, and its int16 depthwise allowance is 16 bytes
        # smaller (micro_speech's depthwise, multiplier 8, is its peak).
        "1.1.2": {
            "kws_ref_model": 21744,
            "micro_speech_quantized": -16,
            "pretrainedResnet_quant": -19616,
        },
    },
}


def test_which_releases_differ_where_and_by_how_much():
    figs = _figures()
    found: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for (model, build), n in figs.items():
        if build == "ref":  # the fork's reference kernels: cortex-m's figures
            continue
        chip, release = build.split("@")
        d = n - figs[model, f"{chip}@1.2.3"]
        if d:
            found[chip][release][model] = d
    # The ANSI C and generic (ESP32) size functions are the same in every
    # release: not one figure moves there.
    assert {c: {r: dict(m) for r, m in v.items()} for c, v in found.items()} == (
        DIFFERENCES_FROM_1_2_3
    )


TRACE = DATA.with_name("oracle_esp_nn_scratch_trace.tsv")


def _traces() -> dict[str, list[int]]:
    """build -> person_detect's esp-nn scratch sizes, one per size-function call."""
    out: dict[str, list[int]] = defaultdict(list)
    with open(TRACE) as f:
        for r in csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t"):
            assert r["model"] == "person_detect" and int(r["call"]) == len(out[r["build"]])
            out[r["build"]].append(int(r["size"]))
    return out


@pytest.mark.parametrize("chip", ["esp32s3", "esp32p4"])
@pytest.mark.parametrize("release", ["1.2.2", "1.2.1", "1.2.0", "1.1.2"])
def test_compare_names_the_changed_operators_with_the_real_builds_figures(
    chip, release, models_dir
):
    # The oracle's trace of every esp-nn size call in person_detect's
    # Prepare (conv, depthwise, softmax, in model order) at both releases:
    # compare lists exactly the operators whose size differs, with both
    # builds' sizes (the kernels request scratch only when it is > 0), and
    # both builds' arenas.
    traces, figs = _traces(), _figures()
    model = ta.Model.load(models_dir / "person_detect.tflite")
    calls = [
        o.index for o in model.operators if o.name in {"CONV_2D", "DEPTHWISE_CONV_2D", "SOFTMAX"}
    ]
    before, after = traces[f"{chip}@{release}"], traces[f"{chip}@1.2.3"]
    assert len(calls) == len(before) == len(after)
    target = BUILD_TARGETS[f"{chip}@1.2.3"].split("@")[0]
    c = ta.compare_stacks(model, f"{target}@{release}", f"{target}@1.2.3")
    assert c.before.arena is not None and c.after.arena is not None
    assert c.before.arena.min_arena_bytes == figs["person_detect", f"{chip}@{release}"]
    assert c.after.arena.min_arena_bytes == figs["person_detect", f"{chip}@1.2.3"]
    expected = {
        op: (max(b, 0), max(a, 0)) for op, b, a in zip(calls, before, after, strict=True) if b != a
    }
    assert {ch.index: (ch.before.scratch, ch.after.scratch) for ch in c.changes} == expected
    for ch in c.changes:
        # esp-nn changes scratch only; the kernels' persistent data is the fork's.
        assert ch.before.persistent == ch.after.persistent and ch.subgraph == 0


def test_the_generic_set_changes_nothing(models_dir):
    same = ta.compare_stacks(
        models_dir / "person_detect.tflite", "esp32+esp-nn@1.1.2", "esp32+esp-nn@1.2.3"
    )
    assert same.changes == []
    assert same.before.arena is not None and same.after.arena is not None
    assert same.before.arena.min_arena_bytes == same.after.arena.min_arena_bytes


# --- TFLM releases: Zephyr's module (reference kernels, 32-bit ARM) ---------

ZEPHYR = DATA.with_name("oracle_armhf_versions.tsv")
ZEPHYR_TARGETS = {
    build: targets[0]
    for build, targets in json.loads((DATA.parent / "oracle_builds.json").read_text())[
        ZEPHYR.name
    ].items()
}
# MEAN models (the reduce kernels gained two scratch buffers in 2026-01):
# dtype, input shape, axes, keep_dims.
MEAN_CASES = {
    "mean_int8_4d": ("int8", [1, 7, 5, 8], [1, 2], True),
    "mean_int8_last": ("int8", [2, 6, 4, 3], [-1], False),
    "mean_int16": ("int16", [1, 10, 6, 4], [1], True),
    "mean_float": ("float32", [2, 6, 4, 3], [0, 3], False),
}


def mean_model(dtype: str, shape: list[int], axes: list[int], keep: bool) -> bytes:
    mb = ModelBuilder()
    q = dtype != "float32"
    x = mb.add_tensor(shape, dtype, "x", **({"scale": [0.1], "zero_point": [0]} if q else {}))
    a = mb.add_tensor([len(axes)], "int32", "axis", data=axes)
    red = {(d + len(shape)) % len(shape) for d in axes}
    out = (
        [1 if d in red else s for d, s in enumerate(shape)]
        if keep
        else [s for d, s in enumerate(shape) if d not in red]
    )
    y = mb.add_tensor(out, dtype, "y", **({"scale": [0.05], "zero_point": [0]} if q else {}))
    mb.add_operator("MEAN", [x, a], [y], options={"keep_dims": keep})
    mb.set_io([x], [y])
    return mb.build()


def _zephyr_rows() -> list[dict[str, str]]:
    with open(ZEPHYR) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


def _any_model(name: str, models_dir: Path) -> Path | bytes:
    return mean_model(*MEAN_CASES[name]) if name in MEAN_CASES else _model(name, models_dir)


@pytest.mark.parametrize("row", _zephyr_rows(), ids=lambda r: f"{r['model']}-{r['build']}")
def test_each_tflm_release_equals_its_real_build(row, models_dir):
    assert row["status"] == "ok"
    assert row["nonmono_below"] == row["fail_above"] == "0"
    r = ta.tflm_arena(_any_model(row["model"], models_dir), target=ZEPHYR_TARGETS[row["build"]])
    assert (r.min_arena_bytes, r.head, r.tail) == (
        int(row["min_arena"]),
        int(row["head"]),
        int(row["tail"]),
    )
    assert r.version == row["build"] and "modelled from source only" not in r.description


def test_every_model_and_tflm_release_is_covered(models_dir):
    measured = {(r["model"], r["build"]) for r in _zephyr_rows()}
    models = {p.stem for p in models_dir.glob("*.tflite")} | set(CASES) | set(MEAN_CASES)
    assert measured == {(m, b) for m in models for b in ZEPHYR_TARGETS}


def test_which_tflm_releases_differ_where_and_by_how_much(models_dir):
    figs = {(r["model"], r["build"]): int(r["min_arena"]) for r in _zephyr_rows()}
    # Zephyr v4.4 is 90b983c's allocation: every figure is cortex-m's.
    for (model, build), n in figs.items():
        if build == "zephyr-v4.4":
            assert n == ta.tflm_arena(_any_model(model, models_dir)).min_arena_bytes, model
    # v4.1 differs only on MEAN: no input-iterator and resolved-axis scratch
    # buffers (and their handles), a 40-byte OpDataReduce.
    moved = {
        m: figs[m, "zephyr-v4.1"] - figs[m, "zephyr-v4.4"]
        for m, b in figs
        if b == "zephyr-v4.1" and figs[m, "zephyr-v4.1"] != figs[m, "zephyr-v4.4"]
    }
    assert moved == {
        "mean_float": -36,
        "mean_int16": -36,
        "mean_int8_4d": -84,
        "mean_int8_last": -36,
    }


def test_an_operator_a_release_lacks_is_refused_at_registration():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8], "float32", "x")
    y = mb.add_tensor([1, 8], "float32", "y")
    mb.add_operator("REDUCE_ALL", [x, mb.add_tensor([1], "int32", "a", data=[1])], [y])
    mb.set_io([x], [y])
    model = mb.build()
    with pytest.raises(ta.TflmRefusesModelError, match="REDUCE_ALL"):
        ta.tflm_arena(model, target="cortex-m@zephyr-v4.1")
    # CMSIS-NN and Ethos-U builds are not modelled at Zephyr's releases: an error.
    with pytest.raises(ValueError, match=r"zephyr-v4\.1"):
        ta.tflm_arena(model, target="cortex-m4+cmsis-nn@zephyr-v4.1")
    assert list(ta.versions("cortex-m")) == ["90b983c", "zephyr-v4.4", "zephyr-v4.1", "arduino"]
