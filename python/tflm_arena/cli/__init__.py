"""Command line: ``tflm-arena`` / ``python -m tflm_arena``.

``main(argv)`` returns the exit status instead of exiting, so tests can call
it. Exit status (the same table is the ``--help`` epilog and README's CLI
section):

- 0: success.
- 1: error; one line ``tflm-arena: error: ...`` on stderr (an unreadable or
  invalid model, an OUTPUT that exists, ...).
- 2: usage error; argparse prints the usage and ``tflm-arena: error: ...``
  on stderr (unknown command or option, bad option value).
- 3: ``size --board NAME`` / ``size --max-bytes N``: a model's arena does
  not fit in that RAM (the figures are printed; an error in any model is 1);
  ``compare --arena N``: the arena no longer fits after the change.
- 130 (128 + SIGINT): interrupted by Ctrl-C; one line
  ``tflm-arena: interrupted`` on stderr, no traceback.
- 141 (128 + SIGPIPE): standard output was closed early (``| head``); the
  command stops quietly, without a traceback.

A closed standard error loses the message, never the exit status.

Each command lives in its own module (``_plan.py`` for ``plan``, ...)
with ``SUMMARY``, ``add_arguments(parser)`` and ``run(args, out)``; the
shared options are in ``_args.py``, the output helpers (OUTPUT checks,
``--json``) in ``_output.py``. :func:`main` runs the command's
``_cmd_<name>`` of this module, so a test can replace one command.

``plan --ascii --json`` puts TFLM's picture in the JSON as the string field
``ascii`` rather than dropping it. The ``--help`` text is written for a
terminal (no reStructuredText): this docstring is not used by the parser.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TextIO

from .. import __version__
from . import (
    _compare,
    _demo,
    _inspect,
    _optimize,
    _plan,
    _report,
    _resolver,
    _size,
    _strategies,
    _versions,
    _write_plan,
)
from ._output import first_line, say

# The commands' run functions; main() calls them through these names.
_cmd_demo = _demo.run
_cmd_inspect = _inspect.run
_cmd_plan = _plan.run
_cmd_size = _size.run
_cmd_write_plan = _write_plan.run
_cmd_optimize = _optimize.run
_cmd_report = _report.run
_cmd_resolver = _resolver.run
_cmd_strategies = _strategies.run
_cmd_compare = _compare.run
_cmd_versions = _versions.run

_DESCRIPTION = """\
Plan, inspect and size the tensor arena of TensorFlow Lite Micro models
(.tflite files)."""

_EPILOG = """\
exit status:
  0    success
  1    error: one line "tflm-arena: error: ..." on stderr (for example an
       unreadable or invalid model, or an OUTPUT that exists)
  2    usage error: argparse prints the usage and "tflm-arena: error: ..."
       on stderr (unknown command or option, bad option value)
  3    does not fit: "size --board NAME" or "size --max-bytes N" found a
       model whose stock-TFLM arena exceeds that RAM (a firmware build can
       fail on it; an error in any model gives 1 instead), or "compare
       --arena N" found that N no longer fits after the change
  130  interrupted (Ctrl-C): "tflm-arena: interrupted" on stderr
  141  standard output was closed early (for example piped into head):
       the command stops quietly, as a program killed by SIGPIPE does
Run "tflm-arena COMMAND --help" for a command's options."""


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="tflm-arena",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help="print the version and exit",
    )
    sub = ap.add_subparsers(
        dest="command",
        required=True,
        metavar="COMMAND",
        title="commands",
        help="what to do (one of these)",
    )
    commands: tuple[tuple[str, ModuleType, Callable[[argparse.Namespace, TextIO], int]], ...] = (
        ("demo", _demo, _cmd_demo),
        ("inspect", _inspect, _cmd_inspect),
        ("plan", _plan, _cmd_plan),
        ("size", _size, _cmd_size),
        ("compare", _compare, _cmd_compare),
        ("versions", _versions, _cmd_versions),
        ("write-plan", _write_plan, _cmd_write_plan),
        ("optimize", _optimize, _cmd_optimize),
        ("report", _report, _cmd_report),
        ("resolver", _resolver, _cmd_resolver),
        ("strategies", _strategies, _cmd_strategies),
    )
    for name, module, run in commands:
        summary: str = module.SUMMARY
        p = sub.add_parser(
            name,
            help=summary,
            description=getattr(module, "DESCRIPTION", summary[0].upper() + summary[1:] + "."),
            epilog=getattr(
                module,
                "EPILOG",
                'Exit status: 0 success, 1 error, 2 usage error (see "tflm-arena --help").',
            ),
        )
        module.add_arguments(p)
        p.set_defaults(func=run)
    return ap


#: Exit status when standard output is closed early (128 + SIGPIPE).
EXIT_CLOSED_PIPE = 141


def _closed_pipe(out: TextIO) -> int:
    """Stdout's reader went away (``| head``): point stdout at /dev/null so the
    interpreter's final flush cannot fail again, and exit quietly."""
    if out is sys.stdout:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # no real file descriptor behind stdout
            pass
    return EXIT_CLOSED_PIPE


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    ap = _parser()
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # argparse already printed the reason (or --help, --version)
        return int(e.code or 0)
    try:
        code: int = args.func(args, out)
        out.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except BrokenPipeError:
        return _closed_pipe(out)
    except KeyboardInterrupt:  # Ctrl-C (e.g. during a long optimal search)
        say("tflm-arena: interrupted")
        return 130
    except (ValueError, OSError, RuntimeError, MemoryError) as e:
        say(f"tflm-arena: error: {first_line(e)}")
        return 1


def entry() -> None:
    sys.exit(main())
