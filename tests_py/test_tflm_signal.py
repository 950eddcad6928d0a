"""TFLM's Signal operators (the audio front end of TFLM's micro_speech
example): ``tflm_arena`` models their memory, and the figures equal the
real wheel's, checked live (the minimum works, one byte less fails) on a
front end with the structure of micro_speech's audio preprocessor, built
here with the builder, and on each Signal operator alone."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import tflm_arena as ta
from conftest import require_tflite_micro
from tflm_arena.builder import ModelBuilder

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import tflm_size as wheel  # noqa: E402  (benchmarks/tflm_size.py)

# The wheel's configuration until the "tflite-micro-wheel" target exists.
WHEEL = dict(target="x86-64", recording=True)

SPECTRAL_SUBTRACTION = {
    "alternate_one_minus_smoothing": 15401, "alternate_smoothing": 983, "clamping": False,
    "min_signal_remaining": 819, "num_channels": 40, "one_minus_smoothing": 15975,
    "smoothing": 409, "smoothing_bits": 10, "spectral_subtraction_bits": 14}


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
    ss_stride, ss_end, ss_begin = (c([1], "int32", [1]), c([1], "int32", [end]),
                                   c([1], "int32", [5]))
    pcan_lut = c([125], "int16", np.zeros(125))
    ch = channels + 1
    fb_widths, fb_wstarts, fb_fstarts = (c([ch], "int16", np.ones(ch)),
                                         c([ch], "int16", np.zeros(ch)),
                                         c([ch], "int16", np.zeros(ch)))
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
    div, add1, mini, maxi = (t([channels], "int32"), t([channels], "int32"),
                             t([channels], "int32"), t([channels], "int32"))
    out = t([channels], "int8", "features")
    op = mb.add_operator
    op("CUSTOM", [audio, window], [win], custom_code="SignalWindow",
       custom_options={"shift": 12})
    op("RESHAPE", [win, reshape_shape], [flat])
    op("CUSTOM", [flat], [scaled, scale_bits], custom_code="SignalFftAutoScale",
       custom_options={})
    op("CUSTOM", [scaled], [spectrum], custom_code="SignalRfft",
       custom_options={"T": 7, "fft_length": fft_length})
    op("CUSTOM", [spectrum], [energy], custom_code="SignalEnergy",
       custom_options={"end_index": end, "start_index": 5})
    op("CAST", [energy], [cast], version=3)
    op("STRIDED_SLICE", [cast, ss_begin, ss_end, ss_stride], [sliced])
    op("CONCATENATION", [zeros_lo, sliced, zeros_hi], [concat])
    op("CAST", [concat], [cast1], version=3)
    op("CUSTOM", [cast1, fb_weights, fb_unweights, fb_fstarts, fb_wstarts, fb_widths], [fb],
       custom_code="SignalFilterBank", custom_options={"num_channels": channels})
    op("CUSTOM", [fb, scale_bits], [sqrt], custom_code="SignalFilterBankSquareRoot",
       custom_options={})
    op("CUSTOM", [sqrt], [ss, noise], custom_code="SignalFilterBankSpectralSubtraction",
       custom_options=dict(SPECTRAL_SUBTRACTION, num_channels=channels))
    op("CUSTOM", [ss, noise, pcan_lut], [pcan], custom_code="SignalPCAN",
       custom_options={"snr_shift": 6})
    op("CUSTOM", [pcan], [log], custom_code="SignalFilterBankLog",
       custom_options={"input_correction_bits": 3, "output_scale": 64})
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
    mine = {c.name: {"used": c.used, "requested": c.requested, "count": c.count}
            for c in ours.categories.values() if c.requested or c.used or c.count}
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
    check_against_wheel(preprocessor(channels=32, fft_length=256, frame=240),
                        tmp_path / "pre_small.tflite")


def _single(code, inputs, outputs, options):
    mb = ModelBuilder()
    ins = [mb.add_tensor(s, d, data=v) for s, d, v in inputs]
    outs = [mb.add_tensor(s, d) for s, d in outputs]
    mb.add_operator("CUSTOM", ins, outs, custom_code=code, custom_options=options)
    mb.set_io([i for i, (_, _, v) in zip(ins, inputs) if v is None], outs)
    return mb.build()


SINGLE = {
    "SignalWindow": ([([1, 64], "int16", None), ([64], "int16", np.ones(64))],
                     [([1, 64], "int16")], {"shift": 10}),
    "SignalFftAutoScale": ([([64], "int16", None)], [([64], "int16"), ([], "int32")], {}),
    "SignalRfft_int16": ([([64], "int16", None)], [([66], "int16")],
                         {"T": 7, "fft_length": 64}),
    "SignalRfft_float": ([([128], "float32", None)], [([130], "float32")],
                         {"T": 0, "fft_length": 128}),
    "SignalRfft_int32": ([([32], "int32", None)], [([34], "int32")],
                         {"T": 2, "fft_length": 32}),
    "SignalEnergy": ([([66], "int16", None)], [([33], "uint32")],
                     {"end_index": 30, "start_index": 2}),
    "SignalFilterBank": ([([33], "uint32", None)] + [([16], "int16", np.zeros(16))] * 2
                         + [([9], "int16", np.zeros(9))] * 2 + [([9], "int16", np.ones(9))],
                         [([8], "uint64")], {"num_channels": 8}),
    "SignalFilterBankSquareRoot": ([([8], "uint64", None), ([], "int32", [0])],
                                   [([8], "uint32")], {}),
    "SignalFilterBankSpectralSubtraction": (
        [([24], "uint32", None)], [([24], "uint32"), ([24], "uint32")],
        dict(SPECTRAL_SUBTRACTION, num_channels=24)),
    "SignalPCAN": ([([8], "uint32", None), ([8], "uint32", None),
                    ([125], "int16", np.zeros(125))], [([8], "uint32")], {"snr_shift": 6}),
    "SignalFilterBankLog": ([([8], "uint32", None)], [([8], "int16")],
                            {"input_correction_bits": 3, "output_scale": 64}),
}


@pytest.mark.parametrize("name", sorted(SINGLE))
def test_each_signal_operator_alone_equals_the_wheel(name, tmp_path):
    inputs, outputs, options = SINGLE[name]
    data = _single(name.split("_")[0], inputs, outputs, options)
    check_against_wheel(data, tmp_path / f"{name}.tflite")


def test_cortex_m_figures_are_derived_and_smaller():
    x86 = ta.tflm_arena(preprocessor(), target="x86-64")
    arm = ta.tflm_arena(preprocessor(), target="cortex-m")
    assert arm.head == x86.head  # the plan does not depend on the ABI
    assert arm.tail < x86.tail


@pytest.mark.parametrize("options, message", [
    ({}, "option 'num_channels' missing"),
    ({"channels": 40}, "option 'num_channels' missing"),
    ({"num_channels": "forty"}, "option 'num_channels' is not an integer"),
    ({"num_channels": -3}, "num_channels = -3 outside"),
    ({"num_channels": 1 << 40}, "outside"),
    (b"\x00\x01", "not a valid flexbuffer"),
    (b"", "no custom options"),
])
def test_bad_filter_bank_options_are_clear_errors(options, message):
    inputs, outputs, _ = SINGLE["SignalFilterBank"]
    data = _single("SignalFilterBank", inputs, outputs, options)
    with pytest.raises(ValueError, match=message) as ei:
        ta.tflm_arena(data)
    assert "SignalFilterBank" in str(ei.value) and "operator 0" in str(ei.value)


@pytest.mark.parametrize("options, message", [
    ({"T": 7, "fft_length": 63}, "is odd"),
    ({"T": 9, "fft_length": 64}, "not INT16, INT32 or FLOAT32"),
    ({"fft_length": 64}, "option 'T' missing"),
])
def test_bad_rfft_options_are_clear_errors(options, message):
    inputs, outputs, _ = SINGLE["SignalRfft_int16"]
    with pytest.raises(ValueError, match=message):
        ta.tflm_arena(_single("SignalRfft", inputs, outputs, options))


def test_unmodelled_signal_operator_is_named():
    data = _single("SignalStacker", [([40], "int16", None)],
                   [([120], "int16"), ([], "bool")],
                   {"num_channels": 40, "stacker_left_context": 1,
                    "stacker_right_context": 1, "stacker_step": 1})
    with pytest.raises(NotImplementedError, match="SignalStacker"):
        ta.tflm_arena(data)
