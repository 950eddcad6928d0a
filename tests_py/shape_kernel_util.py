"""Helpers shared by the data-movement kernel parity tests
(test_kernel_strided_slice.py, test_kernel_pad.py, ...): run a model in our
Interpreter and in the tflite_micro wheel on the same random inputs and
compare every output (integers bit for bit, float32 within 1e-5 relative),
and read the memory both report."""

from __future__ import annotations

import numpy as np
import tflm_reference as ref

# Re-exported for the data-movement tests: one implementation of each check.
from elementwise_parity import assert_refused, shared_model_matches  # noqa: F401
from elementwise_parity import (  # noqa: F401
    assert_run_memory_matches as assert_memory_matches,
)


def random_input(dtype, shape, rng):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 4).astype(dtype)
    info = np.iinfo(dtype)
    lo, hi = max(info.min, -(1 << 20)), min(info.max, 1 << 20)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


def assert_same(got, want):
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=0)
    else:
        np.testing.assert_array_equal(got, want)


def _random_inputs(d, rng):
    return random_input(d["dtype"], d["shape"], rng)


def compare(data: bytes, n_runs: int = 3, seed: int = 0):
    """Runs both interpreters n_runs times on random inputs (random_input)
    and asserts identical outputs; returns (ours, theirs)."""
    return ref.compare_runs(data, n_runs, seed, atol=0, make_inputs=_random_inputs)
