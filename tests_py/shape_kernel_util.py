"""Helpers shared by the data-movement kernel parity tests
(test_kernel_strided_slice.py, test_kernel_pad.py, ...): run a model in our
Interpreter and in the tflite_micro wheel on the same random inputs and
compare every output (integers bit for bit, float32 within 1e-5 relative),
and read the memory both report."""
from __future__ import annotations


import numpy as np

import tflm_arena as ta
import tflm_reference as ref


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


def compare(data: bytes, n_runs: int = 3, seed: int = 0):
    """Runs both interpreters n_runs times on random inputs; returns them."""
    m = ta.Model.from_bytes(data)
    ours = ta.Interpreter(m)
    theirs = ref.interpreter(data)
    rng = np.random.default_rng(seed)
    for _ in range(n_runs):
        xs = []
        for i in range(len(m.inputs)):
            d = theirs.get_input_details(i)
            xs.append(random_input(d["dtype"], d["shape"], rng))
        want = ref.run(theirs, xs, len(m.outputs))
        for i, x in enumerate(xs):
            ours.set_input(x, i)
        ours.invoke()
        for o, y in enumerate(want):
            assert_same(ours.get_output(o), y)
    return ours, theirs


def tflm_persistent_requested(theirs, n_io: int = 2) -> int:
    return ref.persistent_requested(theirs, n_io)


def ours_persistent_requested(ours) -> int:
    a = ours.allocations()
    return a["categories"].get("Persistent buffer data", {"requested_bytes": 0})["requested_bytes"]


def assert_memory_matches(ours, theirs, persistent: int):
    """The kernel's persistent bytes are TFLM's and the heads are equal."""
    assert ours_persistent_requested(ours) == persistent
    n_io = len(ours.model.inputs) + len(ours.model.outputs)
    assert tflm_persistent_requested(theirs, n_io) == persistent
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]


def shared_model_matches(path, runs: int = 20, seed: int = 10):
    """A shared model: outputs identical to TFLM's on `runs` random inputs,
    and the same head."""
    ours, theirs = ref.compare_runs(path.read_bytes(), runs, seed, atol=0)
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
