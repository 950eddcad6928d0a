"""CAST end to end through our interpreter against the real TFLM
(tflite_micro wheel): every supported input type (INT8, INT16, INT32,
UINT32, FLOAT32, BOOL) to every output type (INT8, INT16, INT32, UINT32,
FLOAT32), with values that wrap when narrowed and floats beyond the target's
range (undefined C++ in TFLM: the wheel's x86-64 results are reproduced);
no persistent memory and the same head; hostile nodes refused by name."""

from __future__ import annotations

import elementwise_parity as ep
import numpy as np
import pytest

INS = ["int8", "int16", "int32", "uint32", "float32", "bool"]
OUTS = ["int8", "int16", "int32", "uint32", "float32"]


def _values(dtype, rng, n=48):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=n).astype(bool)
    if dt.kind == "f":
        x = (rng.standard_normal(n) * 1000).astype(np.float32)
        x[:6] = [0.0, -0.0, 0.5, -0.5, 127.9, -128.9]
        return x
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, size=n, endpoint=True).astype(dt)
    x[:2] = [info.min, info.max]
    return x


@pytest.mark.parametrize("src", INS)
def test_every_type_pair(src):
    rng = np.random.default_rng(len(src))
    x = _values(src, rng)
    for dst in OUTS:
        mb = ep.ModelBuilder()
        a = mb.add_tensor([48], src, "x")
        y = mb.add_tensor([48], dst, "y")
        mb.add_operator("CAST", [a], [y], options={"in_data_type": src, "out_data_type": dst})
        mb.set_io([a], [y])
        ep.compare(mb.build(), n_runs=1, make_inputs=lambda d, r: x)


def test_floats_beyond_the_targets_range():
    x = np.array(
        [
            np.nan,
            np.inf,
            -np.inf,
            3e9,
            -3e9,
            1e20,
            -1e20,
            4294967295.0,
            -1.0,
            65536.5,
            2147483520.0,
            -2147483648.0,
        ],
        np.float32,
    )
    for dst in OUTS[:4]:
        ep.compare(
            ep.unary_model("CAST", "float32", [x.size], out_dtype=dst),
            n_runs=1,
            make_inputs=lambda d, r: x,
        )


def test_memory_requests_match_tflm():
    ep.assert_memory_matches(ep.unary_model("CAST", "int8", [1, 5, 5, 4], out_dtype="float32"), 0)


def test_hostile_nodes_are_refused_by_name():
    mb = ep.ModelBuilder()
    x = mb.add_tensor([4], "float32", "x")
    y = mb.add_tensor([5], "int32", "y")
    mb.add_operator("CAST", [x], [y])
    mb.set_io([x], [y])
    ep.assert_refused(mb.build(), r"CAST: input has 4 elements but output has 5")
    ep.assert_refused(
        ep.unary_model("CAST", "float32", [4], out_dtype="bool"),
        r"CAST: input FLOAT32, output BOOL not supported",
    )
    ep.assert_refused(
        ep.unary_model("CAST", "int64", [4], out_dtype="int32"),
        r"CAST: input INT64, output INT32 not supported",
    )
