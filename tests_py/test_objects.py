"""ta.assign_objects and the GPU-delegate strategies in ta.plan."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import model_params

import tflm_arena as ta

CHAIN = ([16, 8, 64, 32, 8], [0, 1, 2, 3, 4], [1, 2, 3, 4, 5])
COMPLEX = (
    [32, 32, 8, 16, 8, 64, 8, 8, 16],
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [1, 4, 5, 5, 5, 7, 8, 8, 9],
)
# Expected result per strategy for COMPLEX: (object_ids, object_sizes, total)
COMPLEX_EXPECTED = {
    "naive": (list(range(9)), [32, 32, 8, 16, 8, 64, 8, 8, 16], 192),
    "equality": ([0, 1, 2, 3, 4, 5, 4, 2, 3], [32, 32, 8, 16, 8, 64], 160),
    "greedy_in_order": ([0, 1, 0, 2, 3, 1, 3, 2, 0], [32, 64, 16, 8], 120),
    "greedy_by_breadth": ([0, 4, 2, 1, 3, 0, 2, 3, 1], [64, 16, 8, 8, 32], 128),
    "greedy_by_size": ([1, 0, 2, 1, 3, 0, 1, 2, 0], [64, 32, 8, 8], 112),
    "greedy_best": ([1, 0, 2, 1, 3, 0, 1, 2, 0], [64, 32, 8, 8], 112),
    "mincostflow": ([0, 1, 2, 0, 3, 1, 3, 2, 0], [32, 64, 8, 8], 112),
}
GPU_PLAN_STRATEGIES = [s for s in ta.STRATEGIES if s.endswith("_objects")] + [
    "greedy_by_size",
    "greedy_by_breadth",
]


@pytest.mark.parametrize("strategy", sorted(COMPLEX_EXPECTED))
def test_complex_vectors(strategy):
    ids, sizes, total = COMPLEX_EXPECTED[strategy]
    got = ta.assign_objects(*COMPLEX, strategy=strategy)
    assert got.object_ids.tolist() == ids
    assert got.object_sizes.tolist() == sizes
    assert got.total == total
    assert got.lower_bound == 112
    assert got.strategy == strategy and len(got) == 9


def test_chain_and_records_input():
    rec = ta.make_records(*CHAIN)
    got = ta.assign_objects(rec, strategy="mincostflow")
    assert got.object_ids.tolist() == [0, 1, 0, 1, 0]
    assert got.object_sizes.tolist() == [64, 32]
    assert got.total == 96
    assert got.offsets().tolist() == [0, 64, 0, 64, 0]
    assert ta.assign_objects(*CHAIN, strategy="equality").total == 120


def test_plan_strategies_on_vectors():
    p = ta.plan(*COMPLEX, strategy="greedy_by_size")
    assert p.offsets.tolist() == [0, 32, 80, 64, 88, 0, 64, 72, 0]
    assert p.arena_bytes == 96 == p.lower_bound
    p = ta.plan(*COMPLEX, strategy="greedy_in_order_objects")
    assert p.offsets.tolist() == [0, 32, 0, 96, 112, 32, 112, 96, 0]
    assert p.arena_bytes == 120
    assert ta.plan(*COMPLEX, strategy="greedy_by_breadth").arena_bytes == 128


def test_errors():
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        ta.assign_objects(*CHAIN, strategy="best")
    with pytest.raises(ValueError, match="pass both first and last"):
        ta.assign_objects([1, 2], [0, 1])
    fixed = ta.make_records([8, 8], [0, 0], [1, 1], [-1, 16])
    with pytest.raises(ValueError, match="buffer 1: fixed offset 16 is not supported"):
        ta.assign_objects(fixed)
    with pytest.raises(ValueError, match="buffer 1: fixed offset 16 is not supported"):
        ta.plan(fixed, strategy="greedy_by_size")
    with pytest.raises(ValueError, match="mincostflow: 1001 buffers, more than 1000"):
        ta.plan([8] * 1001, [0] * 1001, [0] * 1001, strategy="mincostflow_objects")
    with pytest.raises(ValueError, match="negative"):
        ta.assign_objects([-1], [0], [0])


def _check_assignment(rec, got):
    ids, sizes = got.object_ids, got.object_sizes
    assert got.total == int(sizes.sum())
    assert got.total >= got.lower_bound
    assert np.all(sizes[ids] >= rec["size"])
    for k in range(len(sizes)):
        members = np.flatnonzero(ids == k)
        firsts, lasts = rec["first"][members], rec["last"][members]
        order = np.argsort(firsts)
        assert np.all(firsts[order][1:] > lasts[order][:-1]), f"object {k} members overlap"


def test_random_records_all_strategies():
    rng = np.random.default_rng(7)
    for _ in range(40):
        n = int(rng.integers(1, 60))
        first = rng.integers(-1, 40, n)
        last = first + rng.integers(0, 8, n)
        sizes = rng.integers(0, 5000, n)
        rec = ta.make_records(sizes, first, last)
        for strategy in ta.OBJECT_STRATEGIES:
            _check_assignment(rec, ta.assign_objects(rec, strategy=strategy))
        for strategy in GPU_PLAN_STRATEGIES:
            p = ta.plan(rec, strategy=strategy)
            p.validate()
            assert p.arena_bytes >= p.lower_bound


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_every_strategy_on_shared_models(model_path):
    model = ta.Model.load(model_path)
    rec = model.usage_records()
    has_fixed = bool(np.any(rec["fixed_offset"] >= 0))
    for strategy in ta.OBJECT_STRATEGIES:
        if has_fixed:
            with pytest.raises(ValueError, match="fixed offset"):
                ta.assign_objects(model, strategy=strategy)
            continue
        got = ta.assign_objects(model, strategy=strategy)
        _check_assignment(rec, got)
    greedy = ta.plan(model).arena_bytes
    for strategy in GPU_PLAN_STRATEGIES:
        if has_fixed:
            with pytest.raises(ValueError, match="fixed offset"):
                ta.plan(model, strategy=strategy)
            continue
        p = ta.plan(model, strategy=strategy)
        p.validate()
        assert p.lower_bound <= p.arena_bytes
    if not has_fixed:
        # greedy_best never loses to its two parts
        best = ta.assign_objects(model, strategy="greedy_best").total
        assert best == min(
            ta.assign_objects(model, strategy="greedy_by_size").total,
            ta.assign_objects(model, strategy="greedy_by_breadth").total,
        )
        assert greedy > 0 or best == 0
