"""The arena-only interpreter against the real TFLM (tflite-micro on PyPI):
identical int8 outputs, identical heads, no larger tails, exact arena sizes."""

from __future__ import annotations

import gc

import numpy as np
import pytest
import tflm_reference as ref
from conftest import shared_models

import tflm_arena as ta

# Every shared model runs; without the folder, `loaded` skips
# (fails under CI) through the models_dir fixture.
MODELS = [p.stem for p in shared_models()] or ["hello_world_int8"]


@pytest.fixture(scope="module")
def loaded(models_dir):
    return {name: ta.Model.load(models_dir / f"{name}.tflite") for name in MODELS}


@pytest.mark.parametrize("name", MODELS)
def test_outputs_match_tflm_on_random_inputs(name, loaded):
    m = loaded[name]
    ours = ta.Interpreter(m)
    theirs = ref.interpreter(m.data)
    rng = np.random.default_rng(2024)
    for _ in range(20):
        xs = ref.random_inputs(theirs, len(m.inputs), rng)
        want = ref.run(theirs, xs, len(m.outputs))
        for i, x in enumerate(xs):
            ours.set_input(x, i)
        ours.invoke()
        for o, y in enumerate(want):
            got = ours.get_output(o)
            assert got.dtype == y.dtype and got.shape == y.shape
            if y.dtype.kind == "f":
                np.testing.assert_allclose(got, y, rtol=1e-5, atol=1e-6)
            else:
                np.testing.assert_array_equal(got, y)  # bit for bit


@pytest.mark.parametrize("name", MODELS)
def test_head_equals_tflm_and_tail_is_not_larger(name, loaded):
    m = loaded[name]
    it = ta.Interpreter(m)
    it.allocate_tensors()
    ours = it.allocations()
    theirs = ref.allocations(ref.interpreter(m.data))
    assert ours["head"] == theirs["head"]
    assert ours["tail"] <= theirs["tail"]
    # The runtime plans what the planner plans: tensors plus the scratch
    # buffers the kernels request (the same requests as TFLM's kernels).
    scratch = ta.tflm_scratch_requests(m, "x86-64")
    assert ours["head"] == ta.plan(m.usage_records(scratch=scratch)).arena_bytes


@pytest.mark.parametrize("name", ["hello_world_int8", "person_detect", "ad01_int8"])
def test_exact_arena_size_succeeds_and_one_byte_less_fails(name, loaded):
    m = loaded[name]
    auto = ta.Interpreter(m)
    auto.allocate_tensors()
    need = auto.arena_size
    assert need == auto.allocations()["required_bytes"] == auto.required_arena_size()
    exact = ta.Interpreter(m, arena_size=need)
    exact.allocate_tensors()
    exact.invoke()
    short = ta.Interpreter(m, arena_size=need - 1)
    with pytest.raises(ta.ArenaTooSmallError) as e:
        short.allocate_tensors()
    assert e.value.needed_bytes == need
    assert f"needs {need} bytes" in str(e.value)
    assert isinstance(e.value, MemoryError)


def _sweep(m, sizes, need):
    for size in sizes:
        it = ta.Interpreter(m, arena_size=int(size))
        if size >= need:
            it.allocate_tensors()
            continue
        with pytest.raises(ta.ArenaTooSmallError) as e:
            it.allocate_tensors()
        assert e.value.needed_bytes == need, size
        with pytest.raises(ta.ArenaTooSmallError):  # failure is sticky, never a crash
            it.invoke()


def test_every_arena_size_up_to_the_need_fails_cleanly_small_models(loaded):
    for name in ["hello_world_int8", "hello_world_float", "micro_speech_quantized"]:
        m = loaded[name]
        need = ta.Interpreter(m).required_arena_size()
        _sweep(m, range(0, need + 17), need)


@pytest.mark.parametrize("name", ["person_detect", "kws_ref_model", "ad01_int8"])
def test_dense_sample_of_arena_sizes_large_models(name, loaded):
    m = loaded[name]
    need = ta.Interpreter(m).required_arena_size()
    rng = np.random.default_rng(7)
    sizes = np.unique(
        np.concatenate(
            [
                np.arange(0, need, max(1, need // 300)),
                need - np.arange(1, 64),
                rng.integers(0, need, 100),
                [need, need + 1],
            ]
        )
    )
    _sweep(m, sizes, need)


def test_views_share_the_arena_and_keep_it_alive(loaded):
    m = loaded["hello_world_float"]
    it = ta.Interpreter(m)
    x = it.input(0)
    assert np.shares_memory(x, it.tensor_view(m.inputs[0]))
    x[...] = 1.5
    it.invoke()
    y = it.output(0)
    expected = y.copy()
    del it
    gc.collect()
    np.testing.assert_array_equal(y, expected)  # the view still reads the (alive) arena
    x[...] = 0.0  # and may still be written


def test_set_input_checks_dtype_and_shape(loaded):
    it = ta.Interpreter(loaded["hello_world_int8"])
    with pytest.raises(ValueError, match="int8"):
        it.set_input(np.zeros((1, 1), np.float32))
    with pytest.raises(ValueError, match="shape"):
        it.set_input(np.zeros((1, 2), np.int8))
    d = it.get_input_details(0)
    assert d["dtype"] is np.int8 and d["shape"].tolist() == [1, 1]
    assert d["quantization_parameters"]["zero_points"].tolist() == [-128]


def test_preallocated_input_saves_head_on_a_real_model(loaded):
    m = loaded["vww_96_int8"]
    base = ta.Interpreter(m)
    base.allocate_tensors()
    t = m.inputs[0]
    buf = np.zeros(m.tensors[t].shape, np.int8)
    it = ta.Interpreter(m)
    it.register_preallocated(t, buf)
    it.allocate_tensors()
    saved = base.allocations()["head"] - it.allocations()["head"]
    assert saved == 18432  # the 96x96x2 input was part of the peak
    assert np.shares_memory(it.input(0), buf)
    rng = np.random.default_rng(3)
    x = rng.integers(-128, 128, size=buf.shape).astype(np.int8)
    buf[...] = x
    base.set_input(x)
    it.invoke()
    base.invoke()
    np.testing.assert_array_equal(it.get_output(0), base.get_output(0))
    assert it.arena_size == base.arena_size - saved


def test_preallocation_errors(loaded, models_dir):
    m = loaded["hello_world_int8"]
    weight = next(t.index for t in m.tensors if t.is_constant)
    for index, array, message in [
        (weight, np.zeros(16, np.int8), "constant"),
        (0, np.zeros(0, np.int8), "bytes|small"),
        (999, np.zeros(16, np.int8), "range"),
    ]:
        it = ta.Interpreter(m)
        it.register_preallocated(index, array)
        with pytest.raises(ValueError, match=message):
            it.allocate_tensors()
    raw = np.zeros(64, np.uint8)
    start = (-raw.ctypes.data) % 16 + 1  # deliberately misaligned
    it = ta.Interpreter(m)
    it.register_preallocated(0, raw[start : start + 16])
    with pytest.raises(ValueError, match="align"):
        it.allocate_tensors()
    # An offline-planned tensor cannot be preallocated.
    planned = m.with_offline_plan(m.plan())
    it = ta.Interpreter(planned)
    it.register_preallocated(0, np.zeros(16, np.int8))
    with pytest.raises(ValueError, match="offline"):
        it.allocate_tensors()
    it = ta.Interpreter(m)
    it.allocate_tensors()
    with pytest.raises(RuntimeError, match="before allocate_tensors"):
        it.register_preallocated(0, np.zeros(16, np.int8))


def test_recording_matches_tflm_categories(loaded):
    m = loaded["hello_world_int8"]
    it = ta.Interpreter(m)
    a = it.allocations()
    cats = a["categories"]
    assert cats["TfLiteEvalTensor data"] == {"requested_bytes": 240, "used_bytes": 240, "count": 10}
    assert cats["NodeAndRegistration struct"]["count"] == 3
    assert a["total"] == a["head"] + a["tail"]
    text = it.print_allocations()
    assert text.splitlines()[0] == (
        f"tflm_arena runtime: arena {a['total']} bytes used "
        f"(head {a['head']}, tail {a['tail']}); not stock TFLM's figures"
    )
    assert "  TfLiteEvalTensor data: 240 bytes used (240 requested for 10 allocations)" in text
    assert "RecordingMicroAllocator]" not in text  # our figures, never in TFLM's wording


def test_memory_plan_is_the_planner_output(loaded):
    m = loaded["person_detect"]
    it = ta.Interpreter(m)
    mp = it.memory_plan()
    p = m.plan()
    rec = m.usage_records()
    by_tensor = {int(t): int(o) for t, o in zip(rec["tensor"], p.offsets, strict=True)}
    assert {int(t): int(o) for t, o in zip(mp["tensor"], mp["offset"], strict=True)} == by_tensor
    assert int((mp["offset"] + mp["size"]).max()) == it.allocations()["head"]
    kept = ta.Interpreter(m, keep_plan=True)
    np.testing.assert_array_equal(kept.memory_plan(), mp)


def test_linear_planner_uses_no_reuse(loaded):
    m = loaded["hello_world_int8"]
    it = ta.Interpreter(m, strategy="linear")
    it.allocate_tensors()
    assert it.allocations()["head"] == ta.plan(m, strategy="linear").arena_bytes == 64


def test_missing_kernel_is_named():
    # An operator no kernel runs (keyword_scrambled's SVDF now has one).
    from tflm_arena.builder import ModelBuilder

    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("LSH_PROJECTION", [x], [y])
    mb.set_io([x], [y])
    with pytest.raises(RuntimeError, match="LSH_PROJECTION"):
        ta.Interpreter(ta.Model.from_bytes(mb.build()))


def test_bad_arguments():
    with pytest.raises(ValueError):
        ta.Interpreter(b"not a model")


def test_variable_tensors_live_in_the_tail_and_reset_to_their_zero_point():
    from tflm_arena.builder import ModelBuilder

    mb = ModelBuilder()
    x = mb.add_tensor([1, 8], "int8", "x", scale=[0.1], zero_point=[0])
    v = mb.add_tensor([1, 8], "int8", "state", scale=[0.1], zero_point=[3], is_variable=True)
    y = mb.add_tensor([1, 8], "int8", "y", scale=[0.1], zero_point=[0])
    mb.add_operator("ADD", [x, v], [y])
    mb.set_io([x], [y])
    m = ta.Model.from_bytes(mb.build())
    assert all(int(t) != v for t in m.usage_records()["tensor"])  # not planned in the head
    it = ta.Interpreter(m)
    it.allocate_tensors()
    state = it.tensor_view(v)
    assert state.tolist() == [[3] * 8]  # filled with the zero point, as TFLM does
    state[...] = 50
    it.set_input(np.full((1, 8), 10, np.int8))
    it.invoke()
    assert it.get_output(0).tolist() == [[57] * 8]  # 1.0 + (50 - 3) * 0.1 = 5.7
    it.reset()
    assert state.tolist() == [[3] * 8]
    it.invoke()
    assert it.get_output(0).tolist() == [[10] * 8]
