"""ta.rewrite against the real TFLM (the ``tflite-micro`` wheel): every
rewritten model gives outputs bit-identical to the original's on random
inputs, and the smallest arena the wheel accepts for it is exactly our
prediction for the wheel's build (it works at the prediction and fails one
byte below). Hostile models end the stage or are refused, never rewritten
wrongly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import _models_dir, require_tflite_micro

import tflm_arena as ta
from tflm_arena import _sample_models as sm
from tflm_arena.builder import ModelBuilder
from tflm_arena.rewrite import reshape_pairs as rewrite_reshape_pairs
from tflm_arena.rewrite import rewrite

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import tflm_size as wheel  # benchmarks/tflm_size.py
from arena_vs_tflm import _same_outputs, _wheel_outputs  # benchmarks/arena_vs_tflm.py

# Left out of the ASan+UBSan pass (.ci/test.sh): the time goes to the
# tflite-micro wheel; the rewrite's C++ runs there through test_rewrite_api,
# test_cli_rewrite and test_rewrite_oracle.
pytestmark = pytest.mark.no_asan

WHEEL = "tflite-micro-wheel"


def check_in_wheel(original: ta.Model, rewritten: ta.Model, tmp_path: Path, bisect: bool = True):
    """Outputs identical on 2 random inputs; minimum arena exactly predicted."""
    require_tflite_micro()
    for seed in (0, 1):
        assert _same_outputs(
            _wheel_outputs(original, seed=seed, runs=1),
            _wheel_outputs(rewritten, seed=seed, runs=1),
        ), f"outputs differ (seed {seed})"
    if bisect:
        predicted = ta.tflm_arena(rewritten, target=WHEEL).min_arena_bytes
        path = tmp_path / "rewritten.tflite"
        rewritten.save(path, overwrite=True)
        assert wheel.wheel_try(path, predicted) is not None, "fails at the predicted minimum"
        assert wheel.wheel_try(path, predicted - 1) is None, "works one byte below the prediction"


@pytest.fixture(scope="module", params=["int8", "float32"])
def mobilenet(request):
    return request.param, ta.Model.from_bytes(sm.mobilenet_v2(request.param))


def test_mobilenet_v2_rewrite_is_bit_identical_and_smaller(mobilenet, tmp_path):
    dtype, m = mobilenet
    r = rewrite(m, target=WHEEL, time_limit=0.5)  # the full search, split stages included
    assert r.written == "tiled"
    assert r.chosen.length in r.cuts
    # At most 40 % of the original's whole arena; the int8 model fits 1 MiB.
    assert r.min_arena <= 0.40 * r.original.total
    if dtype == "int8":
        assert r.min_arena <= 1 << 20
    assert r.chosen.macs > r.original.macs  # halos are recomputed
    assert 0 < r.chosen.file_bytes - r.original.file_bytes < 150_000  # no weight copies
    # More tiles stop paying: the persistent tail grows with every operator.
    singles = [c for c in r.choices if not c.error and c.second is None and c.length == 13]
    by_tiles = {c.rows * c.cols: c for c in singles if c.rows == c.cols}
    assert by_tiles[100].total > by_tiles[16].total and by_tiles[100].tail > by_tiles[16].tail
    check_in_wheel(m, r.model, tmp_path)


@pytest.mark.parametrize("name", ["person_detect", "vww_96_int8", "pretrainedResnet_quant"])
def test_shared_models_rewrite(name, tmp_path):
    m = ta.Model.load(_models_dir() / f"{name}.tflite")
    r = rewrite(m, target=WHEEL, time_limit=0.5)
    assert r.min_arena <= r.original.total  # never worse
    # The better of optimal planning alone and the best tiling is written.
    tiled = [c.best_total for c in r.choices if c.planned_total is not None]
    assert r.min_arena == min([r.original.best_total, *tiled])
    assert r.written in ("tiled", "planned", "unchanged")
    if r.written == "tiled":
        check_in_wheel(m, r.model, tmp_path)
    assert ta.tflm_arena(r.model, target=WHEEL).min_arena_bytes == r.min_arena
    # The tiling chosen for 32-bit Cortex-M (vww_96_int8: tiled there, only
    # planned for the wheel) gives the same outputs too.
    arm = rewrite(m, target="cortex-m", plan=False)
    assert arm.written == "tiled"
    check_in_wheel(m, arm.model, tmp_path, bisect=False)


@pytest.mark.parametrize(
    ("length", "tiles"), [(1, (2, 2)), (4, (3, 3)), (6, (10, 1)), (12, (2, 5))]
)
def test_forced_tilings_of_person_detect_are_bit_identical(length, tiles, tmp_path):
    m = ta.Model.load(_models_dir() / "person_detect.tflite")
    r = rewrite(m, target=WHEEL, tiles=tiles, length=length, plan=False)
    c = [c for c in r.choices if not c.error]
    assert len(c) == 1 and (c[0].rows, c[0].cols, c[0].length) == (*tiles, length)
    tm = ta.Model.from_bytes(ta._core.rewrite_write(m._handle, length, *tiles))
    check_in_wheel(m, tm, tmp_path, bisect=False)


def chain(
    size=15,
    stride=2,
    padding="SAME",
    dilation=1,
    pool=None,
    dtype="float32",
) -> bytes:
    """x -> CONV_2D 3x3 -> DEPTHWISE 3x3 -> ADD (residual) -> [pool] -> CONV 1x1."""
    rng = np.random.default_rng(3)
    mb = ModelBuilder()
    h1 = (size + stride - 1) // stride if padding == "SAME" else (size - 3) // stride + 1
    x = mb.add_tensor([1, size, size, 3], dtype, "x")
    w1 = mb.add_tensor([8, 3, 3, 3], dtype, "w1", data=rng.standard_normal([8, 3, 3, 3]))
    y1 = mb.add_tensor([1, h1, h1, 8], dtype, "y1")
    mb.add_operator(
        "CONV_2D",
        [x, w1, -1],
        [y1],
        options={
            "padding": padding,
            "stride_w": stride,
            "stride_h": stride,
            "dilation_w_factor": dilation,
            "dilation_h_factor": dilation,
        },
    )
    w2 = mb.add_tensor([1, 3, 3, 8], dtype, "w2", data=rng.standard_normal([1, 3, 3, 8]))
    # A bias: the wheel's float DEPTHWISE_CONV_2D crashes without one.
    b2 = mb.add_tensor([8], dtype, "b2", data=rng.standard_normal(8))
    y2 = mb.add_tensor([1, h1, h1, 8], dtype, "y2")
    mb.add_operator(
        "DEPTHWISE_CONV_2D",
        [y1, w2, b2],
        [y2],
        options={"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1},
    )
    y3 = mb.add_tensor([1, h1, h1, 8], dtype, "y3")
    mb.add_operator("ADD", [y1, y2], [y3], options={"fused_activation_function": "RELU"})
    last, h = y3, h1
    if pool is not None:
        op, k, s, pad = pool
        h = (h1 + s - 1) // s if pad == "SAME" else (h1 - k) // s + 1
        yp = mb.add_tensor([1, h, h, 8], dtype, "yp")
        mb.add_operator(
            op,
            [y3],
            [yp],
            options={
                "padding": pad,
                "stride_w": s,
                "stride_h": s,
                "filter_width": k,
                "filter_height": k,
            },
        )
        last = yp
    w3 = mb.add_tensor([4, 1, 1, 8], dtype, "w3", data=rng.standard_normal([4, 1, 1, 8]))
    y4 = mb.add_tensor([1, h, h, 4], dtype, "y4")
    mb.add_operator("CONV_2D", [last, w3, -1], [y4], options={"padding": "VALID"})
    mb.set_io([x], [y4])
    return mb.build()


@pytest.mark.parametrize(
    ("kw", "tiles"),
    [
        ({"size": 15, "stride": 2}, (3, 2)),  # odd input, stride 2: padding after only
        ({"size": 16, "stride": 2}, (4, 4)),
        ({"size": 17, "stride": 3, "padding": "VALID"}, (2, 3)),  # stride leaves a remainder
        ({"size": 14, "stride": 1, "pool": ("MAX_POOL_2D", 2, 2, "VALID")}, (7, 1)),
        ({"size": 16, "stride": 1, "pool": ("AVERAGE_POOL_2D", 3, 3, "VALID")}, (5, 5)),
    ],
)
def test_odd_shapes_and_strides_stay_bit_identical(kw, tiles, tmp_path):
    m = ta.Model.from_bytes(chain(**kw))
    r = rewrite(m, target=WHEEL, tiles=tiles, plan=False)
    ok = [c for c in r.choices if not c.error]
    assert ok, r.choices
    deepest = max(c.length for c in ok)
    assert deepest == len(m.operators)  # every operator is tileable: the whole model is the stage
    for c in ok:
        tm = ta.Model.from_bytes(ta._core.rewrite_write(m._handle, c.length, c.rows, c.cols))
        check_in_wheel(m, tm, tmp_path, bisect=False)


def test_dilation_and_padded_pooling_end_the_stage():
    r = rewrite(ta.Model.from_bytes(chain(dilation=2)), tiles=(2, 2), plan=False)
    assert r.stage == () and "dilation is not 1" in r.end_reason
    assert r.written == "unchanged" and "dilation" in r.reason
    m = ta.Model.from_bytes(chain(size=16, stride=1, pool=("AVERAGE_POOL_2D", 3, 2, "SAME")))
    r = rewrite(m, tiles=(2, 2), plan=False)
    assert len(r.stage) == 3 and "pooling with padding" in r.end_reason


@pytest.mark.parametrize(
    ("tiles", "length", "message"),
    [
        ((0, 1), None, "at least 1 x 1"),
        ((1000, 1), None, "do not fit"),
        ((1, 1), None, "1 x 1 tiles is the original"),
        ((2, 2), 2, "cannot end after 2 operators"),
    ],
)
def test_bad_tilings_are_clear_errors(tiles, length, message):
    m = ta.Model.from_bytes(chain(size=16))
    with pytest.raises(ValueError, match=message):
        rewrite(m, tiles=tiles, length=length, plan=False)


def test_control_flow_and_offline_plans_are_refused():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4, 4, 1], "float32", "x")
    y = mb.add_tensor([1, 4, 4, 1], "float32", "y")
    body = mb.add_subgraph("body")
    bx = mb.add_tensor([1, 4, 4, 1], "float32", "bx", subgraph=body)
    mb.set_io([bx], [bx], subgraph=body)
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": body})
    mb.add_operator("RELU", [x], [y])
    mb.set_io([x], [y])
    with pytest.raises(ValueError, match="control flow"):
        rewrite(mb.build(), plan=False)
    m = ta.Model.from_bytes(chain(size=16))
    planned = m._with_offline_plan(ta.plan(m, strategy="tflm_greedy"))
    with pytest.raises(ValueError, match="OfflineMemoryAllocation"):
        rewrite(planned, plan=False)


def test_optimize_with_rewrite_takes_the_tiled_model_when_smaller():
    m = ta.Model.load(_models_dir() / "person_detect.tflite")
    o = ta.optimize(m, rewrite=True, time_limit=0.2, target=WHEEL)
    assert o.rewritten is not None and o.rewritten.written == "tiled"
    assert o.model is o.rewritten.model
    assert o.min_arena == o.rewritten.min_arena < o.original_min_arena
    assert ta.tflm_arena(o.model, target=WHEEL).min_arena_bytes == o.min_arena
    plain = ta.optimize(m, time_limit=0.2, target=WHEEL)
    assert plain.rewritten is None and o.min_arena < plain.min_arena


def reshape_at_the_peak() -> bytes:
    """x [1, 32, 32, 1] -> CONV_2D 1x1 (8 ch) -> RESHAPE [1, 8192] ->
    FULLY_CONNECTED (10): the RESHAPE's input and output are the peak."""
    rng = np.random.default_rng(5)
    mb = ModelBuilder()
    x = mb.add_tensor([1, 32, 32, 1], "float32", "x")
    w = mb.add_tensor([8, 1, 1, 1], "float32", "w", data=rng.standard_normal([8, 1, 1, 1]))
    y1 = mb.add_tensor([1, 32, 32, 8], "float32", "y1")
    mb.add_operator("CONV_2D", [x, w, -1], [y1], options={"padding": "VALID"})
    shape = mb.add_tensor([2], "int32", "shape", data=np.array([1, 8192]))
    y2 = mb.add_tensor([1, 8192], "float32", "y2")
    mb.add_operator("RESHAPE", [y1, shape], [y2])
    fw = mb.add_tensor([10, 8192], "float32", "fw", data=rng.standard_normal([10, 8192]))
    y3 = mb.add_tensor([1, 10], "float32", "y3")
    mb.add_operator("FULLY_CONNECTED", [y2, fw, -1], [y3])
    mb.set_io([x], [y3])
    return mb.build()


def test_reshape_in_place_is_bit_identical_and_smaller_in_the_wheel(tmp_path):
    m = ta.Model.from_bytes(reshape_at_the_peak())
    assert rewrite_reshape_pairs(m) == [(2, 4)]
    r = rewrite(m, target=WHEEL, time_limit=0.5)
    without = rewrite(m, target=WHEEL, time_limit=0.5, inplace=False)
    assert r.written == "planned" and r.original.inplace
    # The RESHAPE's 32 KiB input and output share bytes: the peak, 64 KiB
    # at the RESHAPE, becomes the CONV_2D's 4 KiB input + 32 KiB output.
    assert without.min_arena - r.min_arena == 64 * 1024 - 36 * 1024
    aliases = r.model.offline_plan()
    assert aliases is not None and aliases[2] == aliases[4] >= 0
    check_in_wheel(m, r.model, tmp_path)  # outputs identical, minimum exact
