"""``tflm-arena optimize``: write the plan that makes stock TFLM's head
smallest, and say stock TFLM's whole arena before and after."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from ..model import Model
from ..tflm_size import tflm_arena
from ._args import MODEL_HELP, add_target, add_time_limit, targets_help
from ._output import check_output, progress_printer, refusing_existing, write_json

SUMMARY = "write the plan that makes stock TFLM's head smallest"

DESCRIPTION = (
    "Tries every planning strategy (the optimal search for --time-limit "
    "seconds; with --reorder also on a reordered operator order), judges each "
    "by the head stock TFLM uses with it (kernel scratch buffers included), "
    "prints a table and writes the best model to OUTPUT. When nothing beats "
    "TFLM's own plan, OUTPUT is an unchanged copy of MODEL. With --rewrite, "
    "the model's first, memory-heavy stage is also tried in spatial tiles of "
    "stock operators (outputs bit-identical), judged by stock TFLM's whole "
    "arena (head + tail); the table shows every tiling's head, tail, total, "
    "MACs and flash, and the smallest model is written (an unchanged copy "
    "when nothing beats the original)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help=MODEL_HELP)
    p.add_argument("-o", "--output", required=True, help="where to write the model")
    p.add_argument(
        "--reorder", action="store_true", help="also try an operator order with a lower peak"
    )
    p.add_argument(
        "--rewrite",
        action="store_true",
        help="also rewrite the first stage into spatial tiles (whole arena judged)",
    )
    p.add_argument(
        "--tiles",
        metavar="RxC",
        help="with --rewrite: only this tiling, e.g. 4x4 (default: search)",
    )
    add_time_limit(p, "seconds for the optimal search (and the reordering search)")
    add_target(
        p,
        "the stock TFLM build whose head is minimised (scratch sizes differ); " + targets_help(),
    )
    p.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ..optimize import optimize  # imports the reorder and TFLM-plan machinery

    if args.tiles is not None and not args.rewrite:
        raise ValueError("--tiles needs --rewrite (it chooses the tiling of the rewrite)")
    src = Path(args.model)
    dest = Path(args.output)
    check_output(dest, args.overwrite, source=src)
    m = Model.load(src)
    start = time.monotonic()

    def progress(msg: str) -> None:  # quiet for runs that take under a second
        if not args.quiet and time.monotonic() - start >= 1.0:
            sys.stderr.write(f"tflm-arena optimize: {msg}\n")
            sys.stderr.flush()

    if args.rewrite:
        return _run_rewrite(args, m, src, dest, out)
    r = optimize(
        m,
        reorder=args.reorder,
        time_limit=args.time_limit,
        target=args.target,
        progress=progress,
        search_progress=None if args.quiet else progress_printer(sys.stderr),
    )
    with refusing_existing(dest):
        r.model.save(dest, overwrite=args.overwrite)
    # Stock TFLM's whole arena (not only the head) for the model written and
    # for the original, on the same target: the line for the firmware.
    before = tflm_arena(m, target=r.target)
    after = tflm_arena(r.model, target=r.target) if r.improved else before
    saved = before.min_arena_bytes - after.min_arena_bytes
    if args.json:
        return write_json(
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
        )
    out.write(r.table() + "\n")
    what = "with the best plan" if r.improved else "unchanged (no plan beats TFLM's own)"
    alloc = after.allocator
    out.write(
        f"wrote {dest}: the model {what}; stock TFLM head {r.head:,} bytes (target {r.target})\n"
    )
    out.write(
        f"{dest}:\n  {after.firmware_line()}  // stock TFLM, {after.target}@{after.version}, "
        f"{alloc}: exact minimum {after.min_arena_bytes:,} bytes\n"
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
    out.write(_chosen_for(after))
    return 0


def _chosen_for(after: Any) -> str:
    """The line every written model ends with: the build it was chosen on."""
    return (
        f"  chosen for stock TFLM on target {after.target}@{after.version}: the smallest model "
        "for one target can need more on another; run again with --target for each target "
        "you ship\n"
    )


def _tiles(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--tiles must be ROWSxCOLS, e.g. 4x4; got {text!r}") from None
    return rows, cols


def _run_rewrite(args: argparse.Namespace, m: Model, src: Path, dest: Path, out: TextIO) -> int:
    from ..rewrite import rewrite

    if args.reorder:
        raise ValueError("--rewrite and --reorder cannot be combined (yet)")
    tiles = _tiles(args.tiles)
    try:
        r = rewrite(m, target=args.target, tiles=tiles, time_limit=args.time_limit)
    except ValueError as e:
        # A model the rewrite refuses (no image stage, control flow, ...) is
        # written unchanged, as when no tiling beats it; a forced --tiles
        # that cannot be made stays an error.
        if tiles is not None or not str(e).startswith("cannot rewrite this model"):
            raise
        return _write_unchanged(args, m, src, dest, out, str(e))
    with refusing_existing(dest):
        r.model.save(dest, overwrite=args.overwrite)
    after = tflm_arena(r.model, target=r.target)
    if args.json:
        return write_json(
            {
                "model": str(src),
                "output": str(dest),
                "target": r.target,
                "written": r.written,
                "reason": r.reason,
                "stage_end": r.end_reason,
                "min_arena_bytes": after.min_arena_bytes,
                "original_min_arena_bytes": r.original.total,
                "tilings": r.rows(),
            },
            out,
        )
    out.write(r.table() + "\n")
    alloc = after.allocator
    out.write(
        f"wrote {dest} ({r.written}):\n  {after.firmware_line()}  // stock TFLM, "
        f"{after.target}@{after.version}, {alloc}: exact minimum {after.min_arena_bytes:,} bytes "
        f"(original: {r.original.total:,})\n"
    )
    out.write(_chosen_for(after))
    return 0


def _write_unchanged(
    args: argparse.Namespace, m: Model, src: Path, dest: Path, out: TextIO, why: str
) -> int:
    """``--rewrite`` on a model the rewrite refuses: an unchanged copy, and why."""
    with refusing_existing(dest):
        m.save(dest, overwrite=args.overwrite)
    after = tflm_arena(m, target=args.target)
    if args.json:
        return write_json(
            {
                "model": str(src),
                "output": str(dest),
                "target": args.target,
                "written": "unchanged",
                "reason": why,
                "stage_end": None,
                "min_arena_bytes": after.min_arena_bytes,
                "original_min_arena_bytes": after.min_arena_bytes,
                "tilings": [],
            },
            out,
        )
    alloc = after.allocator
    out.write(
        f"not rewritten: {why}\nwrote {dest} (unchanged):\n  {after.firmware_line()}  "
        f"// stock TFLM, {after.target}@{after.version}, {alloc}: exact minimum "
        f"{after.min_arena_bytes:,} bytes\n"
    )
    return 0
