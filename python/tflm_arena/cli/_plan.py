"""``tflm-arena plan``: a model's arena plan as a table (or JSON), with the
live bytes per step and the peak step; the table helpers ``demo`` shares."""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import Any, TextIO

import numpy as np

from .. import _core
from .._plan import OfflinePlanAliasWarning, Plan, _alias_text
from ..model import Model
from ._args import MODEL_HELP, TENSORS_ONLY_HELP, add_strategy, add_target, add_time_limit
from ._output import jsonable, progress_printer, write_json

SUMMARY = (
    "plan a model's arena: offsets, tensor names, fixed buffers, "
    "live bytes per step and the peak step"
)


class Steps:
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


def plan_contents(p: Plan) -> str:
    """What a model's plan holds, in words (never our figure in TFLM's name)."""
    if p.scratch_target is not None:
        n = int(np.count_nonzero(p.records["scratch"] >= 0))
        return (
            f"tensors and the kernel scratch buffers stock TFLM requests on "
            f"{p.scratch_target} ({n if n else 'none for this model'})"
        )
    return "tensors only: stock TFLM's kernel scratch buffers are not included"


def plan_table(m: Model, p: Plan, steps: Steps, out: TextIO) -> None:
    """The buffers, the live bytes per step and the plan's figures."""
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
    out.write(f"contents: {plan_contents(p)}\n")
    out.write(
        f"strategy {p.strategy}: arena {p.arena_bytes} bytes"
        f"{' (tensors only)' if p.tensors_only else ''}, "
        f"lower bound {p.lower_bound} bytes ({100.0 * p.overhead:.1f} % above)\n"
    )


def _plan_json(m: Model, p: Plan, steps: Steps, model: str) -> dict[str, Any]:
    return {
        "model": model,
        "strategy": p.strategy,
        "arena_bytes": int(p.arena_bytes),
        "lower_bound": int(p.lower_bound),
        "optimal": bool(p.optimal),
        "scratch_target": p.scratch_target,
        "tensors_only": p.tensors_only,
        "aliases": [{k: jsonable(v) for k, v in a.items()} for a in p.aliases],
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


def plan_model(m: Model, args: argparse.Namespace, **kw: Any) -> Plan:
    """The plan ``plan`` / ``write-plan`` print or write; an offline alias
    is said in the output instead of as a Python warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OfflinePlanAliasWarning)
        return m.plan(args.strategy, target=args.target, scratch=not args.tensors_only, **kw)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help=MODEL_HELP)
    add_strategy(p)
    p.add_argument(
        "--ascii",
        action="store_true",
        help="draw the plan like TFLM's PrintMemoryPlan (with --json: the "
        'picture is the string field "ascii")',
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_time_limit(p, "seconds the optimal strategy may search (default 1)")
    add_target(p)
    p.add_argument("--tensors-only", action="store_true", help=TENSORS_ONLY_HELP)


def run(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.load(args.model)
    if args.strategy == "optimal":
        p = plan_model(m, args, time_limit=args.time_limit, progress=progress_printer(sys.stderr))
    else:
        p = plan_model(m, args)
    steps = Steps(m, p.records)
    if args.json:
        data = _plan_json(m, p, steps, str(args.model))
        if args.ascii:  # the picture rides along as one string
            data["ascii"] = p.ascii()
        return write_json(data, out)
    out.write(f"model: {args.model}\n")
    plan_table(m, p, steps, out)
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
