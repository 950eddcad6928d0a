"""Planner tests: TFLM reference cases, random cross-checks, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from reference_greedy import reference_greedy

import tflm_arena as ta
from tflm_arena.examples import person_detection_records

GREEDY = ("tflm_greedy", "tflm_greedy_runtime")


@pytest.mark.parametrize("strategy", GREEDY)
def test_greedy_basics_gt2(strategy):
    p = ta.plan([10, 20], [0, 2], [1, 3], strategy=strategy)
    assert p.offsets.tolist() == [0, 0]
    assert p.arena_bytes == 20


@pytest.mark.parametrize("strategy", GREEDY)
def test_greedy_medium_gt3(strategy):
    p = ta.plan([10, 20, 30, 40, 50], [0, 1, 2, 3, 0], [1, 2, 3, 4, 1], strategy=strategy)
    assert p.offsets.tolist() == [50, 70, 40, 0, 0]
    assert p.arena_bytes == 90
    assert p.lower_bound == 80  # TFLM's greedy is 12.5 % above optimal here


def test_greedy_medium_ascii_matches_tflm_print():
    p = ta.plan([10, 20, 30, 40, 50], [0, 1, 2, 3, 0], [1, 2, 3, 4, 1])
    lines = p.ascii().splitlines()
    assert lines[0] == "0 (id=0): size=10, offset=50, first_used=0 last_used=1"
    assert lines[4] == "4 (id=4): size=50, offset=0, first_used=0 last_used=1"
    assert lines[5] == "   0: " + "4" * 44 + "0" * 9 + "." * 27 + " (1k)"
    assert lines[6] == "   1: " + "4" * 44 + "0" * 9 + "." * 9 + "1" * 18 + " (1k)"
    assert lines[9] == "   4: " + "3" * 35 + "." * 45 + " (1k)"
    assert len(lines) == 10


@pytest.mark.parametrize("strategy", GREEDY)
def test_person_detection_gt4(strategy):
    p = ta.plan(person_detection_records(), strategy=strategy)
    assert p.offsets.tolist() == [
        55296,
        0,
        2304,
        0,
        2304,
        0,
        4608,
        0,
        4608,
        0,
        4608,
        0,
        4608,
        0,
        4608,
        0,
        4608,
        0,
        9216,
        0,
        9216,
        0,
        18432,
        0,
        18432,
        0,
        36864,
        0,
        36864,
        0,
    ]
    assert p.arena_bytes == 64512 == p.lower_bound
    assert "(63k)" in p.ascii().splitlines()[30 + 2]


def test_overlap_case_gt5_and_ties_gt7():
    assert ta.plan([100, 50, 20], [0, 2, 1], [1, 3, 2]).offsets.tolist() == [0, 0, 100]
    p = ta.plan([16, 16, 16], [0, 0, 0], [1, 1, 1])
    assert p.offsets.tolist() == [32, 16, 0]  # higher index placed first on ties
    assert p.arena_bytes == 48


def test_offline_and_online_gt8():
    p = ta.plan(
        [100, 30, 40, 10], [0, 0, 0, 2], [1, 1, 1, 3], offline_offsets=[50, -1, -1, -1], alignment=1
    )
    assert p.offsets.tolist() == [50, 150, 0, 0]
    assert p.arena_bytes == 180


def test_linear_planner():
    p = ta.plan([10, 20], [0, 1], [1, 2], strategy="linear")
    assert p.offsets.tolist() == [0, 10] and p.arena_bytes == 30
    assert ta.plan(person_detection_records(), strategy="linear").arena_bytes == 241027


def _random_case(rng, n, with_fixed):
    steps = int(rng.integers(1, 12))
    sizes = rng.choice([0, 1, 16, 16, 32, 48, 100, 256, 333], size=n)
    first = rng.integers(-1, steps, size=n)
    last = first + rng.integers(0, 4, size=n)
    fixed = np.full(n, -1)
    if with_fixed:
        # Fixed buffers at disjoint addresses so the case is valid input.
        base = 0
        for i in np.flatnonzero(rng.random(n) < 0.3):
            fixed[i] = base
            base += int(sizes[i]) + int(rng.integers(0, 3)) * 16
    return sizes, first, last, fixed


@pytest.mark.parametrize("with_fixed", [False, True])
def test_greedy_matches_reference_on_random_cases(with_fixed):
    rng = np.random.default_rng(1234 + with_fixed)
    for case in range(1000):
        n = int(rng.integers(0, 25))
        sizes, first, last, fixed = _random_case(rng, n, with_fixed)
        want_offsets, want_arena = reference_greedy(sizes, first, last, fixed)
        for strategy in GREEDY:
            p = ta.plan(sizes, first, last, fixed, strategy=strategy, alignment=1)
            assert p.offsets.tolist() == want_offsets, (case, strategy)
            assert p.arena_bytes == want_arena, (case, strategy)
            assert p.arena_bytes >= p.lower_bound


def _dense_case(rng, n, all_live, with_fixed):
    """Dense overlaps: all n buffers live at steps 2..3, or ~n/3 live at every
    step; sizes tie-heavy, unaligned or large."""
    kind = int(rng.integers(0, 3))
    if kind == 0:
        sizes = rng.integers(0, 5, size=n) * 16
    elif kind == 1:
        sizes = rng.integers(0, 5001, size=n)
    else:
        sizes = rng.integers(0, 1 << 22, size=n)
    if all_live:
        first = rng.integers(0, 3, size=n)
        last = rng.integers(3, 6, size=n)
    else:
        live = max(1, n // 3)
        first = np.arange(n)
        last = first + rng.integers(0, 2 * live - 1, size=n)
    fixed = np.full(n, -1)
    if with_fixed:
        base = 0
        for i in np.flatnonzero(rng.random(n) < 0.1):
            fixed[i] = base
            base += int(sizes[i]) + int(rng.integers(0, 3)) * 16
    return sizes, first, last, fixed


@pytest.mark.parametrize("all_live", [True, False])
@pytest.mark.parametrize("with_fixed", [False, True])
def test_greedy_matches_reference_on_dense_overlaps(all_live, with_fixed):
    rng = np.random.default_rng(99 + 2 * all_live + with_fixed)
    for n in (1, 7, 64, 200, 400):
        sizes, first, last, fixed = _dense_case(rng, n, all_live, with_fixed)
        want_offsets, want_arena = reference_greedy(sizes, first, last, fixed)
        for strategy in GREEDY:
            p = ta.plan(sizes, first, last, fixed, strategy=strategy, alignment=1)
            assert p.offsets.tolist() == want_offsets, (n, strategy)
            assert p.arena_bytes == want_arena, (n, strategy)


def test_every_planner_output_validates_on_larger_inputs():
    rng = np.random.default_rng(7)
    n = 3000
    first = np.sort(rng.integers(0, 1500, size=n))
    last = first + rng.integers(0, 40, size=n)
    sizes = rng.integers(0, 500, size=n) * 16
    for strategy in ta.STRATEGIES:
        if strategy == "mincostflow_objects":
            continue  # refuses > 1000 buffers (O(n^2) graph); tests_py/test_objects.py covers it
        p = ta.plan(sizes, first, last, strategy=strategy)
        p.validate()
        assert p.arena_bytes >= p.lower_bound > 0


def test_plan_validate_catches_overlap():
    p = ta.plan([16, 16], [0, 0], [1, 1])
    with pytest.raises(ValueError, match="overlap"):
        ta.Plan(records=p.records, offsets=np.array([0, 0]), arena_bytes=32, strategy="x")
    with pytest.raises(ValueError):
        ta.Plan(records=p.records, offsets=np.array([0, 16]), arena_bytes=16, strategy="x")


def test_offsets_are_readonly_int64():
    p = ta.plan([16], [0], [0])
    assert p.offsets.dtype == np.int64
    with pytest.raises(ValueError):
        p.offsets[0] = 5


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(sizes=[16, -5], first=[0, 0], last=[1, 1]), "buffer 1"),
        (dict(sizes=[16, 16], first=[0, 3], last=[1, 2]), "buffer 1"),
        (dict(sizes=[16, 16], first=[0, 0], last=[1]), "same length"),
        (dict(sizes=[16], first=[0], last=[1], offline_offsets=[-2]), "buffer 0"),
        (dict(sizes=[16], first=[0], last=[1], offline_offsets=[8]), "buffer 0"),
        (dict(sizes=[16], first=[0], last=[1], strategy="smallest"), "unknown strategy"),
        (dict(sizes=[1.5], first=[0], last=[1]), "integers"),
    ],
)
def test_bad_input_raises_value_error_naming_the_buffer(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ta.plan(**kwargs)


def test_fixed_buffers_with_disjoint_lifetimes_may_share_offsets():
    p = ta.plan([16, 16, 32], [0, 2, 0], [1, 3, 3], offline_offsets=[0, 0, -1])
    assert p.offsets.tolist() == [0, 0, 16]


def test_empty_plan():
    p = ta.plan([], [], [])
    assert p.arena_bytes == 0 and len(p) == 0 and p.lower_bound == 0


def test_fixed_buffers_may_alias_but_planned_ones_never_overlap_them():
    # Two caller-fixed buffers at one offset while both live: a deliberate
    # alias (TFLM accepts it). The planner places the third around both.
    p = ta.plan([16, 16, 32], [0, 1, 0], [1, 2, 2], offline_offsets=[0, 0, -1])
    assert p.offsets.tolist() == [0, 0, 16] and p.arena_bytes == 48
    from tflm_arena import _core
    from tflm_arena._records import columns

    assert [tuple(a) for a in _core.fixed_aliases(*columns(p.records))] == [(0, 1)]
    with pytest.raises(ValueError, match="planner-placed buffer 2 holds"):
        _core.validate_plan(*columns(p.records), np.array([0, 0, 0]), 48)


def test_lower_bound_counts_aliased_fixed_bytes_once_brute_force():
    # At every step: the bytes covered by the live fixed buffers (a byte
    # mask, so overlaps count once) plus the sizes of the other live ones.
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(1, 12))
        size = rng.integers(0, 6, n) * 16
        first = rng.integers(0, 6, n)
        last = first + rng.integers(0, 4, n)
        fixed = np.where(rng.random(n) < 0.6, rng.integers(0, 8, n) * 16, -1)
        want = 0
        for step in range(int(last.max()) + 1):
            live = (first <= step) & (step <= last)
            mask = np.zeros(16 * 8 + 16 * 6, bool)
            for i in np.flatnonzero(live & (fixed >= 0)):
                mask[fixed[i] : fixed[i] + size[i]] = True
            want = max(want, int(mask.sum()) + int(size[live & (fixed < 0)].sum()))
        p = ta.plan(size, first, last, offline_offsets=fixed)
        assert p.lower_bound == want
        assert p.arena_bytes >= p.lower_bound and p.overhead >= 0
        if p.aliases:
            with pytest.raises(ValueError, match="aliases live buffers"):
                p.validate()
        p.validate(allow_aliases=True)
