"""Every notebook runs top to bottom in a real Jupyter kernel (nbclient),
with no error output, from a copy of the notebooks folder outside the
repository: with the model given by the environment variable
TFLM_ARENA_MODEL, and with nothing given (the built-in demo model, which the
notebook says it uses). The figures the notebooks print equal the
library's. A model path that does not exist is an error naming it; one
notebook also runs through ``jupyter nbconvert --execute``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, require_tflite_micro

import tflm_arena
import tflm_arena as ta

# Time goes to Jupyter kernels (nbclient, nbconvert); the library calls the
# notebooks make are tested directly by the other files, also under ASan.
pytestmark = pytest.mark.no_asan

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
IDS = [p.stem for p in NOTEBOOKS]
#: Figures (image or inline SVG outputs) each notebook must show at least.
FIGURES = {
    "01_quickstart": 3,
    "02_smaller_arena": 2,
    "03_recording_and_preallocation": 3,
    "arena_tour": 0,
}
CELL_TIMEOUT = 120  # seconds per cell
ENV_MODEL = "the environment variable TFLM_ARENA_MODEL"
DEMO_LINE = "model: the built-in demo model, tflm_arena.examples.demo_model_bytes(), because"


def _needs(module: str):
    try:
        return __import__(module)
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{module} is missing under CI (pip install -r .ci/requirements.txt)")
        pytest.skip(f"{module} is not installed")


def _kernel_env(monkeypatch) -> None:
    """The kernel inherits this process's environment: it imports the same
    tflm_arena build (and matplotlib) as this test, and draws no windows."""
    import matplotlib

    first = [str(Path(tflm_arena.__file__).parents[1]), str(Path(matplotlib.__file__).parents[1])]
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(dict.fromkeys(first + rest)))
    monkeypatch.setenv("MPLBACKEND", "Agg")  # the notebooks select inline


def _model_env(monkeypatch, model: Path | None = None, models: Path | None = None) -> None:
    for name, value in (("TFLM_ARENA_MODEL", model), ("TFLM_ARENA_MODELS", models)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, str(value))


def _copy_notebooks(tmp_path: Path) -> Path:
    """A fresh copy of the notebooks folder outside the repository."""
    dest = tmp_path / "notebooks"
    shutil.copytree(REPO / "notebooks", dest)
    assert REPO not in dest.resolve().parents
    return dest


def _execute(path: Path, cwd: Path, monkeypatch, parameters: str | None = None):
    """Runs the notebook in a python3 kernel working in ``cwd``; returns it
    with its outputs. ``parameters`` is injected after the cell tagged
    "parameters", as papermill does."""
    _needs("nbclient"), _needs("ipykernel"), _needs("matplotlib")
    import nbformat
    from nbclient import NotebookClient

    _kernel_env(monkeypatch)
    nb = nbformat.read(path, as_version=4)
    if parameters is not None:
        k = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
        nb.cells.insert(k + 1, nbformat.v4.new_code_cell(parameters))
    NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    ).execute()
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


def _expected(stem: str, model: ta.Model) -> list[str]:
    """Lines each notebook prints, computed here with the library."""
    if stem == "01_quickstart":
        p = ta.plan(model)
        from tflm_arena import viz

        return [
            ta.tflm_arena(model, target="cortex-m").firmware_line(),
            f"peak: {p.lower_bound:,} bytes live at step {viz.peak_step(p)}",
        ]
    if stem == "02_smaller_arena":
        best = ta.plan(model, strategy="best", time_limit=2.0)
        planned = model.with_offline_plan(best)
        stock = ta.tflm_arena(model, target="x86-64", recording=True).min_arena_bytes
        ours = ta.tflm_arena(planned, target="x86-64", recording=True).min_arena_bytes
        saving = stock - ours
        return [
            f"stock TFLM needs {stock:,} bytes; with the written plan {ours:,}: "
            f"{saving:,} bytes ({saving / stock:.1%}) saved"
        ]
    head, pre_head = _heads_with_preallocated_input(model)
    if stem == "03_recording_and_preallocation":
        return [f"head {head:,} -> {pre_head:,} bytes: {head - pre_head:,} saved"]
    return [f"head saving: {head - pre_head:,} bytes"]


def _heads_with_preallocated_input(model: ta.Model):
    it = ta.Interpreter(model)
    it.allocate_tensors()
    raw = np.zeros(it.input(0).nbytes + 16, np.uint8)
    start = (-raw.ctypes.data) % 16
    buf = raw[start : start + it.input(0).nbytes].view(it.input(0).dtype).reshape(it.input(0).shape)
    pre = ta.Interpreter(model)
    pre.register_preallocated(model.inputs[0], buf)
    pre.allocate_tensors()
    return it.allocations()["head"], pre.allocations()["head"]


def _check(nb, stem: str, model: ta.Model) -> str:
    assert not [o for o in _outputs(nb) if o.get("output_type") == "error"]
    assert _figures(nb) >= FIGURES[stem], f"{stem}: too few figures"
    text = _text(nb)
    for line in _expected(stem, model):
        assert line in text, (line, text[-3000:])
    if stem == "arena_tour":  # print_allocations(): our runtime's figures, labelled
        assert "tflm_arena runtime: arena" in text
        assert (
            f"stock TFLM ({ta.DEFAULT_TARGET}, MicroAllocator, greedy planner), same model:" in text
        )
        assert "[RecordingMicroAllocator]" not in text
    return text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs_on_the_model_in_the_environment(path, models_dir, tmp_path, monkeypatch):
    if path.stem == "02_smaller_arena":
        require_tflite_micro()
    model_file = models_dir / "vww_96_int8.tflite"
    _model_env(monkeypatch, model=model_file)
    copy = _copy_notebooks(tmp_path)
    nb = _execute(copy / path.name, copy, monkeypatch)
    text = _check(nb, path.stem, ta.Model.load(model_file))
    assert f"model: {model_file} (from {ENV_MODEL})" in text
    assert "demo model" not in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_with_nothing_set_says_it_uses_the_demo_model(path, tmp_path, monkeypatch):
    if path.stem == "02_smaller_arena":
        require_tflite_micro()
    from tflm_arena.examples import demo_model_bytes

    _model_env(monkeypatch)
    copy = _copy_notebooks(tmp_path)
    nb = _execute(copy / path.name, copy, monkeypatch)
    text = _check(nb, path.stem, ta.Model.from_bytes(demo_model_bytes()))
    assert DEMO_LINE in text and "no shared models folder" in text


def test_notebook_finds_the_shared_models_from_inside_the_repository(models_dir, monkeypatch):
    """Run from a folder inside the repository (under build/, git-ignored)
    with nothing set: the shared models beside the repository are found."""
    base = REPO / "build"
    base.mkdir(exist_ok=True)
    cwd = Path(tempfile.mkdtemp(prefix="nb-cwd-", dir=base)) / "deeper"
    cwd.mkdir()
    try:
        _model_env(monkeypatch)
        nb = _execute(REPO / "notebooks" / "01_quickstart.ipynb", cwd, monkeypatch)
    finally:
        shutil.rmtree(cwd.parent, ignore_errors=True)
    model_file = models_dir / "vww_96_int8.tflite"
    text = _check(nb, "01_quickstart", ta.Model.load(model_file))
    assert f"model: {model_file} (from the shared models folder beside the repository)" in text


def test_models_folder_variable(models_dir, tmp_path, monkeypatch):
    _model_env(monkeypatch, models=models_dir)
    copy = _copy_notebooks(tmp_path)
    nb = _execute(copy / "arena_tour.ipynb", copy, monkeypatch)
    model_file = models_dir / "vww_96_int8.tflite"
    text = _check(nb, "arena_tour", ta.Model.load(model_file))
    assert (
        f"model: {model_file} (from the models folder in the environment variable "
        "TFLM_ARENA_MODELS)"
    ) in text


def test_a_model_path_that_does_not_exist_is_an_error_naming_it(models_dir, tmp_path, monkeypatch):
    """No silent switch to another model: the parameter (as papermill
    injects it) and the environment variable are each checked."""
    from nbclient.exceptions import CellExecutionError

    copy = _copy_notebooks(tmp_path)
    missing = tmp_path / "no such model.tflite"
    _model_env(monkeypatch, model=models_dir / "vww_96_int8.tflite")
    with pytest.raises(CellExecutionError) as e:
        _execute(
            copy / "01_quickstart.ipynb",
            copy,
            monkeypatch,
            parameters=f"MODEL_PATH = {str(missing)!r}",
        )
    assert f"model not found: {missing} (from the MODEL_PATH parameter)" in str(e.value)
    _model_env(monkeypatch, model=missing)
    with pytest.raises(CellExecutionError) as e:
        _execute(copy / "arena_tour.ipynb", copy, monkeypatch)
    assert f"model not found: {missing} (from {ENV_MODEL})" in str(e.value)


def test_jupyter_nbconvert_executes_a_notebook(models_dir, tmp_path, monkeypatch):
    """The documented command, in a subprocess:
    jupyter nbconvert --to notebook --execute NOTEBOOK."""
    _needs("nbconvert"), _needs("ipykernel"), _needs("matplotlib")
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.is_file():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"no jupyter command beside {sys.executable} under CI")
        pytest.skip(f"no jupyter command beside {sys.executable}")
    _kernel_env(monkeypatch)
    model_file = models_dir / "vww_96_int8.tflite"
    _model_env(monkeypatch, model=model_file)
    copy = _copy_notebooks(tmp_path)
    out = tmp_path / "executed"
    r = subprocess.run(
        [
            str(jupyter),
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            f"--ExecutePreprocessor.timeout={CELL_TIMEOUT}",
            "--output-dir",
            str(out),
            str(copy / "01_quickstart.ipynb"),
        ],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    import nbformat

    nb = nbformat.read(out / "01_quickstart.ipynb", as_version=4)
    text = _check(nb, "01_quickstart", ta.Model.load(model_file))
    assert f"model: {model_file} (from {ENV_MODEL})" in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_first_code_cell_is_the_tagged_parameters_cell(path):
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    assert cells[0]["metadata"].get("tags") == ["parameters"]
    source = "".join(cells[0]["source"])
    assert "\nMODEL_PATH = None" in source
    assert not any(
        line.strip() and not line.startswith("#")
        for line in source.splitlines()
        if "MODEL_PATH = None" not in line
    )
    assert all(not c.get("outputs") for c in cells)  # stored without outputs


def test_every_new_notebook_is_listed():
    assert {p.stem for p in NOTEBOOKS} == set(FIGURES)
