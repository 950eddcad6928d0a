"""``tflm-arena size``: the arena stock TFLM needs for each model
(kTensorArenaSize), on one target; with ``--board`` or ``--max-bytes``,
whether it fits (exit status 3 when a model does not)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from ..boards import (
    BOARDS,
    PLACEMENTS,
    Board,
    Fit,
    board,
    board_target,
    layout_fit_lines,
    make_fit,
)
from ..tflm_size import (
    DEFAULT_TARGET,
    PLANNERS,
    tflm_arena,
    tflm_shared_arena,
    tflm_split_arena,
)
from ._args import add_target, targets_help
from ._output import first_line, say, write_json

SUMMARY = "the arena stock TFLM needs (kTensorArenaSize)"

#: Exit status when --board / --max-bytes finds a model that does not fit.
EXIT_DOES_NOT_FIT = 3

EPILOG = (
    "Exit status: 0 success (and every model fits), 1 error, 2 usage error (an unknown "
    "--board too), 3 a model does not fit the --board or --max-bytes RAM "
    '(see "tflm-arena --help").'
)


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
    p.add_argument(
        "--resource-variables",
        type=_byte_count,
        metavar="N",
        default=None,
        help="MicroResourceVariables the application creates for a streaming model "
        "(VAR_HANDLE); default: the tflite-micro wheel's count, one per distinct "
        "shared_name",
    )
    p.add_argument(
        "--resource-variables-elsewhere",
        action="store_true",
        help="their object and array live in another arena, as in ESPHome's "
        "micro_wake_word (the variables' buffers stay in this one)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_fit_arguments(p)
    _add_layout_arguments(p)


def add_fit_arguments(p: argparse.ArgumentParser) -> None:
    """``--board NAME`` / ``--max-bytes N``: check the arena against a RAM
    size; ``--target`` then defaults to the board's (None = not given)."""
    p.set_defaults(target=None)
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--board",
        metavar="NAME",
        help="check that the arena fits in the board's RAM, with the board's target (an "
        "explicit --target must agree); prints the margin and exits with status 3 when "
        "a model does not fit. Boards: " + ", ".join(BOARDS),
    )
    g.add_argument(
        "--max-bytes",
        type=_byte_count,
        metavar="N",
        help="check that kTensorArenaSize is at most N bytes (on --target); exit status 3 "
        "when a model does not fit",
    )
    p.add_argument(
        "--placement",
        choices=PLACEMENTS,
        help="with --board: require this placement of the arena (internal: internal RAM only; "
        "activations-internal / persistent-internal: two buffers, the other in external RAM; "
        "external: all in external RAM). Default: the first of these that fits (internal, "
        "activations-internal, external, persistent-internal)",
    )


def _byte_count(text: str) -> int:
    """argparse type: a whole number of bytes >= 0 (else a usage error)."""
    try:
        v = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of bytes: {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"bytes must be >= 0, got {text!r}")
    return v


def _fit_limit(args: argparse.Namespace) -> tuple[Board | None, int | None, str, int]:
    """(board, RAM bytes, error line, exit status) from --board /
    --max-bytes, setting args.target (the board's, else the default). An
    unknown board or a --target the board does not use is a usage error (2);
    a board whose target this build does not know, an error (1)."""
    if args.board is None:
        if args.target is None:
            args.target = DEFAULT_TARGET
        return None, args.max_bytes, "", 0
    try:
        b = board(args.board)
        # The board's target at the board's stack, or another version of it.
        args.target = board_target(b, args.target)
    except ValueError as e:
        code = 2 if args.board not in BOARDS or args.target is not None else 1
        return None, None, first_line(e), code
    return b, b.ram_bytes, "", 0


def _write_fit(f: Fit, out: TextIO) -> None:
    out.write("".join(f"  {line}\n" for line in f.lines()))


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
    fit_board, ram, problem, code = _fit_limit(args)
    if getattr(args, "placement", None) is not None and fit_board is None and not problem:
        say("tflm-arena: error: --placement needs --board (a board's internal and external RAM)")
        return 2
    if problem:  # an unknown board, a --target it does not use, its target unknown
        say(f"tflm-arena: error: {problem}")
        return code
    if args.split or args.shared_arena:
        if args.placement is not None:
            say(
                "tflm-arena: error: --placement chooses where one arena goes; with --split "
                "and --shared-arena each buffer goes where it fits"
            )
            return 2
        if args.resource_variables is not None or args.resource_variables_elsewhere:
            say(
                "tflm-arena: error: --resource-variables and --resource-variables-elsewhere "
                "size one arena; --split and --shared-arena take the wheel's count"
            )
            return 2
        return _run_layout(args, out, fit_board, ram)
    fits: dict[str, Fit] = {}
    for path in args.model:
        try:
            results.append(
                (
                    path,
                    tflm_arena(
                        path,
                        target=args.target,
                        recording=args.recording,
                        planner=args.planner,
                        resource_variables=args.resource_variables,
                        resource_variables_in_arena=not args.resource_variables_elsewhere,
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
        if ram is not None:
            fits[path] = make_fit(results[-1][1], ram, fit_board, path, args.placement)
        if not args.json:
            _write_size(path, results[-1][1], out, first=len(results) == 1)
            if path in fits:
                _write_fit(fits[path], out)
    if args.json:
        write_json(
            {
                str(p): (
                    {**r.as_dict(), **(fits[p].as_dict() if p in fits else {})}
                    if not isinstance(r, Exception)
                    else {"error": first_line(r)}
                )
                for p, r in results
            },
            out,
        )
    if failed:
        return 1
    return EXIT_DOES_NOT_FIT if any(not f.fits for f in fits.values()) else 0


def _write_size(path: str, r: Any, out: TextIO, first: bool) -> None:
    if not first:
        out.write("\n")
    out.write(
        f"{path}:\n  {r.firmware_line()}  // stock TFLM, target {r.target}@{r.version}: exact "
        f"minimum {r.min_arena_bytes} bytes\n"
    )
    out.write("\n".join("  " + line for line in str(r).splitlines()) + "\n")


# --split and --shared-arena: other arena layouts of the same build.


def _add_layout_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--split",
        action="store_true",
        help="two buffers (MicroAllocator::Create(persistent, ..., non_persistent, ...)): "
        "the minimum of each, per model",
    )
    g.add_argument(
        "--shared-arena",
        action="store_true",
        help="one arena and one MicroAllocator for all the models, allocated in the order "
        "given: its minimum, the phases and the smallest order",
    )


def _run_layout(args: argparse.Namespace, out: TextIO, b: Board | None, ram: int | None) -> int:
    """``--split`` (one result or error per model) or ``--shared-arena`` (one
    result for all); exit status 1 on any error; with a RAM limit (--board,
    --max-bytes), 3 when a layout's buffers do not fit."""
    too_big = False
    if args.split and args.recording:
        say("tflm-arena: error: --split: RecordingMicroAllocator has no two-buffer Create")
        return 1
    errors = (ValueError, OSError, NotImplementedError, RuntimeError, MemoryError)
    if args.shared_arena:
        if len(args.model) < 2:
            say("tflm-arena: error: --shared-arena needs at least two models")
            return 1
        try:
            r = tflm_shared_arena(
                args.model, target=args.target, recording=args.recording, planner=args.planner
            )
        except errors as e:
            if args.json:
                return write_json({"error": first_line(e)}, out) or 1
            say(f"tflm-arena: error: {first_line(e)}")
            return 1
        size16 = (r.min_arena_bytes + 15) // 16 * 16
        whose = f"stock TFLM, target {r.target}@{r.version}"
        fit_lines: list[str] = []
        if ram is not None:
            fits, fit_lines = layout_fit_lines({"arena": size16}, ram, b, whose)
            too_big = not fits
        if args.json:
            d = r.as_dict()
            if ram is not None:
                d["fits"], d["fit"] = not too_big, fit_lines
            write_json(d, out)
            return EXIT_DOES_NOT_FIT if too_big else 0
        out.write(
            f"{', '.join(args.model)} in one arena:\n"
            f"  constexpr int kTensorArenaSize = {size16};  "
            f"// {whose}: exact minimum {r.min_arena_bytes} bytes\n"
        )
        out.write("\n".join("  " + line for line in str(r).splitlines()) + "\n")
        out.write("".join(f"  {line}\n" for line in fit_lines))
        return EXIT_DOES_NOT_FIT if too_big else 0
    failed = 0
    results: dict[str, Any] = {}
    for i, path in enumerate(args.model):
        try:
            s = tflm_split_arena(path, target=args.target, planner=args.planner)
        except errors as e:
            failed += 1
            results[str(path)] = {"error": first_line(e)}
            if not args.json:
                out.flush()
                say(f"tflm-arena: error: {path}: {first_line(e)}")
            continue
        results[str(path)] = s.as_dict()
        whose = f"stock TFLM, target {s.target}@{s.version}"
        fit_lines = []
        if ram is not None:
            buffers = {
                "non-persistent": s.min_non_persistent_bytes,
                "persistent": s.min_persistent_bytes,
            }
            fits, fit_lines = layout_fit_lines(buffers, ram, b, whose)
            too_big |= not fits
            results[str(path)].update(fits=fits, fit=fit_lines)
        if not args.json:
            if i:
                out.write("\n")
            out.write(
                f"{path}:\n"
                f"  constexpr int kNonPersistentArenaSize = {s.min_non_persistent_bytes};  "
                f"// {whose}: two buffers, exact minimum of each\n"
                f"  constexpr int kPersistentArenaSize = {s.min_persistent_bytes};\n"
            )
            out.write("\n".join("  " + ln for ln in str(s).splitlines()) + "\n")
            out.write("".join(f"  {line}\n" for line in fit_lines))
    if args.json:
        write_json(results, out)
    if failed:
        return 1
    return EXIT_DOES_NOT_FIT if too_big else 0
