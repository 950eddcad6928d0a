"""Is ``time_limit`` honest? The optimal planner's wall time against its limit.

For every limit in ``--limits`` and every input (generated hard instances
that the search does not finish, and generated interval sets of 10,000 and
100,000 buffers, which it cannot search and plans with the heuristics only),
runs ``ta.plan(records, strategy="optimal", time_limit=L)`` in this process
and prints the wall time around the call, its ratio to max(limit, floor)
(below), whether the
plan is valid (``Plan.validate``) and whether it is no larger than
``tflm_greedy``'s plan of the same input (the incumbent ``optimal`` starts
from). The target: every ratio at most 1.10, every plan valid and never
worse than tflm_greedy.

The one exception, by design (docs/reference.md, "Planning strategies"): the
optimal planner always finishes TFLM's greedy first and checks the plan it
returns, so it cannot return sooner than ``time_limit=0`` does ("floor",
measured per input). A run is on time when its wall time is at most 1.10 x
max(limit, floor); the table prints the ratio to that.

    python benchmarks/time_limits.py [--limits 0.05,0.2,1,3] [--hard 4]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hard_instances import hard_instance
from planners import scaling_instance

import tflm_arena as ta


def _inputs(hard: int):
    out = []
    # Seeds whose optimum the search does not reach within seconds.
    for seed in (2, 10, 105, 116)[:hard]:
        inst = hard_instance(seed)
        rec = ta.make_records(inst["sizes"], inst["first"], inst["last"], None)
        out.append((f"hard{seed} n={len(inst['sizes'])}", rec))
    for fine_seed in (1,):
        inst = hard_instance(fine_seed, fine=True)
        rec = ta.make_records(inst["sizes"], inst["first"], inst["last"], None)
        out.append((f"fine{fine_seed} n={len(inst['sizes'])}", rec))
    for n in (10_000, 100_000):
        out.append((f"intervals n={n:,}", scaling_instance(n)))
    return out


def main(argv=None, out=None) -> int:
    out = out or sys.stdout
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limits", default="0.05,0.2,1,3", help="seconds, comma-separated")
    ap.add_argument("--hard", type=int, default=4, help="how many hard instances (<= 4)")
    args = ap.parse_args(argv)
    limits = [float(x) for x in args.limits.split(",") if x]
    out.write(
        f"{'input':<22}{'floor s':>8}{'limit s':>8}{'wall s':>8}{'ratio':>7}"
        f"{'valid':>6}{'<= greedy':>10}  note\n"
    )
    worst = 0.0
    bad = 0
    for name, rec in _inputs(args.hard):
        greedy = ta.plan(rec, strategy="tflm_greedy")
        t0 = time.perf_counter()
        ta.plan(rec, strategy="optimal", time_limit=0)
        floor = time.perf_counter() - t0
        for limit in limits:
            t0 = time.perf_counter()
            p = ta.plan(rec, strategy="optimal", time_limit=limit)
            wall = time.perf_counter() - t0
            try:
                p.validate()
                valid = True
            except ValueError:
                valid = False
            not_worse = p.arena_bytes <= greedy.arena_bytes
            ratio = wall / max(limit, floor)
            worst = max(worst, ratio)
            note = ""
            if floor > limit:
                note = "limit below the floor (TFLM's greedy and the checks)"
            elif p.optimal and wall < limit:
                note = "proven optimal before the limit"
            bad += (not valid) or (not not_worse)
            out.write(
                f"{name:<22}{floor:>8.3f}{limit:>8.2f}{wall:>8.3f}{ratio:>7.2f}"
                f"{'yes' if valid else 'NO':>6}{'yes' if not_worse else 'NO':>10}  {note}\n"
            )
            out.flush()
    out.write(
        f"\nworst wall / max(limit, floor): {worst:.3f} (target <= 1.10); "
        f"invalid or worse than tflm_greedy: {bad}\n"
    )
    return 0 if worst <= 1.10 and bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
