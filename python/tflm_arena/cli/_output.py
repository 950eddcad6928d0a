"""Output helpers every command shares: the OUTPUT file checks, ``--json``
writing, error lines and progress lines on stderr."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import numpy as np


def jsonable(v: Any) -> Any:
    """Tuples, numpy scalars and arrays as plain JSON values."""
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [jsonable(x) for x in v]
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


def write_json(data: Any, out: TextIO) -> int:
    """``--json`` output: ``data`` indented by one space and a final newline;
    returns the success status."""
    json.dump(data, out, indent=1)
    out.write("\n")
    return 0


def exists_error(dest: Path) -> ValueError:
    """The error for an OUTPUT that exists without ``--overwrite``."""
    return ValueError(f"{dest} exists; pass --overwrite to replace it")


def check_output(dest: Path, overwrite: bool, source: Path | None = None) -> None:
    """Refuses, before any work, to write OUTPUT over the ``source`` model
    (even with ``--overwrite``) or over an existing file (even a dangling
    symlink) without ``--overwrite``."""
    if source is not None and dest.exists() and dest.resolve() == source.resolve():
        raise ValueError(f"refusing to write over the source model {source}; choose another OUTPUT")
    if os.path.lexists(dest) and not overwrite:
        raise exists_error(dest)


@contextlib.contextmanager
def refusing_existing(dest: Path) -> Iterator[None]:
    """OUTPUT that appeared while the command worked (the write itself never
    replaces a file without ``--overwrite``): the same error as
    :func:`check_output`'s."""
    try:
        yield
    except FileExistsError:
        raise exists_error(dest) from None


def first_line(e: BaseException) -> str:
    """An exception's message as one line (its type when it has none). An
    OSError shows its words and file, not Python's ``[Errno N]`` prefix."""
    text = str(e)
    if isinstance(e, OSError) and e.strerror:
        named = e.filename is None or str(e.filename) in e.strerror
        text = e.strerror if named else f"{e.filename}: {e.strerror}"
    return text.splitlines()[0] if text else type(e).__name__


def say(line: str) -> None:
    """One line on stderr; a closed or broken stderr loses the line, never
    the exit status."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def progress_printer(err: TextIO) -> Callable[[int, int, float], None]:
    """progress(best, lower, seconds) for the optimal search: one line on
    stderr about once a second, only once the search has run for a second."""
    last = [0.0]

    def progress(best: int, lower: int, seconds: float) -> None:
        if seconds < 1.0 or seconds - last[0] < 1.0:
            return
        last[0] = seconds
        gap = 100.0 * (best / lower - 1.0) if lower else 0.0
        err.write(
            f"searching: best {best} bytes, lower bound {lower} ({gap:.1f} % above), "
            f"{seconds:.1f} s\n"
        )
        err.flush()

    return progress
