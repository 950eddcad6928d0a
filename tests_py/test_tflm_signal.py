"""TFLM's Signal operators (the audio front end of TFLM's micro_speech
example, and the streaming and synthesis operators around it):
``tflm_arena`` models their memory, and the figures equal the real wheel's,
checked live (the minimum works, one byte less fails) on a front end with
the structure of micro_speech's audio preprocessor, on a streaming front end
(framer ... delay -> stacker), on synthesis paths (irfft -> overlap-add),
all built here with the builder, and on each Signal operator alone."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tflite_micro

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import tflm_size as wheel  # benchmarks/tflm_size.py

# The wheel's configuration: its target, with its own (recording) allocator.
WHEEL = dict(target="tflite-micro-wheel")

SPECTRAL_SUBTRACTION = {
    "alternate_one_minus_smoothing": 15401,
    "alternate_smoothing": 983,
    "clamping": False,
    "min_signal_remaining": 819,
    "num_channels": 40,
    "one_minus_smoothing": 15975,
    "smoothing": 409,
    "smoothing_bits": 10,
    "spectral_subtraction_bits": 14,
}


def signal_op(mb: ModelBuilder, name: str, inputs, outputs, options: dict) -> int:
    """Adds TFLM's custom operator Signal<name> with flexbuffer ``options``."""
    return mb.add_operator(
        "CUSTOM", inputs, outputs, custom_code="Signal" + name, custom_options=options
    )


def preprocessor(channels: int = 40, fft_length: int = 512, frame: int = 480) -> bytes:
    """micro_speech's audio_preprocessor_int8 graph: the same operators,
    tensor shapes, types and custom options (constants are placeholders)."""
    bins = fft_length // 2 + 1
    mb = ModelBuilder()
    c = lambda shape, dtype, data, name="": mb.add_tensor(shape, dtype, name, data=data)  # noqa: E731
    audio = mb.add_tensor([1, frame], "int16", "audio")
    window = c([frame], "int16", np.full(frame, 100))
    zeros_hi = c([16], "int32", np.zeros(16))
    zeros_lo = c([5], "int32", np.zeros(5))
    cast3 = c([], "int32", [0])
    end = bins - 16  # the spectrum keeps bins [5, end), zeros either side
    ss_stride, ss_end, ss_begin = (
        c([1], "int32", [1]),
        c([1], "int32", [end]),
        c([1], "int32", [5]),
    )
    pcan_lut = c([125], "int16", np.zeros(125))
    ch = channels + 1
    fb_widths, fb_wstarts, fb_fstarts = (
        c([ch], "int16", np.ones(ch)),
        c([ch], "int16", np.zeros(ch)),
        c([ch], "int16", np.zeros(ch)),
    )
    fb_unweights, fb_weights = c([316], "int16", np.zeros(316)), c([316], "int16", np.zeros(316))
    clip_max = c([], "int32", [127])
    reshape_shape = c([1], "int32", [frame])
    const2, const1, const_1 = c([], "int32", [-128]), c([], "int32", [1]), c([], "int32", [1])
    t = lambda shape, dtype, name="": mb.add_tensor(shape, dtype, name)  # noqa: E731
    win = t([1, frame], "int16")
    flat = t([frame], "int16")
    scaled, scale_bits = t([frame], "int16"), t([], "int32")
    spectrum = t([2 * bins], "int16")
    energy = t([bins], "uint32")
    cast = t([bins], "int32")
    sliced = t([end - 5], "int32")
    concat = t([bins], "int32")
    cast1 = t([bins], "uint32")
    fb = t([channels], "uint64")
    sqrt = t([channels], "uint32")
    ss, noise = t([channels], "uint32"), t([channels], "uint32")
    pcan = t([channels], "uint32")
    log = t([channels], "int16")
    cast2, mul, add = t([channels], "int32"), t([channels], "int32"), t([channels], "int32")
    div, add1, mini, maxi = (
        t([channels], "int32"),
        t([channels], "int32"),
        t([channels], "int32"),
        t([channels], "int32"),
    )
    out = t([channels], "int8", "features")
    op = mb.add_operator
    signal_op(mb, "Window", [audio, window], [win], {"shift": 12})
    op("RESHAPE", [win, reshape_shape], [flat])
    signal_op(mb, "FftAutoScale", [flat], [scaled, scale_bits], {})
    signal_op(mb, "Rfft", [scaled], [spectrum], {"T": 7, "fft_length": fft_length})
    signal_op(mb, "Energy", [spectrum], [energy], {"end_index": end, "start_index": 5})
    op("CAST", [energy], [cast], version=3)
    op("STRIDED_SLICE", [cast, ss_begin, ss_end, ss_stride], [sliced])
    op("CONCATENATION", [zeros_lo, sliced, zeros_hi], [concat])
    op("CAST", [concat], [cast1], version=3)
    signal_op(
        mb,
        "FilterBank",
        [cast1, fb_weights, fb_unweights, fb_fstarts, fb_wstarts, fb_widths],
        [fb],
        {"num_channels": channels},
    )
    signal_op(mb, "FilterBankSquareRoot", [fb, scale_bits], [sqrt], {})
    signal_op(
        mb,
        "FilterBankSpectralSubtraction",
        [sqrt],
        [ss, noise],
        dict(SPECTRAL_SUBTRACTION, num_channels=channels),
    )
    signal_op(mb, "PCAN", [ss, noise, pcan_lut], [pcan], {"snr_shift": 6})
    signal_op(mb, "FilterBankLog", [pcan], [log], {"input_correction_bits": 3, "output_scale": 64})
    op("CAST", [log], [cast2], version=3)
    op("MUL", [cast2, const1], [mul])
    op("ADD", [mul, cast3], [add])
    op("DIV", [add, const_1], [div])
    op("ADD", [div, const2], [add1])
    op("MINIMUM", [add1, clip_max], [mini])
    op("MAXIMUM", [mini, const2], [maxi])
    op("CAST", [maxi], [out], version=3)
    mb.set_io([audio], [out])
    return mb.build()


def streaming_front_end(
    channels: int = 40,
    fft_length: int = 512,
    step: int = 160,
    frame: int = 400,
    delay: int = 2,
    left: int = 2,
    right: int = 2,
) -> bytes:
    """A streaming front end: SignalFramer cuts frames from audio chunks,
    then window, FFT, energy, filter bank, square root and log (as in
    micro_speech), then SignalDelay and SignalStacker stack feature frames
    with left and right context (constants are placeholders)."""
    bins = fft_length // 2 + 1
    mb = ModelBuilder()
    t = lambda shape, dtype, name="", data=None: mb.add_tensor(shape, dtype, name, data=data)  # noqa: E731
    audio = t([1, step], "int16", "audio")
    frames, valid = t([1, 1, frame], "int16"), t([], "bool", "frame_valid")
    window = t([frame], "int16", data=np.full(frame, 100))
    win = t([1, 1, frame], "int16")
    flat, shape = t([frame], "int16"), t([1], "int32", data=[frame])
    spectrum = t([2 * bins], "int16")
    energy = t([bins], "uint32")
    ch = channels + 1
    fb_in = [
        t([316], "int16", data=np.zeros(316)),
        t([316], "int16", data=np.zeros(316)),
        t([ch], "int16", data=np.zeros(ch)),
        t([ch], "int16", data=np.zeros(ch)),
        t([ch], "int16", data=np.ones(ch)),
    ]
    fb, sqrt, log = t([channels], "uint64"), t([channels], "uint32"), t([channels], "int16")
    scale_bits = t([], "int32", data=[0])
    delayed = t([channels], "int16")
    stacked = t([channels * (left + right + 1)], "int16", "features")
    stacked_valid = t([], "bool", "features_valid")
    op = mb.add_operator
    signal_op(
        mb,
        "Framer",
        [audio],
        [frames, valid],
        {"frame_size": frame, "frame_step": step, "prefill": True},
    )
    signal_op(mb, "Window", [frames, window], [win], {"shift": 12})
    op("RESHAPE", [win, shape], [flat])
    signal_op(mb, "Rfft", [flat], [spectrum], {"T": 7, "fft_length": fft_length})
    signal_op(mb, "Energy", [spectrum], [energy], {"end_index": bins - 1, "start_index": 1})
    signal_op(mb, "FilterBank", [energy] + fb_in, [fb], {"num_channels": channels})
    signal_op(mb, "FilterBankSquareRoot", [fb, scale_bits], [sqrt], {})
    signal_op(mb, "FilterBankLog", [sqrt], [log], {"input_correction_bits": 3, "output_scale": 64})
    signal_op(mb, "Delay", [log], [delayed], {"delay_length": delay})
    signal_op(
        mb,
        "Stacker",
        [delayed],
        [stacked, stacked_valid],
        {
            "num_channels": channels,
            "stacker_left_context": left,
            "stacker_right_context": right,
            "stacker_step": 1,
        },
    )
    mb.set_io([audio], [valid, stacked, stacked_valid])
    return mb.build()


def synthesis(dtype: str = "int16", fft_length: int = 64, frames: int = 4, rows: int = 2) -> bytes:
    """A synthesis path: SignalIrfft turns `rows` x `frames` spectra back
    into frames, SignalOverlapAdd adds them at a step of half a frame."""
    type_code = {"int16": 7, "float32": 0}[dtype]
    step = fft_length // 2
    mb = ModelBuilder()
    spectra = mb.add_tensor([rows, frames, fft_length + 2], dtype, "spectra")
    framed = mb.add_tensor([rows, frames, fft_length], dtype)
    out = mb.add_tensor([rows, frames * step], dtype, "audio")
    signal_op(mb, "Irfft", [spectra], [framed], {"T": type_code, "fft_length": fft_length})
    signal_op(mb, "OverlapAdd", [framed], [out], {"T": type_code, "frame_step": step})
    mb.set_io([spectra], [out])
    return mb.build()


def check_against_wheel(data: bytes, path: Path):
    """Our exact minimum works in the wheel, one byte less fails, and head,
    tail and every recording category equal the wheel's printout."""
    require_tflite_micro()
    path.write_bytes(data)
    ours = ta.tflm_arena(data, **WHEEL)
    at_min = wheel.wheel_try(path, ours.min_arena_bytes)
    assert at_min is not None, "the wheel fails at our minimum"
    assert wheel.wheel_try(path, ours.min_arena_bytes - 1) is None, "not the minimum"
    assert (at_min["head"], at_min["tail"]) == (ours.head, ours.tail)
    mine = {
        c.name: {"used": c.used, "requested": c.requested, "count": c.count}
        for c in ours.categories.values()
        if c.requested or c.used or c.count
    }
    assert mine == at_min["categories"]
    return ours


def test_builder_writes_flexbuffer_custom_options():
    from flatbuffers import flexbuffers

    m = ta.Model.from_bytes(preprocessor())
    names = [op.name for op in m.operators]
    assert names[0] == "SignalWindow" and names[13] == "SignalFilterBankLog"
    with pytest.raises(ValueError):
        ModelBuilder().add_operator("ADD", [0], [0], custom_options={"a": 1})
    mb = ModelBuilder()
    x = mb.add_tensor([4], "int16")
    mb.add_operator("CUSTOM", [x], [x], custom_code="Op", custom_options=b"\x01\x02")
    assert flexbuffers.Loads(flexbuffers.Dumps({"b": 1, "a": True})) == {"a": True, "b": 1}


def test_micro_speech_preprocessor_equals_the_wheel(tmp_path):
    ours = check_against_wheel(preprocessor(), tmp_path / "pre.tflite")
    # The front end one user measured: 10,224 bytes as a multiple of 16.
    assert ours.min_arena_bytes_16 == 10224


def test_preprocessor_with_other_sizes_equals_the_wheel(tmp_path):
    check_against_wheel(
        preprocessor(channels=32, fft_length=256, frame=240), tmp_path / "pre_small.tflite"
    )


def _single(code, inputs, outputs, options):
    mb = ModelBuilder()
    ins = [mb.add_tensor(s, d, data=v) for s, d, v in inputs]
    outs = [mb.add_tensor(s, d) for s, d in outputs]
    mb.add_operator("CUSTOM", ins, outs, custom_code=code, custom_options=options)
    mb.set_io([i for i, (_, _, v) in zip(ins, inputs, strict=True) if v is None], outs)
    return mb.build()


SINGLE = {
    "SignalWindow": (
        [([1, 64], "int16", None), ([64], "int16", np.ones(64))],
        [([1, 64], "int16")],
        {"shift": 10},
    ),
    "SignalFftAutoScale": ([([64], "int16", None)], [([64], "int16"), ([], "int32")], {}),
    "SignalRfft_int16": ([([64], "int16", None)], [([66], "int16")], {"T": 7, "fft_length": 64}),
    "SignalRfft_float": (
        [([128], "float32", None)],
        [([130], "float32")],
        {"T": 0, "fft_length": 128},
    ),
    "SignalRfft_int32": ([([32], "int32", None)], [([34], "int32")], {"T": 2, "fft_length": 32}),
    "SignalEnergy": (
        [([66], "int16", None)],
        [([33], "uint32")],
        {"end_index": 30, "start_index": 2},
    ),
    "SignalFilterBank": (
        [([33], "uint32", None)]
        + [([16], "int16", np.zeros(16))] * 2
        + [([9], "int16", np.zeros(9))] * 2
        + [([9], "int16", np.ones(9))],
        [([8], "uint64")],
        {"num_channels": 8},
    ),
    "SignalFilterBankSquareRoot": (
        [([8], "uint64", None), ([], "int32", [0])],
        [([8], "uint32")],
        {},
    ),
    "SignalFilterBankSpectralSubtraction": (
        [([24], "uint32", None)],
        [([24], "uint32"), ([24], "uint32")],
        dict(SPECTRAL_SUBTRACTION, num_channels=24),
    ),
    "SignalPCAN": (
        [([8], "uint32", None), ([8], "uint32", None), ([125], "int16", np.zeros(125))],
        [([8], "uint32")],
        {"snr_shift": 6},
    ),
    "SignalFilterBankLog": (
        [([8], "uint32", None)],
        [([8], "int16")],
        {"input_correction_bits": 3, "output_scale": 64},
    ),
    "SignalIrfft_int16": ([([66], "int16", None)], [([64], "int16")], {"T": 7, "fft_length": 64}),
    "SignalIrfft_int32": ([([66], "int32", None)], [([64], "int32")], {"T": 2, "fft_length": 64}),
    "SignalIrfft_float": (
        [([2, 130], "float32", None)],
        [([2, 128], "float32")],
        {"T": 0, "fft_length": 128},
    ),
    "SignalFramer": (
        [([1, 160], "int16", None)],
        [([1, 1, 400], "int16"), ([], "bool")],
        {"frame_size": 400, "frame_step": 160, "prefill": True},
    ),
    "SignalFramer_rows": (
        [([3, 320], "int16", None)],
        [([3, 2, 400], "int16"), ([], "bool")],
        {"frame_size": 400, "frame_step": 160, "prefill": False},
    ),
    "SignalStacker": (
        [([40], "int16", None)],
        [([120], "int16"), ([], "bool")],
        {
            "num_channels": 40,
            "stacker_left_context": 1,
            "stacker_right_context": 1,
            "stacker_step": 1,
        },
    ),
    "SignalDelay": ([([2, 50], "int16", None)], [([2, 50], "int16")], {"delay_length": 7}),
    "SignalOverlapAdd_int16": (
        [([3, 4, 48], "int16", None)],
        [([3, 64], "int16")],
        {"T": 7, "frame_step": 16},
    ),
    "SignalOverlapAdd_float": (
        [([4, 48], "float32", None)],
        [([64], "float32")],
        {"T": 0, "frame_step": 16},
    ),
}


@pytest.mark.parametrize("name", sorted(SINGLE))
def test_each_signal_operator_alone_equals_the_wheel(name, tmp_path):
    inputs, outputs, options = SINGLE[name]
    data = _single(name.split("_")[0], inputs, outputs, options)
    check_against_wheel(data, tmp_path / f"{name}.tflite")


def test_streaming_front_end_equals_the_wheel(tmp_path):
    ours = check_against_wheel(streaming_front_end(), tmp_path / "stream.tflite")
    names = {op.name for op in ta.Model.from_bytes(streaming_front_end()).operators}
    assert {"SignalFramer", "SignalDelay", "SignalStacker"} <= names
    # SignalDelay's circular buffer holds frame + delay int16 samples twice
    # over (TFLM's signal/src/circular_buffer.cc): ten more samples of
    # delay, 40 more bytes.
    longer = ta.tflm_arena(streaming_front_end(delay=12), **WHEEL)
    assert (
        longer.categories["persistent_buffer_data"].requested
        - ours.categories["persistent_buffer_data"].requested
    ) == 2 * 2 * 10


def test_streaming_front_end_with_other_sizes_equals_the_wheel(tmp_path):
    check_against_wheel(
        streaming_front_end(
            channels=16, fft_length=256, step=128, frame=256, delay=0, left=3, right=0
        ),
        tmp_path / "stream_small.tflite",
    )


@pytest.mark.parametrize("dtype", ["int16", "float32"])
def test_synthesis_path_equals_the_wheel(dtype, tmp_path):
    check_against_wheel(synthesis(dtype), tmp_path / f"synth_{dtype}.tflite")


def test_synthesis_state_grows_with_its_rows():
    """One overlap-add state buffer per outer row: two more rows, two more
    persistent buffers of one frame each."""
    two = ta.tflm_arena(synthesis("float32", rows=2), **WHEEL)
    four = ta.tflm_arena(synthesis("float32", rows=4), **WHEEL)
    grow = {
        k: four.categories["persistent_buffer_data"].__getattribute__(k)
        - two.categories["persistent_buffer_data"].__getattribute__(k)
        for k in ("count", "requested")
    }
    # 2 rows x 64 float32 samples, plus the 2 more pointers in state_buffers.
    assert grow == {"count": 2, "requested": 2 * 64 * 4 + 2 * 8}


def test_cortex_m_figures_are_derived_and_smaller():
    x86 = ta.tflm_arena(preprocessor(), target="x86-64")
    arm = ta.tflm_arena(preprocessor(), target="cortex-m")
    assert arm.head == x86.head  # the plan does not depend on the ABI
    assert arm.tail < x86.tail


@pytest.mark.parametrize(
    "options, message",
    [
        ({}, "option 'num_channels' missing"),
        ({"channels": 40}, "option 'num_channels' missing"),
        ({"num_channels": "forty"}, "option 'num_channels' is not an integer"),
        ({"num_channels": -3}, "num_channels = -3 outside"),
        ({"num_channels": 1 << 40}, "outside"),
        (b"\x00\x01", "not a valid flexbuffer"),
        (b"", "no custom options"),
    ],
)
def test_bad_filter_bank_options_are_clear_errors(options, message):
    inputs, outputs, _ = SINGLE["SignalFilterBank"]
    data = _single("SignalFilterBank", inputs, outputs, options)
    with pytest.raises(ValueError, match=message) as ei:
        ta.tflm_arena(data)
    assert "SignalFilterBank" in str(ei.value) and "operator 0" in str(ei.value)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"T": 7, "fft_length": 63}, "is odd"),
        ({"T": 9, "fft_length": 64}, "not INT16, INT32 or FLOAT32"),
        ({"fft_length": 64}, "option 'T' missing"),
    ],
)
def test_bad_rfft_options_are_clear_errors(options, message):
    inputs, outputs, _ = SINGLE["SignalRfft_int16"]
    with pytest.raises(ValueError, match=message):
        ta.tflm_arena(_single("SignalRfft", inputs, outputs, options))


@pytest.mark.parametrize(
    "name, options, message",
    [
        ("SignalFramer", {}, "option 'frame_size' missing"),
        (
            "SignalFramer",
            {"frame_size": 400, "frame_step": 0, "prefill": True},
            "frame_step = 0 outside",
        ),
        (
            "SignalFramer",
            {"frame_size": 400, "frame_step": 160, "prefill": "yes"},
            "option 'prefill' is not an integer",
        ),
        (
            "SignalFramer",
            {"frame_size": -1, "frame_step": 160, "prefill": True},
            "frame_size = -1 outside",
        ),
        (
            "SignalStacker",
            {"num_channels": 40, "stacker_left_context": 1, "stacker_right_context": 1},
            "option 'stacker_step' missing",
        ),
        (
            "SignalStacker",
            {
                "num_channels": 1 << 20,
                "stacker_left_context": 1 << 10,
                "stacker_right_context": 0,
                "stacker_step": 1,
            },
            r"num_channels \* \(stacker_left_context \+ stacker_right_context \+ 1\) = \d+ outside",
        ),
        ("SignalDelay", {"delay_length": -7}, "delay_length = -7 outside"),
        ("SignalDelay", {"delay": 7}, "option 'delay_length' missing"),
        ("SignalOverlapAdd_int16", {"T": 2, "frame_step": 16}, "T = 2 is not INT16 or FLOAT32"),
        ("SignalOverlapAdd_int16", {"T": 7}, "option 'frame_step' missing"),
        ("SignalIrfft_int16", {"T": 7, "fft_length": 65}, "is odd"),
        ("SignalIrfft_int16", {"T": 9, "fft_length": 64}, "not INT16, INT32 or FLOAT32"),
        (
            "SignalIrfft_int16",
            {"T": 7, "fft_length": 1 << 40},
            "fft_length = 1099511627776 outside",
        ),
        ("SignalIrfft_int16", b"\x07\x01\x02", "not a valid flexbuffer"),
    ],
)
def test_bad_options_of_the_streaming_and_synthesis_operators_are_clear_errors(
    name, options, message
):
    inputs, outputs, _ = SINGLE[name]
    code = name.split("_")[0]
    with pytest.raises(ValueError, match=message) as ei:
        ta.tflm_arena(_single(code, inputs, outputs, options))
    assert code in str(ei.value) and "operator 0" in str(ei.value)


@pytest.mark.parametrize(
    "inputs, outputs, options, reason",
    [
        (
            [([1, 150], "int16", None)],
            [([1, 1, 400], "int16"), ([], "bool")],
            {"frame_size": 400, "frame_step": 160, "prefill": True},
            "innermost_dim >= params->frame_step was not true.",
        ),
        (
            [([1, 200], "int16", None)],
            [([1, 1, 400], "int16"), ([], "bool")],
            {"frame_size": 400, "frame_step": 160, "prefill": True},
            "innermost_dim % params->frame_step != 0 (40 != 0)",
        ),
    ],
    ids=["step_longer_than_input", "step_not_dividing_input"],
)
def test_framer_shapes_tflm_refuses_are_refusals(inputs, outputs, options, reason, tmp_path):
    """Stock TFLM's FramerPrepare refuses these at every arena size: so do
    we, with its check, and the wheel fails even with a megabyte."""
    data = _single("SignalFramer", inputs, outputs, options)
    with pytest.raises(ta.TflmRefusesModelError) as ei:
        ta.tflm_arena(data, **WHEEL)
    assert reason in str(ei.value) and "SignalFramer" in str(ei.value)
    require_tflite_micro()
    path = tmp_path / "refused.tflite"
    path.write_bytes(data)
    assert wheel.wheel_try(path, 1 << 20) is None


def test_overlap_add_of_one_frame_is_refused(tmp_path):
    data = _single(
        "SignalOverlapAdd", [([48], "int16", None)], [([], "int16")], {"T": 7, "frame_step": 16}
    )
    with pytest.raises(
        ta.TflmRefusesModelError, match=r"input_shape.DimensionsCount\(\) >= 2 was not true"
    ):
        ta.tflm_arena(data, **WHEEL)
    require_tflite_micro()
    path = tmp_path / "refused.tflite"
    path.write_bytes(data)
    assert wheel.wheel_try(path, 1 << 20) is None


@pytest.mark.parametrize(
    "code, inputs, outputs, options, message",
    [
        (
            "SignalFramer",
            [([1, 0], "int16", None)],
            [([1, 0, 400], "int16"), ([], "bool")],
            {"frame_size": 400, "frame_step": 160, "prefill": True},
            "zero innermost dimension",
        ),
        ("SignalDelay", [([], "int16", None)], [([], "int16")], {"delay_length": 3}, "scalar"),
        (
            "SignalOverlapAdd",
            [([2, 0, 48], "int16", None)],
            [([2, 0], "int16")],
            {"T": 7, "frame_step": 16},
            "zero innermost dimension",
        ),
        (
            "SignalDelay",
            [([1 << 17, 1], "int16", None)],
            [([1 << 17, 1], "int16")],
            {"delay_length": 3},
            "more than 65536 rows",
        ),
    ],
)
def test_shapes_tflm_would_crash_on_are_clear_errors(code, inputs, outputs, options, message):
    """A zero dimension TFLM's Prepare divides by, or a scalar whose
    innermost dimension it reads, would crash TFLM: a clear error here."""
    with pytest.raises(ValueError, match=message) as ei:
        ta.tflm_arena(_single(code, inputs, outputs, options))
    assert code in str(ei.value)


def test_unknown_custom_operator_is_named():
    data = _single(
        "SignalNotAnOperator", [([40], "int16", None)], [([40], "int16")], {"num_channels": 40}
    )
    # Not one of TFLM's kernels: refused at registration, as TFLM does.
    with pytest.raises(ta.TflmRefusesModelError, match=r"SignalNotAnOperator.*op code CUSTOM"):
        ta.tflm_arena(data)
