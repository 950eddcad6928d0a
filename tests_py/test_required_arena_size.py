"""arena_size=None measures the exact arena in one allocation run: the size
equals the smallest working arena found by bisection over real allocations,
on every shared model our interpreter runs and on built models."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import model_params

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _fits(m: ta.Model, size: int) -> bool:
    try:
        ta.Interpreter(m, arena_size=size).allocate_tensors()
    except ta.ArenaTooSmallError:
        return False
    return True


def bisect_minimum(m: ta.Model) -> int:
    hi = 1024
    while not _fits(m, hi):
        hi *= 2
    lo = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _fits(m, mid):
            hi = mid
        else:
            lo = mid
    return hi


def _check(m: ta.Model) -> None:
    it = ta.Interpreter(m)
    it.allocate_tensors()
    assert it.arena_size == it.required_arena_size() == bisect_minimum(m)


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_one_run_size_equals_bisection_on_shared_models(model_path):
    _check(ta.Model.load(model_path))  # every shared model runs


def _q(mb, shape, name, scale, zp, dtype="int8"):
    return mb.add_tensor(shape, dtype, name, scale=[scale], zero_point=[zp])


def _built_models():
    rng = np.random.default_rng(3)
    # A chain of conv / depthwise / pool / FC / softmax (persistent kernel data,
    # planning temp larger than the head for the small tensors).
    mb = ModelBuilder()
    x = _q(mb, [1, 16, 16, 4], "x", 0.05, -3)
    w = mb.add_tensor(
        [8, 3, 3, 4],
        "int8",
        "w",
        data=rng.integers(-127, 128, (8, 3, 3, 4)),
        scale=list(rng.uniform(0.002, 0.02, 8)),
        zero_point=[0] * 8,
    )
    b = mb.add_tensor([8], "int32", "b", data=rng.integers(-500, 500, 8))
    c = _q(mb, [1, 16, 16, 8], "c", 0.1, 2)
    mb.add_operator("CONV_2D", [x, w, b], [c], options={"padding": "SAME"})
    dw = mb.add_tensor(
        [1, 3, 3, 8],
        "int8",
        "dw",
        data=rng.integers(-127, 128, (1, 3, 3, 8)),
        scale=list(rng.uniform(0.002, 0.02, 8)),
        zero_point=[0] * 8,
        quantized_dimension=3,
    )
    db = mb.add_tensor([8], "int32", "db", data=rng.integers(-500, 500, 8))
    d = _q(mb, [1, 16, 16, 8], "d", 0.1, 2)
    mb.add_operator(
        "DEPTHWISE_CONV_2D", [c, dw, db], [d], options={"padding": "SAME", "depth_multiplier": 1}
    )
    p = _q(mb, [1, 8, 8, 8], "p", 0.1, 2)
    mb.add_operator(
        "MAX_POOL_2D",
        [d],
        [p],
        options={
            "padding": "VALID",
            "stride_w": 2,
            "stride_h": 2,
            "filter_width": 2,
            "filter_height": 2,
        },
    )
    r = _q(mb, [1, 512], "r", 0.1, 2)
    mb.add_operator("RESHAPE", [p], [r])
    fw = mb.add_tensor(
        [10, 512],
        "int8",
        "fw",
        data=rng.integers(-127, 128, (10, 512)),
        scale=[0.01],
        zero_point=[0],
    )
    f = _q(mb, [1, 10], "f", 0.2, -10)
    mb.add_operator("FULLY_CONNECTED", [r, fw, -1], [f])
    s = _q(mb, [1, 10], "s", 1.0 / 256, -128)
    mb.add_operator("SOFTMAX", [f], [s], options={"beta": 1.0})
    mb.set_io([x], [s])
    yield "conv_chain", mb.build()
    # A long chain of small float ADDs: planning temp dominates.
    mb = ModelBuilder()
    t = mb.add_tensor([1, 4], "float32", "t0")
    first = t
    for i in range(60):
        u = mb.add_tensor([1, 4], "float32", f"t{i + 1}")
        mb.add_operator("ADD", [t, first], [u])
        t = u
    mb.set_io([first], [t])
    yield "add_chain_60", mb.build()
    # Large activations: beyond any small first guess.
    mb = ModelBuilder()
    a = _q(mb, [1, 256, 256, 16], "a", 0.05, 1)
    o = _q(mb, [1, 256, 256, 16], "o", 0.05, 1)
    mb.add_operator("ADD", [a, a], [o])
    mb.set_io([a], [o])
    yield "add_4mib", mb.build()


@pytest.mark.parametrize(
    "name,data", list(_built_models()), ids=lambda v: v if isinstance(v, str) else ""
)
def test_one_run_size_equals_bisection_on_built_models(name, data):
    _check(ta.Model.from_bytes(data))
