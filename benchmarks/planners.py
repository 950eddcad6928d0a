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

``--minimalloc`` instead runs MiniMalloc's "challenging" benchmark (instances
A..K, capacity 1,048,576; built and run by benchmarks/minimalloc.py) side by
side with our ``optimal`` (alignment 1, ``--time-limit`` seconds): our arena,
proven or not, our time until a plan fit the capacity, MiniMalloc's time and
verdict. ``--scaling`` instead times every strategy on generated interval
sets (about 250 buffers live at a time) of 10,000 / 100,000 / 1,000,000
buffers (``--scaling-max N`` stops earlier); each run is made in a forked
child killed after ``--scaling-timeout`` seconds, and a strategy that took
more than 30 s is not run on the larger sizes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

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


def _minimalloc_binary(args):
    import minimalloc as mm

    args.minimalloc_build = args.minimalloc_build or mm.DEFAULT_BUILD
    args.minimalloc_git = args.minimalloc_git or mm.DEFAULT_GIT
    return mm, mm.build(args.minimalloc_src, args.minimalloc_build, args.minimalloc_git)


def _minimalloc(args, out) -> int:
    """MiniMalloc's challenging instances: our optimal next to MiniMalloc."""
    mm, binary = _minimalloc_binary(args)

    def instance_text(name: str) -> str:
        if args.minimalloc_src is not None:
            return (args.minimalloc_src / "benchmarks" / "challenging" / name).read_text()
        return mm.read_snapshot_file(f"benchmarks/challenging/{name}", args.minimalloc_git)

    instances = []
    for name in mm.CHALLENGING:
        rows = [line.split(",") for line in instance_text(name).strip().splitlines()[1:]]
        lower = np.array([int(r[1]) for r in rows])
        upper = np.array([int(r[2]) for r in rows])
        sizes = np.array([int(r[3]) for r in rows])
        instances.append((name[0], sizes, lower, upper))
    title = f"MiniMalloc challenging instances, capacity {mm.CHALLENGING_CAPACITY:,}"
    return _versus_minimalloc(args, out, mm, binary, title, mm.CHALLENGING_CAPACITY, instances)


def _minimalloc_synthetic(args, out) -> int:
    """Generated hard instances (hard_instances.py, seeds neither program was
    tuned on) at their optimum, 1,048,576 bytes: ours next to MiniMalloc."""
    mm, binary = _minimalloc_binary(args)
    first = args.first_seed
    instances = []
    for inst in hard_instances(args.minimalloc_synthetic, first):
        # Inclusive first..last -> MiniMalloc's half-open [lower, upper).
        instances.append((str(inst["seed"]), inst["sizes"], inst["first"], inst["last"] + 1))
    title = (
        f"hard_instances.py seeds {first}..{first + args.minimalloc_synthetic - 1}, "
        f"capacity = optimum = bound = 1,048,576"
    )
    return _versus_minimalloc(args, out, mm, binary, title, 1_048_576, instances)


def _versus_minimalloc(args, out, mm, binary, title, cap, instances) -> int:
    """Per instance, one after the other in this process: our decision form
    (``capacity=``: time to fit), our minimising run (time to prove), then
    MiniMalloc's CLI at the same capacity and time limit."""
    n = len(instances)
    out.write(
        f"{title}; ours: optimal, alignment 1, time_limit {args.time_limit:g} s, "
        f"capacity={cap} to fit, no capacity to prove; MiniMalloc: --timeout="
        f"{args.time_limit:g}s; times in s, wall, this process\n\n"
    )
    out.write(
        f"{'inst':<6}{'n':>5}{'ours bytes':>12}{'bound':>11}{'fits':>5}{'to fit':>8}"
        f"{'to prove':>9}{'MM fits':>8}{'MM s':>8}  MM status\n"
    )
    fit_ours: list[float] = []
    fit_mm: list[float] = []
    all_ours: list[float] = []
    all_mm: list[float] = []
    faster = 0
    with tempfile.TemporaryDirectory() as d:
        for name, sizes, lower, upper in instances:
            # Half-open [lower, upper) -> inclusive first..last.
            rec = ta.make_records(sizes, lower, upper - 1, None)
            t0 = time.perf_counter()
            p = ta.plan(
                rec, strategy="optimal", alignment=1, time_limit=args.time_limit, capacity=cap
            )
            to_fit = time.perf_counter() - t0 if p.fits else None
            t0 = time.perf_counter()
            q = ta.plan(rec, strategy="optimal", alignment=1, time_limit=args.time_limit)
            to_prove = time.perf_counter() - t0 if q.optimal else None
            if to_fit is not None:
                fit_ours.append(to_fit)
            # A miss counts as the time limit in the medians over all.
            all_ours.append(to_fit if to_fit is not None else args.time_limit)
            path = Path(d) / f"{name}.csv"
            path.write_text(
                "id,lower,upper,size\n"
                + "".join(
                    f"{k},{a},{b},{c}\n"
                    for k, (a, b, c) in enumerate(zip(lower, upper, sizes, strict=True))
                )
            )
            r = mm.run(binary, path, cap, args.time_limit)
            if r.fits:
                fit_mm.append(r.seconds)
                faster += to_fit is not None and to_fit < r.seconds
            all_mm.append(r.seconds if r.fits else max(r.seconds, args.time_limit))
            out.write(
                f"{name:<6}{len(sizes):>5}{p.arena_bytes:>12,}{p.lower_bound:>11,}"
                f"{'yes' if p.fits else 'no':>5}"
                f"{(f'{to_fit:.3f}' if to_fit is not None else '-'):>8}"
                f"{(f'{to_prove:.3f}' if to_prove is not None else '-'):>9}"
                f"{'yes' if r.fits else 'no':>8}{r.seconds:>8.3f}  {r.status}\n"
            )
            out.flush()

    def med(xs):
        return f"{statistics.median(xs):.2f} s" if xs else "-"

    out.write(
        f"\nfitted: ours {len(fit_ours)}/{n}, MiniMalloc {len(fit_mm)}/{n}; ours fitted "
        f"{faster} of MiniMalloc's {len(fit_mm)} in less time than MiniMalloc; median time to "
        f"fit (fitted instances only): ours {med(fit_ours)}, MiniMalloc {med(fit_mm)}; over "
        f"all {n}, a miss counted as the time limit: ours {med(all_ours)}, MiniMalloc "
        f"{med(all_mm)}\n"
    )
    return 0


SCALING_SIZES = (10_000, 100_000, 1_000_000)
SCALING_SKIP_AFTER = 30.0  # seconds: a strategy slower than this skips larger sizes


def scaling_instance(n: int, live: int = 250, seed: int = 1):
    """Deterministic interval set: buffer i starts at step i and lives 1 to
    2 * live - 1 steps (about ``live`` at a time); sizes are random multiples
    of 16 up to 64 KiB."""
    rng = np.random.default_rng(seed)
    first = np.arange(n, dtype=np.int64)
    last = first + rng.integers(0, 2 * live - 1, size=n)
    sizes = 16 * rng.integers(1, 4096 + 1, size=n)
    return ta.make_records(sizes, first, last, None)


def _scaling_child(conn, rec, strategy, time_limit) -> None:
    kw = {"time_limit": time_limit} if strategy == "optimal" else {}
    t0 = time.perf_counter()
    try:
        p = ta.plan(rec, strategy=strategy, **kw)
        conn.send((time.perf_counter() - t0, p.arena_bytes, p.lower_bound, ""))
    except Exception as e:  # the error text is the result
        conn.send((time.perf_counter() - t0, None, None, str(e).splitlines()[0]))


def _scaling(args, strategies, out) -> int:
    sizes = [n for n in SCALING_SIZES if n <= args.scaling_max]
    ctx = multiprocessing.get_context("fork")
    out.write(
        f"scaling: about 250 live at a time, sizes multiples of 16 up to 64 KiB; optimal "
        f"time_limit {args.time_limit:g} s; each run killed after {args.scaling_timeout:g} s; "
        f"a strategy over {SCALING_SKIP_AFTER:g} s skips larger sizes\n"
    )
    slow: set[str] = set()
    for n in sizes:
        rec = scaling_instance(n)
        out.write(f"\n## {n:,} buffers\n{'strategy':<27}{'seconds':>9}{'arena/bound':>13}  note\n")
        out.flush()
        for s in strategies:
            if s in slow:
                note = f"skipped (> {SCALING_SKIP_AFTER:g} s on a smaller set)"
                out.write(f"{s:<27}{'-':>9}{'-':>13}  {note}\n")
                continue
            a, b = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_scaling_child, args=(b, rec, s, args.time_limit))
            t0 = time.perf_counter()
            proc.start()
            b.close()
            if a.poll(args.scaling_timeout):
                try:
                    took, arena, bound, note = a.recv()
                except EOFError:  # the child died without an answer
                    proc.join()
                    took, arena, bound = time.perf_counter() - t0, None, None
                    note = f"child died (exit code {proc.exitcode})"
            else:
                took, arena, bound = time.perf_counter() - t0, None, None
                note = f"killed after {args.scaling_timeout:g} s"
                proc.kill()
            proc.join()
            a.close()
            if took > SCALING_SKIP_AFTER:
                slow.add(s)
            ratio = f"{arena / bound:.4f}" if arena is not None and bound else "-"
            out.write(f"{s:<27}{took:>9.2f}{ratio:>13}  {note}\n")
            out.flush()
    return 0


def main(argv=None, out=None) -> int:
    out = out or sys.stdout
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--instances", type=int, default=10)
    ap.add_argument("--fine", type=int, default=0, help="also N fine-grained hard instances")
    ap.add_argument("--models-dir", type=Path, default=DEFAULT_MODELS)
    ap.add_argument("--strategies", default=",".join(ta.STRATEGIES))
    ap.add_argument("--minimalloc", action="store_true", help="MiniMalloc's challenging set")
    ap.add_argument("--minimalloc-src", type=Path, default=None)
    ap.add_argument("--minimalloc-build", type=Path, default=None)
    ap.add_argument("--minimalloc-git", type=Path, default=None)
    ap.add_argument(
        "--minimalloc-synthetic",
        type=int,
        default=0,
        metavar="N",
        help="N generated hard instances (seeds from --first-seed), ours vs MiniMalloc",
    )
    ap.add_argument("--first-seed", type=int, default=1001)
    ap.add_argument("--scaling", action="store_true", help="10k..1M generated buffers")
    ap.add_argument("--scaling-max", type=int, default=SCALING_SIZES[-1])
    ap.add_argument("--scaling-timeout", type=float, default=120.0)
    args = ap.parse_args(argv)
    strategies = [s for s in args.strategies.split(",") if s]
    for s in strategies:
        if s not in ta.STRATEGIES:
            ap.error(f"unknown strategy {s!r}")
    if args.minimalloc or args.minimalloc_synthetic or args.scaling:
        rc = 0
        if args.minimalloc:
            rc |= _minimalloc(args, out)
        if args.minimalloc_synthetic:
            rc |= _minimalloc_synthetic(args, out)
        if args.scaling:
            rc |= _scaling(args, strategies, out)
        return rc

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
