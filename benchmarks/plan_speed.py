"""Planner speed: our TFLM-identical greedy vs the TFLM-style quadratic one.

Both run in this process on the same synthetic, realistic inputs (chain-like
lifetimes, ~5 % of buffers skipping 10..200 steps ahead, sizes 16 B..64 KiB in
16-byte steps). Prints one table; times are the best of a few repeats, and
the ratio is what to quote (absolute times on shared machines are noisy).

    python benchmarks/plan_speed.py [--sizes 1000 10000 100000] [--quadratic-max 30000]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena._records import columns


def realistic_records(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    first = np.arange(n, dtype=np.int64)
    last = first + 1
    skip = rng.random(n) < 0.05
    last[skip] = first[skip] + rng.integers(10, 201, size=int(skip.sum()))
    sizes = rng.integers(1, 4097, size=n) * 16
    return ta.make_records(sizes, first, np.minimum(last, n), None)


def best_time(fn, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--quadratic-max", type=int, default=30000,
                    help="largest n for the quadratic planner (it needs minutes beyond)")
    args = ap.parse_args()

    print(f"{'buffers':>8} {'ours ms':>9} {'tflm-style ms':>14} {'speed-up':>9} "
          f"{'arena':>11} {'lower bound':>12} {'arena/LB':>9} {'identical':>9}")
    for n in args.sizes:
        rec = realistic_records(n)
        cols = columns(rec)
        repeats = 5 if n <= 10000 else 3
        fast = ta.plan(rec, strategy="tflm_greedy")  # validated once, untimed
        t_fast = best_time(lambda: _core.plan(*cols, "tflm_greedy"), repeats)
        if n <= args.quadratic_max:
            slow = ta.plan(rec, strategy="tflm_greedy_runtime")
            t_slow = best_time(lambda: _core.plan(*cols, "tflm_greedy_runtime"), 1)
            same = "yes" if np.array_equal(fast.offsets, slow.offsets) else "NO"
            slow_ms, ratio = f"{t_slow * 1e3:.1f}", f"{t_slow / t_fast:.0f}x"
        else:
            slow_ms, ratio, same = "skipped", "-", "-"
        print(f"{n:>8} {t_fast * 1e3:>9.2f} {slow_ms:>14} {ratio:>9} "
              f"{fast.arena_bytes:>11} {fast.lower_bound:>12} "
              f"{fast.arena_bytes / fast.lower_bound:>9.3f} {same:>9}")
    print("times: planning alone in the C++ core (records in, offsets out); "
          "each plan was also validated, untimed")


if __name__ == "__main__":
    main()
