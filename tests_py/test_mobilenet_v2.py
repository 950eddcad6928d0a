"""_sample_models.mobilenet_v2: the MobileNetV2 development models (int8 and
float32) have the paper's graph and shapes, run in the real TFLM (the
tflite-micro wheel) with outputs that depend on the input, and stock TFLM's
minimum arena for them, bisected in the wheel, is the one ta.tflm_arena
predicts for the wheel's target, to the byte.
"""

from __future__ import annotations

import collections
import doctest
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tflite_micro

import tflm_arena as ta
from tflm_arena import _sample_models as sm

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import tflm_size as wheel  # benchmarks/tflm_size.py

# Left out of the ASan+UBSan pass (.ci/test.sh): the time goes to bisecting
# the tflite-micro wheel; the same C++ runs there through test_rewrite_oracle.
pytestmark = pytest.mark.no_asan

DTYPES = ("int8", "float32")

# MobileNetV2 at 224 x 224, alpha 1 (Sandler et al. 2018, table 2): the
# output of the first conv, of each group of inverted residual blocks (its
# last block's ADD, or its projection when the block has none) and of the
# last 1x1 conv; tensor names follow Keras' layer names.
SHAPES_224 = {
    "Conv1": (1, 112, 112, 32),
    "expanded_conv_project": (1, 112, 112, 16),
    "block_2_add": (1, 56, 56, 24),
    "block_5_add": (1, 28, 28, 32),
    "block_9_add": (1, 14, 14, 64),
    "block_12_add": (1, 14, 14, 96),
    "block_15_add": (1, 7, 7, 160),
    "block_16_project": (1, 7, 7, 320),
    "out_relu": (1, 7, 7, 1280),
    "global_average_pooling2d": (1, 1280),
}
# 17 blocks: 16 expand convs (the first block has none), 17 projections, the
# first and the last conv; ADD in every stride-1 block whose channels do not
# change (1 + 2 + 3 + 2 + 2 blocks).
OPERATOR_COUNTS = {
    "CONV_2D": 35,
    "DEPTHWISE_CONV_2D": 17,
    "ADD": 10,
    "MEAN": 1,
    "FULLY_CONNECTED": 1,
    "SOFTMAX": 1,
}


@pytest.fixture(scope="module")
def models() -> dict[str, ta.Model]:
    return {dt: ta.Model.from_bytes(sm.mobilenet_v2(dt)) for dt in DTYPES}


@pytest.fixture(scope="module")
def files(models, tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("mobilenet_v2")
    out = {}
    for dt, m in models.items():
        out[dt] = d / f"mobilenet_v2_{dt}.tflite"
        out[dt].write_bytes(m.data)
    return out


def _tensor(m: ta.Model, name: str) -> ta.Tensor:
    (t,) = [t for t in m.tensors if t.name == name]
    return t


@pytest.mark.parametrize("dtype", DTYPES)
def test_graph_and_shapes(models, dtype):
    m = models[dtype]
    counts = collections.Counter(op.name for op in m.operators)
    assert counts == OPERATOR_COUNTS
    assert [op.name for op in m.operators][-3:] == ["MEAN", "FULLY_CONNECTED", "SOFTMAX"]
    ttype = dtype.upper()
    x, y = m.tensors[m.inputs[0]], m.tensors[m.outputs[0]]
    assert (x.shape, x.type, y.shape, y.type) == ((1, 224, 224, 3), ttype, (1, 1000), ttype)
    for name, shape in SHAPES_224.items():
        t = _tensor(m, name)
        assert (t.shape, t.type) == (shape, ttype), name
    # The peak: block 1's expand output at 112 x 112 x 96 and its stride-2
    # depthwise output at 56 x 56 x 96, live together.
    assert _tensor(m, "block_1_expand").shape == (1, 112, 112, 96)
    assert _tensor(m, "block_1_depthwise").shape == (1, 56, 56, 96)


def test_int8_quantization(models):
    m = models["int8"]
    conv_w = _tensor(m, "block_3_expand/weights")
    assert conv_w.shape == (144, 1, 1, 24) and conv_w.quantized_dimension == 0
    assert conv_w.scale.shape == (144,) and not conv_w.zero_point.any()
    dw_w = _tensor(m, "block_3_depthwise/weights")
    assert dw_w.shape == (1, 3, 3, 144) and dw_w.quantized_dimension == 3
    assert dw_w.scale.shape == (144,)
    bias = _tensor(m, "block_3_depthwise/bias")
    assert bias.type == "INT32"
    np.testing.assert_allclose(bias.scale, _tensor(m, "block_3_expand").scale[0] * dw_w.scale)
    # RELU6 outputs cover [0, 6]; the softmax output is TFLM's fixed 1/256, -128.
    relu6 = _tensor(m, "block_3_expand")
    assert (relu6.scale[0], relu6.zero_point[0]) == (pytest.approx(6 / 255), -128)
    out = m.tensors[m.outputs[0]]
    assert (out.scale[0], out.zero_point[0]) == (1 / 256, -128)


def test_alpha_resolution_and_seed():
    small = ta.Model.from_bytes(sm.mobilenet_v2(resolution=64, alpha=0.35, num_classes=10))
    # Keras' channel rounding: 32 * 0.35 -> 16, 16 * 0.35 -> 8, 320 * 0.35
    # -> 112; the last conv keeps 1280 for alpha <= 1.
    assert _tensor(small, "Conv1").shape == (1, 32, 32, 16)
    assert _tensor(small, "expanded_conv_project").shape == (1, 32, 32, 8)
    assert _tensor(small, "block_16_project").shape == (1, 2, 2, 112)
    assert _tensor(small, "out_relu").shape == (1, 2, 2, 1280)
    assert small.tensors[small.outputs[0]].shape == (1, 10)
    wide = ta.Model.from_bytes(sm.mobilenet_v2("float32", resolution=32, alpha=1.4))
    assert _tensor(wide, "Conv1").shape == (1, 16, 16, 48)
    assert _tensor(wide, "out_relu").shape == (1, 1, 1, 1792)
    a = sm.mobilenet_v2(resolution=32, alpha=0.35)
    assert a == sm.mobilenet_v2(resolution=32, alpha=0.35)
    assert a != sm.mobilenet_v2(resolution=32, alpha=0.35, seed=1)
    with pytest.raises(ValueError, match="dtype"):
        sm.mobilenet_v2("int16")


def test_docstring_examples():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    ran = 0
    for f in (sm.mobilenet_v2, sm._make_divisible):
        for test in finder.find(f, globs=dict(vars(sm))):
            runner.run(test)
            ran += len(test.examples)
    assert runner.summarize(verbose=False).failed == 0 and ran >= 3


@pytest.mark.parametrize("dtype", DTYPES)
def test_outputs_depend_on_the_input(models, dtype):
    require_tflite_micro()
    from tflite_micro import runtime

    m = models[dtype]
    it = runtime.Interpreter.from_bytes(m.data, arena_size=16 << 20)
    rng = np.random.default_rng(0)
    outs = []
    for _ in range(2):
        it.set_input(sm.random_inputs(it, 1, rng)[0], 0)
        it.invoke()
        outs.append(it.get_output(0).copy())
    a, b = outs
    assert a.shape == (1, 1000)
    # Not collapsed: many classes differ and neither output is constant.
    assert np.count_nonzero(a != b) >= 20
    assert len(np.unique(a)) > 5 and len(np.unique(b)) > 5
    if dtype == "float32":
        assert a.sum() == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("dtype", DTYPES)
def test_wheel_minimum_is_predicted(models, files, dtype):
    require_tflite_micro()
    ours = ta.tflm_arena(models[dtype], target="tflite-micro-wheel")
    minimum, figures = wheel.wheel_minimum(files[dtype], hint=ours.min_arena_bytes)
    assert minimum == ours.min_arena_bytes
    assert (figures["head"], figures["tail"]) == (ours.head, ours.tail)
    wheel_categories = {
        name: (c["used"], c["requested"], c["count"]) for name, c in figures["categories"].items()
    }
    our_categories = {
        c.name: (c.used, c.requested, c.count) for c in ours.categories.values() if c.count
    }
    assert wheel_categories == our_categories
    # The head is the largest live step: the planner reaches the lower bound.
    plan = ta.plan(models[dtype], target="tflite-micro-wheel")
    assert plan.arena_bytes == plan.lower_bound == ours.head
