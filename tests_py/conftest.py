"""Shared fixtures: the real models live outside the repository (never
copied into it); see the models_dir fixture."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
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


def shared_models():
    """(name, path) of every shared .tflite model (empty when absent)."""
    if not MODELS_DIR.is_dir():
        return []
    return sorted(MODELS_DIR.glob("*.tflite"))


def model_params(asan_keep: tuple[str, ...] | None = None):
    """pytest params over the shared models, or one param that skips/fails.
    With ``asan_keep``, the other models are marked ``no_asan``: the ASan
    pass runs the test on those models only (the rest repeat its C++ paths)."""
    paths = shared_models()
    if paths:
        return [
            pytest.param(
                p,
                id=p.stem,
                marks=[] if asan_keep is None or p.stem in asan_keep else [pytest.mark.no_asan],
            )
            for p in paths
        ]
    return [pytest.param(None, id="no-shared-models")]


@pytest.fixture
def model_path(request):
    if request.param is None:
        _models_dir()  # skips, or fails under CI
    return request.param


def require_tflite_micro():
    """The real TFLM (``tflite_micro``); under CI its absence is a failure,
    elsewhere a skip that says so."""
    try:
        import tflite_micro
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("tflite-micro is missing under CI (pip install -r .ci/requirements.txt)")
        pytest.skip("tflite-micro is not installed")
    return tflite_micro


@contextlib.contextmanager
def ctrl_c_after(seconds: float, within: float = 3.0) -> Iterator[None]:
    """Ctrl-C (SIGINT's handler, raised by SIGALRM) `seconds` into the
    block, which must end in KeyboardInterrupt less than `within` seconds
    after it started."""
    old = signal.signal(signal.SIGALRM, signal.default_int_handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            yield
        assert time.monotonic() - t0 < within
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
