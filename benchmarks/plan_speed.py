"""Planner speed: our TFLM-identical greedy vs the TFLM-style quadratic one.

Both run in this process on the same synthetic inputs, sizes 16 B..64 KiB in
16-byte steps:
  realistic  chain-like lifetimes, ~5 % of buffers skipping 10..200 steps ahead
  all-live   every buffer live at the same two steps (dense overlap)
  live-250   buffer i lives from step i for 0..498 steps: ~250 live at every step
Prints one table; times are the best of a few repeats, and the ratio is what
to quote (absolute times on shared machines are noisy).

    python benchmarks/plan_speed.py [--sizes 1000 10000 100000] [--all-live 200 400]
                                    [--live-250 160000 1000000] [--quadratic-max 30000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena._records import columns


def _sizes(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(1, 4097, size=n) * 16


def realistic_records(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    first = np.arange(n, dtype=np.int64)
    last = first + 1
    skip = rng.random(n) < 0.05
    last[skip] = first[skip] + rng.integers(10, 201, size=int(skip.sum()))
    return ta.make_records(_sizes(rng, n), first, np.minimum(last, n), None)


def all_live_records(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return ta.make_records(_sizes(rng, n), np.zeros(n, np.int64), np.ones(n, np.int64), None)


def live_250_records(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    first = np.arange(n, dtype=np.int64)
    return ta.make_records(_sizes(rng, n), first, first + rng.integers(0, 499, size=n), None)


def best_time(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def repeats_for(n: int) -> int:
    return 50 if n <= 1000 else 5 if n <= 10000 else 3 if n <= 200000 else 1


def row(shape: str, rec: np.ndarray, quadratic_max: int) -> None:
    n = len(rec)
    cols = columns(rec)
    repeats = repeats_for(n)
    fast = ta.plan(rec, strategy="tflm_greedy")  # validated once, untimed
    t_fast = best_time(lambda: _core.plan(*cols, "tflm_greedy"), repeats)
    if n <= quadratic_max:
        slow = ta.plan(rec, strategy="tflm_greedy_runtime")
        t_slow = best_time(
            lambda: _core.plan(*cols, "tflm_greedy_runtime"),
            max(1, repeats // 5) if n > 1000 else repeats,
        )
        same = "yes" if np.array_equal(fast.offsets, slow.offsets) else "NO"
        slow_ms, ratio = f"{t_slow * 1e3:.2f}", f"{t_slow / t_fast:.1f}x"
    else:
        slow_ms, ratio, same = "skipped*", "-", "-"
    print(
        f"{shape:>10} {n:>8} {t_fast * 1e3:>10.2f} {slow_ms:>14} {ratio:>9} "
        f"{fast.arena_bytes:>11} {fast.lower_bound:>12} "
        f"{fast.arena_bytes / fast.lower_bound:>9.3f} {same:>9}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[1000, 10000, 100000],
        help="buffer counts of the realistic rows",
    )
    ap.add_argument(
        "--all-live",
        type=int,
        nargs="*",
        default=[200, 400],
        help="buffer counts of the all-live rows",
    )
    ap.add_argument(
        "--live-250",
        type=int,
        nargs="*",
        default=[160000, 1000000],
        help="buffer counts of the ~250-live rows",
    )
    ap.add_argument(
        "--quadratic-max",
        type=int,
        default=30000,
        help="largest n for the quadratic planner (it needs minutes beyond)",
    )
    args = ap.parse_args()

    print(
        f"{'shape':>10} {'buffers':>8} {'ours ms':>10} {'tflm-style ms':>14} "
        f"{'speed-up':>9} {'arena':>11} {'lower bound':>12} {'arena/LB':>9} {'identical':>9}"
    )
    for n in args.sizes:
        row("realistic", realistic_records(n), args.quadratic_max)
    for n in args.all_live:
        row("all-live", all_live_records(n), args.quadratic_max)
    for n in args.live_250:
        row("live-250", live_250_records(n), args.quadratic_max)
    print(
        "times: planning alone in the C++ core (records in, offsets out), best of "
        "50/5/3/1 repeats by size; each plan was also validated, untimed"
    )
    print(
        f"* skipped: the quadratic planner takes minutes beyond {args.quadratic_max} "
        "buffers (raise --quadratic-max to run it)"
    )


if __name__ == "__main__":
    main()
