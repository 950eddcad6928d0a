"""TFLM's Signal operators (the audio front end of TFLM's micro_speech
example) in our Interpreter: outputs bit-identical with the real TFLM
(tflite_micro wheel), run after run (the spectral subtraction keeps state),
on a whole front end with realistic constants and on each operator alone,
including every FFT radix KISS FFT has (2, 3, 4, 5); what TFLM would crash
on is a clear error here."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref
from conftest import require_tflite_micro
from test_tflm_signal import SPECTRAL_SUBTRACTION  # the micro_speech front end's options

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _audio(details, rng):
    """int16 frames: loud, quiet (FftAutoScale shifts them up) or silent."""
    shape, kind = details["shape"], rng.integers(0, 4)
    if kind == 0:
        return np.zeros(shape, np.int16)
    amp = [32767, 3000, 40][kind - 1]
    x = rng.integers(-amp, amp, size=shape, endpoint=True).astype(np.int16)
    if kind == 1 and x.size >= 2:
        x.flat[:2] = [-32768, 32767]
    return x


def filter_bank_tables(rng, channels: int, first: int, last: int):
    """Mel-style tables over spectrum bins [first, last): channels + 1 bands,
    weights in [0, 4096) and unweights their complement, as TFLM's
    front-end generator lays them out."""
    edges = np.linspace(first, last, channels + 2).astype(int)
    starts, widths = edges[:-1], np.maximum(np.diff(edges), 1)
    wstarts = np.concatenate([[0], np.cumsum(widths)[:-1]])
    n = int(widths.sum())
    weights = rng.integers(0, 4096, size=n)
    return starts, wstarts, widths, weights, 4096 - weights


def front_end(rng, channels=40, fft_length=512, frame=480, clamping=False) -> bytes:
    """micro_speech's audio preprocessor graph (the operators, shapes and
    options of audio_preprocessor_int8.tflite) with realistic constants: a
    Hann window in Q12, mel-style filter-bank tables, a random gain table."""
    bins = fft_length // 2 + 1
    mb = ModelBuilder()

    def c(shape, dtype, data):
        return mb.add_tensor(shape, dtype, data=np.asarray(data))

    def t(shape, dtype, name=""):
        return mb.add_tensor(shape, dtype, name)

    audio = t([1, frame], "int16", "audio")
    hann = np.round(4096 * 0.5 * (1 - np.cos(2 * np.pi * np.arange(frame) / frame)))
    window = c([frame], "int16", hann)
    end = bins - 16
    starts, wstarts, widths, weights, unweights = filter_bank_tables(rng, channels, 5, end)
    ch = channels + 1
    ops = mb.add_operator
    win, flat = t([1, frame], "int16"), t([frame], "int16")
    scaled, shift = t([frame], "int16"), t([], "int32")
    spectrum, energy = t([2 * bins], "int16"), t([bins], "uint32")
    fb, sqrt = t([channels], "uint64"), t([channels], "uint32")
    ss, noise, pcan = t([channels], "uint32"), t([channels], "uint32"), t([channels], "uint32")
    log, cast, out = t([channels], "int16"), t([channels], "int32"), t([channels], "int8", "y")
    custom = dict(custom_code=None)

    def signal(name, inputs, outputs, options):
        custom["custom_code"] = "Signal" + name
        ops("CUSTOM", inputs, outputs, custom_options=options, **custom)

    signal("Window", [audio, window], [win], {"shift": 12})
    ops("RESHAPE", [win, c([1], "int32", [frame])], [flat])
    signal("FftAutoScale", [flat], [scaled, shift], {})
    signal("Rfft", [scaled], [spectrum], {"T": 7, "fft_length": fft_length})
    signal("Energy", [spectrum], [energy], {"end_index": bins, "start_index": 0})
    signal(
        "FilterBank",
        [
            energy,
            c([weights.size], "int16", weights),
            c([weights.size], "int16", unweights),
            c([ch], "int16", starts),
            c([ch], "int16", wstarts),
            c([ch], "int16", widths),
        ],
        [fb],
        {"num_channels": channels},
    )
    signal("FilterBankSquareRoot", [fb, shift], [sqrt], {})
    signal(
        "FilterBankSpectralSubtraction",
        [sqrt],
        [ss, noise],
        dict(SPECTRAL_SUBTRACTION, num_channels=channels, clamping=clamping),
    )
    lut = c([125], "int16", rng.integers(0, 32768, size=125))
    signal("PCAN", [ss, noise, lut], [pcan], {"snr_shift": 6})
    signal("FilterBankLog", [pcan], [log], {"input_correction_bits": 3, "output_scale": 64})
    ops("CAST", [log], [cast], version=3)
    ops("CAST", [cast], [out], version=3)
    mb.set_io([audio], [out, noise, log])
    return mb.build()


@pytest.mark.parametrize("clamping", [False, True])
def test_front_end_is_bit_exact_with_tflm_run_after_run(clamping):
    require_tflite_micro()
    rng = np.random.default_rng(7)
    data = front_end(rng, clamping=clamping)
    ours, _ = ref.compare_runs(data, n_runs=12, seed=3, make_inputs=_audio)
    # The noise estimate is state: after a loud frame it is not zero, and
    # reset() zeroes it as TFLM's Reset does.
    loud = np.random.default_rng(0).integers(-30000, 30000, size=(1, 480)).astype(np.int16)
    ours.set_input(loud)
    ours.invoke()
    assert ours.get_output(1).any()
    ours.reset()
    ours.set_input(np.zeros((1, 480), np.int16))
    ours.invoke()
    assert not ours.get_output(1).any()


def test_front_end_head_equals_tflm_and_tail_is_not_larger():
    """The activations and the FFT's scratch are planned as TFLM plans them;
    the persistent state (twiddles, filter-bank work area, noise estimate)
    is no larger than TFLM's."""
    require_tflite_micro()
    data = front_end(np.random.default_rng(1))
    ours = ta.Interpreter(ta.Model.from_bytes(data))
    ours.allocate_tensors()
    theirs = ref.allocations(ref.interpreter(data))
    assert ours.allocations()["head"] == theirs["head"]
    assert ours.allocations()["tail"] <= theirs["tail"]


def _single(code, inputs, outputs, options) -> bytes:
    mb = ModelBuilder()
    ins = [mb.add_tensor(s, d, data=None if v is None else np.asarray(v)) for s, d, v in inputs]
    outs = [mb.add_tensor(s, d) for s, d in outputs]
    mb.add_operator("CUSTOM", ins, outs, custom_code=code, custom_options=options)
    mb.set_io([i for i, (_, _, v) in zip(ins, inputs, strict=True) if v is None], outs)
    return mb.build()


def _full_range(details, rng):
    dtype = np.dtype(details["dtype"])
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, size=details["shape"], endpoint=True, dtype=dtype)
    if x.size >= 2:
        x.flat[:2] = [info.min, info.max]
    return x


@pytest.mark.parametrize(
    "fft_length",
    # half lengths 4 = 4; 8 = 4*2; 6 = 2*3; 10 = 2*5; 15 = 3*5; 9 = 3*3;
    # 25 = 5*5; 256 = 4^4 (micro_speech); 48 = 4*4*3
    [8, 16, 12, 20, 30, 18, 50, 512, 96],
)
def test_rfft_every_radix_is_bit_exact(fft_length):
    require_tflite_micro()
    row = fft_length - 3  # zero padding too
    data = _single(
        "SignalRfft",
        [([2, row], "int16", None)],
        [([2, fft_length + 2], "int16")],
        {"T": 7, "fft_length": fft_length},
    )
    ref.compare_runs(data, n_runs=4, seed=fft_length, make_inputs=_full_range)
    ref.compare_runs(data, n_runs=4, seed=fft_length, make_inputs=_audio)


def test_rfft_is_a_scaled_dft():
    """Independent of TFLM: kiss divides by the radix at every stage and by 2
    in the real split, so the bins are the DFT divided by fft_length, to
    within the rounding of the stages."""
    n = 64
    data = _single(
        "SignalRfft", [([n], "int16", None)], [([n + 2], "int16")], {"T": 7, "fft_length": n}
    )
    it = ta.Interpreter(ta.Model.from_bytes(data))
    x = (8000 * np.sin(2 * np.pi * 5 * np.arange(n) / n)).astype(np.int16)
    it.set_input(x)
    it.invoke()
    y = it.get_output(0).astype(float)
    got = y[0::2] + 1j * y[1::2]
    want = np.fft.rfft(x.astype(float)) / n
    assert np.max(np.abs(got - want)) < 4
    assert abs(got[5]) > 3900  # the tone's bin: 8000 / 2


ALONE = {
    "SignalWindow": (
        [([2, 64], "int16", None), ([32], "int16", np.arange(-16000, 16000, 1000))],
        [([2, 64], "int16")],
        {"shift": 3},
    ),
    "SignalFftAutoScale": ([([64], "int16", None)], [([64], "int16"), ([], "int32")], {}),
    "SignalEnergy": (
        [([66], "int16", None)],
        [([33], "uint32")],
        {"end_index": 33, "start_index": 0},
    ),
    "SignalFilterBankSquareRoot": (
        [([16], "uint64", None), ([], "int32", [3])],
        [([16], "uint32")],
        {},
    ),
    "SignalFilterBankLog": (
        [([16], "uint32", None)],
        [([16], "int16")],
        {"input_correction_bits": 2, "output_scale": 1600},
    ),
    "SignalPCAN": (
        [
            ([16], "uint32", None),
            ([16], "uint32", None),
            ([125], "int16", np.random.default_rng(5).integers(-32768, 32768, size=125)),
        ],
        [([16], "uint32")],
        {"snr_shift": 9},
    ),
    "SignalFilterBankSpectralSubtraction": (
        [([16], "uint32", None)],
        [([16], "uint32"), ([16], "uint32")],
        dict(SPECTRAL_SUBTRACTION, num_channels=16, clamping=True),
    ),
}


def _filter_bank_alone() -> bytes:
    rng = np.random.default_rng(2)
    starts, wstarts, widths, weights, unweights = filter_bank_tables(rng, 8, 1, 30)
    weights[::5] = -weights[::5]  # negative weights wrap as uint64 in TFLM
    return _single(
        "SignalFilterBank",
        [
            ([33], "uint32", None),
            ([weights.size], "int16", weights),
            ([weights.size], "int16", unweights),
            ([9], "int16", starts),
            ([9], "int16", wstarts),
            ([9], "int16", widths),
        ],
        [([8], "uint64")],
        {"num_channels": 8},
    )


@pytest.mark.parametrize("code", [*ALONE, "SignalFilterBank"])
def test_each_signal_operator_alone_is_bit_exact(code):
    require_tflite_micro()
    data = _filter_bank_alone() if code == "SignalFilterBank" else _single(code, *ALONE[code])
    ref.compare_runs(data, n_runs=6, seed=11, make_inputs=_full_range)


def test_small_values_take_the_short_paths():
    """Square roots and logs of 0, 1, 2 and small numbers (the early returns
    and the table's first segments), and PCAN's shrink below 2^13."""
    require_tflite_micro()
    small = lambda d, rng: rng.integers(0, 9, size=d["shape"]).astype(d["dtype"])  # noqa: E731
    for code in ("SignalFilterBankSquareRoot", "SignalFilterBankLog", "SignalPCAN"):
        ref.compare_runs(_single(code, *ALONE[code]), n_runs=3, seed=1, make_inputs=small)


def _error(code, inputs, outputs, options) -> str:
    it = ta.Interpreter(ta.Model.from_bytes(_single(code, inputs, outputs, options)))
    with pytest.raises(ValueError) as e:
        it.allocate_tensors()
    return str(e.value)


@pytest.mark.parametrize(
    "code, inputs, outputs, options, message",
    [
        # half of 14 is 7: kiss's generic radix, which TFLM's build cannot run
        ("SignalRfft", [([14], "int16", None)], [([16], "int16")], {"T": 7, "fft_length": 14},
         "factor 7"),
        ("SignalRfft", [([15], "int16", None)], [([17], "int16")], {"T": 7, "fft_length": 15},
         "must be even"),
        # a row longer than the FFT: TFLM copies it past its work area
        ("SignalRfft", [([40], "int16", None)], [([34], "int16")], {"T": 7, "fft_length": 32},
         "last dimension is 40"),
        ("SignalRfft", [([32], "int16", None)], [([32], "int16")], {"T": 7, "fft_length": 32},
         "output's last dimension is 32"),
        ("SignalEnergy", [([66], "int16", None)], [([33], "uint32")],
         {"end_index": 40, "start_index": 0}, "end_index is 40"),
        ("SignalPCAN", [([8], "uint32", None), ([8], "uint32", None), ([100], "int16", None)],
         [([8], "uint32")], {"snr_shift": 6}, "gain table's element count is 100"),
        ("SignalWindow", [([1, 60], "int16", None), ([32], "int16", None)], [([1, 60], "int16")],
         {"shift": 3}, "do not divide"),
        ("SignalWindow", [([1, 64], "int16", None), ([32], "int16", None)], [([1, 64], "int16")],
         {"shft": 3}, "option 'shift' missing"),
        ("SignalFilterBankLog", [([8], "uint32", None)], [([8], "int16")],
         {"input_correction_bits": 40, "output_scale": 1}, "input_correction_bits is 40"),
    ],
)  # fmt: skip
def test_what_tflm_would_crash_on_is_a_clear_error(code, inputs, outputs, options, message):
    assert message in _error(code, inputs, outputs, options)


def test_filter_bank_tables_outside_the_spectrum_are_an_error():
    mb_args = (
        "SignalFilterBank",
        [
            ([16], "uint32", None),
            ([8], "int16", np.ones(8)),
            ([8], "int16", np.ones(8)),
            ([3], "int16", [0, 4, 14]),  # 14 + 4 > 16
            ([3], "int16", [0, 2, 4]),
            ([3], "int16", [2, 2, 4]),
        ],
        [([2], "uint64")],
        {"num_channels": 2},
    )
    it = ta.Interpreter(ta.Model.from_bytes(_single(*mb_args)))
    it.allocate_tensors()
    it.set_input(np.ones(16, np.uint32))
    with pytest.raises(ValueError, match=r"channel 2 .* lies outside the spectrum"):
        it.invoke()


def _floats(details, rng):
    return (rng.standard_normal(details["shape"]) * 1000).astype(np.float32)


@pytest.mark.parametrize("dtype, t", [("int32", 2), ("float32", 0)])
@pytest.mark.parametrize("fft_length", [16, 12, 20, 30, 512])
def test_rfft_int32_and_float32_match_tflm(dtype, t, fft_length):
    """KISS FFT in 32-bit fixed point (bit-exact) and in float (within
    1e-5 relative), every radix."""
    require_tflite_micro()
    data = _single(
        "SignalRfft",
        [([3, fft_length - 1], dtype, None)],
        [([3, fft_length + 2], dtype)],
        {"T": t, "fft_length": fft_length},
    )
    make = _full_range if dtype == "int32" else _floats
    ref.compare_runs(data, n_runs=4, seed=fft_length, make_inputs=make)


def test_an_unknown_fft_type_is_refused():
    data = _single(
        "SignalRfft", [([32], "int8", None)], [([34], "int8")], {"T": 9, "fft_length": 32}
    )
    with pytest.raises(ValueError, match="runs INT16, INT32 and FLOAT32 only"):
        ta.Interpreter(ta.Model.from_bytes(data)).allocate_tensors()


def test_runtime_resolver_registers_the_signal_kernels():
    """`tflm-arena resolver --runtime tflm_arena` adds each custom kernel
    with AddCustom, and counts it."""
    data = front_end(np.random.default_rng(0))
    cpp = ta.resolver.runtime_resolver_cpp(ta.Model.from_bytes(data))
    customs = [
        c
        for c in ta.resolver.RUNTIME_CUSTOM_KERNELS
        if c in ta.resolver.resolver_ops(ta.Model.from_bytes(data), custom=True)
    ]
    assert len(customs) == 9
    for code in customs:
        name = ta.resolver.RUNTIME_CUSTOM_KERNELS[code]
        assert f"resolver->AddCustom(tflm_arena::runtime::Register_{name}()));" in cpp
    assert "constexpr std::size_t kAddModelOpsCount = 11;" in cpp  # 2 builtins (RESHAPE, CAST) + 9
