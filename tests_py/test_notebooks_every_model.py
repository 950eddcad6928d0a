"""The four notebooks on every shared model: each runs top to bottom in a
real Jupyter kernel with the model given by TFLM_ARENA_MODEL, shows its
figures and prints the library's figures for that model (test_notebooks.py
checks the rest of their behaviour on one model)."""

from __future__ import annotations

import pytest
from conftest import model_params, require_tflite_micro
from test_notebooks import NOTEBOOKS, _check, _copy_notebooks, _execute, _model_env

import tflm_arena as ta

pytestmark = pytest.mark.no_asan


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_every_notebook_runs_on_the_model(model_path, tmp_path, monkeypatch):
    require_tflite_micro()  # 02_smaller_arena runs the wheel
    _model_env(monkeypatch, model=model_path)
    copy = _copy_notebooks(tmp_path)
    model = ta.Model.load(model_path)
    for path in NOTEBOOKS:
        nb = _execute(copy / path.name, copy, monkeypatch)
        text = _check(nb, path.stem, model)
        assert f"model: {model_path} (from the environment variable TFLM_ARENA_MODEL)" in text
