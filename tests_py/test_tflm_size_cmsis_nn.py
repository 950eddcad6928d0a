"""ta.tflm_arena on the CMSIS-NN targets against real TFLM + CMSIS-NN built
for 32-bit ARM (armhf under qemu-arm; how: the header of
tests_py/data/oracle_armhf_cmsis_nn.tsv). The table holds, per shared model,
the oracle's byte minimum, head and tail for the reference-kernel build and
the CMSIS-NN scalar and DSP builds (plain MicroAllocator, greedy planner).
MVE cores cannot run under qemu-arm: their targets give figures and say they
are unchecked."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena.builder import ModelBuilder

DATA = Path(__file__).resolve().parent / "data" / "oracle_armhf_cmsis_nn.tsv"

# The oracle's builds and the targets that must give its figures
# (data/oracle_builds.json, shared with benchmarks/tflm_size.py --oracle).
BUILD_TARGETS = json.loads((DATA.parent / "oracle_builds.json").read_text())[DATA.name]
MVE_TARGETS = ("cortex-m55+cmsis-nn", "cortex-m85+cmsis-nn")


def _rows():
    with open(DATA) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['model']}-{r['build']}")
def test_cmsis_nn_targets_equal_tflm_built_with_cmsis_nn(row, models_dir):
    assert row["status"] == "ok"
    m = ta.Model.load(models_dir / f"{row['model']}.tflite")
    for target in BUILD_TARGETS[row["build"]]:
        r = ta.tflm_arena(m, target=target)
        assert (r.min_arena_bytes, r.head, r.tail) == (
            int(row["min_arena"]),
            int(row["head"]),
            int(row["tail"]),
        ), target


def test_every_shared_model_and_build_is_covered(models_dir):
    measured = {(r["model"], r["build"]) for r in _rows()}
    models = {p.stem for p in models_dir.glob("*.tflite")}
    assert measured == {(m, b) for m in models for b in BUILD_TARGETS}


def test_the_cmsis_nn_kernels_change_some_figures(models_dir):
    # The table is not one build three times over: CMSIS-NN's im2col scratch
    # makes ResNet's head larger, the cmsis_nn OpData structs make
    # person_detect's tail larger, and only the DSP build's average pool
    # requests a scratch buffer (one more scratch handle in ResNet's tail).
    by = {(r["model"], r["build"]): r for r in _rows()}
    resnet = "pretrainedResnet_quant"
    assert int(by[resnet, "scalar"]["head"]) > int(by[resnet, "reference"]["head"])
    assert int(by[resnet, "dsp"]["tail"]) > int(by[resnet, "scalar"]["tail"])
    assert int(by["person_detect", "dsp"]["tail"]) > int(by["person_detect", "reference"]["tail"])
    assert all(r["nonmono_below"] == r["fail_above"] == "0" for r in _rows())


def test_mve_targets_give_figures_and_say_they_are_unchecked(models_dir):
    info = {t["name"]: t for t in _core.tflm_targets()}
    for target in MVE_TARGETS:
        assert info[target]["checked"] is False
        assert "MVE" in info[target]["kernels"]
        r = ta.tflm_arena(models_dir / "person_detect.tflite", target=target)
        assert "not checked against a real build" in r.description
        assert "not checked against a real build" in str(r)
        assert r.as_dict()["description"] == r.description
        assert r.min_arena_bytes > 0
    for names in BUILD_TARGETS.values():
        for target in names:
            assert info[target]["checked"] is True
            assert "not checked" not in ta.targets()[target]


def test_mve_differs_from_dsp_where_cmsis_nn_says_so(models_dir):
    # ad01 is fully connected layers with constant int8 filters: on MVE each
    # keeps output_depth int32 kernel sums in the tail (KERNELS_OPTIMIZED_FOR_SPEED).
    dsp = ta.tflm_arena(models_dir / "ad01_int8.tflite", target="cortex-m4+cmsis-nn")
    mve = ta.tflm_arena(models_dir / "ad01_int8.tflite", target="cortex-m55+cmsis-nn")
    assert mve.head == dsp.head
    assert mve.tail > dsp.tail


def test_unknown_target_lists_the_cmsis_nn_targets(models_dir):
    with pytest.raises(ValueError) as e:
        ta.tflm_arena(models_dir / "hello_world_int8.tflite", target="cortex-m4")
    message = str(e.value)
    assert "\n" not in message
    for names in (*BUILD_TARGETS.values(), MVE_TARGETS):
        for target in names:
            assert target in message


def _int8_conv(stride: int = 1, kernel: int = 3, channels: int = 3) -> bytes:
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8, 8, channels], "int8", "x", scale=0.1, zero_point=0)
    w = mb.add_tensor(
        [4, kernel, kernel, channels],
        "int8",
        "w",
        data=[1] * (4 * kernel * kernel * channels),
        scale=[0.01] * 4,
        zero_point=[0] * 4,
    )
    b = mb.add_tensor([4], "int32", "b", data=[0] * 4)
    out = 8 // stride if stride > 0 else 8
    y = mb.add_tensor([1, out, out, 4], "int8", "y", scale=0.1, zero_point=0)
    mb.add_operator(
        "CONV_2D", [x, w, b], [y], options={"padding": "SAME", "stride_w": stride, "stride_h": 1}
    )
    mb.set_io([x], [y])
    return mb.build()


def test_conv_scratch_follows_the_backend():
    # K = 3 * 3 * 3 = 27: scalar and DSP im2col 2 x 28 int16 = 112 bytes
    # (arm_convolve_s8_get_buffer_size); MVE 4 x 32 = 128
    # (arm_convolve_s8_get_buffer_size_mve); the reference kernel none.
    m = ta.Model.from_bytes(_int8_conv())
    assert _core.tflm_scratch_requests(m._handle, "cortex-m") == []
    for target, bytes_ in (
        ("cortex-m0+cmsis-nn", 112),
        ("cortex-m4+cmsis-nn", 112),
        ("cortex-m55+cmsis-nn", 128),
    ):
        assert _core.tflm_scratch_requests(m._handle, target) == [(bytes_, 0, 0)], target
    # 1x1 without padding: no buffer on any backend (GCC).
    one = ta.Model.from_bytes(_int8_conv(kernel=1))
    for target in ("cortex-m0+cmsis-nn", "cortex-m4+cmsis-nn", "cortex-m55+cmsis-nn"):
        assert _core.tflm_scratch_requests(one._handle, target) == [], target


def test_a_zero_stride_is_a_clear_error_not_a_crash():
    m = ta.Model.from_bytes(_int8_conv(stride=0))
    with pytest.raises(ValueError, match=r"stride 0x1.*positive"):
        ta.tflm_arena(m, target="cortex-m55+cmsis-nn")


def _int8_transpose_conv(options_of: str = "TRANSPOSE_CONV") -> bytes:
    """shape, w [2, 3, 3, 3], x [1, 4, 4, 3] -> TRANSPOSE_CONV -> y [1, 6, 6, 2],
    int8; with ``options_of="STRIDED_SLICE"`` the operator carries
    StridedSliceOptions (end_mask 2, ellipsis_mask 2: fields 1 and 2, where
    TransposeConvOptions keeps its strides), which the model reader accepts
    (no operator owns that type but STRIDED_SLICE, which it does not check)."""
    mb = ModelBuilder()
    shape = mb.add_tensor([4], "int32", "shape", data=[1, 6, 6, 2])
    w = mb.add_tensor([2, 3, 3, 3], "int8", "w", data=np.ones((2, 3, 3, 3)), scale=[0.1, 0.1])
    x = mb.add_tensor([1, 4, 4, 3], "int8", "x", scale=[0.5], zero_point=[0])
    y = mb.add_tensor([1, 6, 6, 2], "int8", "y", scale=[0.5], zero_point=[0])
    if options_of == "TRANSPOSE_CONV":
        options = {"padding": "VALID", "stride_w": 1, "stride_h": 1}
    else:
        options = {"begin_mask": 0, "end_mask": 2, "ellipsis_mask": 2}
    mb.add_operator(options_of, [shape, w, x], [y], options=options)
    mb._opcodes[0] = (67, None, 1)  # TRANSPOSE_CONV
    mb.set_io([x], [y])
    return mb.build()


def test_options_of_another_type_are_no_options_as_in_tflms_parser():
    """TFLM's ParseTransposeConv reads builtin_options_as_TransposeConvOptions(),
    null for another table type, and leaves the zero-initialised params: stride
    0, which the CMSIS-NN size model refuses instead of reading another
    table's fields as strides (here 2 x 2)."""
    good = ta.tflm_arena(_int8_transpose_conv(), target="cortex-m4+cmsis-nn")
    assert good.min_arena_bytes > 0
    foreign = _int8_transpose_conv("STRIDED_SLICE")
    with pytest.raises(ValueError, match=r"TRANSPOSE_CONV operator 0 \(subgraph 0\): stride 0x0"):
        ta.tflm_arena(foreign, target="cortex-m4+cmsis-nn")
