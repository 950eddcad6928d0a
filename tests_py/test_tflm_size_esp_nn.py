"""ta.tflm_arena on the ESP-NN targets against real TFLM as Espressif ships
it: esp-tflite-micro + esp-nn built for 32-bit ARM and run under qemu-arm,
once per ESP-NN size set (how: the header of tests_py/data/oracle_esp_nn.tsv).
The table holds, per shared model and build, the oracle's byte minimum, head
and tail (plain MicroAllocator, greedy planner). Build "ref" is the fork's
reference kernels (no ESP-NN): it must give upstream TFLM's 32-bit figures,
the cortex-m target's."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena.builder import ModelBuilder

DATA = Path(__file__).resolve().parent / "data" / "oracle_esp_nn.tsv"

# The oracle's builds and the target that must give its figures
# (data/oracle_builds.json, shared with benchmarks/tflm_size.py --oracle).
BUILD_TARGETS = {
    build: targets[0]
    for build, targets in json.loads((DATA.parent / "oracle_builds.json").read_text())[
        DATA.name
    ].items()
}
ESP_TARGETS = tuple(t for t in BUILD_TARGETS.values() if "esp" in t)


def _rows():
    with open(DATA) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['model']}-{r['build']}")
def test_esp_nn_targets_equal_esp_tflite_micro_built_with_esp_nn(row, models_dir):
    assert row["status"] == "ok"
    assert row["nonmono_below"] == row["fail_above"] == "0"
    r = ta.tflm_arena(models_dir / f"{row['model']}.tflite", target=BUILD_TARGETS[row["build"]])
    assert (r.min_arena_bytes, r.head, r.tail) == (
        int(row["min_arena"]),
        int(row["head"]),
        int(row["tail"]),
    )


def test_every_shared_model_and_build_is_covered(models_dir):
    measured = {(r["model"], r["build"]) for r in _rows()}
    models = {p.stem for p in models_dir.glob("*.tflite")}
    assert measured == {(m, b) for m in models for b in BUILD_TARGETS}


def test_the_chips_change_some_figures():
    # Not one build five times over: the esp_nn OpData structs make
    # person_detect's tail larger than the reference kernels' on every set,
    # and the S3 and P4 convolution scratch makes its head larger.
    by = {(r["model"], r["build"]): r for r in _rows()}
    pd = "person_detect"
    for build in ("ansi", "esp32", "esp32s3", "esp32p4"):
        assert int(by[pd, build]["tail"]) > int(by[pd, "ref"]["tail"]), build
    assert int(by[pd, "esp32"]["head"]) == int(by[pd, "ref"]["head"])
    assert int(by[pd, "esp32s3"]["head"]) > int(by[pd, "esp32"]["head"])
    assert int(by[pd, "esp32p4"]["head"]) > int(by[pd, "esp32"]["head"])


def test_esp_nn_targets_describe_their_build():
    info = {t["name"]: t for t in _core.tflm_targets()}
    for target in ESP_TARGETS:
        assert info[target]["checked"] is True
        assert info[target]["kernels"].startswith("esp_nn (")
        r = ta.tflm_arena(_int8_model("CONV_2D"), target=target)
        assert r.version == "1.2.3"
        assert "esp-tflite-micro 1.4.0 (99f49e1" in r.description
        assert "esp-nn 1.2.3" in r.versions
    assert "ESP32-S3" in info["esp32s3+esp-nn"]["kernels"]
    assert "ANSI C" in info["esp32+esp-nn-ansi-c"]["kernels"]


def _int8_model(op: str, channels: int = 16) -> bytes:
    # 8x8xC int8 input, 3x3 filter, SAME padding, stride 1.
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8, 8, channels], "int8", "x", scale=0.1, zero_point=0)
    out_c = 4 if op == "CONV_2D" else channels
    filter_shape = [out_c, 3, 3, channels] if op == "CONV_2D" else [1, 3, 3, channels]
    w = mb.add_tensor(
        filter_shape,
        "int8",
        "w",
        data=[1] * (9 * channels * out_c if op == "CONV_2D" else 9 * channels),
        scale=[0.01] * out_c,
        zero_point=[0] * out_c,
        quantized_dimension=0 if op == "CONV_2D" else 3,
    )
    b = mb.add_tensor([out_c], "int32", "b", data=[0] * out_c)
    y = mb.add_tensor([1, 8, 8, out_c], "int8", "y", scale=0.1, zero_point=0)
    options = {"padding": "SAME", "stride_w": 1, "stride_h": 1}
    if op == "DEPTHWISE_CONV_2D":
        options["depth_multiplier"] = 1
    mb.add_operator(op, [x, w, b], [y], options=options)
    mb.set_io([x], [y])
    return mb.build()


def test_conv_and_depthwise_scratch_follow_the_chip():
    # CONV_2D 3x3 on 16 channels, padding 1: S3 (esp_nn_get_conv_scratch_size_esp32s3)
    # padded input 10*10*16 + filter 9*16*4 + aligned rows 48*3*4 + boundary
    # 10*10*16 + 64 + 4*4 = 4432; P4 (im2col, one 144-byte window) 16 + 144 + 32
    # = 192; ANSI and generic optimized: none.
    conv = ta.Model.from_bytes(_int8_model("CONV_2D"))
    for target, requests in (
        ("esp32+esp-nn-ansi-c", []),
        ("esp32+esp-nn", []),
        ("esp32s3+esp-nn", [(4432, 0, 0)]),
        ("esp32p4+esp-nn", [(192, 0, 0)]),
    ):
        assert _core.tflm_scratch_requests(conv._handle, target) == requests, target
    # DEPTHWISE_CONV_2D 3x3 on 16 channels, padding 1: S3 filter 144 +
    # padded input 10*10*16 + 16 = 1760; every other set none.
    dw = ta.Model.from_bytes(_int8_model("DEPTHWISE_CONV_2D"))
    for target in ESP_TARGETS:
        expected = [(1760, 0, 0)] if target == "esp32s3+esp-nn" else []
        assert _core.tflm_scratch_requests(dw._handle, target) == expected, target


def test_the_esp_nn_opdata_costs_tail_bytes():
    # esp_nn/conv.cc's NodeData is OpDataConv (56 bytes) + a buffer index:
    # 4 more bytes of tail than the reference kernel on every set; the S3's
    # convolution scratch grows the head.
    m = ta.Model.from_bytes(_int8_model("CONV_2D"))
    ref = ta.tflm_arena(m, target="cortex-m")
    for target in ESP_TARGETS:
        assert ta.tflm_arena(m, target=target).tail == ref.tail + 4, target
    assert ta.tflm_arena(m, target="esp32+esp-nn").head == ref.head
    assert ta.tflm_arena(m, target="esp32s3+esp-nn").head > ref.head


def test_a_rank_one_int8_softmax_is_a_clear_error():
    # esp_nn/softmax.cc reads input dims[1]: undefined for a rank-1 input.
    mb = ModelBuilder()
    x = mb.add_tensor([10], "int8", "x", scale=0.1, zero_point=0)
    y = mb.add_tensor([10], "int8", "y", scale=1 / 256, zero_point=-128)
    mb.add_operator("SOFTMAX", [x], [y], options={"beta": 1.0})
    mb.set_io([x], [y])
    m = ta.Model.from_bytes(mb.build())
    with pytest.raises(ValueError, match=r"SOFTMAX operator 0.*dimension 1.*rank-1"):
        ta.tflm_arena(m, target="esp32+esp-nn")
    assert ta.tflm_arena(m, target="esp32+esp-nn-ansi-c").min_arena_bytes > 0
