"""Bad model bytes always give ValueError naming the problem, never a crash.
(The exhaustive suite is the C++ model_tests, also run under ASan+UBSan.)"""

from __future__ import annotations

import numpy as np
import pytest

import tflm_arena as ta


def test_truncated_model_at_every_length(models_dir):
    data = (models_dir / "hello_world_int8.tflite").read_bytes()
    for n in range(len(data)):
        with pytest.raises(ValueError):
            ta.Model.from_bytes(data[:n])


def test_random_bytes_and_wrong_identifier():
    rng = np.random.default_rng(5)
    for _ in range(200):
        with pytest.raises(ValueError):
            ta.Model.from_bytes(
                rng.integers(0, 256, int(rng.integers(0, 400)), dtype=np.uint8).tobytes()
            )


def test_wrong_identifier_is_named(models_dir):
    data = bytearray((models_dir / "hello_world_int8.tflite").read_bytes())
    data[4:8] = b"XXXX"
    with pytest.raises(ValueError, match=r"identifier|TFL3"):
        ta.Model.from_bytes(bytes(data))


def test_bit_flips_never_crash(models_dir):
    data = (models_dir / "hello_world_int8.tflite").read_bytes()
    rng = np.random.default_rng(9)
    loaded = 0
    for _ in range(500):
        b = bytearray(data)
        for pos in rng.integers(0, len(b), 3):
            b[pos] ^= 1 << int(rng.integers(0, 8))
        try:
            m = ta.Model.from_bytes(bytes(b))
        except ValueError:
            continue
        loaded += 1
        try:  # whatever loads must be fully usable or fail cleanly
            _ = m.subgraphs
            ta.plan(m)
        except ValueError:
            pass
    assert loaded > 0
