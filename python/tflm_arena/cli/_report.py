"""``tflm-arena report``: one self-contained HTML page about a model's arena
(needs matplotlib)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from .._plan import STRATEGIES
from ..model import Model
from ._args import MODEL_HELP, add_time_limit, target_name
from ._output import check_output, refusing_existing

SUMMARY = "write one self-contained HTML page about a model's arena"

DESCRIPTION = (
    "Writes one HTML page (no external files or URLs) with the plan plot "
    "(TFLM greedy vs the smallest plan found), live bytes per step, the "
    "tensors, operators, every strategy's arena, stock TFLM's arena size per "
    "target and the recording allocator's categories. Needs matplotlib."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help=MODEL_HELP)
    p.add_argument("-o", "--output", required=True, help="where to write the HTML page")
    p.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    p.add_argument(
        "--strategy",
        action="append",
        choices=STRATEGIES,
        metavar="STRATEGY",
        help="a strategy to compare (repeat for several; default all of: "
        + ", ".join(STRATEGIES)
        + ")",
    )
    p.add_argument(
        "--target",
        action="append",
        type=target_name,
        metavar="TARGET",
        help="a stock TFLM build for the top box and every section, TARGET or TARGET@VERSION "
        "(repeat for several; the first is the one the sections use; default the "
        "reference-kernel builds, cortex-m first); the per-target table always sizes every "
        "target",
    )
    p.add_argument(
        "--board",
        metavar="NAME",
        help="size for this board: its target (a --target must be a legal build on it) and "
        "where the arena fits in its RAM (internal, external, split)",
    )
    add_time_limit(p, "seconds the optimal and best strategies may search (default 1)")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ..report import write_report  # needs matplotlib; the other commands do not

    src = Path(args.model)
    dest = Path(args.output)
    check_output(dest, args.overwrite, source=src)
    m = Model.load(src)
    try:
        with refusing_existing(dest):  # appeared while the report was made
            write_report(
                m,
                dest,
                overwrite=args.overwrite,
                strategies=args.strategy,
                targets=args.target,
                time_limit=args.time_limit,
                board=args.board,
            )
    except ImportError as e:  # matplotlib missing: an error, not a traceback
        raise RuntimeError(str(e)) from None
    out.write(f"wrote {dest}: report on {src} ({dest.stat().st_size} bytes of HTML)\n")
    return 0
