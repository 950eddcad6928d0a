"""Every notebook's code cells run top to bottom (from the notebook's folder,
as Jupyter would) without error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, models_dir, monkeypatch, capsys):
    cells = json.loads(path.read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert code, "notebook has no code"
    monkeypatch.chdir(path.parent)
    scope: dict = {"__name__": "__main__"}
    for i, src in enumerate(code):
        exec(compile(src, f"{path.name}[cell {i}]", "exec"), scope)
    out = capsys.readouterr().out
    if path.stem == "arena_tour":
        assert "head saving: 18432 bytes" in out
        assert "[RecordingMicroAllocator] Arena allocation head 73728 bytes" in out


def test_there_is_a_notebook():
    assert NOTEBOOKS
