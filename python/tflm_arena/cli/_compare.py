"""``tflm-arena compare``: "will my update break it?" One model's stock-TFLM
arena on two builds (usually one target at two versions), the operators
whose persistent or scratch bytes change, and the new kTensorArenaSize;
exit status 3 when the --arena the application gives no longer fits."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..stack_versions import compare_stacks
from ._args import MODEL_HELP, target_name
from ._output import first_line, say, write_json
from ._size import EXIT_DOES_NOT_FIT, _byte_count

SUMMARY = "compare stock TFLM's arena on two versions of the stack"

EPILOG = (
    "Example: tflm-arena compare okay_nabu.tflite --from esp32s3+esp-nn@1.2.0 "
    "--to esp32s3+esp-nn@1.2.3 --arena 26080. Exit status: 0 success (and the --arena "
    "still fits), 1 error, 2 usage error, 3 the --arena no longer fits after the change "
    "(or the new build refuses the model)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help=MODEL_HELP)
    for flag, dest, what in (
        ("--from", "before", "the build the model runs on now (see the versions command)"),
        ("--to", "after", "the build after the update"),
    ):
        p.add_argument(
            flag, dest=dest, type=target_name, required=True, metavar="TARGET[@VERSION]", help=what
        )
    p.add_argument(
        "--arena",
        type=_byte_count,
        metavar="BYTES",
        help="the kTensorArenaSize the application gives: exit status 3 when it no longer "
        "fits after the change",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")


def run(args: argparse.Namespace, out: TextIO) -> int:
    try:
        c = compare_stacks(args.model, args.before, args.after, arena_bytes=args.arena)
    except (ValueError, OSError, NotImplementedError, RuntimeError, MemoryError) as e:
        if args.json:
            return write_json({"error": first_line(e)}, out) or 1
        say(f"tflm-arena: error: {args.model}: {first_line(e)}")
        return 1
    if args.json:
        write_json(c.as_dict(), out)
    else:
        out.write(f"{args.model}: stock TFLM\n")
        out.write("".join(f"  {line}\n" for line in str(c).splitlines()))
    return EXIT_DOES_NOT_FIT if c.fits is False else 0
