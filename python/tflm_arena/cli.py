"""Command line: ``tflm-arena`` / ``python -m tflm_arena``.

``main(argv)`` returns the exit status instead of exiting, so tests can call
it. Exit status (the same table is the ``--help`` epilog and README's CLI
section):

- 0: success.
- 1: error; one line ``tflm-arena: error: ...`` on stderr (an unreadable or
  invalid model, an OUTPUT that exists, ...).
- 2: usage error; argparse prints the usage and ``tflm-arena: error: ...``
  on stderr (unknown command or option, bad option value).
- 130 (128 + SIGINT): interrupted by Ctrl-C; one line
  ``tflm-arena: interrupted`` on stderr, no traceback.
- 141 (128 + SIGPIPE): standard output was closed early (``| head``); the
  command stops quietly, without a traceback.

A closed standard error loses the message, never the exit status.

``plan --ascii --json`` puts TFLM's picture in the JSON as the string field
``ascii`` rather than dropping it. The ``--help`` text is written for a
terminal (no reStructuredText): this docstring is not used by the parser.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from . import __version__, _core
from ._plan import STRATEGIES, OfflinePlanAliasWarning, Plan, _alias_text
from .examples import demo_model_bytes
from .model import Model, _LargerHeadError
from .tflm_size import DEFAULT_TARGET, PLANNERS, TARGETS, targets, tflm_arena


def _jsonable(v: Any) -> Any:
    """Tuples, numpy scalars and arrays as plain JSON values."""
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


class _Steps:
    """Which operator runs at each planner step, and the live bytes per step,
    as the C++ core computes them (formatted here, never recomputed).

    Steps are TFLM's allocation scopes: step 0 holds the model inputs,
    operator k of subgraph 0 runs at step k + 1, and a control-flow
    operator's called subgraphs take the steps after its own (one extra
    step each for the called subgraph's inputs); see
    ``model/step_operators.h``. Live bytes and the peak (the earliest step
    with the most live bytes) cover the records' first to last step; see
    ``plan/live_bytes.h``."""

    def __init__(self, m: Model, rec: np.ndarray) -> None:
        self.model = m
        self.ops: dict[int, Any] = {}  # step -> Operator
        self.op_steps: dict[tuple[int, int], list[int]] = {}
        for i, (sg, index, calls) in enumerate(_core.step_operators(m._handle).tolist()):
            op = m.subgraphs[sg].operators[index]
            self.ops[i + 1] = op
            if calls < 0:  # the operator's own step, not one before a call
                self.op_steps.setdefault((sg, index), []).append(i + 1)
        live = _core.live_steps(rec["size"], rec["first"], rec["last"])
        lo = live["first_step"]
        self.live: dict[int, int] = {lo + i: b for i, b in enumerate(live["bytes"].tolist())}
        self.count: dict[int, int] = {lo + i: c for i, c in enumerate(live["buffers"].tolist())}
        self.peak: int | None = live["peak"]

    def op_label(self, step: int) -> str:
        op = self.ops.get(step)
        if op is None:
            # Step -1 is TFLM's kUninitializedLifetime (micro_allocation_info.cc):
            # a tensor read but never produced, or never referenced at all,
            # keeps it as its first step and is still planned.
            return (
                "model inputs"
                if step == 0
                else "before the model runs"
                if step < 0
                else "no operator"
            )
        where = f" of subgraph {op.subgraph}" if op.subgraph else ""
        return f"operator {op.index} {op.name}{where}"

    def op_json(self, step: int) -> dict[str, Any] | None:
        op = self.ops.get(step)
        return None if op is None else {"subgraph": op.subgraph, "index": op.index, "name": op.name}

    def peak_line(self) -> str:
        if self.peak is None:
            return "peak: no buffers in the arena\n"
        s = self.peak
        return (
            f"peak: step {s} ({self.op_label(s)}), {self.live[s]} bytes live "
            f"in {self.count[s]} buffers\n"
        )

    def peak_json(self) -> dict[str, Any] | None:
        if self.peak is None:
            return None
        s = self.peak
        return {
            "step": s,
            "live_bytes": self.live[s],
            "buffers": self.count[s],
            "operator": self.op_json(s),
        }


def _buffer_name(m: Model, r: Any) -> str | None:
    if r["tensor"] < 0:
        return None
    return m.subgraphs[int(r["subgraph"])].tensors[int(r["tensor"])].name


def _plan_contents(p: Plan) -> str:
    """What a model's plan holds, in words (never our figure in TFLM's name)."""
    if p.scratch_target is not None:
        n = int(np.count_nonzero(p.records["scratch"] >= 0))
        return (
            f"tensors and the kernel scratch buffers stock TFLM requests on "
            f"{p.scratch_target} ({n if n else 'none for this model'})"
        )
    return "tensors only: stock TFLM's kernel scratch buffers are not included"


def _plan_table(m: Model, p: Plan, steps: _Steps, out: TextIO) -> None:
    out.write(
        f"{'buffer':>6} {'size':>8} {'first':>5} {'last':>5} {'offset':>8} {'fixed':>5}  tensor\n"
    )
    for i, (r, off) in enumerate(zip(p.records, p.offsets, strict=True)):
        fixed = "yes" if r["fixed_offset"] >= 0 else "-"
        if r["tensor"] >= 0:
            who = f"{r['subgraph']}:{r['tensor']} {_buffer_name(m, r)}"
        else:
            who = f"scratch ({steps.op_label(int(r['first']))})"
        out.write(
            f"{i:>6} {r['size']:>8} {r['first']:>5} {r['last']:>5} {off:>8} {fixed:>5}  {who}\n"
        )
    n_fixed = int(np.count_nonzero(p.records["fixed_offset"] >= 0))
    out.write(
        f"fixed (offline-planned) buffers: {n_fixed} of {len(p)}\n"
        if n_fixed
        else "fixed (offline-planned) buffers: none\n"
    )
    out.write(f"\n{'step':>5} {'live':>8} {'buffers':>7}  operator\n")
    for s in sorted(steps.live):
        mark = "  <- peak" if s == steps.peak else ""
        out.write(f"{s:>5} {steps.live[s]:>8} {steps.count[s]:>7}  {steps.op_label(s)}{mark}\n")
    out.write(steps.peak_line())
    for a in p.aliases:
        out.write(f"offline plan alias: {_alias_text(a)}\n")
    if p.aliases:
        out.write(
            "(the live bytes per step add up every buffer, so aliased bytes count "
            "more than once there; the lower bound counts them once)\n"
        )
    out.write(f"contents: {_plan_contents(p)}\n")
    out.write(
        f"strategy {p.strategy}: arena {p.arena_bytes} bytes"
        f"{' (tensors only)' if p.tensors_only else ''}, "
        f"lower bound {p.lower_bound} bytes ({100.0 * p.overhead:.1f} % above)\n"
    )


def _plan_json(m: Model, p: Plan, steps: _Steps, model: str) -> dict[str, Any]:
    return {
        "model": model,
        "strategy": p.strategy,
        "arena_bytes": int(p.arena_bytes),
        "lower_bound": int(p.lower_bound),
        "optimal": bool(p.optimal),
        "scratch_target": p.scratch_target,
        "tensors_only": p.tensors_only,
        "aliases": [{k: _jsonable(v) for k, v in a.items()} for a in p.aliases],
        "peak": steps.peak_json(),
        "fixed_buffers": [int(i) for i in np.flatnonzero(p.records["fixed_offset"] >= 0)],
        "buffers": [
            {
                "subgraph": int(r["subgraph"]),
                "tensor": int(r["tensor"]),
                "name": _buffer_name(m, r),
                "scratch": bool(r["scratch"] >= 0),
                "size": int(r["size"]),
                "first": int(r["first"]),
                "last": int(r["last"]),
                "offset": int(off),
                "fixed": bool(r["fixed_offset"] >= 0),
            }
            for r, off in zip(p.records, p.offsets, strict=True)
        ],
        "steps": [
            {
                "step": s,
                "live_bytes": steps.live[s],
                "buffers": steps.count[s],
                "operator": steps.op_json(s),
            }
            for s in sorted(steps.live)
        ],
    }


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.from_bytes(demo_model_bytes())
    out.write(f"{m.description}: {len(m.operators)} operators, {len(m.tensors)} tensors\n")
    p = m.plan(args.strategy, target=args.target)
    _plan_table(m, p, _Steps(m, p.records), out)
    out.write("\n" + p.ascii())
    return 0


def _tensor_kind(t: Any, r: Any) -> str:
    return (
        "const"
        if t.is_constant
        else "variable"
        if t.is_variable
        else "arena"
        if r is not None
        else "unplanned"
    )


def _cmd_inspect(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.load(args.model)
    rec = m.usage_records()
    steps = _Steps(m, rec)
    live = {(int(r["subgraph"]), int(r["tensor"])): r for r in rec if r["tensor"] >= 0}
    aliases = m.offline_plan_aliases()
    if args.json:
        json.dump(
            _jsonable(
                {
                    "model": str(args.model),
                    "bytes": len(m.data),
                    "schema_version": m.version,
                    "description": m.description,
                    "metadata": {name: len(data) for name, data in m.metadata.items()},
                    "offline_plan_aliases": aliases,
                    "peak": steps.peak_json(),
                    "subgraphs": [
                        {
                            "index": sg.index,
                            "name": sg.name,
                            "inputs": list(sg.inputs),
                            "outputs": list(sg.outputs),
                            "tensors": [
                                {
                                    "index": t.index,
                                    "name": t.name,
                                    "type": t.type,
                                    "shape": list(t.shape),
                                    "bytes": t.bytes,
                                    "kind": _tensor_kind(t, live.get((sg.index, t.index))),
                                    "first": (
                                        int(live[(sg.index, t.index)]["first"])
                                        if (sg.index, t.index) in live
                                        else None
                                    ),
                                    "last": (
                                        int(live[(sg.index, t.index)]["last"])
                                        if (sg.index, t.index) in live
                                        else None
                                    ),
                                }
                                for t in sg.tensors
                            ],
                            "operators": [
                                {
                                    "index": o.index,
                                    "name": o.name,
                                    "steps": steps.op_steps.get((sg.index, o.index), []),
                                    "inputs": list(o.inputs),
                                    "outputs": list(o.outputs),
                                }
                                for o in sg.operators
                            ],
                        }
                        for sg in m.subgraphs
                    ],
                }
            ),
            out,
            indent=1,
        )
        out.write("\n")
        return 0
    out.write(
        f"{args.model}: {len(m.data)} bytes, schema version {m.version}, "
        f"{len(m.subgraphs)} subgraph(s)\n"
    )
    if m.description:
        out.write(f"description: {m.description}\n")
    for name, data in m.metadata.items():
        out.write(f"metadata {name!r}: {len(data)} bytes\n")
    for a in aliases:
        out.write(
            f"offline plan alias (deliberate, as NPU compilers write them): tensors "
            f"{a['tensors'][0]} {a['names'][0]!r} and {a['tensors'][1]} {a['names'][1]!r} "
            f"share bytes [{a['shared_bytes'][0]}, {a['shared_bytes'][1]}) at steps "
            f"{a['steps'][0]}..{a['steps'][1]}\n"
        )
    out.write(steps.peak_line())
    for sg in m.subgraphs:
        out.write(
            f"\nsubgraph {sg.index} {sg.name!r}: inputs {list(sg.inputs)}, "
            f"outputs {list(sg.outputs)}\n"
        )
        out.write(
            f"{'#':>4} {'type':<8} {'shape':<18} {'bytes':>8} {'kind':<9} "
            f"{'first':>5} {'last':>5}  name\n"
        )
        for t in sg.tensors:
            r = live.get((sg.index, t.index))
            first = f"{r['first']:>5} {r['last']:>5}" if r is not None else f"{'':>5} {'':>5}"
            out.write(
                f"{t.index:>4} {t.type:<8} {list(t.shape)!s:<18} "
                f"{t.bytes if t.bytes is not None else '-':>8} {_tensor_kind(t, r):<9} "
                f"{first}  {t.name}\n"
            )
        out.write(f"{'#':>4} {'step':>5} operator\n")
        for o in sg.operators:
            at = ",".join(str(s) for s in steps.op_steps.get((sg.index, o.index), [])) or "-"
            out.write(f"{o.index:>4} {at:>5} {o.name} {list(o.inputs)} -> {list(o.outputs)}\n")
    return 0


def _progress_printer(err: TextIO) -> Callable[[int, int, float], None]:
    """progress(best, lower, seconds) for the optimal search: one line on
    stderr about once a second, only once the search has run for a second."""
    last = [0.0]

    def progress(best: int, lower: int, seconds: float) -> None:
        if seconds < 1.0 or seconds - last[0] < 1.0:
            return
        last[0] = seconds
        gap = 100.0 * (best / lower - 1.0) if lower else 0.0
        err.write(
            f"searching: best {best} bytes, lower bound {lower} ({gap:.1f} % above), "
            f"{seconds:.1f} s\n"
        )
        err.flush()

    return progress


def _plan_model(m: Model, args: argparse.Namespace, **kw: Any) -> Plan:
    """The plan ``plan`` / ``write-plan`` print or write; an offline alias
    is said in the output instead of as a Python warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OfflinePlanAliasWarning)
        return m.plan(args.strategy, target=args.target, scratch=not args.tensors_only, **kw)


def _cmd_plan(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.load(args.model)
    if args.strategy == "optimal":
        p = _plan_model(m, args, time_limit=args.time_limit, progress=_progress_printer(sys.stderr))
    else:
        p = _plan_model(m, args)
    steps = _Steps(m, p.records)
    if args.json:
        data = _plan_json(m, p, steps, str(args.model))
        if args.ascii:  # the picture rides along as one string
            data["ascii"] = p.ascii()
        json.dump(data, out, indent=1)
        out.write("\n")
        return 0
    out.write(f"model: {args.model}\n")
    _plan_table(m, p, steps, out)
    if args.strategy == "optimal":
        only = " (tensors only)" if p.tensors_only else ""
        out.write(
            f"proven optimal{only}\n"
            if p.optimal
            else f"best found in {args.time_limit:g} s (not proven){only}\n"
        )
    if p.tensors_only:
        out.write(
            "note: tensors only (activations without kernel scratch): stock TFLM's "
            "head also holds its kernels' scratch buffers, so it can be larger (drop "
            "--tensors-only to include them); for the whole arena stock TFLM needs, run "
            "`tflm-arena size MODEL`\n"
        )
    else:
        out.write(
            "note: this is the head (activations + scratch) only; for the whole arena "
            "stock TFLM needs, run `tflm-arena size MODEL`\n"
        )
    if args.ascii:
        out.write("\n" + p.ascii())
    return 0


def _cmd_size(args: argparse.Namespace, out: TextIO) -> int:
    """One result or one error line per model; exit status 1 if any failed
    (the good models are still sized and printed)."""
    results: list[tuple[str, Any]] = []
    failed = 0
    if args.planner == "greedy":  # the deprecated name, accepted for one release
        print(
            "tflm-arena: warning: --planner greedy is deprecated; use --planner tflm_greedy",
            file=sys.stderr,
        )
        args.planner = "tflm_greedy"
    for path in args.model:
        try:
            results.append(
                (
                    path,
                    tflm_arena(
                        path, target=args.target, recording=args.recording, planner=args.planner
                    ),
                )
            )
        except (ValueError, OSError, NotImplementedError, RuntimeError, MemoryError) as e:
            failed += 1
            results.append((path, e))
            if not args.json:  # in order with the results, on stderr
                out.flush()
                _say(f"tflm-arena: error: {path}: {_first_line(e)}")
                continue
        if not args.json:
            _write_size(path, results[-1][1], out, first=len(results) == 1)
    if args.json:
        json.dump(
            {
                str(p): (r.as_dict() if not isinstance(r, Exception) else {"error": _first_line(r)})
                for p, r in results
            },
            out,
            indent=1,
        )
        out.write("\n")
    return 1 if failed else 0


def _first_line(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _write_size(path: str, r: Any, out: TextIO, first: bool) -> None:
    if not first:
        out.write("\n")
    out.write(
        f"{path}:\n  {r.firmware_line()}  // stock TFLM, target {r.target}: exact "
        f"minimum {r.min_arena_bytes} bytes\n"
    )
    out.write("\n".join("  " + line for line in str(r).splitlines()) + "\n")


def _cmd_write_plan(args: argparse.Namespace, out: TextIO) -> int:
    src = Path(args.model)
    dest = Path(args.output)
    if dest.exists() and dest.resolve() == src.resolve() and not args.overwrite:
        raise ValueError(f"refusing to overwrite the source model {src}; pass --overwrite")
    m = Model.load(src)
    p = _plan_model(m, args)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            new = m.with_offline_plan(
                p, target=args.target, allow_larger_head=args.allow_larger_head
            )
        except _LargerHeadError as e:
            raise ValueError(
                f"the {p.strategy} plan would make stock TFLM's head larger ({e.target}): "
                f"{e.before} -> {e.after} bytes (TFLM places its kernels' scratch buffers "
                f"around the written tensors); `tflm-arena optimize` writes a plan TFLM keeps, "
                f"--allow-larger-head writes this one anyway"
            ) from None
    try:
        new.save(dest, overwrite=args.overwrite)
    except FileExistsError:
        raise ValueError(f"{dest} exists; pass --overwrite to replace it") from None
    for a in p.aliases:
        out.write(f"offline plan alias kept: {_alias_text(a)}\n")
    for w in said:
        out.write(f"warning: {w.message}\n")
    out.write(
        f"wrote {dest}: {p.strategy} plan, arena {p.arena_bytes} bytes "
        f"(lower bound {p.lower_bound}; {_plan_contents(p)})\n"
    )
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

    r = optimize(
        m,
        reorder=args.reorder,
        time_limit=args.time_limit,
        target=args.target,
        progress=progress,
        search_progress=None if args.quiet else _progress_printer(sys.stderr),
    )
    r.model.save(dest, overwrite=args.overwrite)
    # Stock TFLM's whole arena (not only the head) for the model written and
    # for the original, on the same target: the line for the firmware.
    before = tflm_arena(m, target=r.target)
    after = tflm_arena(r.model, target=r.target) if r.improved else before
    saved = before.min_arena_bytes - after.min_arena_bytes
    if args.json:
        json.dump(
            {
                "model": str(src),
                "output": str(dest),
                "target": r.target,
                "improved": r.improved,
                "original_head": r.original_head,
                "head": r.head,
                "lower_bound": r.original_lower_bound,
                "reason": r.reason,
                "min_arena_bytes": after.min_arena_bytes,
                "original_min_arena_bytes": before.min_arena_bytes,
                "attempts": [
                    {
                        "strategy": a.strategy,
                        "reordered": a.reordered,
                        "head": a.head if a.model is not None else None,
                        "seconds": round(a.seconds, 4),
                        "proven_optimal": a.optimal,
                        "note": a.note,
                    }
                    for a in r.attempts
                ],
            },
            out,
            indent=1,
        )
        out.write("\n")
        return 0
    out.write(r.table() + "\n")
    what = "with the best plan" if r.improved else "unchanged (no plan beats TFLM's own)"
    alloc = "RecordingMicroAllocator" if after.recording else "MicroAllocator"
    out.write(
        f"wrote {dest}: the model {what}; stock TFLM head {r.head:,} bytes (target {r.target})\n"
    )
    out.write(
        f"{dest}:\n  {after.firmware_line()}  // stock TFLM, {r.target}, {alloc}: "
        f"exact minimum {after.min_arena_bytes:,} bytes\n"
    )
    if r.improved:
        out.write(
            f"  {saved:,} bytes ({100.0 * saved / before.min_arena_bytes:.1f} %) less "
            f"than the original model needs ({before.min_arena_bytes:,} bytes, "
            f"{before.firmware_line()})\n"
        )
    else:
        out.write(
            "  the same as the original model needs (TFLM's own plan is already "
            "the smallest found)\n"
        )
    return 0


def _cmd_report(args: argparse.Namespace, out: TextIO) -> int:
    from .report import write_report  # needs matplotlib; the other commands do not

    src = Path(args.model)
    dest = Path(args.output)
    if dest.exists() and dest.resolve() == src.resolve():
        raise ValueError(f"refusing to write over the source model {src}; choose another OUTPUT")
    if os.path.lexists(dest) and not args.overwrite:
        raise ValueError(f"{dest} exists; pass --overwrite to replace it")
    m = Model.load(src)
    try:
        write_report(
            m,
            dest,
            overwrite=args.overwrite,
            strategies=args.strategy,
            targets=args.target,
            time_limit=args.time_limit,
        )
    except FileExistsError:  # appeared while the report was made
        raise ValueError(f"{dest} exists; pass --overwrite to replace it") from None
    except ImportError as e:  # matplotlib missing: an error, not a traceback
        raise RuntimeError(str(e)) from None
    out.write(f"wrote {dest}: report on {src} ({dest.stat().st_size} bytes of HTML)\n")
    return 0


def _cmd_resolver(args: argparse.Namespace, out: TextIO) -> int:
    from . import resolver as rs

    models = [Model.load(p) for p in args.model]  # each file read once
    gen = rs.tflm_resolver_cpp if args.runtime == "tflm" else rs.runtime_resolver_cpp
    text = gen(*models, name=args.name)  # ValueError names unsupported operators
    ops = rs.resolver_ops(*models)
    custom = rs.resolver_ops(*models, custom=True)  # only TFLM gets this far with any
    if args.output is not None:
        dest = Path(args.output)
        if os.path.lexists(dest) and not args.overwrite:
            raise ValueError(f"{dest} exists; pass --overwrite to replace it")
        dest.write_text(text)
    if args.json:
        calls = (
            [rs.TFLM_METHODS[op] for op in ops]
            if args.runtime == "tflm"
            else [f"Register_{op}" for op in ops]
        )
        calls += [rs.TFLM_CUSTOM_METHODS.get(c, "AddCustom") for c in custom]
        json.dump(
            {
                "models": [str(p) for p in args.model],
                "runtime": args.runtime,
                "name": args.name,
                "operators": ops,
                "custom_operators": custom,
                "calls": calls,
                "output": args.output,
                "cpp": text if args.output is None else None,
            },
            out,
            indent=1,
        )
        out.write("\n")
    elif args.output is not None:
        out.write(
            f"wrote {args.output}: {args.name}() registers "
            f"{len(ops) + len(custom)} operators ({args.runtime})\n"
        )
    else:
        out.write(text)
    return 0


def _seconds(text: str) -> float:
    """argparse type: a finite number of seconds >= 0 (else a usage error)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (v >= 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"seconds must be finite and >= 0, got {text!r}")
    return v


_DESCRIPTION = """\
Plan, inspect and size the tensor arena of TensorFlow Lite Micro models
(.tflite files)."""

_EPILOG = """\
exit status:
  0    success
  1    error: one line "tflm-arena: error: ..." on stderr (for example an
       unreadable or invalid model, or an OUTPUT that exists)
  2    usage error: argparse prints the usage and "tflm-arena: error: ..."
       on stderr (unknown command or option, bad option value)
  130  interrupted (Ctrl-C): "tflm-arena: interrupted" on stderr
  141  standard output was closed early (for example piped into head):
       the command stops quietly, as a program killed by SIGPIPE does
Run "tflm-arena COMMAND --help" for a command's options."""


def _targets_help() -> str:
    return (
        "the stock TFLM build, one of: "
        + "; ".join(f"{name} = {text}" for name, text in targets().items())
        + f" (default {DEFAULT_TARGET})"
    )


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="tflm-arena",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help="print the version and exit",
    )
    sub = ap.add_subparsers(
        dest="command",
        required=True,
        metavar="COMMAND",
        title="commands",
        help="what to do (one of these)",
    )

    def command(name: str, summary: str, **kw: Any) -> argparse.ArgumentParser:
        kw.setdefault("description", summary[0].upper() + summary[1:] + ".")
        return sub.add_parser(
            name,
            help=summary,
            epilog='Exit status: 0 success, 1 error, 2 usage error (see "tflm-arena --help").',
            **kw,
        )

    strategy_help = (
        "planning strategy, one of: "
        + ", ".join(STRATEGIES)
        + " (default tflm_greedy: TFLM's own GreedyMemoryPlanner)"
    )
    model_help = "the .tflite model file"
    target_help = (
        "the stock TFLM build whose kernel scratch buffers the plan includes: "
        + ", ".join(TARGETS)
        + f" (default {DEFAULT_TARGET})"
    )
    tensors_only_help = (
        "plan the tensors alone, without stock TFLM's kernel scratch buffers "
        "(needed for models with operators whose TFLM memory use is not "
        'modelled; the plan then says "tensors only")'
    )
    demo = command("demo", "build a small model, plan it and draw the plan")
    demo.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="tflm_greedy",
        metavar="STRATEGY",
        help=strategy_help,
    )
    demo.add_argument("--target", choices=TARGETS, default=DEFAULT_TARGET, help=target_help)
    demo.set_defaults(func=_cmd_demo)
    ins = command("inspect", "tensors, operators, lifetimes and peak step of a model")
    ins.add_argument("model", help=model_help)
    ins.add_argument("--json", action="store_true", help="machine-readable output")
    ins.set_defaults(func=_cmd_inspect)
    pl = command(
        "plan",
        "plan a model's arena: offsets, tensor names, fixed buffers, "
        "live bytes per step and the peak step",
    )
    pl.add_argument("model", help=model_help)
    pl.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="tflm_greedy",
        metavar="STRATEGY",
        help=strategy_help,
    )
    pl.add_argument(
        "--ascii",
        action="store_true",
        help="draw the plan like TFLM's PrintMemoryPlan (with --json: the "
        'picture is the string field "ascii")',
    )
    pl.add_argument("--json", action="store_true", help="machine-readable output")
    pl.add_argument(
        "--time-limit",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="seconds the optimal strategy may search (default 1)",
    )
    pl.add_argument("--target", choices=TARGETS, default=DEFAULT_TARGET, help=target_help)
    pl.add_argument("--tensors-only", action="store_true", help=tensors_only_help)
    pl.set_defaults(func=_cmd_plan)
    sz = command("size", "the arena stock TFLM needs (kTensorArenaSize)")
    sz.add_argument("model", nargs="+", help="one or more .tflite model files")
    sz.add_argument("--target", choices=TARGETS, default=DEFAULT_TARGET, help=_targets_help())
    sz.add_argument(
        "--recording",
        action="store_const",
        const=True,
        default=None,
        help="size for a RecordingMicroAllocator in the target build (the "
        "tflite-micro-wheel target always has one with the greedy planner)",
    )
    sz.add_argument(
        "--planner",
        choices=PLANNERS + ("greedy",),
        default=PLANNERS[0],
        metavar="{" + ",".join(PLANNERS) + "}",
        help=f"the memory planner stock TFLM is built with (default {PLANNERS[0]}; "
        "greedy is a deprecated name of tflm_greedy)",
    )
    sz.add_argument("--json", action="store_true", help="machine-readable output")
    sz.set_defaults(func=_cmd_size)
    wp = command("write-plan", "write a plan into a copy of the model")
    wp.add_argument("model", help=model_help)
    wp.add_argument(
        "-o",
        "--output",
        required=True,
        help="where to write the model with the plan (OfflineMemoryAllocation metadata)",
    )
    wp.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="tflm_greedy",
        metavar="STRATEGY",
        help=strategy_help,
    )
    wp.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    wp.add_argument(
        "--target",
        choices=TARGETS,
        default=DEFAULT_TARGET,
        help=target_help + "; stock TFLM's head on it must not grow",
    )
    wp.add_argument("--tensors-only", action="store_true", help=tensors_only_help)
    wp.add_argument(
        "--allow-larger-head",
        action="store_true",
        help="write the plan even when stock TFLM's head gets larger with it "
        "(it places its kernels' scratch buffers around the written tensors; "
        "`tflm-arena optimize` writes plans that it keeps)",
    )
    wp.set_defaults(func=_cmd_write_plan)
    op = command(
        "optimize",
        "write the plan that makes stock TFLM's head smallest",
        description="Tries every planning strategy (the optimal search for --time-limit "
        "seconds; with --reorder also on a reordered operator order), judges each "
        "by the head stock TFLM uses with it (kernel scratch buffers included), "
        "prints a table and writes the best model to OUTPUT. When nothing beats "
        "TFLM's own plan, OUTPUT is an unchanged copy of MODEL.",
    )
    op.add_argument("model", help=model_help)
    op.add_argument("-o", "--output", required=True, help="where to write the model")
    op.add_argument(
        "--reorder", action="store_true", help="also try an operator order with a lower peak"
    )
    op.add_argument(
        "--time-limit",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="seconds for the optimal search (and the reordering search)",
    )
    op.add_argument(
        "--target",
        choices=TARGETS,
        default=DEFAULT_TARGET,
        help="the stock TFLM build whose head is minimised (scratch sizes "
        "differ); " + _targets_help(),
    )
    op.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    op.add_argument("--json", action="store_true", help="machine-readable output")
    op.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    op.set_defaults(func=_cmd_optimize)
    rp = command(
        "report",
        "write one self-contained HTML page about a model's arena",
        description="Writes one HTML page (no external files or URLs) with the plan plot "
        "(TFLM greedy vs the smallest plan found), live bytes per step, the "
        "tensors, operators, every strategy's arena, stock TFLM's arena size per "
        "target and the recording allocator's categories. Needs matplotlib.",
    )
    rp.add_argument("model", help=model_help)
    rp.add_argument("-o", "--output", required=True, help="where to write the HTML page")
    rp.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    rp.add_argument(
        "--strategy",
        action="append",
        choices=STRATEGIES,
        metavar="STRATEGY",
        help="a strategy to compare (repeat for several; default all of: "
        + ", ".join(STRATEGIES)
        + ")",
    )
    rp.add_argument(
        "--target",
        action="append",
        choices=TARGETS,
        help="a stock TFLM build to size (repeat for several; default all)",
    )
    rp.add_argument(
        "--time-limit",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="seconds the optimal and best strategies may search (default 1)",
    )
    rp.set_defaults(func=_cmd_report)

    rv = command(
        "resolver",
        "print C++ that registers exactly the operators the models use",
        description="Prints a C++ header defining a function that adds to an op resolver "
        "one kernel per distinct operator the models use (all subgraphs): TFLM's "
        "MicroMutableOpResolver<N> with its Add* methods (--runtime tflm), or "
        "tflm_arena's MutableOpResolver<N> with AddBuiltin(Register_X()) "
        "(--runtime tflm_arena). Fails naming every operator the chosen runtime "
        "has no kernel for.",
    )
    rv.add_argument("model", nargs="+", help="one or more .tflite model files")
    rv.add_argument(
        "--runtime",
        choices=("tflm", "tflm_arena"),
        default="tflm",
        help="whose resolver: tflm = stock TFLM (default), tflm_arena = ours",
    )
    rv.add_argument(
        "--name",
        default="AddModelOps",
        help="name of the generated C++ function (default AddModelOps); its "
        "operator count is k<Name>Count",
    )
    rv.add_argument(
        "-o", "--output", help="write the header to this file instead of standard output"
    )
    rv.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    rv.add_argument(
        "--json",
        action="store_true",
        help="machine-readable output: the operators, the calls and the C++",
    )
    rv.set_defaults(func=_cmd_resolver)
    return ap


#: Exit status when standard output is closed early (128 + SIGPIPE).
EXIT_CLOSED_PIPE = 141


def _closed_pipe(out: TextIO) -> int:
    """Stdout's reader went away (``| head``): point stdout at /dev/null so the
    interpreter's final flush cannot fail again, and exit quietly."""
    if out is sys.stdout:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # no real file descriptor behind stdout
            pass
    return EXIT_CLOSED_PIPE


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    ap = _parser()
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # argparse already printed the reason (or --help, --version)
        return int(e.code or 0)
    try:
        code: int = args.func(args, out)
        out.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except BrokenPipeError:
        return _closed_pipe(out)
    except KeyboardInterrupt:  # Ctrl-C (e.g. during a long optimal search)
        _say("tflm-arena: interrupted")
        return 130
    except (ValueError, OSError, RuntimeError, MemoryError) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        _say(f"tflm-arena: error: {msg}")
        return 1


def _say(line: str) -> None:
    """One line on stderr; a closed or broken stderr loses the line, never
    the exit status."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def entry() -> None:
    sys.exit(main())
