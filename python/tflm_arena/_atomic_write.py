"""One atomic file write for every file the package writes (models,
reports): a temp file in the destination's folder, fsynced, then linked or
renamed into place, so a reader sees the old file or the whole new one."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def write_atomic(dest: Path, data: bytes, overwrite: bool) -> Path:
    """Writes ``data`` to ``dest``. Without ``overwrite`` an existing
    destination (even a dangling symlink) is never replaced, and the check
    cannot race (the final step is an exclusive link). A new file gets 0666
    less the umask; an overwritten file keeps its mode."""
    if os.path.lexists(dest) and not overwrite:
        raise FileExistsError(f"{dest} exists; pass overwrite=True to replace it")
    folder = dest.parent if str(dest.parent) else Path(".")
    try:
        mode = stat.S_IMODE(os.stat(dest).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=str(folder))
    except OSError as e:
        raise OSError(e.errno, f"cannot write {dest}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        if overwrite:
            os.replace(tmp, dest)
        else:
            os.link(tmp, dest)  # fails if dest appeared meanwhile
            os.unlink(tmp)
    except FileExistsError:
        _remove_quietly(tmp)
        raise FileExistsError(f"{dest} exists; pass overwrite=True to replace it") from None
    except OSError as e:
        _remove_quietly(tmp)
        raise OSError(e.errno, f"cannot write {dest}: {e.strerror}") from None
    except BaseException:
        _remove_quietly(tmp)
        raise
    return dest


def _umask() -> int:
    """The process umask (read by setting and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _remove_quietly(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
