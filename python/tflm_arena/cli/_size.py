"""``tflm-arena size``: the arena stock TFLM needs for each model
(kTensorArenaSize), on one target."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from ..tflm_size import PLANNERS, tflm_arena
from ._args import add_target, targets_help
from ._output import first_line, say, write_json

SUMMARY = "the arena stock TFLM needs (kTensorArenaSize)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", nargs="+", help="one or more .tflite model files")
    add_target(p, targets_help())
    p.add_argument(
        "--recording",
        action="store_const",
        const=True,
        default=None,
        help="size for a RecordingMicroAllocator in the target build (the "
        "tflite-micro-wheel target always has one with the greedy planner)",
    )
    p.add_argument(
        "--planner",
        choices=PLANNERS + ("greedy",),
        default=PLANNERS[0],
        metavar="{" + ",".join(PLANNERS) + "}",
        help=f"the memory planner stock TFLM is built with (default {PLANNERS[0]}; "
        "greedy is a deprecated name of tflm_greedy)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace, out: TextIO) -> int:
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
                say(f"tflm-arena: error: {path}: {first_line(e)}")
                continue
        if not args.json:
            _write_size(path, results[-1][1], out, first=len(results) == 1)
    if args.json:
        write_json(
            {
                str(p): (r.as_dict() if not isinstance(r, Exception) else {"error": first_line(r)})
                for p, r in results
            },
            out,
        )
    return 1 if failed else 0


def _write_size(path: str, r: Any, out: TextIO, first: bool) -> None:
    if not first:
        out.write("\n")
    out.write(
        f"{path}:\n  {r.firmware_line()}  // stock TFLM, target {r.target}: exact "
        f"minimum {r.min_arena_bytes} bytes\n"
    )
    out.write("\n".join("  " + line for line in str(r).splitlines()) + "\n")
