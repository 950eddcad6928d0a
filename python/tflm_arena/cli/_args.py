"""Options several commands share (their help text is written once here)."""

from __future__ import annotations

import argparse
import math

from .._plan import STRATEGIES
from ..tflm_size import DEFAULT_TARGET, TARGETS, check_target, targets

MODEL_HELP = "the .tflite model file"

TENSORS_ONLY_HELP = (
    "plan the tensors alone, without stock TFLM's kernel scratch buffers "
    "(needed for models with operators whose TFLM memory use is not "
    'modelled; the plan then says "tensors only")'
)

TARGET_HELP = (
    "the stock TFLM build whose kernel scratch buffers the plan includes: "
    + ", ".join(TARGETS)
    + f", each optionally @VERSION (default {DEFAULT_TARGET})"
)


def targets_help() -> str:
    """Every target with its one-line description (from the C++ list)."""
    return (
        "the stock TFLM build, one of: "
        + "; ".join(f"{name} = {text}" for name, text in targets().items())
        + f"; TARGET@VERSION names a TFLM release or kernel-library version (see the "
        f"versions command; default the newest) (default {DEFAULT_TARGET})"
    )


def seconds(text: str) -> float:
    """argparse type: a finite number of seconds >= 0 (else a usage error)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (v >= 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"seconds must be finite and >= 0, got {text!r}")
    return v


def add_strategy(p: argparse.ArgumentParser) -> None:
    """``--strategy``: one of the registry's names, default tflm_greedy."""
    p.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="tflm_greedy",
        metavar="STRATEGY",
        help="planning strategy, one of: "
        + ", ".join(STRATEGIES)
        + " (default tflm_greedy: TFLM's own GreedyMemoryPlanner)",
    )


def target_name(text: str) -> str:
    """argparse type: a target, "TARGET" or "TARGET@VERSION" (else a usage
    error naming the known targets or versions)."""
    try:
        check_target(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def add_target(p: argparse.ArgumentParser, help: str = TARGET_HELP) -> None:
    """``--target``: one stock TFLM build, default DEFAULT_TARGET."""
    p.add_argument(
        "--target", type=target_name, default=DEFAULT_TARGET, metavar="TARGET", help=help
    )


def add_time_limit(p: argparse.ArgumentParser, help: str) -> None:
    """``--time-limit S``: seconds a search may take (default 1)."""
    p.add_argument("--time-limit", type=seconds, default=1.0, metavar="S", help=help)
