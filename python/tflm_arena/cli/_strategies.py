"""``tflm-arena strategies``: the planning strategies, as the C++ registry
lists them (plan/strategy_list.h; ``ta.strategies()``), as a table or JSON."""

from __future__ import annotations

import argparse
from typing import TextIO

from .._plan import strategies
from ._output import write_json

SUMMARY = "the planning strategies: name, kind, description, whether best tries them"

DESCRIPTION = (
    "Lists every planning strategy of the registry (the names --strategy "
    "accepts) with its kind (runtime_planner: a TFLM planner that "
    "tflm_arena's runtime also runs; offsets: a host planner that places "
    "every buffer at an offset; shared_objects: shared objects laid end to "
    "end; search: searches over other plans), whether the best strategy "
    'tries it ("best"), whether it accepts offline-planned (fixed) offsets '
    '("fixed") and what it is.'
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--json", action="store_true", help="machine-readable output: the registry's rows"
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    rows = strategies()
    if args.json:
        return write_json(rows, out)
    name_width = max(len("strategy"), *(len(s["name"]) for s in rows))
    kind_width = max(len("kind"), *(len(s["kind"]) for s in rows))
    out.write(f"{'strategy':<{name_width}} {'kind':<{kind_width}} best  fixed  description\n")
    for s in rows:
        best = "yes" if s["tried_by_best"] else "-"
        fixed = "yes" if s["fixed_offsets"] else "-"
        out.write(
            f"{s['name']:<{name_width}} {s['kind']:<{kind_width}} {best:<4}  {fixed:<5}  "
            f"{s['description']}\n"
        )
    return 0
