"""``tflm-arena versions``: the TFLM releases and kernel-library versions a
target can be built at (write TARGET@VERSION), newest (the default) first."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..stack_versions import versions
from ..tflm_size import DEFAULT_TARGET
from ._args import target_name
from ._output import write_json

SUMMARY = "the TFLM and kernel-library versions of a target (TARGET@VERSION)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--target",
        type=target_name,
        default=DEFAULT_TARGET,
        metavar="TARGET",
        help=f"the build target (default {DEFAULT_TARGET})",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace, out: TextIO) -> int:
    v = versions(args.target)
    if args.json:
        return write_json(v, out)
    base = args.target.split("@")[0]
    for i, (name, words) in enumerate(v.items()):
        mark = " (default)" if i == 0 else ""
        out.write(f"{base}@{name}{mark}\n  {words}\n")
    return 0
