"""Every planning strategy side by side: arena vs lower bound, time, proven.

Runs every strategy of ``ta.STRATEGIES`` (``optimal`` with ``--time-limit``,
1 s by default) in this one process on
  * every shared model (``--models-dir``, by default a ``shared/models``
    folder beside the repository): their usage records as TFLM plans them;
  * ``--instances`` generated hard instances (benchmarks/hard_instances.py,
    200-450 buffers, optimum = lower bound = 1,048,576 bytes), and with
    ``--fine N`` also N of the harder fine-grained variant.
Prints, per input set, the gap of each strategy's arena to the lower bound
("*" = proven optimal) and its planning time, plus the median gap per
strategy. A strategy that rejects an input (fixed offsets, size limits) gets
a note in its cell instead.

    python benchmarks/planners.py [--time-limit 1] [--instances 10] [--fine 0]
                                  [--models-dir DIR] [--strategies a,b,...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import tflm_arena as ta

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hard_instances import hard_instances

DEFAULT_MODELS = Path(__file__).resolve().parents[2] / "shared" / "models"

Cell = tuple[float | None, float, bool, str]  # gap, seconds, proven, note


def _run(records, strategy: str, time_limit: float) -> Cell:
    kw = {"time_limit": time_limit} if strategy == "optimal" else {}
    t0 = time.perf_counter()
    try:
        p = ta.plan(records, strategy=strategy, **kw)
    except (ValueError, RuntimeError, MemoryError) as e:
        return None, time.perf_counter() - t0, False, str(e).splitlines()[0]
    took = time.perf_counter() - t0
    gap = p.arena_bytes / p.lower_bound - 1.0 if p.lower_bound else 0.0
    return gap, took, p.optimal, ""


def _short(note: str) -> str:
    n = note.lower()
    if "fixed" in n:
        return "fixed offs"
    if "more than" in n or "limit" in n or "int32" in n or "refus" in n:
        return "too large"
    return "rejected"


def _table(
    title: str, names: list[str], rows: dict[str, dict[str, Cell]], strategies: list[str], out
) -> None:
    width = max(12, max(len(s) for s in strategies) + 1)
    name_w = max(len(n) for n in names + ["median gap"]) + 1
    out.write(f"\n## {title}: arena above the lower bound (* = proven optimal)\n")
    out.write(f"{'input':<{name_w}}" + "".join(f"{s:>{width}}" for s in strategies) + "\n")
    gaps: dict[str, list[float]] = {s: [] for s in strategies}
    for name in names:
        line = f"{name:<{name_w}}"
        for s in strategies:
            gap, _, proven, note = rows[name][s]
            if gap is None:
                cell = _short(note)
            else:
                gaps[s].append(gap)
                cell = f"{100 * gap:+.1f}%" + ("*" if proven else " ")
            line += f"{cell:>{width}}"
        out.write(line + "\n")
    line = f"{'median gap':<{name_w}}"
    for s in strategies:
        cell = f"{100 * statistics.median(gaps[s]):+.1f}% " if gaps[s] else "-"
        line += f"{cell:>{width}}"
    out.write(line + "\n")
    out.write(f"\n## {title}: planning time (ms)\n")
    out.write(f"{'input':<{name_w}}" + "".join(f"{s:>{width}}" for s in strategies) + "\n")
    for name in names:
        line = f"{name:<{name_w}}"
        for s in strategies:
            line += f"{1000 * rows[name][s][1]:>{width}.1f}"
        out.write(line + "\n")


def main(argv=None, out=None) -> int:
    out = out or sys.stdout
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--instances", type=int, default=10)
    ap.add_argument("--fine", type=int, default=0, help="also N fine-grained hard instances")
    ap.add_argument("--models-dir", type=Path, default=DEFAULT_MODELS)
    ap.add_argument("--strategies", default=",".join(ta.STRATEGIES))
    args = ap.parse_args(argv)
    strategies = [s for s in args.strategies.split(",") if s]
    for s in strategies:
        if s not in ta.STRATEGIES:
            ap.error(f"unknown strategy {s!r}")

    sets = []
    models = sorted(args.models_dir.glob("*.tflite")) if args.models_dir.is_dir() else []
    if models:
        sets.append(("shared models", [(p.stem, ta.Model.load(p).usage_records()) for p in models]))
    else:
        out.write(f"note: no models under {args.models_dir}\n")

    def inst_records(inst):
        return ta.make_records(inst["sizes"], inst["first"], inst["last"], None)

    if args.instances:
        sets.append(
            (
                f"hard instances ({args.instances}, optimum = bound = 1,048,576)",
                [
                    (f"hard{i['seed']} n={len(i['sizes'])}", inst_records(i))
                    for i in hard_instances(args.instances)
                ],
            )
        )
    if args.fine:
        sets.append(
            (
                f"fine hard instances ({args.fine}, optimum = bound = 1,048,576)",
                [
                    (f"fine{i['seed']} n={len(i['sizes'])}", inst_records(i))
                    for i in hard_instances(args.fine, fine=True)
                ],
            )
        )

    out.write(
        f"strategies: {', '.join(strategies)}; optimal with time_limit={args.time_limit:g} s\n"
    )
    for title, inputs in sets:
        rows = {
            name: {s: _run(rec, s, args.time_limit) for s in strategies} for name, rec in inputs
        }
        _table(title, [n for n, _ in inputs], rows, strategies, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
