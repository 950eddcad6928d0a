"""Command line: ``tflm-arena`` / ``python -m tflm_arena``.

``main(argv)`` returns the exit code; user errors print one line
``tflm-arena: error: ...`` on stderr and return 1, so it can be called from
tests.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import List, Optional, TextIO

from ._plan import STRATEGIES, Plan
from .examples import demo_model_bytes
from .model import Model
from .tflm_size import PLANNERS, TARGETS, tflm_arena


def _plan_table(p: Plan, out: TextIO) -> None:
    has_tensor = p.records.dtype.names is not None and "tensor" in p.records.dtype.names
    head = f"{'buffer':>6} {'size':>8} {'first':>5} {'last':>5} {'offset':>8}"
    out.write(head + ("  tensor\n" if has_tensor else "\n"))
    for i, (r, off) in enumerate(zip(p.records, p.offsets)):
        line = f"{i:>6} {r['size']:>8} {r['first']:>5} {r['last']:>5} {off:>8}"
        if has_tensor:
            line += f"  {r['subgraph']}:{r['tensor']}" if r["tensor"] >= 0 else "  scratch"
        out.write(line + "\n")
    out.write(
        f"strategy {p.strategy}: arena {p.arena_bytes} bytes, "
        f"lower bound {p.lower_bound} bytes ({100.0 * p.overhead:.1f} % above)\n"
    )


def _plan_json(m: Model, p: Plan) -> dict:
    return {
        "strategy": p.strategy,
        "arena_bytes": int(p.arena_bytes),
        "lower_bound": int(p.lower_bound),
        "optimal": bool(p.optimal),
        "buffers": [
            {"subgraph": int(r["subgraph"]), "tensor": int(r["tensor"]),
             "size": int(r["size"]), "first": int(r["first"]), "last": int(r["last"]),
             "offset": int(off)}
            for r, off in zip(p.records, p.offsets)
        ],
    }


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.from_bytes(demo_model_bytes())
    out.write(f"{m.description}: {len(m.operators)} operators, {len(m.tensors)} tensors\n")
    p = m.plan(args.strategy)
    _plan_table(p, out)
    out.write("\n" + p.ascii())
    return 0


def _cmd_inspect(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.load(args.model)
    out.write(f"{args.model}: {len(m.data)} bytes, schema version {m.version}, "
              f"{len(m.subgraphs)} subgraph(s)\n")
    if m.description:
        out.write(f"description: {m.description}\n")
    for name, data in m.metadata.items():
        out.write(f"metadata {name!r}: {len(data)} bytes\n")
    for a in m.offline_plan_aliases():
        out.write(f"offline plan alias (deliberate, as NPU compilers write them): tensors "
                  f"{a['tensors'][0]} {a['names'][0]!r} and {a['tensors'][1]} {a['names'][1]!r} "
                  f"share bytes [{a['shared_bytes'][0]}, {a['shared_bytes'][1]}) at steps "
                  f"{a['steps'][0]}..{a['steps'][1]}\n")
    rec = m.usage_records()
    live = {(int(r["subgraph"]), int(r["tensor"])): r for r in rec if r["tensor"] >= 0}
    for sg in m.subgraphs:
        out.write(f"\nsubgraph {sg.index} {sg.name!r}: inputs {list(sg.inputs)}, "
                  f"outputs {list(sg.outputs)}\n")
        out.write(f"{'#':>4} {'type':<8} {'shape':<18} {'bytes':>8} {'kind':<9} "
                  f"{'first':>5} {'last':>5}  name\n")
        for t in sg.tensors:
            r = live.get((sg.index, t.index))
            kind = ("const" if t.is_constant else "variable" if t.is_variable
                    else "arena" if r is not None else "unplanned")
            first = f"{r['first']:>5} {r['last']:>5}" if r is not None else f"{'':>5} {'':>5}"
            out.write(f"{t.index:>4} {t.type:<8} {str(list(t.shape)):<18} "
                      f"{t.bytes if t.bytes is not None else '-':>8} {kind:<9} {first}  {t.name}\n")
        out.write(f"{'#':>4} operator\n")
        for o in sg.operators:
            out.write(f"{o.index:>4} {o.name} {list(o.inputs)} -> {list(o.outputs)}\n")
    return 0


def _progress_printer(err: TextIO):
    """progress(best, lower, seconds) for the optimal search: one line on
    stderr about once a second, only once the search has run for a second."""
    last = [0.0]

    def progress(best: int, lower: int, seconds: float) -> None:
        if seconds < 1.0 or seconds - last[0] < 1.0:
            return
        last[0] = seconds
        gap = 100.0 * (best / lower - 1.0) if lower else 0.0
        err.write(f"searching: best {best} bytes, lower bound {lower} ({gap:.1f} % above), "
                  f"{seconds:.1f} s\n")
        err.flush()

    return progress


def _cmd_plan(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.load(args.model)
    if args.strategy == "optimal":
        p = m.plan("optimal", time_limit=args.time_limit,
                   progress=_progress_printer(sys.stderr))
    else:
        p = m.plan(args.strategy)
    if args.json:
        json.dump(_plan_json(m, p), out, indent=1)
        out.write("\n")
        return 0
    _plan_table(p, out)
    if args.strategy == "optimal":
        out.write("proven optimal\n" if p.optimal else
                  f"best found in {args.time_limit:g} s (not proven)\n")
    out.write("note: this is the head (activations + scratch) only; for the whole arena "
              "stock TFLM needs, run `tflm-arena size MODEL`\n")
    if args.ascii:
        out.write("\n" + p.ascii())
    return 0


def _cmd_size(args: argparse.Namespace, out: TextIO) -> int:
    results = []
    for path in args.model:
        r = tflm_arena(path, target=args.target, recording=args.recording,
                       planner=args.planner)
        results.append((path, r))
    if args.json:
        json.dump({str(p): r.as_dict() for p, r in results}, out, indent=1)
        out.write("\n")
        return 0
    for i, (path, r) in enumerate(results):
        if i:
            out.write("\n")
        out.write(f"{path}:\n  {r.firmware_line()}  // exact minimum "
                  f"{r.min_arena_bytes} bytes\n")
        out.write("\n".join("  " + line for line in str(r).splitlines()) + "\n")
    return 0


def _cmd_write_plan(args: argparse.Namespace, out: TextIO) -> int:
    src = Path(args.model)
    dest = Path(args.output)
    if dest.exists() and dest.resolve() == src.resolve() and not args.overwrite:
        raise ValueError(f"refusing to overwrite the source model {src}; pass --overwrite")
    m = Model.load(src)
    p = m.plan(args.strategy)
    try:
        m.with_offline_plan(p).save(dest, overwrite=args.overwrite)
    except FileExistsError:
        raise ValueError(f"{dest} exists; pass --overwrite to replace it") from None
    out.write(f"wrote {dest}: {p.strategy} plan, arena {p.arena_bytes} bytes "
              f"(lower bound {p.lower_bound})\n")
    return 0


def _cmd_optimize(args: argparse.Namespace, out: TextIO) -> int:
    from .optimize import optimize  # imports the reorder and TFLM-plan machinery

    src = Path(args.model)
    dest = Path(args.output)
    if dest.exists() and dest.resolve() == src.resolve():
        raise ValueError(f"refusing to write over the source model {src}; choose another OUTPUT")
    if os.path.lexists(dest) and not args.overwrite:
        raise ValueError(f"{dest} exists; pass --overwrite to replace it")
    m = Model.load(src)
    start = time.monotonic()

    def progress(msg: str) -> None:  # quiet for runs that take under a second
        if not args.quiet and time.monotonic() - start >= 1.0:
            sys.stderr.write(f"tflm-arena optimize: {msg}\n")
            sys.stderr.flush()

    r = optimize(m, reorder=args.reorder, time_limit=args.time_limit, target=args.target,
                 progress=progress,
                 search_progress=None if args.quiet else _progress_printer(sys.stderr))
    r.model.save(dest, overwrite=args.overwrite)
    if args.json:
        json.dump({
            "model": str(src), "output": str(dest), "target": r.target,
            "improved": r.improved, "original_head": r.original_head, "head": r.head,
            "lower_bound": r.original_lower_bound, "reason": r.reason,
            "attempts": [{"strategy": a.strategy, "reordered": a.reordered,
                          "head": a.head if a.model is not None else None,
                          "seconds": round(a.seconds, 4), "proven_optimal": a.optimal,
                          "note": a.note} for a in r.attempts],
        }, out, indent=1)
        out.write("\n")
        return 0
    out.write(r.table() + "\n")
    what = "with the best plan" if r.improved else "unchanged (no plan beats TFLM's own)"
    out.write(f"wrote {dest}: the model {what}; stock TFLM head {r.head} bytes "
              f"(target {r.target})\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tflm-arena", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="build a small model, plan it and draw the plan")
    demo.add_argument("--strategy", choices=STRATEGIES, default="tflm_greedy")
    demo.set_defaults(func=_cmd_demo)
    ins = sub.add_parser("inspect", help="tensors, operators and lifetimes of a model")
    ins.add_argument("model")
    ins.set_defaults(func=_cmd_inspect)
    pl = sub.add_parser("plan", help="plan a model's arena")
    pl.add_argument("model")
    pl.add_argument("--strategy", choices=STRATEGIES, default="tflm_greedy")
    pl.add_argument("--ascii", action="store_true", help="draw the plan like TFLM")
    pl.add_argument("--json", action="store_true", help="machine-readable output")
    pl.add_argument("--time-limit", type=float, default=1.0, metavar="S",
                    help="seconds the optimal strategy may search (default 1)")
    pl.set_defaults(func=_cmd_plan)
    sz = sub.add_parser("size", help="the arena stock TFLM needs (kTensorArenaSize)")
    sz.add_argument("model", nargs="+")
    sz.add_argument("--target", choices=TARGETS, default="cortex-m",
                    help="x86-64 = the tflite-micro wheel's build; cortex-m = 32-bit ARM")
    sz.add_argument("--recording", action="store_true",
                    help="RecordingMicroAllocator (the wheel's default) instead of MicroAllocator")
    sz.add_argument("--planner", choices=PLANNERS, default="greedy")
    sz.add_argument("--json", action="store_true", help="machine-readable output")
    sz.set_defaults(func=_cmd_size)
    wp = sub.add_parser("write-plan", help="write a plan into a copy of the model")
    wp.add_argument("model")
    wp.add_argument("-o", "--output", required=True)
    wp.add_argument("--strategy", choices=STRATEGIES, default="tflm_greedy")
    wp.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    wp.set_defaults(func=_cmd_write_plan)
    op = sub.add_parser(
        "optimize", help="write the plan that makes stock TFLM's head smallest",
        description="Tries every planning strategy (the optimal search for --time-limit "
                    "seconds; with --reorder also on a reordered operator order), judges each "
                    "by the head stock TFLM uses with it (kernel scratch buffers included), "
                    "prints a table and writes the best model to OUTPUT. When nothing beats "
                    "TFLM's own plan, OUTPUT is an unchanged copy of MODEL.")
    op.add_argument("model")
    op.add_argument("-o", "--output", required=True, help="where to write the model")
    op.add_argument("--reorder", action="store_true",
                    help="also try an operator order with a lower peak")
    op.add_argument("--time-limit", type=float, default=1.0, metavar="S",
                    help="seconds for the optimal search (and the reordering search)")
    op.add_argument("--target", choices=TARGETS, default="cortex-m",
                    help="the TFLM build whose head is minimised (scratch sizes differ)")
    op.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    op.add_argument("--json", action="store_true", help="machine-readable output")
    op.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    op.set_defaults(func=_cmd_optimize)
    return ap


def main(argv: Optional[List[str]] = None, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    ap = _parser()
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # argparse already printed the reason
        return int(e.code or 0)
    try:
        return args.func(args, out)
    except (ValueError, OSError, RuntimeError, MemoryError) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        sys.stderr.write(f"tflm-arena: error: {msg}\n")
        return 1


def entry() -> None:
    sys.exit(main())
