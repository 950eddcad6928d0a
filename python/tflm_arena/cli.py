"""Command line: ``tflm-arena`` / ``python -m tflm_arena``.

``main(argv)`` returns the exit code and never raises for user errors, so it
can be called from tests.
"""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional, TextIO

from ._plan import STRATEGIES, Plan, plan
from .examples import person_detection_records


def _print_plan_table(p: Plan, out: TextIO) -> None:
    out.write(f"{'buffer':>6} {'size':>8} {'first':>5} {'last':>5} {'offset':>8}\n")
    for i, (r, off) in enumerate(zip(p.records, p.offsets)):
        out.write(f"{i:>6} {r['size']:>8} {r['first']:>5} {r['last']:>5} {off:>8}\n")
    out.write(
        f"strategy {p.strategy}: arena {p.arena_bytes} bytes, "
        f"lower bound {p.lower_bound} bytes ({100.0 * p.overhead:.1f} % above)\n"
    )


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    p = plan(person_detection_records(), strategy=args.strategy)
    out.write("TFLM person-detection buffers (30 activations), planned:\n")
    _print_plan_table(p, out)
    out.write("\n" + p.ascii())
    return 0


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="tflm-arena", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="plan a built-in example and draw it")
    demo.add_argument("--strategy", choices=STRATEGIES, default="tflm_greedy")
    demo.set_defaults(func=_cmd_demo)
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
        sys.stderr.write(f"tflm-arena: error: {e}\n")
        return 1


def entry() -> None:
    sys.exit(main())
