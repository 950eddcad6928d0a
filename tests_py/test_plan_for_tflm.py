"""Scratch-aware offline plans: the head stock TFLM uses
with our written plan, predicted by simulating its online placement of the
kernel scratch buffers, equals what the real tflite-micro wheel reports, is
never larger than TFLM's own, and outputs stay identical."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref
from conftest import model_params

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder
from tflm_arena.tflm_plan import simulate_tflm

#: Strategies checked against the wheel on every shared model.
STRATEGIES = ["greedy_by_size", "optimal"]


def _wheel_head(data: bytes) -> int:
    return ref.allocations(ref.interpreter(data))["head"]


def _same_outputs(a: bytes, b: bytes, n_inputs: int, n_outputs: int) -> None:
    it_a, it_b = ref.interpreter(a), ref.interpreter(b)
    rng = np.random.default_rng(7)
    for _ in range(3):
        xs = ref.random_inputs(it_a, n_inputs, rng)
        for x, y in zip(ref.run(it_a, xs, n_outputs), ref.run(it_b, xs, n_outputs), strict=True):
            np.testing.assert_array_equal(x, y)


def test_simulation_reproduces_tflms_own_plan_on_random_records():
    # Why TFLM's own tensor offsets, written as a plan, keep its head: with
    # every tensor fixed where TFLM put it, its greedy puts each scratch
    # buffer back in the same place (the tflm_greedy candidate of
    # plan_for_tflm, so an equal head is always available).
    rng = np.random.default_rng(0)
    for _ in range(300):
        n, k, steps = int(rng.integers(2, 30)), int(rng.integers(1, 12)), int(rng.integers(2, 12))
        rec = np.zeros(n + k, dtype=ta.MODEL_RECORD_DTYPE)
        rec["size"] = rng.integers(1, 20, n + k) * 16
        rec["first"][:n] = rng.integers(0, steps, n)
        rec["last"][:n] = rec["first"][:n] + rng.integers(0, 4, n)
        rec["first"][n:] = rec["last"][n:] = rng.integers(0, steps, k)  # one operator each
        rec["fixed_offset"] = -1
        rec["scratch"] = np.r_[np.full(n, -1), np.arange(k)]
        own = ta.plan(rec, strategy="tflm_greedy")
        sim = simulate_tflm(rec, own.offsets)
        assert sim.offsets.tolist() == own.offsets.tolist()
        assert sim.arena_bytes == own.arena_bytes
        # Another plan's tensors stay where written; only scratch moves.
        other = ta.plan(rec, strategy="greedy_by_size")
        moved = simulate_tflm(rec, other.offsets)
        assert moved.offsets[:n].tolist() == other.offsets[:n].tolist()
        assert moved.arena_bytes >= other.lower_bound


def test_scratch_requests_of_keyword_scrambled(models_dir):
    m = ta.Model.load(models_dir / "keyword_scrambled.tflite")
    got = ta.tflm_scratch_requests(m)
    svdf = [i for i, o in enumerate(m.operators) if o.name == "SVDF"]
    assert sorted({op for _, op, _ in got}) == svdf == [1, 3, 5, 7, 9, 10, 11]
    assert got == [(256 if op < 9 else 128, op, 0) for op in svdf for _ in range(2)]
    assert ta.tflm_scratch_requests(m, target="cortex-m") == got
    assert ta.tflm_scratch_requests(models_dir / "vww_96_int8.tflite") == []
    with pytest.raises(ValueError, match="unknown target"):
        ta.tflm_scratch_requests(m, target="riscv")


def test_keyword_scrambled_keeps_672_where_a_tensor_only_plan_gives_800(models_dir):
    m = ta.Model.load(models_dir / "keyword_scrambled.tflite")
    joint = m.usage_records(scratch=ta.tflm_scratch_requests(m))
    # The old way: plan the tensors alone and write them. TFLM then fits the
    # scratch buffers around them, and the simulation predicts it.
    alone = m.plan(strategy="greedy_by_size", scratch=False)
    assert alone.tensors_only
    offsets = np.full(len(joint), -1)
    offsets[: len(alone)] = alone.offsets
    assert simulate_tflm(joint, offsets).arena_bytes == 800
    # with_offline_plan refuses to write it, giving both heads...
    with pytest.raises(
        ValueError,
        match=r"head larger \(x86-64\): 672 -> 800 bytes.*"
        r"plan_for_tflm",
    ):
        m.with_offline_plan(alone, target="x86-64")
    # ... so does the best tensors-only plan (on the default target too) ...
    best = ta.plan(m, strategy="best", scratch=False)
    with pytest.raises(ValueError, match=r"\(cortex-m\): 672 -> 800 bytes"):
        m.with_offline_plan(best)
    # ... and writes it, warning with both numbers, only when asked to.
    with pytest.warns(UserWarning, match=r"672 -> 800 bytes"):
        forced = m.with_offline_plan(alone, target="x86-64", allow_larger_head=True)
    assert _wheel_head(forced.data) == 800
    # The default plan holds TFLM's scratch requests: it is TFLM's 672.
    assert ta.plan(m, strategy="best").arena_bytes == 672

    r = ta.plan_for_tflm(m)  # nothing smaller than 672 exists: no model
    assert r.model is None and not r.improved and r.saving == 0
    assert (r.original_head, r.predicted_head, r.lower_bound) == (672, 672, 672)
    assert "no better plan exists" in r.reason and "lower bound 672" in r.reason
    assert len(r.scratch) == 14 and r.target == ta.DEFAULT_TARGET == "cortex-m"
    assert {c.name: c.head for c in r.candidates}["greedy_by_size tensors only"] == 800

    eq = ta.plan_for_tflm(m, allow_equal=True)
    assert eq.model is not None and eq.predicted_head == 672 and not eq.improved
    assert _wheel_head(eq.model.data) == 672
    _same_outputs(m.data, eq.model.data, len(m.inputs), len(m.outputs))


def test_vww_96_int8_greedy_by_size_saves_9216_bytes_in_tflm(models_dir):
    m = ta.Model.load(models_dir / "vww_96_int8.tflite")
    r = ta.plan_for_tflm(m, strategy="greedy_by_size")
    assert (r.original_head, r.predicted_head) == (73728, 64512)
    assert r.improved and r.saving == 9216 and r.strategy == "greedy_by_size"
    assert r.predicted_min_arena == r.original_min_arena - 9216
    assert _wheel_head(r.model.data) == 64512
    # Planning the planned model again: its plan is replaced, nothing better.
    again = ta.plan_for_tflm(r.model, strategy="greedy_by_size")
    assert (again.original_head, again.predicted_head, again.model) == (64512, 64512, None)
    assert "no better plan exists" in again.reason


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_written_plan_head_in_the_wheel_equals_prediction_and_never_grows(model_path, strategy):
    m = ta.Model.load(model_path)
    original = _wheel_head(m.data)
    strict = ta.plan_for_tflm(m, strategy=strategy)
    assert strict.original_head == original
    assert strict.predicted_head <= original
    # A model only when TFLM's head gets smaller; otherwise it says so.
    assert (strict.model is not None) == (strict.predicted_head < original)
    if strict.model is None:
        assert "no better plan exists" in strict.reason
        assert str(original) in strict.reason
    # The best plan, written even when it only equals TFLM's own head.
    r = ta.plan_for_tflm(m, strategy=strategy, allow_equal=True)
    assert r.model is not None and r.predicted_head == strict.predicted_head
    assert _wheel_head(r.model.data) == r.predicted_head <= original
    # Only tensor offsets are written; the scratch buffers land where predicted.
    is_tensor = r.plan.records["scratch"] < 0
    rec = m.usage_records()
    written = r.model.offline_plan()[rec["global_tensor"]]
    assert written.tolist() == r.plan.offsets[is_tensor].tolist()
    _same_outputs(m.data, r.model.data, len(m.inputs), len(m.outputs))


def _means_model() -> ta.Model:
    """int8 RESHAPE -> MEAN -> FULLY_CONNECTED branches joined by ADD: each
    MEAN asks for three scratch buffers (int32 sums, dims, axis) and TFLM's
    greedy head (272) is above the lower bound (240)."""
    q = dict(scale=0.05, zero_point=0)
    rng = np.random.default_rng(0)
    mb = ModelBuilder()
    x = mb.add_tensor([1, 64], "int8", "x", **q)

    def mean(t, a, b):
        r = mb.add_tensor([1, a, b], "int8", "r", **q)
        mb.add_operator("RESHAPE", [t], [r], options={"new_shape": [1, a, b]})
        ax = mb.add_tensor([1], "int32", "axis", np.array([1], np.int32))
        y = mb.add_tensor([1, b], "int8", "mean", **q)
        mb.add_operator("MEAN", [r, ax], [y])
        return y

    def fc(t, n, m):
        w = mb.add_tensor(
            [m, n], "int8", "w", rng.integers(-3, 4, (m, n)), scale=0.01, zero_point=0
        )
        y = mb.add_tensor([1, m], "int8", "fc", **q)
        mb.add_operator("FULLY_CONNECTED", [t, w, -1], [y])
        return y

    a = fc(mean(x, 4, 16), 16, 64)
    b = fc(mean(x, 4, 16), 16, 64)
    s = mb.add_tensor([1, 64], "int8", "sum", **q)
    mb.add_operator("ADD", [a, b], [s])
    fc(mean(b, 4, 16), 16, 32)  # a dead-end branch, still planned
    y = mean(s, 16, 4)
    mb.set_io([x], [y])
    return ta.Model.from_bytes(mb.build())


def test_scratch_aware_plan_beats_tflm_and_a_tensor_only_plan():
    m = _means_model()
    scratch = ta.tflm_scratch_requests(m)
    assert scratch == [
        (64, 1, 0),
        (12, 1, 0),
        (4, 1, 0),
        (64, 4, 0),
        (12, 4, 0),
        (4, 4, 0),
        (64, 8, 0),
        (12, 8, 0),
        (4, 8, 0),
        (16, 11, 0),
        (12, 11, 0),
        (4, 11, 0),
    ]
    r = ta.plan_for_tflm(m)
    assert (r.original_head, r.predicted_head, r.lower_bound) == (272, 240, 240)
    assert r.improved and r.strategy == "greedy_by_size"
    heads = {c.name: c.head for c in r.candidates}
    assert heads["greedy_by_size joint"] == 240
    assert heads["greedy_by_size tensors only"] == 256  # ignoring scratch costs 16 B
    assert _wheel_head(m.data) == 272
    assert _wheel_head(r.model.data) == 240
    _same_outputs(m.data, r.model.data, 1, 1)
    # Heads do not depend on the target (measured: stock TFLM's head is the
    # same on 32-bit ARM and x86-64 for every shared model; only the tail
    # differs); the scratch neither.
    arm = ta.plan_for_tflm(m, target="cortex-m")
    assert (arm.original_head, arm.predicted_head, arm.scratch) == (272, 240, tuple(scratch))


def test_with_offline_plan_writes_only_the_tensors_of_a_joint_plan(models_dir):
    m = ta.Model.load(models_dir / "trained_lstm_int8.tflite")
    joint = m.usage_records(scratch=ta.tflm_scratch_requests(m))
    assert (joint["scratch"] >= 0).sum() == 4
    p = ta.plan(joint, strategy="greedy_by_size")
    new = m.with_offline_plan(p)  # used to raise "cannot place kernel scratch buffers"
    want = np.full(m.total_tensors, -1)
    n = len(m.usage_records())
    want[joint["global_tensor"][:n]] = p.offsets[:n]
    assert new.offline_plan().tolist() == want.tolist()
    other = ta.Model.load(models_dir / "hello_world_int8.tflite")
    with pytest.raises(ValueError, match="another model"):
        other.with_offline_plan(p)


def test_bad_target_and_strategy_are_named(models_dir):
    m = models_dir / "hello_world_int8.tflite"
    with pytest.raises(ValueError, match="unknown target"):
        ta.plan_for_tflm(m, target="riscv")
    with pytest.raises(ValueError, match="unknown strategy 'nope'"):
        ta.plan_for_tflm(m, strategy="nope")
