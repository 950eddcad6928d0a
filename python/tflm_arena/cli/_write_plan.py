"""``tflm-arena write-plan``: write a plan into a copy of the model (TFLM's
OfflineMemoryAllocation metadata)."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import TextIO

from .._plan import _alias_text
from ..model import Model, _LargerHeadError
from ._args import MODEL_HELP, TARGET_HELP, TENSORS_ONLY_HELP, add_strategy, add_target
from ._output import refusing_existing
from ._plan import plan_contents, plan_model

SUMMARY = "write a plan into a copy of the model"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help=MODEL_HELP)
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="where to write the model with the plan (OfflineMemoryAllocation metadata)",
    )
    add_strategy(p)
    p.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    add_target(p, TARGET_HELP + "; stock TFLM's head on it must not grow")
    p.add_argument("--tensors-only", action="store_true", help=TENSORS_ONLY_HELP)
    p.add_argument(
        "--allow-larger-head",
        action="store_true",
        help="write the plan even when stock TFLM's head gets larger with it "
        "(it places its kernels' scratch buffers around the written tensors; "
        "`tflm-arena optimize` writes plans that it keeps)",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    src = Path(args.model)
    dest = Path(args.output)
    # Unlike optimize and report, --overwrite may replace the source model.
    if dest.exists() and dest.resolve() == src.resolve() and not args.overwrite:
        raise ValueError(f"refusing to overwrite the source model {src}; pass --overwrite")
    m = Model.load(src)
    p = plan_model(m, args)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            new = m.with_offline_plan(
                p, target=args.target, allow_larger_head=args.allow_larger_head
            )
        except _LargerHeadError as e:
            raise ValueError(
                f"the {p.strategy} plan would make stock TFLM's head larger ({e.target}): "
                f"{e.before} -> {e.after} bytes (TFLM places its kernels' scratch buffers "
                f"around the written tensors); `tflm-arena optimize` writes a plan TFLM keeps, "
                f"--allow-larger-head writes this one anyway"
            ) from None
    with refusing_existing(dest):
        new.save(dest, overwrite=args.overwrite)
    for a in p.aliases:
        out.write(f"offline plan alias kept: {_alias_text(a)}\n")
    for w in said:
        out.write(f"warning: {w.message}\n")
    out.write(
        f"wrote {dest}: {p.strategy} plan, arena {p.arena_bytes} bytes "
        f"(lower bound {p.lower_bound}; {plan_contents(p)})\n"
    )
    return 0
