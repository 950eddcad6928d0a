"""``tflm-arena resolver``: C++ that registers exactly the operators the
models use, for stock TFLM's resolver or tflm_arena's."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from .._atomic_write import write_atomic
from ..model import Model
from ._output import check_output, refusing_existing, write_json

SUMMARY = "print C++ that registers exactly the operators the models use"

DESCRIPTION = (
    "Prints a C++ header defining a function that adds to an op resolver "
    "one kernel per distinct operator the models use (all subgraphs): TFLM's "
    "MicroMutableOpResolver<N> with its Add* methods (--runtime tflm), or "
    "tflm_arena's MutableOpResolver<N> with AddBuiltin(Register_X()) "
    "(--runtime tflm_arena). Fails naming every operator the chosen runtime "
    "has no kernel for."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", nargs="+", help="one or more .tflite model files")
    p.add_argument(
        "--runtime",
        choices=("tflm", "tflm_arena"),
        default="tflm",
        help="whose resolver: tflm = stock TFLM (default), tflm_arena = ours",
    )
    p.add_argument(
        "--name",
        default="AddModelOps",
        help="name of the generated C++ function (default AddModelOps); its "
        "operator count is k<Name>Count",
    )
    p.add_argument(
        "-o", "--output", help="write the header to this file instead of standard output"
    )
    p.add_argument("--overwrite", action="store_true", help="allow replacing OUTPUT")
    p.add_argument(
        "--json",
        action="store_true",
        help="machine-readable output: the operators, the calls and the C++",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    from .. import resolver as rs

    models = [Model.load(p) for p in args.model]  # each file read once
    gen = rs.tflm_resolver_cpp if args.runtime == "tflm" else rs.runtime_resolver_cpp
    text = gen(*models, name=args.name)  # ValueError names unsupported operators
    ops = rs.resolver_ops(*models)
    custom = rs.resolver_ops(*models, custom=True)  # only TFLM gets this far with any
    if args.output is not None:
        dest = Path(args.output)
        check_output(dest, args.overwrite)
        with refusing_existing(dest):
            write_atomic(dest, text.encode(), overwrite=args.overwrite)
    if args.json:
        calls = (
            [rs.TFLM_METHODS[op] for op in ops]
            if args.runtime == "tflm"
            else [f"Register_{op}" for op in ops]
        )
        calls += [rs.TFLM_CUSTOM_METHODS.get(c, "AddCustom") for c in custom]
        return write_json(
            {
                "models": [str(p) for p in args.model],
                "runtime": args.runtime,
                "name": args.name,
                "operators": ops,
                "custom_operators": custom,
                "calls": calls,
                "output": args.output,
                "cpp": text if args.output is None else None,
            },
            out,
        )
    if args.output is not None:
        out.write(
            f"wrote {args.output}: {args.name}() registers "
            f"{len(ops) + len(custom)} operators ({args.runtime})\n"
        )
    else:
        out.write(text)
    return 0
