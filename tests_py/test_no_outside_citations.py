"""The repository stands on its own: no tracked file (code, comments, docs,
CMake, CI scripts, test data headers, notebooks) names a machine path, a
folder outside the repository other than the shared models the tests read
(``../shared/models``, a configured default), the tools that made the
oracle tables, a notes file, or an issue by number. Facts are stated where
they are used."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: What may not appear, each with what it is.
FORBIDDEN = {
    "a machine path": r"/w[o]rk/",
    "a snapshot folder outside the repository": r"\.mi[r]ror\b",
    "a notes file": r"field_[n]otes",
    "an issue by number": r"\b[Ii]ssues?\s*#?\d+",
    "a folder beside the repository": r"\.\./sh[a]red(?!/models)",
    "the oracle's own files": r"tflm_[o]racle(?!_[a-z0-9_*]+\.tsv)|run_[o]racle",
}
PATTERN = re.compile("|".join(f"(?:{p})" for p in FORBIDDEN.values()))


def _tracked() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    return [REPO / p.decode() for p in out.split(b"\0") if p]


def offending_lines(paths: list[Path]) -> list[str]:
    """``path:line: text`` of every line that matches one of FORBIDDEN
    (binary files are skipped)."""
    found = []
    for p in paths:
        try:
            text = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if PATTERN.search(line):
                name = p.relative_to(REPO) if p.is_relative_to(REPO) else p
                found.append(f"{name}:{i}: {line.strip()[:100]}")
    return found


def test_no_tracked_file_cites_outside_the_repository():
    paths = [p for p in _tracked() if p != Path(__file__).resolve()]  # not its own examples
    kinds = {p.suffix for p in paths}
    # the walk covers code, docs, CMake, scripts, data headers and notebooks
    assert {".cc", ".h", ".py", ".md", ".txt", ".cmake", ".sh", ".tsv", ".ipynb"} <= kinds
    assert offending_lines(paths) == []


@pytest.mark.parametrize(
    "line",
    [
        "// see issue 7 for the defect",
        "# Issue #12's goal",
        "models in ../shared/docs/notes",
        "built by tools/run_oracle.sh",
        "the tflm_oracle recipe",
        "snapshot in .mirror/google+minimalloc/repo",
        "/work/main/build",
    ],
)
def test_each_kind_is_caught(tmp_path, line):
    f = tmp_path / "x.cc"
    f.write_text(f"int a;\n{line}\n")
    assert offending_lines([f]) == [f"{f}:2: {line}"]


def test_allowed_names_pass():
    for line in (
        "tests read ../shared/models",
        "benchmarks/data/tflm_oracle_armhf.tsv",
        "docs: no issue numbers",
    ):
        assert not PATTERN.search(line), line
