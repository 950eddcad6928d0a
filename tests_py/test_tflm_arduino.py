"""The Arduino library's TFLM (``TARGET@arduino``) against real builds of it.

tests_py/data/oracle_arduino.tsv holds, per model and build, the smallest
arena of tensorflow/tflite-micro-arduino-examples compiled as the Arduino
IDE compiles it (how: the table's header): ``arduino`` with reference
kernels, ``arduino+cmsis-nn-dsp`` as shipped (its CMSIS-NN kernels, DSP
backend as on the Nano 33 BLE's Cortex-M4F). Models: every shared model,
the streaming and MEAN models of the other version tests, the one-operator
models of test_tflm_more_ops.py, and CASES below, which exercise what the
2023 sources do differently. Every figure must be the target's, byte for
byte; a build that refuses a model must be refused by the target too.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from test_tflm_more_ops import CASES as MORE_OPS
from test_tflm_more_ops import TAIL_OVER_TEMP
from test_tflm_resource_variables import CASES as STREAMING
from test_tflm_resource_variables import streaming_model
from test_tflm_stack_versions import MEAN_CASES, mean_model

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

DATA = Path(__file__).resolve().parent / "data" / "oracle_arduino.tsv"
BUILD_TARGETS: dict[str, list[str]] = json.loads((DATA.parent / "oracle_builds.json").read_text())[
    DATA.name
]

Q = {"scale": [0.1], "zero_point": [0]}


def _q(dtype: str) -> dict:
    return Q if dtype != "float32" else {}


def conv(dtype: str, channels: int, kernel: int, stride: int, hw=(8, 8), padding="SAME") -> bytes:
    """x [1, H, W, C] -> CONV_2D (4 filters, per-channel int8 weights) -> y."""
    mb = ModelBuilder()
    h, w = hw
    x = mb.add_tensor([1, h, w, channels], dtype, "x", **_q(dtype))
    k_h = 1 if h == 1 else kernel
    n = 4 * k_h * kernel * channels
    wq = {"scale": [0.01] * 4, "zero_point": [0] * 4} if dtype != "float32" else {}
    wt = "float32" if dtype == "float32" else "int8"
    wts = mb.add_tensor([4, k_h, kernel, channels], wt, "w", data=[1] * n, **wq)
    bt = {"float32": "float32", "int8": "int32", "int16": "int64"}[dtype]
    b = mb.add_tensor([4], bt, "b", data=[0] * 4)
    out_h = h if h == 1 else (h + stride - 1) // stride
    out_w = (w + stride - 1) // stride
    y = mb.add_tensor([1, out_h, out_w, 4], dtype, "y", **_q(dtype))
    mb.add_operator(
        "CONV_2D",
        [x, wts, b],
        [y],
        options={"padding": padding, "stride_w": stride, "stride_h": stride},
    )
    mb.set_io([x], [y])
    return mb.build()


def depthwise(dtype: str, channels: int, kernel: int) -> bytes:
    mb = ModelBuilder()
    x = mb.add_tensor([1, 6, 5, channels], dtype, "x", **_q(dtype))
    wq = {"scale": [0.01] * channels, "zero_point": [0] * channels}
    wts = mb.add_tensor(
        [1, kernel, kernel, channels],
        "int8",
        "w",
        data=[1] * kernel * kernel * channels,
        quantized_dimension=3,
        **wq,
    )
    b = mb.add_tensor([channels], "int32" if dtype == "int8" else "int64", "b", data=[0] * channels)
    y = mb.add_tensor([1, 6, 5, channels], dtype, "y", **_q(dtype))
    mb.add_operator("DEPTHWISE_CONV_2D", [x, wts, b], [y], options={"padding": "SAME"})
    mb.set_io([x], [y])
    return mb.build()


def fully_connected(in_shape: list[int], units: int, per_channel: bool, keep: bool) -> bytes:
    """int8 FULLY_CONNECTED; ``keep`` keeps the input's rank (keep_num_dims)."""
    mb = ModelBuilder()
    x = mb.add_tensor(in_shape, "int8", "x", **Q)
    depth = in_shape[-1]
    scales = [0.01 + 0.001 * i for i in range(units)] if per_channel else [0.01]
    wts = mb.add_tensor(
        [units, depth],
        "int8",
        "w",
        data=[1] * units * depth,
        scale=scales,
        zero_point=[0] * len(scales),
    )
    b = mb.add_tensor([units], "int32", "b", data=[0] * units)
    out = [*in_shape[:-1], units] if keep else [math.prod(in_shape[:-1]), units]
    y = mb.add_tensor(out, "int8", "y", **Q)
    mb.add_operator("FULLY_CONNECTED", [x, wts, b], [y], options={"keep_num_dims": keep})
    mb.set_io([x], [y])
    return mb.build()


def concatenation(dtype: str, inputs: int) -> bytes:
    mb = ModelBuilder()
    xs = [mb.add_tensor([1, 2, 3], dtype, f"x{i}", **_q(dtype)) for i in range(inputs)]
    y = mb.add_tensor([1, 2, 3 * inputs], dtype, "y", **_q(dtype))
    mb.add_operator("CONCATENATION", xs, [y], options={"axis": -1})
    mb.set_io(xs, [y])
    return mb.build()


def average_pool(dtype: str) -> bytes:
    mb = ModelBuilder()
    x = mb.add_tensor([1, 6, 6, 5], dtype, "x", **_q(dtype))
    y = mb.add_tensor([1, 3, 3, 5], dtype, "y", **_q(dtype))
    mb.add_operator(
        "AVERAGE_POOL_2D",
        [x],
        [y],
        options={
            "filter_width": 2,
            "filter_height": 2,
            "stride_w": 2,
            "stride_h": 2,
            "padding": "VALID",
        },
    )
    mb.set_io([x], [y])
    return mb.build()


def transpose_conv(dtype: str) -> bytes:
    mb = ModelBuilder()
    shape = mb.add_tensor([4], "int32", "shape", data=[1, 8, 8, 3])
    wq = {"scale": [0.01] * 3, "zero_point": [0] * 3}
    wts = mb.add_tensor([3, 3, 3, 20], "int8", "w", data=[1] * 540, **wq)
    x = mb.add_tensor([1, 4, 4, 20], dtype, "x", **_q(dtype))
    y = mb.add_tensor([1, 8, 8, 3], dtype, "y", **_q(dtype))
    mb.add_operator(
        "TRANSPOSE_CONV",
        [shape, wts, x],
        [y],
        options={"padding": "SAME", "stride_w": 2, "stride_h": 2},
    )
    mb.set_io([x], [y])
    return mb.build()


def relu6(dtype: str) -> bytes:
    mb = ModelBuilder()
    x = mb.add_tensor([2, 9], dtype, "x", **_q(dtype))
    y = mb.add_tensor([2, 9], dtype, "y", **_q(dtype))
    mb.add_operator("RELU6", [x], [y])
    mb.set_io([x], [y])
    return mb.build()


# Each exercises a 2023 difference (docs/tflm_behaviour.md, "TFLM releases").
CASES: dict[str, Callable[[], bytes]] = {
    "conv_int8_k27": lambda: conv("int8", 3, 3, 1),  # im2col K not rounded up to 4
    "conv_int8_1x1_stride2": lambda: conv("int8", 16, 1, 2, padding="VALID"),
    "conv_int8_1xn": lambda: conv("int8", 8, 3, 1, hw=(1, 16)),
    "conv_int16_small": lambda: conv("int16", 8, 3, 1),  # K = 72: DSP fast kernel
    "conv_int16_big": lambda: conv("int16", 64, 3, 1),  # K = 576: no buffer
    "conv_float32": lambda: conv("float32", 3, 3, 1),
    "depthwise_int8_3x3": lambda: depthwise("int8", 16, 3),  # 4ab83cc's 3x3 kernel needs 0
    "depthwise_int8_5x5": lambda: depthwise("int8", 16, 5),
    "depthwise_int16_3x3": lambda: depthwise("int16", 16, 3),
    "fc_int8_per_tensor": lambda: fully_connected([1, 8], 6, False, False),
    "fc_int8_per_channel": lambda: fully_connected([1, 8], 6, True, False),
    "fc_int8_rank3": lambda: fully_connected([1, 4, 8], 6, False, True),  # run as 1x1 conv
    "fc_int8_rank3_odd_depth": lambda: fully_connected([1, 4, 7], 6, False, True),
    "concatenation_int8_3": lambda: concatenation("int8", 3),
    "concatenation_float32_3": lambda: concatenation("float32", 3),
    "average_pool_int8": lambda: average_pool("int8"),
    "average_pool_int16": lambda: average_pool("int16"),
    "transpose_conv_int8": lambda: transpose_conv("int8"),
    "transpose_conv_int16": lambda: transpose_conv("int16"),
    "relu6_int8": lambda: relu6("int8"),
}

GENERATED: dict[str, Callable[[], bytes]] = {
    **CASES,
    **MORE_OPS,
    **TAIL_OVER_TEMP,
    **{k: (lambda k=k: mean_model(*MEAN_CASES[k])) for k in MEAN_CASES},
    **{k: (lambda k=k: streaming_model(**STREAMING[k])) for k in STREAMING},
}


def _rows() -> list[dict[str, str]]:
    with open(DATA) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


def _model(name: str, models_dir: Path) -> Path | bytes:
    return GENERATED[name]() if name in GENERATED else models_dir / f"{name}.tflite"


# Where ours is above the real build's minimum, with the same head and
# tail (docs/tflm_behaviour.md, section "Tail over temp"): at the real
# minimum, persistent data a kernel allocates in Prepare lands on its own
# temp tensors, which tflm_arena counts as a failure. The Arduino library's
# CMSIS-NN FULLY_CONNECTED run as a 1x1 convolution writes its two
# per-channel arrays (6 int32 each) over the output's temp quantization.
TAIL_OVER_TEMP_BYTES = {("fc_int8_rank3", "arduino+cmsis-nn-dsp"): 48}


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['model']}-{r['build']}")
def test_each_model_equals_the_arduino_librarys_real_build(row, models_dir):
    for target in BUILD_TARGETS[row["build"]]:
        model = _model(row["model"], models_dir)
        if row["status"] != "ok":
            # No kernel for the operator (refused at registration), or a
            # Prepare that crashes at every size.
            named = row["status"].split("'")[1] if "'" in row["status"] else "it crashes"
            with pytest.raises(ta.TflmRefusesModelError, match=named):
                ta.tflm_arena(model, target=target)
            continue
        assert row["nonmono_below"] == row["fail_above"] == "0"
        r = ta.tflm_arena(model, target=target)
        over = TAIL_OVER_TEMP_BYTES.get((row["model"], row["build"]), 0)
        assert (r.min_arena_bytes - over, r.head, r.tail) == (
            int(row["min_arena"]),
            int(row["head"]),
            int(row["tail"]),
        ), target
        assert r.min_arena_bytes_16 - over == int(row["min16"]) or over, target
        assert r.version == "arduino" and "modelled from source only" not in r.description


def test_every_model_and_build_is_covered(models_dir):
    measured = {(r["model"], r["build"]) for r in _rows()}
    models = {p.stem for p in models_dir.glob("*.tflite")} | set(GENERATED)
    assert measured == {(m, b) for m in models for b in BUILD_TARGETS}


def _figures() -> dict[tuple[str, str], int]:
    return {(r["model"], r["build"]): int(r["min_arena"]) for r in _rows() if r["status"] == "ok"}


def test_where_the_arduino_library_differs_from_90b983c(models_dir):
    figs = _figures()
    # The Arduino library's minimum less 90b983c's (cortex-m, and
    # cortex-m4+cmsis-nn: the same CPU-feature set), per shared model. With
    # reference kernels every model needs more: without TF_LITE_STATIC_MEMORY
    # each TfLiteTensor is 64 bytes (40) and each NodeAndRegistration 44 (36).
    # With CMSIS-NN, fully-connected models need less (2023's kernel keeps no
    # kernel sums and no per-channel arrays), the LSTM much less (2023 had no
    # CMSIS-NN LSTM kernel: the reference one has no kernel sums), kws_ref_model
    # more (e98ee09's depthwise buffer also for its 3x3 filters).
    delta = {
        p.stem: (
            figs[p.stem, "arduino"] - ta.tflm_arena(p, target="cortex-m").min_arena_bytes,
            figs[p.stem, "arduino+cmsis-nn-dsp"]
            - ta.tflm_arena(p, target="cortex-m4+cmsis-nn").min_arena_bytes,
        )
        for p in models_dir.glob("*.tflite")
    }
    assert delta == {
        "ad01_int8": (68, -76),
        "hello_world_float": (12, -20),
        "hello_world_int8": (12, -20),
        "keyword_scrambled": (160, 80),
        "kws_ref_model": (196, 1348),
        "micro_speech_quantized": (108, 92),
        "person_detect": (380, 428),
        "pretrainedResnet_quant": (216, 200),
        "seanet_add0": (92, 92),
        "seanet_add16": (92, 92),
        "seanet_conv0": (72, 72),
        "seanet_conv15": (72, 72),
        "seanet_leaky_relu0": (76, 76),
        "seanet_pad0": (76, 76),
        "seanet_quantize0": (76, 76),
        "seanet_strided_slice0": (72, 72),
        "seanet_sub0": (92, 92),
        "seanet_transpose_conv4": (88, 84),
        "simple_add_model": (92, 92),
        "trained_lstm_int8": (108, -708),
        "vww_96_int8": (376, 408),
    }

    def cmsis_over_reference(case: str) -> int:
        return figs[case, "arduino+cmsis-nn-dsp"] - figs[case, "arduino"]

    def now(case: str) -> int:
        m = GENERATED[case]()
        cm4 = ta.tflm_arena(m, target="cortex-m4+cmsis-nn").min_arena_bytes
        return cm4 - ta.tflm_arena(m, target="cortex-m").min_arena_bytes

    # CMSIS-NN e98ee09's depthwise buffer covers 3x3 filters too (16 channels
    # * 9 * int16 = 288 bytes and the buffer's handle); 4ab83cc's 3x3 kernel
    # needs none.
    assert cmsis_over_reference("depthwise_int8_3x3") >= 288 > now("depthwise_int8_3x3")
    # Its int16 convolution has no buffer for K = 576 (4ab83cc: 2 * K int16).
    assert cmsis_over_reference("conv_int16_big") < 2 * 576 * 2 <= now("conv_int16_big")
    # A strided 1x1 convolution takes the im2col buffer (2 * 16 int16).
    assert cmsis_over_reference("conv_int8_1x1_stride2") >= 64 > now("conv_int8_1x1_stride2")
    # int8 CONCATENATION keeps 3 scales and 3 zero points in the arena.
    assert (
        figs["concatenation_int8_3", "arduino"] - figs["concatenation_float32_3", "arduino"]
        > ta.tflm_arena(GENERATED["concatenation_int8_3"](), target="cortex-m").min_arena_bytes
        - ta.tflm_arena(GENERATED["concatenation_float32_3"](), target="cortex-m").min_arena_bytes
    )


def test_operators_the_library_lacks_are_refused_and_named():
    # Its resolver has no Add* for these (and no Signal operators, no DECODE).
    lacking = (
        "batch_matmul",
        "dynamic_update_slice",
        "embedding_lookup",
        "reduce_all",
        "reverse_v2",
    )
    refused = {(r["model"], r["build"]) for r in _rows() if r["status"] != "ok"}
    # ... and an int16 TRANSPOSE_CONV without a bias crashes its Prepare.
    crashes = {("transpose_conv_int16", b) for b in BUILD_TARGETS}
    assert refused == crashes | {
        (m, b) for m in GENERATED if m.startswith(lacking) for b in BUILD_TARGETS
    }
    for m, _ in refused:  # 90b983c registers them
        assert ta.tflm_arena(GENERATED[m](), target="cortex-m").min_arena_bytes > 0


def test_the_nano_33_ble_sense_builds_with_the_arduino_library():
    b = ta.board("arduino-nano-33-ble-sense")
    assert b.version == "arduino"
    assert ta.board_target(b) == "cortex-m4+cmsis-nn@arduino"
    assert "arduino" in ta.versions("cortex-m4+cmsis-nn")
    assert "arduino" in ta.versions("cortex-m")
    model = GENERATED["relu6_int8"]()
    f = ta.fit(model, board=b.name)
    assert f.needed == ta.tflm_arena(model, target="cortex-m4+cmsis-nn@arduino").min_arena_bytes_16
    assert "(stock TFLM, target cortex-m4+cmsis-nn@arduino) leaves" in f.summary()
    with pytest.raises(ValueError, match="arduino"):
        ta.tflm_arena(GENERATED["relu6_int8"](), target="cortex-m55+ethos-u@arduino")
    # Its CMSIS-NN build is checked on DSP cores (the boards it runs on) only.
    assert "arduino" in ta.versions("cortex-m7+cmsis-nn")
    for core in ("cortex-m0+cmsis-nn", "cortex-m55+cmsis-nn"):
        assert "arduino" not in ta.versions(core)
        with pytest.raises(ValueError, match="DSP extension only"):
            ta.tflm_arena(GENERATED["relu6_int8"](), target=f"{core}@arduino")


def test_the_signal_librarys_operators_are_refused():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 480], "int16", "x")
    w = mb.add_tensor([480], "int16", "w", data=[1] * 480)
    y = mb.add_tensor([1, 480], "int16", "y")
    mb.add_operator("CUSTOM", [x, w], [y], custom_code="SignalWindow", custom_options={"shift": 12})
    mb.set_io([x], [y])
    model = mb.build()
    assert ta.tflm_arena(model, target="cortex-m").min_arena_bytes > 0
    for target in ("cortex-m@arduino", "cortex-m4+cmsis-nn@arduino"):
        with pytest.raises(ta.TflmRefusesModelError, match="SignalWindow"):
            ta.tflm_arena(model, target=target)
