"""Shared fixtures: the real models live in ../shared/models (never copied)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MODELS_DIR = REPO.parent / "shared" / "models"


def _models_dir() -> Path:
    if MODELS_DIR.is_dir():
        return MODELS_DIR
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"shared models folder missing under CI: {MODELS_DIR}")
    pytest.skip(f"shared models folder not found at {MODELS_DIR}")


@pytest.fixture(scope="session")
def models_dir() -> Path:
    return _models_dir()
