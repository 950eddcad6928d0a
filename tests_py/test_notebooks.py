"""Every notebook runs top to bottom in a real Jupyter kernel (nbclient),
with no error output, from a working folder that is not the notebooks
folder (so their model lookup is what finds the models), and shows figures
where it should. The notebooks' own ``assert`` cells check what they show."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import tflm_arena
from conftest import REPO, require_tflite_micro

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
#: Figures (image or inline SVG outputs) each notebook must show at least.
FIGURES = {"01_quickstart": 3, "02_smaller_arena": 2, "03_recording_and_preallocation": 3,
           "arena_tour": 0}
CELL_TIMEOUT = 120  # seconds per cell


def _needs(module: str):
    try:
        return __import__(module)
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{module} is missing under CI (pip install -r .ci/requirements.txt)")
        pytest.skip(f"{module} is not installed")


def _execute(path: Path, cwd: Path, monkeypatch):
    """Runs the notebook in a python3 kernel working in ``cwd``; returns it
    with its outputs. The kernel inherits this process's environment: it
    imports the same tflm_arena build (and matplotlib) as this test."""
    _needs("nbclient"), _needs("ipykernel"), _needs("matplotlib")
    import matplotlib
    import nbformat
    from nbclient import NotebookClient

    first = [str(Path(tflm_arena.__file__).parents[1]), str(Path(matplotlib.__file__).parents[1])]
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(dict.fromkeys(first + rest)))
    monkeypatch.setenv("MPLBACKEND", "Agg")  # never a window; the notebooks select inline
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


def _outputs(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def _figures(nb) -> int:
    n = 0
    for o in _outputs(nb):
        data = o.get("data", {})
        if "image/png" in data or "image/svg+xml" in data or "<svg" in data.get("text/html", ""):
            n += 1
    return n


def _text(nb) -> str:
    return "".join(o.get("text", "") for o in _outputs(nb) if o.get("output_type") == "stream")


@pytest.fixture
def cwd_in_repo():
    """A fresh folder inside the repository (under build/, git-ignored), not
    the notebooks folder: the lookup must walk up from here."""
    base = REPO / "build"
    base.mkdir(exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix="nb-cwd-", dir=base)) / "deeper"
    path.mkdir()
    yield path
    shutil.rmtree(path.parent, ignore_errors=True)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_with_figures(path, models_dir, cwd_in_repo, monkeypatch):
    if path.stem == "02_smaller_arena":
        require_tflite_micro()
    nb = _execute(path, cwd_in_repo, monkeypatch)
    outs = _outputs(nb)
    assert not [o for o in outs if o.get("output_type") == "error"]
    assert _figures(nb) >= FIGURES.get(path.stem, 1), f"{path.name}: too few figures"
    text = _text(nb)
    if path.stem == "arena_tour":
        assert "head saving: 18432 bytes" in text
        assert "tflm_arena runtime: arena" in text and "(head 73728, tail" in text
        assert "stock TFLM (cortex-m, MicroAllocator, greedy planner), same model:" in text
        assert "[RecordingMicroAllocator]" not in text  # our runtime's figures
    else:  # the shared models were found by walking up from cwd_in_repo
        assert f"model: {models_dir / 'vww_96_int8.tflite'}" in text
        assert "shared models folder not found" not in text
    if path.stem == "02_smaller_arena":
        assert "18,432 bytes (17.8%) saved" in text  # vww: 103,672 -> 85,240 in the wheel
    if path.stem == "03_recording_and_preallocation":
        assert "head 73,728 -> 55,296 bytes: 18,432 saved" in text
        assert "lower bound of the other buffers: 55,296 bytes" in text


FALLBACK = [p for p in NOTEBOOKS if p.stem != "arena_tour"]


@pytest.mark.parametrize("path", FALLBACK, ids=[p.stem for p in FALLBACK])
def test_notebook_without_the_shared_models_uses_a_built_model(path, tmp_path, monkeypatch):
    """Outside the repository the notebooks say so and run on the demo model."""
    if path.stem == "02_smaller_arena":
        require_tflite_micro()
    nb = _execute(path, tmp_path, monkeypatch)
    assert not [o for o in _outputs(nb) if o.get("output_type") == "error"]
    assert "shared models folder not found" in _text(nb)
    assert _figures(nb) >= FIGURES[path.stem]


def test_every_new_notebook_is_listed():
    assert {p.stem for p in NOTEBOOKS} == set(FIGURES)
