"""Shared by the elementwise kernels' parity tests (SUB, MUL, DIV, MAXIMUM,
MINIMUM, RELU, RELU6, LOGISTIC, TANH, HARD_SWISH, CAST): one-operator models
built with our builder, run in our Interpreter and in the real TFLM
(tflite_micro wheel), compared bit for bit (integers) or within 1e-5
relative (float32); TFLM's persistent request and head for the memory
checks."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def tensor(mb, shape, dtype, name, q=None, data=None):
    """A tensor; `q` = (scale, zero_point) or None; `data` makes it constant."""
    kw = {}
    if q is not None:
        kw = {"scale": [q[0]], "zero_point": [q[1]]}
    if data is not None:
        kw["data"] = np.asarray(data, dtype=dtype)
    return mb.add_tensor(shape, dtype, name, **kw)


def binary_model(
    op, dtype, s1, s2, so, q1=None, q2=None, qo=None, options=None, const2=None, out_dtype=None
) -> bytes:
    """in1 (s1) op in2 (s2) -> out (so); in2 constant when `const2` is given."""
    mb = ModelBuilder()
    a = tensor(mb, s1, dtype, "a", q1)
    b = tensor(mb, s2, dtype, "b", q2, const2)
    y = tensor(mb, so, out_dtype or dtype, "y", qo)
    mb.add_operator(op, [a, b], [y], options=options)
    mb.set_io([a] if const2 is not None else [a, b], [y])
    return mb.build()


def unary_model(op, dtype, shape, q_in=None, q_out=None, options=None, out_dtype=None) -> bytes:
    mb = ModelBuilder()
    x = tensor(mb, shape, dtype, "x", q_in)
    y = tensor(mb, shape, out_dtype or dtype, "y", q_out)
    mb.add_operator(op, [x], [y], options=options)
    mb.set_io([x], [y])
    return mb.build()


def random_like(dtype, shape, rng, scale=4.0):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * scale).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    info = np.iinfo(dtype)
    lo, hi = max(info.min, -(1 << 20)), min(info.max, 1 << 20)
    if dtype.itemsize <= 2:
        lo, hi = info.min, info.max
    x = rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    if x.size >= 2 and dtype.itemsize <= 2:
        x.flat[:2] = [info.min, info.max]
    return x


def _random_like_inputs(d, rng):
    return random_like(d["dtype"], d["shape"], rng)


def compare(data: bytes, n_runs=6, seed=0, make_inputs=None):
    """Runs both interpreters on `n_runs` inputs (`make_inputs(details, rng)`,
    by default random_like) and asserts identical outputs (float32 within
    1e-5 relative); returns (ours, theirs)."""
    return ref.compare_runs(
        data, n_runs, seed, atol=0, make_inputs=make_inputs or _random_like_inputs
    )


def tflm_persistent_requested(theirs, n_io: int) -> int:
    return ref.persistent_requested(theirs, n_io)


def our_persistent_requested(ours) -> int:
    cats = ours.allocations()["categories"]
    return cats.get("Persistent buffer data", {"requested_bytes": 0})["requested_bytes"]


def assert_run_memory_matches(ours, theirs, persistent: int):
    """After a run: the kernel's persistent request is `persistent` bytes in
    both interpreters, and the heads are equal."""
    assert our_persistent_requested(ours) == persistent
    n_io = len(ours.model.inputs) + len(ours.model.outputs)
    assert tflm_persistent_requested(theirs, n_io) == persistent
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]


def assert_memory_matches(data: bytes, persistent: int, n_runs=1):
    """Same outputs, the kernel's persistent request is `persistent` bytes in
    both, and the same head."""
    assert_run_memory_matches(*compare(data, n_runs=n_runs), persistent)


def assert_refused(data: bytes, pattern: str):
    """Loads, but allocate_tensors() refuses the node with a message
    matching `pattern`."""
    m = ta.Model.from_bytes(data)
    with pytest.raises(Exception, match=pattern):
        ta.Interpreter(m).allocate_tensors()


def shared_model_matches(path, seed=10, n=20):
    """The shared model runs with outputs identical to TFLM's on `n` random
    inputs, with the same head."""
    assert path.exists(), f"{path} is missing from the shared models"
    ours, theirs = ref.compare_runs(path.read_bytes(), n, seed, atol=0)
    assert ours.allocations()["head"] == ref.allocations(theirs)["head"]
