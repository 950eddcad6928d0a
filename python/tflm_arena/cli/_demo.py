"""``tflm-arena demo``: build a small model, plan it and draw the plan."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..examples import demo_model_bytes
from ..model import Model
from ._args import add_strategy, add_target
from ._plan import Steps, plan_table

SUMMARY = "build a small model, plan it and draw the plan"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_strategy(p)
    add_target(p)


def run(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.from_bytes(demo_model_bytes())
    out.write(f"{m.description}: {len(m.operators)} operators, {len(m.tensors)} tensors\n")
    p = m.plan(args.strategy, target=args.target)
    plan_table(m, p, Steps(m, p.records), out)
    out.write("\n" + p.ascii())
    return 0
