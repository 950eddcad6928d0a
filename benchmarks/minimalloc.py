"""Build and run MiniMalloc's command-line solver, for side-by-side benchmarks.

MiniMalloc (google/minimalloc, ASPLOS 2023) decides whether buffers with
half-open lifetimes [lower, upper) fit a given capacity. This helper is a
benchmark tool only: nothing in the product or in CI uses it.

It exports MiniMalloc's source from a local git repository (``--minimalloc-git``,
by default ``build/minimalloc/minimalloc.git``, a bare clone of
https://github.com/google/minimalloc made there on first use) into ``--build-dir``
(default ``build/minimalloc``), adds the abseil-cpp commit MiniMalloc pins as its
submodule (exported from ``--abseil-git``, by default
``build/minimalloc/abseil-cpp.git``, cloned likewise; Debian 12's libabsl-dev, 20220623,
has no ``absl/log``, which MiniMalloc's CLI needs), leaves out its tests (no
googletest needed), and builds the ``minimalloc`` CLI with CMake (-j2). Or pass
``--minimalloc-src DIR``: a source tree that already holds
``external/abseil-cpp``. The build is done once and reused.

    python benchmarks/minimalloc.py INSTANCE.csv [--capacity 1048576] [--timeout 10]

prints whether the instance fits, the wall time we measured around the
subprocess, and the arena height of its solution.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_BUILD = REPO / "build" / "minimalloc"
DEFAULT_GIT = DEFAULT_BUILD / "minimalloc.git"
DEFAULT_ABSEIL_GIT = DEFAULT_BUILD / "abseil-cpp.git"
#: Where a default git directory that is not there yet is cloned from.
UPSTREAM = {
    DEFAULT_GIT: "https://github.com/google/minimalloc",
    DEFAULT_ABSEIL_GIT: "https://github.com/abseil/abseil-cpp",
}
CHALLENGING = [f"{c}.1048576.csv" for c in "ABCDEFGHIJK"]  # benchmarks/challenging/
CHALLENGING_CAPACITY = 1_048_576


def _git(git_dir: Path, *args: str) -> bytes:
    url = UPSTREAM.get(git_dir)
    if url is not None and not git_dir.exists():  # a default: clone it once
        git_dir.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "-q", "--bare", url, str(git_dir)], check=True)
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True
    ).stdout


def _export(git_dir: Path, rev: str, dest: Path) -> None:
    """Writes the tree of ``rev`` in ``git_dir`` into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    data = _git(git_dir, "archive", "--format=tar", rev)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")


def read_snapshot_file(path: str, git_dir: Path = DEFAULT_GIT) -> str:
    """The text of ``path`` at HEAD of MiniMalloc's git repository, e.g.
    ``read_snapshot_file("benchmarks/challenging/A.1048576.csv")``."""
    return _git(git_dir, "show", f"HEAD:{path}").decode()


def _without_tests(cmake_lists: str) -> str:
    """MiniMalloc's top CMakeLists.txt without googletest and its tests."""
    out = cmake_lists.replace("add_subdirectory(external/googletest EXCLUDE_FROM_ALL)", "")
    return out.replace("if(NOT SKBUILD)", "if(FALSE)")


def prepare_source(
    build_dir: Path = DEFAULT_BUILD,
    git_dir: Path = DEFAULT_GIT,
    abseil_git: Path = DEFAULT_ABSEIL_GIT,
) -> Path:
    """Exports MiniMalloc (HEAD) plus its pinned abseil into ``build_dir/src``
    once; returns the source directory."""
    src = build_dir / "src"
    if (src / ".exported").exists():
        return src
    build_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="src.", dir=build_dir))
    try:
        _export(git_dir, "HEAD", tmp)
        absl = tmp / "external" / "abseil-cpp"
        if not absl.is_dir() or not any(absl.iterdir()):
            line = _git(git_dir, "ls-tree", "HEAD", "external/abseil-cpp").decode().split()
            pinned = line[2]  # "160000 commit <sha>\texternal/abseil-cpp"
            _export(abseil_git, pinned, absl)
        cm = tmp / "CMakeLists.txt"
        cm.write_text(_without_tests(cm.read_text()))
        (tmp / ".exported").write_text("")
        if src.exists():
            shutil.rmtree(src)
        os.replace(tmp, src)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return src


def build(
    src: Path | None = None,
    build_dir: Path = DEFAULT_BUILD,
    git_dir: Path = DEFAULT_GIT,
    abseil_git: Path = DEFAULT_ABSEIL_GIT,
    jobs: int = 2,
) -> Path:
    """Configures and builds MiniMalloc's CLI (Release, ``-j jobs``) once;
    returns the path of the ``minimalloc`` binary."""
    build_dir = build_dir.resolve()
    if src is None:
        src = prepare_source(build_dir, git_dir, abseil_git)
    out = build_dir / "build"
    binary = out / "minimalloc"
    if binary.exists():
        return binary
    cfg = ["cmake", "-S", str(src), "-B", str(out), "-DCMAKE_BUILD_TYPE=Release"]
    if shutil.which("ccache"):
        cfg.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
    subprocess.run(cfg, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(
        ["cmake", "--build", str(out), "--target", "minimalloc", "-j", str(jobs)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return binary


@dataclass
class Result:
    """One MiniMalloc run: ``fits`` (a solution within the capacity was
    found), ``seconds`` (wall time around the subprocess, measured by us),
    ``offsets`` (id -> offset, when it printed a solution), ``height`` (the
    top of its solution) and ``status`` ("ok", or the error it logged:
    DEADLINE_EXCEEDED on timeout, NOT_FOUND when it proved no fit)."""

    fits: bool
    seconds: float
    offsets: dict[str, int] | None
    height: int | None
    status: str


def run(binary: Path, csv_path: Path, capacity: int, timeout: float | None = None) -> Result:
    """Runs MiniMalloc on the instance ``csv_path`` (columns id, lower, upper,
    size) with ``capacity`` bytes and an optional time limit in seconds."""
    with tempfile.TemporaryDirectory() as d:
        out_csv = Path(d) / "solution.csv"
        cmd = [
            str(binary),
            f"--capacity={capacity}",
            f"--input={csv_path}",
            f"--output={out_csv}",
        ]
        if timeout is not None:
            cmd.append(f"--timeout={timeout:g}s")
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        took = time.perf_counter() - t0
        if p.returncode != 0:
            log = p.stderr + p.stdout
            status = next(
                (
                    s
                    for s in ("DEADLINE_EXCEEDED", "NOT_FOUND", "ABORTED", "INVALID_ARGUMENT")
                    if s in log
                ),
                (log.strip().splitlines() or [f"exit {p.returncode}"])[-1],
            )
            return Result(False, took, None, None, status)
        rows = list(csv.DictReader(out_csv.read_text().splitlines()))
    offsets = {r["id"]: int(r["offset"]) for r in rows}
    height = max((int(r["offset"]) + int(r["size"]) for r in rows), default=0)
    return Result(height <= capacity, took, offsets, height, "ok")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instance", help="a CSV (id,lower,upper,size) or a letter A..K")
    ap.add_argument("--capacity", type=int, default=CHALLENGING_CAPACITY)
    ap.add_argument("--timeout", type=float, default=None, help="seconds")
    ap.add_argument("--minimalloc-src", type=Path, default=None)
    ap.add_argument("--minimalloc-git", type=Path, default=DEFAULT_GIT)
    ap.add_argument("--abseil-git", type=Path, default=DEFAULT_ABSEIL_GIT)
    ap.add_argument("--build-dir", type=Path, default=DEFAULT_BUILD)
    args = ap.parse_args(argv)
    binary = build(args.minimalloc_src, args.build_dir, args.minimalloc_git, args.abseil_git)
    path = Path(args.instance)
    with tempfile.TemporaryDirectory() as d:
        if len(args.instance) == 1 and not path.exists():
            path = Path(d) / f"{args.instance}.csv"
            path.write_text(
                read_snapshot_file(
                    f"benchmarks/challenging/{args.instance}.1048576.csv", args.minimalloc_git
                )
            )
        r = run(binary, path, args.capacity, args.timeout)
    print(
        f"{args.instance}: fits={r.fits} seconds={r.seconds:.3f} "
        f"height={r.height} status={r.status}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
