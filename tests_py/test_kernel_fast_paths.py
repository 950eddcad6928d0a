"""The speed paths against the real TFLM, bit for bit: the
int8 ADD input tables (>= 1024 outputs), the int8 softmax exp table (>= 128
values), pointer-walking pooling windows with padding, and QUANTIZE's
rounding without std::round (values exactly on .5 included)."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder


def _q(mb, shape, name, scale, zp, dtype="int8"):
    return mb.add_tensor(shape, dtype, name, scale=[scale], zero_point=[zp])


def _compare(data: bytes, inputs=None, n_runs: int = 4, seed: int = 0) -> None:
    m = ta.Model.from_bytes(data)
    ours = ta.Interpreter(m)
    theirs = ref.interpreter(data)
    rng = np.random.default_rng(seed)
    for _ in range(n_runs):
        xs = inputs if inputs is not None else ref.random_inputs(theirs, len(m.inputs), rng)
        want = ref.run(theirs, xs, len(m.outputs))
        for i, x in enumerate(xs):
            ours.set_input(x, i)
        ours.invoke()
        for o, y in enumerate(want):
            got = ours.get_output(o)
            if y.dtype.kind == "f":
                np.testing.assert_allclose(got, y, rtol=1e-5, atol=1e-6)
            else:
                np.testing.assert_array_equal(got, y)
        if inputs is not None:
            break


@pytest.mark.parametrize("dtype", ["int8", "int16"])
@pytest.mark.parametrize(
    "shapes",
    [
        ([1, 16, 16, 8], [1, 16, 16, 8]),  # 2048: table path
        ([1, 16, 16, 8], [1, 1, 1, 8]),  # broadcast, table
        ([2, 1, 40, 16], [1, 3, 1, 16]),  # both broadcast
        ([1, 5, 7], [1, 5, 7]),
    ],
)  # small: no table
@pytest.mark.parametrize(
    "scales,act",
    [((0.05, 0.02, 0.06), "NONE"), ((0.01, 0.3, 0.25), "RELU"), ((0.11, 0.11, 0.05), "RELU6")],
)
def test_add_fast_paths(dtype, shapes, scales, act):
    a_shape, b_shape = shapes
    zps = (0, 0, 0) if dtype == "int16" else (7, -20, -3)
    mb = ModelBuilder()
    a = _q(mb, a_shape, "a", scales[0], zps[0], dtype)
    b = _q(mb, b_shape, "b", scales[1], zps[1], dtype)
    out_shape = list(np.broadcast_shapes(tuple(a_shape), tuple(b_shape)))
    y = _q(mb, out_shape, "y", scales[2], zps[2], dtype)
    mb.add_operator("ADD", [a, b], [y], options={"fused_activation_function": act})
    mb.set_io([a, b], [y])
    _compare(mb.build())


@pytest.mark.parametrize("out_dtype", ["int8", "int16"])
@pytest.mark.parametrize("shape", [[4, 64], [1, 3, 50], [2, 5]])  # table, table, direct
@pytest.mark.parametrize("in_scale,beta", [(0.1, 1.0), (0.5, 1.0), (0.02, 2.0), (1.0, 0.7)])
def test_softmax_int8_fast_paths(out_dtype, shape, in_scale, beta):
    mb = ModelBuilder()
    x = _q(mb, shape, "x", in_scale, 5)
    y = (
        _q(mb, shape, "y", 1.0 / 256, -128)
        if out_dtype == "int8"
        else _q(mb, shape, "y", 1.0 / 65536, -32768, "int16")
    )
    mb.add_operator("SOFTMAX", [x], [y], options={"beta": beta})
    mb.set_io([x], [y])
    _compare(mb.build())


@pytest.mark.parametrize("op", ["MAX_POOL_2D", "AVERAGE_POOL_2D"])
@pytest.mark.parametrize("dtype", ["int8", "int16", "float32"])
@pytest.mark.parametrize(
    "padding,stride,filt", [("SAME", 2, 3), ("VALID", 1, 2), ("SAME", 3, 5), ("VALID", 2, 4)]
)
def test_pooling_fast_paths(op, dtype, padding, stride, filt):
    in_shape = [2, 11, 9, 5]

    def out_extent(n):
        return -(-n // stride) if padding == "SAME" else (n - filt) // stride + 1

    out_shape = [2, out_extent(11), out_extent(9), 5]
    mb = ModelBuilder()
    if dtype == "float32":
        x, y = mb.add_tensor(in_shape, dtype, "x"), mb.add_tensor(out_shape, dtype, "y")
    else:
        x = _q(mb, in_shape, "x", 0.1, 0 if dtype == "int16" else 2, dtype)
        y = _q(mb, out_shape, "y", 0.1, 0 if dtype == "int16" else 2, dtype)
    mb.add_operator(
        op,
        [x],
        [y],
        options={
            "padding": padding,
            "stride_w": stride,
            "stride_h": stride,
            "filter_width": filt,
            "filter_height": filt,
        },
    )
    mb.set_io([x], [y])
    _compare(mb.build())


@pytest.mark.parametrize(
    "dtype,scale,zp", [("int8", 0.5, 3), ("int8", 0.1, -7), ("int16", 0.25, 0), ("int16", 0.003, 0)]
)
def test_quantize_rounding_on_halves_and_out_of_range(dtype, scale, zp):
    n = 4096
    rng = np.random.default_rng(5)
    halves = (np.arange(n, dtype=np.float32) - n / 2) * np.float32(0.5) * np.float32(scale)
    values = np.concatenate(
        [
            halves,  # exact .5 quotients
            rng.standard_normal(n).astype(np.float32) * 40,
            np.array(
                [
                    0.0,
                    -0.0,
                    1e30,
                    -1e30,
                    3e9,
                    -3e9,
                    np.inf,
                    -np.inf,
                    0.49999997,
                    -0.49999997,
                    2.5,
                    -2.5,
                ],
                np.float32,
            ),
        ]
    ).astype(np.float32)
    mb = ModelBuilder()
    x = mb.add_tensor([len(values)], "float32", "x")
    y = _q(mb, [len(values)], "y", scale, zp, dtype)
    mb.add_operator("QUANTIZE", [x], [y])
    mb.set_io([x], [y])
    _compare(mb.build(), inputs=[values])
