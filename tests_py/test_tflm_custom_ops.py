"""TFLM's custom operators outside the Signal library (CIRCULAR_BUFFER,
TFLite_Detection_PostProcess, ethos-u) and what TFLM does with operators it
has no registration for: each figure against the tflite-micro wheel's
bisected minimum (x86-64), each refusal against the wheel's own log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tflite_micro

import tflm_arena as ta
from tflm_arena import resolver
from tflm_arena.builder import ModelBuilder

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import tflm_size as wheel  # benchmarks/tflm_size.py

Q = {"scale": [0.5], "zero_point": [0]}


def circular_buffer_model(dtype: str = "int8", slots: int = 5, depth: int = 8) -> bytes:
    """x [1, 1, 1, depth] -> CIRCULAR_BUFFER (a variable [1, slots, 1,
    depth] output) -> RESHAPE to [1, slots * depth]."""
    mb = ModelBuilder()
    q = Q if dtype == "int8" else {}
    x = mb.add_tensor([1, 1, 1, depth], dtype, "x", **q)
    buf = mb.add_tensor([1, slots, 1, depth], dtype, "buffer", is_variable=True, **q)
    mb.add_operator(
        "CUSTOM", [x], [buf], custom_code="CIRCULAR_BUFFER", custom_options={"cycles_max": 1}
    )
    shape = mb.add_tensor([2], "int32", "shape", data=[1, slots * depth])
    y = mb.add_tensor([1, slots * depth], dtype, "y", **q)
    mb.add_operator("RESHAPE", [buf, shape], [y])
    mb.set_io([x], [y])
    return mb.build()


def detection_model(
    boxes: int = 64,
    classes: int = 3,
    max_detections: int = 10,
    inputs: int = 3,
    regular_nms: bool = False,
) -> bytes:
    """The SSD post-processing head: box encodings [1, boxes, 4], class
    predictions [1, boxes, classes + 1] (both float, from a model input
    through a RESHAPE each), constant anchors [boxes, 4]; four outputs."""
    mb = ModelBuilder()
    enc = mb.add_tensor([1, boxes, 4], "float32", "box_encodings")
    cls = mb.add_tensor([1, boxes, classes + 1], "float32", "class_predictions")
    # Each from a model input of its own through a RESHAPE.
    raw2 = mb.add_tensor([1, boxes * (classes + 1)], "float32", "raw_classes")
    s1 = mb.add_tensor([3], "int32", "s1", data=[1, boxes, 4])
    s2 = mb.add_tensor([3], "int32", "s2", data=[1, boxes, classes + 1])
    raw_boxes = mb.add_tensor([1, boxes * 4], "float32", "raw_boxes")
    mb.add_operator("RESHAPE", [raw_boxes, s1], [enc])
    mb.add_operator("RESHAPE", [raw2, s2], [cls])
    anchors = mb.add_tensor(
        [boxes, 4],
        "float32",
        "anchors",
        data=np.tile(np.array([0.5, 0.5, 0.2, 0.2], np.float32), (boxes, 1)),
    )
    outs = [
        mb.add_tensor([1, max_detections, 4], "float32", "detection_boxes"),
        mb.add_tensor([1, max_detections], "float32", "detection_classes"),
        mb.add_tensor([1, max_detections], "float32", "detection_scores"),
        mb.add_tensor([1], "float32", "num_detections"),
    ]
    options = {
        "max_detections": max_detections,
        "max_classes_per_detection": 1,
        "detections_per_class": 100,
        "use_regular_nms": regular_nms,
        "nms_score_threshold": 0.3,
        "nms_iou_threshold": 0.6,
        "num_classes": classes,
        "y_scale": 10.0,
        "x_scale": 10.0,
        "h_scale": 5.0,
        "w_scale": 5.0,
    }
    ins = [enc, cls, anchors][:inputs]
    mb.add_operator(
        "CUSTOM", ins, outs, custom_code="TFLite_Detection_PostProcess", custom_options=options
    )
    mb.set_io([raw_boxes, raw2], outs)
    return mb.build()


def one_op_model(op: str = "CUSTOM", custom_code: str | None = None) -> bytes:
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    kw = {"custom_code": custom_code} if custom_code else {}
    mb.add_operator(op, [x], [y], **kw)
    mb.set_io([x], [y])
    return mb.build()


def wheel_log(path: Path, size: int = 1 << 20) -> str:
    """What the wheel prints when it builds an interpreter on `size` bytes."""
    code = (
        "import sys\n"
        "from tflite_micro import runtime\n"
        "try:\n"
        "    data = open(sys.argv[1], 'rb').read()\n"
        "    runtime.Interpreter.from_bytes(data, arena_size=int(sys.argv[2]))\n"
        "except Exception as e:\n"
        "    print('EXCEPTION', e)\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, str(path), str(size)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return p.stdout + p.stderr


def check_equal_to_wheel(data: bytes, tmp_path: Path, name: str):
    require_tflite_micro()
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(data)
    ours = ta.tflm_arena(path, target="tflite-micro-wheel")
    n, figs = wheel.wheel_minimum(path, hint=ours.min_arena_bytes)
    assert ours.min_arena_bytes == n, (name, figs)
    assert (ours.head, ours.tail) == (figs["head"], figs["tail"])
    return ours


# --- sized ---------------------------------------------------------------------


@pytest.mark.no_asan
@pytest.mark.parametrize("slots", [5, 13])
def test_circular_buffer_equals_the_wheel(slots, tmp_path):
    r = check_equal_to_wheel(circular_buffer_model(slots=slots), tmp_path, f"cb{slots}")
    # The buffer is a variable tensor: persistent, outside the plan.
    assert r.categories["tflite_tensor_variable_buffer_data"].used >= slots * 8


CASES = {
    "fast_nms": {},
    "regular_nms": {"regular_nms": True},
    "many_boxes": {"boxes": 300, "classes": 5, "max_detections": 20},
    "more_classes_than_detections": {"boxes": 40, "classes": 30, "max_detections": 4},
}


@pytest.mark.no_asan
@pytest.mark.parametrize("case", sorted(CASES))
def test_detection_postprocess_equals_the_wheel(case, tmp_path):
    check_equal_to_wheel(detection_model(**CASES[case]), tmp_path, case)


def test_detection_postprocess_scratch_follows_the_kernels_formulas():
    boxes, classes, md = 300, 5, 20
    reqs = ta.tflm_scratch_requests(detection_model(boxes, classes, md), target="cortex-m")
    sizes = [r[0] for r in reqs if r[1] == 2]  # operator 2: the post-processing
    f = 4
    assert sizes == [
        boxes,
        boxes * 4 * f,
        boxes * (classes + 1) * f,
        boxes * f,
        boxes * f,
        md * boxes * f,
        md * boxes * f,
        boxes * f,
        md * boxes * f,
        max(classes, md) * boxes * f,
        min(boxes, md) * boxes * f,
    ]


# --- refused as TFLM refuses -----------------------------------------------------


def _refusal(data: bytes, target: str = "tflite-micro-wheel") -> str:
    with pytest.raises(ta.TflmRefusesModelError) as e:
        ta.tflm_arena(data, target=target)
    return str(e.value)


@pytest.mark.no_asan
@pytest.mark.parametrize(
    "data, reason",
    [
        (one_op_model("CUSTOM", "NoSuchKernel"), "Failed to get registration from op code CUSTOM"),
        (one_op_model("CUSTOM", "ethos-u"), "Failed to get registration from op code CUSTOM"),
        (one_op_model("TILE"), "Didn't find op for builtin opcode 'TILE'"),
        (circular_buffer_model("float32"), "input->type != kTfLiteInt8 (FLOAT32 != INT8)"),
        (detection_model(inputs=2), "NumInputs(node) != 3 (2 != 3)"),
    ],
    ids=[
        "unknown_custom",
        "ethos_u_without_the_kernel",
        "tile",
        "float_circular_buffer",
        "detection_two_inputs",
    ],
)
def test_refusals_are_the_wheels(data, reason, tmp_path):
    require_tflite_micro()
    text = _refusal(data)
    assert reason in text
    path = tmp_path / "m.tflite"
    path.write_bytes(data)
    log = wheel_log(path)
    assert "EXCEPTION" in log and reason.split(" (")[0] in log, log
    # Every target refuses the same way (registration is not the kernels').
    for target in ("cortex-m", "cortex-m4+cmsis-nn", "esp32s3+esp-nn"):
        assert reason in _refusal(data, target)


def test_a_custom_operator_that_is_not_registered_is_refused_by_the_cli(tmp_path, capsys):
    from tflm_arena import cli

    path = tmp_path / "m.tflite"
    path.write_bytes(one_op_model("CUSTOM", "NoSuchKernel"))
    assert cli.main(["size", str(path)]) == 1
    err = capsys.readouterr().err
    assert "stock TFLM refuses the model at every arena size" in err
    assert "custom operator 'NoSuchKernel'" in err and "Traceback" not in err


def test_malformed_detection_options_are_a_clear_error():
    mb = ModelBuilder()
    t = [mb.add_tensor([1, 4, 4], "float32", f"t{i}") for i in range(2)]
    a = mb.add_tensor([4, 4], "float32", "a", data=np.zeros((4, 4), np.float32))
    outs = [mb.add_tensor([1], "float32", f"o{i}") for i in range(4)]
    mb.add_operator(
        "CUSTOM",
        [t[0], t[1], a],
        outs,
        custom_code="TFLite_Detection_PostProcess",
        custom_options=b"\x01\x02\x03",
    )
    mb.set_io(t, outs)
    with pytest.raises(ValueError, match=r"TFLite_Detection_PostProcess.*not a valid flexbuffer"):
        ta.tflm_arena(mb.build(), target="cortex-m")


# --- the resolver's list ------------------------------------------------------------


def test_every_operator_tflm_registers_is_sized_or_refused_with_tflms_reason():
    """Walks TFLM's MicroMutableOpResolver list: every builtin has a kernel
    row on every target; every custom operator is modelled, except those
    whose refusal is stated here (with the test that checks it)."""
    from tflm_arena import _core

    registered = _core.tflm_registered_ops()
    stated = {
        # Register_ETHOSU is null without the Ethos-U kernel: refused at
        # registration (test_refusals_are_the_wheels).
        "ethos-u": "refused",
    }
    assert len(ta.TARGETS) >= 15
    for t in ta.TARGETS:
        modelled = set(_core.tflm_modelled_ops(t))
        missing = [op for op in registered["builtins"] if op not in modelled]
        assert missing == [], (t, missing)
        for c in registered["custom"]:
            assert c in modelled or c in stated, (t, c)


@pytest.mark.parametrize("op", sorted(set(resolver.TFLM_BUILTINS)))
def test_no_registered_builtin_is_unmodelled_in_a_one_operator_model(op):
    # A one-operator model of every registered builtin: sized, refused with
    # TFLM's reason, or a clear model error; never "not modelled".
    try:
        ta.tflm_arena(one_op_model(op), target="cortex-m")
    except NotImplementedError as e:  # pragma: no cover - the failure
        pytest.fail(f"{op}: {e}")
    except (ta.TflmRefusesModelError, ValueError):
        pass


# --- DECODE (compressed models) -------------------------------------------------


def decode_model(dcm0: int = 0, dcm1: int = 1, lut_version: int = 1, outputs: int = 1) -> bytes:
    """x [1, 8] int8 -> FULLY_CONNECTED whose weights [4, 8] (and, with
    ``outputs=2``, bias [4]) come from a TFLM_DECODE: LUT compression as
    TFLM's compression tool writes it (the encoded indices as a 1-D UINT8
    constant, 4 bits each, most significant first; the ancillary data a
    16-byte DCM header: type, version, 2 reserved, LUT version, bit width,
    value-table stride, then the value table)."""
    rng = np.random.default_rng(0)
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8], "int8", "x", scale=[0.5], zero_point=[0])

    def lut(values: np.ndarray, table_dtype: str, name: str) -> tuple[int, int]:
        table = np.unique(values)
        idx = np.searchsorted(table, values.ravel())
        assert len(table) <= 16
        table = np.pad(table, (0, 16 - len(table)))
        packed = bytes((int(a) << 4) | int(b) for a, b in zip(idx[0::2], idx[1::2], strict=True))
        header = bytes([dcm0, dcm1, 0, 0, lut_version, 4, 16]) + bytes(9)
        anc = header + table.astype(table_dtype).tobytes()
        e = mb.add_tensor(
            [len(packed)], "uint8", f"{name}_encoded", data=np.frombuffer(packed, np.uint8)
        )
        a = mb.add_tensor(
            [len(anc)], "uint8", f"{name}_ancillary", data=np.frombuffer(anc, np.uint8)
        )
        return e, a

    w_values = rng.integers(-8, 8, size=(4, 8)).astype(np.int8)
    ins = list(lut(w_values, "int8", "w"))
    w = mb.add_tensor([4, 8], "int8", "w", scale=[0.1], zero_point=[0])
    outs = [w]
    b_values = np.arange(4, dtype=np.int32) * 3
    if outputs == 2:
        ins += list(lut(b_values, "int32", "b"))
        b = mb.add_tensor([4], "int32", "b", scale=[0.05], zero_point=[0])
        outs.append(b)
    else:
        b = mb.add_tensor([4], "int32", "b", data=b_values, scale=[0.05], zero_point=[0])
    mb.add_operator("CUSTOM", ins, outs, custom_code="TFLM_DECODE")
    y = mb.add_tensor([1, 4], "int8", "y", scale=[0.25], zero_point=[0])
    mb.add_operator("FULLY_CONNECTED", [x, w, b], [y])
    mb.set_io([x], [y])
    return mb.build()


@pytest.mark.no_asan
@pytest.mark.parametrize("outputs", [1, 2])
def test_decode_equals_the_wheel(outputs, tmp_path):
    r = check_equal_to_wheel(decode_model(outputs=outputs), tmp_path, f"decode{outputs}")
    # The decoded weights are a planned tensor: 32 bytes of head at least.
    assert r.head >= 32


def test_decode_costs_its_state_objects_in_the_tail():
    # One DecodeStateLut per output (36 bytes on 32-bit ARM, 48 as the
    # tail aligns it) and one pointer array (16 with its alignment).
    one = ta.tflm_arena(decode_model(outputs=1), target="cortex-m")
    two = ta.tflm_arena(decode_model(outputs=2), target="cortex-m")
    pb = "persistent_buffer_data"
    assert two.categories[pb].requested - one.categories[pb].requested == 36 + 4
    assert two.categories[pb].count - one.categories[pb].count == 1


@pytest.mark.no_asan
@pytest.mark.parametrize(
    "kw, reason",
    [
        ({"dcm1": 2}, "version 2 != 1"),
        ({"dcm0": 5}, "unsupported decode type 5"),
        ({"dcm0": 127}, "unsupported decode type 127"),
        ({"lut_version": 3}, "unsupported version 3"),
    ],
    ids=["dcm_version", "decode_type", "custom_type", "lut_version"],
)
def test_decode_refusals_are_the_wheels(kw, reason, tmp_path):
    require_tflite_micro()
    data = decode_model(**kw)
    assert reason in _refusal(data)
    path = tmp_path / "m.tflite"
    path.write_bytes(data)
    log = wheel_log(path)
    assert "EXCEPTION" in log and reason in log, log


def _wheel_head_with_region(path: Path, region: int) -> int:
    """The wheel's head with a decompression memory region of `region`
    bytes (its alt_decompression_memory_size, SetDecompressionMemory)."""
    code = (
        "import os, sys, tempfile, re\n"
        "from tflite_micro import runtime\n"
        "err = tempfile.TemporaryFile(); os.dup2(err.fileno(), 2)\n"
        "it = runtime.Interpreter.from_bytes(open(sys.argv[1], 'rb').read(), arena_size=1 << 20,\n"
        "    intrepreter_config=runtime.InterpreterConfig.kAllocationRecording,\n"
        "    alt_decompression_memory_size=int(sys.argv[2]))\n"
        "it.print_allocations(); err.seek(0)\n"
        "log = err.read().decode()\n"
        "print(re.search(r'Arena allocation head (\\d+) bytes', log).group(1))\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, str(path), str(region)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return int(p.stdout.split()[-1])


@pytest.mark.no_asan
def test_the_decompression_region_size_is_the_one_the_wheel_needs(tmp_path):
    require_tflite_micro()
    data = decode_model(outputs=2)
    r = ta.tflm_arena(data, target="tflite-micro-wheel")
    # The weights (32 bytes) at 0, the bias (16) at the next 16-aligned byte.
    assert r.decompression_region_bytes == 48
    assert "decompression memory 48 bytes" in str(r)
    path = tmp_path / "d.tflite"
    path.write_bytes(data)
    without = _wheel_head_with_region(path, 0)
    assert without == r.head
    # At the size given, no decoded tensor is planned; one byte less, the
    # bias no longer fits and is planned again.
    assert _wheel_head_with_region(path, 48) < _wheel_head_with_region(path, 47) <= without
    assert ta.tflm_arena(decode_model(outputs=1)).decompression_region_bytes == 32
    assert ta.tflm_arena(circular_buffer_model()).decompression_region_bytes == 0
