"""Models stock TFLM refuses at every arena size (hybrid models: float32
activations with int8 weights, and other type combinations a kernel's
Prepare rejects): ``tflm_arena`` raises ``TflmRefusesModelError`` with TFLM's
reason instead of an arena size, and the real wheel refuses the same models
even with 10 MB (its log says why)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tflite_micro, shared_models

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

FIXTURE = json.loads((Path(__file__).with_name("tflm_size_wheel.json")).read_text())
BIG_ARENA = 10_000_000

# The wheel's log on failure (benchmarks/tflm_size.py's wheel_try only says
# whether it worked): TFLM prints to the C-level stderr.
_CHILD = r"""
import os, sys, tempfile
import numpy as np
from tflite_micro import runtime
err = tempfile.TemporaryFile()
os.dup2(err.fileno(), 2)
ok = True
try:
    it = runtime.Interpreter.from_bytes(open(sys.argv[1], "rb").read(),
                                        arena_size=int(sys.argv[2]))
    it.set_input(np.zeros(it.get_input_details(0)["shape"],
                          it.get_input_details(0)["dtype"]), 0)
    it.invoke()
except Exception:
    ok = False
err.seek(0)
sys.stdout.write(("OK" if ok else "FAIL") + "\n" + err.read().decode(errors="replace"))
"""


def wheel_log(path, size: int):
    """(accepted, log) of the wheel with `size` bytes."""
    require_tflite_micro()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")
    }
    p = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(size)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert p.stdout, p.stderr  # a crash is not a refusal
    first, _, log = p.stdout.partition("\n")
    return first == "OK", log


def fc(weights="int8", out="float32", inp="float32"):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8], inp, "x", scale=0.5 if inp == "int8" else None)
    w = mb.add_tensor(
        [4, 8], weights, "w", data=np.ones((4, 8)), scale=0.1 if weights == "int8" else None
    )
    b = mb.add_tensor([4], "float32", "b", data=np.zeros(4))
    y = mb.add_tensor([1, 4], out, "y", scale=0.5 if out == "int8" else None)
    mb.add_operator("FULLY_CONNECTED", [x, w, b], [y])
    mb.set_io([x], [y])
    return mb.build()


def conv(op, weights="int8"):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8, 8, 3], "float32", "x")
    if op == "CONV_2D":
        shape, channels, dim = [4, 3, 3, 3], 4, 0
    else:
        shape, channels, dim = [1, 3, 3, 3], 3, 3
    w = mb.add_tensor(
        shape,
        weights,
        "w",
        data=np.ones(shape),
        scale=[0.1] * channels if weights == "int8" else None,
        quantized_dimension=dim,
    )
    b = mb.add_tensor([channels], "float32", "b", data=np.zeros(channels))
    y = mb.add_tensor([1, 6, 6, channels], "float32", "y")
    mb.add_operator(op, [x, w, b], [y])
    mb.set_io([x], [y])
    return mb.build()


def transpose_conv(weights="int8"):
    mb = ModelBuilder()
    shape = mb.add_tensor([4], "int32", "shape", data=[1, 6, 6, 2])
    w = mb.add_tensor(
        [2, 3, 3, 3],
        weights,
        "w",
        data=np.ones((2, 3, 3, 3)),
        scale=[0.1, 0.1] if weights == "int8" else None,
    )
    x = mb.add_tensor([1, 4, 4, 3], "float32", "x")
    y = mb.add_tensor([1, 6, 6, 2], "float32", "y")
    mb.add_operator("TRANSPOSE_CONV", [shape, w, x], [y], version=1)
    mb.set_io([x], [y])
    return mb.build()


def svdf(weights="int8"):
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    wf = mb.add_tensor(
        [2, 4], weights, "wf", data=np.ones((2, 4)), scale=0.1 if weights == "int8" else None
    )
    wt = mb.add_tensor([2, 3], "float32", "wt", data=np.ones((2, 3)))
    state = mb.add_tensor([1, 6], "float32", "state", is_variable=True)
    y = mb.add_tensor([1, 2], "float32", "y")
    mb.add_operator("SVDF", [x, wf, wt, -1, state], [y], options={"rank": 1})
    mb.set_io([x], [y])
    return mb.build()


HYBRID = {
    "fully_connected": (
        fc,
        "FULLY_CONNECTED",
        "Input type: FLOAT32 with filter type: INT8 not supported.",
    ),
    "conv_2d": (
        lambda w="int8": conv("CONV_2D", w),
        "CONV_2D",
        "Hybrid models are not supported on TFLite Micro.",
    ),
    "depthwise_conv_2d": (
        lambda w="int8": conv("DEPTHWISE_CONV_2D", w),
        "DEPTHWISE_CONV_2D",
        "Hybrid models are not supported on TFLite Micro.",
    ),
    "transpose_conv": (
        transpose_conv,
        "TRANSPOSE_CONV",
        "Hybrid models are not supported on TFLite Micro.",
    ),
}


@pytest.mark.parametrize("kind", sorted(HYBRID))
@pytest.mark.parametrize("target", ta.tflm_size.TARGETS)
def test_hybrid_model_is_refused_with_tflms_reason(kind, target):
    build, op, reason = HYBRID[kind]
    with pytest.raises(ta.TflmRefusesModelError) as ei:
        ta.tflm_arena(build(), target=target)
    e = ei.value
    assert isinstance(e, ValueError)
    assert e.reason == reason
    assert (e.operator.name, e.operator.index, e.operator.subgraph) == (op, 0, 0)
    assert reason in str(e) and op in str(e) and "every arena size" in str(e)
    with pytest.raises(ta.TflmRefusesModelError):
        ta.tflm_scratch_requests(build(), target=target)


@pytest.mark.parametrize("kind", sorted(HYBRID))
def test_the_wheel_refuses_the_hybrid_model_at_10_mb(kind, tmp_path):
    build, op, reason = HYBRID[kind]
    p = tmp_path / f"{kind}.tflite"
    p.write_bytes(build())
    ok, log = wheel_log(p, BIG_ARENA)
    assert not ok
    assert reason in log and f"Node {op} (number 0) failed to prepare" in log


@pytest.mark.parametrize("kind", sorted(HYBRID))
def test_the_float_twin_is_accepted_by_both(kind, tmp_path):
    build, _, _ = HYBRID[kind]
    data = build("float32")
    ours = ta.tflm_arena(data, target="x86-64", recording=True).min_arena_bytes
    p = tmp_path / f"{kind}_float.tflite"
    p.write_bytes(data)
    ok, log = wheel_log(p, ours)
    assert ok, log
    assert not wheel_log(p, ours - 1)[0]


def test_fully_connected_input_output_type_mismatch(tmp_path):
    data = fc(weights="int8", inp="int8", out="float32")
    with pytest.raises(ta.TflmRefusesModelError) as ei:
        ta.tflm_arena(data)
    assert ei.value.reason == "input->type != output->type (INT8 != FLOAT32)"
    p = tmp_path / "fc_mismatch.tflite"
    p.write_bytes(data)
    ok, log = wheel_log(p, BIG_ARENA)
    assert not ok and "input->type != output->type" in log


def test_svdf_float_input_with_int8_weights_feature(tmp_path):
    with pytest.raises(ta.TflmRefusesModelError) as ei:
        ta.tflm_arena(svdf("int8"))
    assert ei.value.reason == "weights_feature->type != kTfLiteFloat32 (INT8 != FLOAT32)"
    assert ei.value.operator.name == "SVDF"
    p = tmp_path / "svdf.tflite"
    p.write_bytes(svdf("int8"))
    ok, log = wheel_log(p, BIG_ARENA)
    assert not ok and "weights_feature->type != kTfLiteFloat32" in log
    # and the all-float SVDF is accepted
    ta.tflm_arena(svdf("float32"))


def test_refusal_names_the_first_refusing_operator_in_prepare_order():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8], "float32", "x")
    h = mb.add_tensor([1, 8], "float32", "h")
    w = mb.add_tensor([4, 8], "int8", "w", data=np.ones((4, 8)), scale=0.1)
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("RELU", [x], [h])
    mb.add_operator("FULLY_CONNECTED", [h, w, -1], [y])
    mb.set_io([x], [y])
    with pytest.raises(ta.TflmRefusesModelError) as ei:
        ta.tflm_arena(mb.build())
    assert (ei.value.operator.name, ei.value.operator.index) == ("FULLY_CONNECTED", 1)


# Every shared model on every target: under ASan (a Debug build) 120 s of the
# pass for the same C++ paths that test_tflm_targets runs there on the
# models it keeps; here it takes about a second.
@pytest.mark.no_asan
def test_every_shared_model_is_still_accepted():
    paths = shared_models()
    if not paths:
        pytest.skip("shared models folder not found")
    for p in paths:
        for target in ta.tflm_size.TARGETS:
            r = ta.tflm_arena(p, target=target)  # raises if refused
            assert r.min_arena_bytes > 0
    assert {p.stem for p in paths} <= set(FIXTURE)  # the wheel accepts them all


def test_cli_size_prints_one_error_line(tmp_path, capsys):
    from tflm_arena.cli import main

    p = tmp_path / "hybrid.tflite"
    p.write_bytes(fc())
    assert main(["size", str(p)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "Input type: FLOAT32 with filter type: INT8 not supported." in err[0]


def test_docstring_example_runs():
    import doctest

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    tests = finder.find(ta.TflmRefusesModelError, "TflmRefusesModelError", globs={})
    for t in tests:
        runner.run(t)
    assert sum(len(t.examples) for t in tests) >= 5 and runner.summarize(False).failed == 0
