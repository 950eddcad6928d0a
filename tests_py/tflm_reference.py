"""Runs models in the real TFLM (the ``tflite_micro`` PyPI package) and reads
what it reports. TFLM prints allocations to the process's C-level stderr, so
that file descriptor is redirected while it prints."""

from __future__ import annotations

import os
import re
import tempfile

import numpy as np
from conftest import require_tflite_micro

from tflm_arena import _sample_models as sample_models


class _Runtime:
    """tflite_micro.runtime, imported on first use (so collecting this
    module never loads TFLM; see conftest.require_tflite_micro)."""

    def __getattr__(self, name):
        return getattr(require_tflite_micro().runtime, name)


runtime = _Runtime()

ARENA = 8 << 20  # TFLM's default (10x the model size) is too small for some models


def interpreter(data: bytes):
    return runtime.Interpreter.from_bytes(data, arena_size=ARENA)


def allocations_text(it) -> str:
    """TFLM's print_allocations() output (written to the C-level stderr,
    so fd 2 is captured while it prints)."""
    with tempfile.TemporaryFile() as f:
        saved = os.dup(2)
        try:
            os.dup2(f.fileno(), 2)
            it.print_allocations()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        return f.read().decode()


def allocations(it) -> dict[str, int]:
    """{'total', 'head', 'tail'} bytes from TFLM's print_allocations()."""
    return {
        k: int(v)
        for k, v in re.findall(r"Arena allocation (\w+) (\d+) bytes", allocations_text(it))
    }


def persistent_requested(it, n_io: int = 0) -> int:
    """'Persistent buffer data' requested bytes of TFLM's print_allocations()
    minus its interpreter's input and output pointer arrays (8 bytes per
    model input and output, n_io of them, on 64-bit): what the kernels asked for."""
    m = re.search(
        r"'Persistent buffer data' used \d+ bytes with alignment overhead "
        r"\(requested (\d+) bytes",
        allocations_text(it),
    )
    return (int(m.group(1)) if m else 0) - 8 * n_io


# One random array per input of a TFLM interpreter (integers over their
# type's whole range, floats standard normal): random_inputs(it, n, rng).
random_inputs = sample_models.random_inputs


def run(it, xs, n_outputs: int) -> tuple[np.ndarray, ...]:
    for i, x in enumerate(xs):
        it.set_input(x, i)
    it.invoke()
    return tuple(it.get_output(i) for i in range(n_outputs))


def compare_runs(data: bytes, n_runs: int, seed: int = 0, atol: float = 1e-6, make_inputs=None):
    """Runs one input sequence through our Interpreter and TFLM's (state
    carried over between runs) and asserts equal outputs: same dtype and
    shape, bit-exact for integer types, within rtol 1e-5 (+ atol) for float.
    Input i of each run is ``make_inputs(details, rng)`` (details: TFLM's
    get_input_details(i)), by default random over the input type's range.
    Returns (ours, theirs)."""
    import tflm_arena as ta

    m = ta.Model.from_bytes(data)
    ours = ta.Interpreter(m)
    theirs = interpreter(data)
    rng = np.random.default_rng(seed)
    for _ in range(n_runs):
        if make_inputs is None:
            xs = random_inputs(theirs, len(m.inputs), rng)
        else:
            xs = [make_inputs(theirs.get_input_details(i), rng) for i in range(len(m.inputs))]
        want = run(theirs, xs, len(m.outputs))
        for i, x in enumerate(xs):
            ours.set_input(x, i)
        ours.invoke()
        for o, w in enumerate(want):
            got = ours.get_output(o)
            assert got.dtype == w.dtype and got.shape == w.shape, (
                o,
                got.dtype,
                w.dtype,
                got.shape,
                w.shape,
            )
            if w.dtype.kind == "f":
                np.testing.assert_allclose(got, w, rtol=1e-5, atol=atol)
            else:
                np.testing.assert_array_equal(got, w)
    return ours, theirs
