"""An operator code past the end of the schema's BuiltinOperator enum
(65,581 instead of STRIDED_SLICE's 45 in a real model): the model reader
keeps it (a newer schema may define it), stock TFLM refuses it before any
operator is prepared ("Op builtin_code out of range: 65581.", TFLM's
GetRegistrationFromOpCode), and every call that models stock TFLM says so
in one clean error naming the operator and the code. It used to crash
(a null operator name looked up in the kernel tables)."""

from __future__ import annotations

import struct

import hostile_sweep
import pytest
from conftest import require_tflite_micro
from test_tflm_refusals import BIG_ARENA, wheel_log

import tflm_arena as ta
from tflm_arena.cli import main

CODE = 65_581
REASON = f"Op builtin_code out of range: {CODE}."
WHERE = f"builtin code {CODE} (subgraph 0, operator 0)"


@pytest.fixture(scope="module")
def bad_model(models_dir, tmp_path_factory):
    data = bytearray((models_dir / "seanet_strided_slice0.tflite").read_bytes())
    fields = hostile_sweep.layout(bytes(data)).fields
    off = next(o for o, n in fields.items() if n == "operator_codes[0].builtin_code")
    assert off == 1116  # where a one-bit-away user model showed it
    assert struct.unpack_from("<i", data, off)[0] == 45  # STRIDED_SLICE
    struct.pack_into("<i", data, off, CODE)
    path = tmp_path_factory.mktemp("opcode") / "out_of_range_code.tflite"
    path.write_bytes(bytes(data))
    return path


def test_the_reader_keeps_the_code(bad_model):
    m = ta.Model.load(bad_model)
    op = m.operators[0]
    assert (op.builtin_code, op.name) == (CODE, f"BUILTIN_{CODE}")


def test_the_wheel_refuses_it_with_that_reason(bad_model):
    require_tflite_micro()
    accepted, log = wheel_log(bad_model, BIG_ARENA)
    assert not accepted
    assert REASON in log


@pytest.mark.parametrize("target", ta.TARGETS)
def test_tflm_arena_refuses_on_every_target(bad_model, target):
    with pytest.raises(ta.TflmRefusesModelError) as e:
        ta.tflm_arena(bad_model, target=target)
    assert WHERE in str(e.value) and REASON in str(e.value)
    op = e.value.operator
    assert (op.name, op.subgraph, op.index) == (f"builtin code {CODE}", 0, 0)
    assert e.value.reason == REASON


CALLS = {
    "plan": lambda p: ta.plan(ta.Model.load(p)),
    "tflm_scratch_requests": lambda p: ta.tflm_scratch_requests(p),
    "tflm_split_arena": lambda p: ta.tflm_split_arena(p),
    "tflm_shared_arena": lambda p: ta.tflm_shared_arena([p, p]),
    "optimize": lambda p: ta.optimize(p),
    "rewrite": lambda p: ta.rewrite(p),
    "assert_fits": lambda p: ta.assert_fits(p, max_bytes=1 << 20),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_every_call_raises_one_clean_error(bad_model, call):
    with pytest.raises((ta.TflmRefusesModelError, ValueError)) as e:
        CALLS[call](bad_model)
    msg = str(e.value)
    assert "\n" not in msg
    assert WHERE in msg and REASON in msg


@pytest.mark.parametrize(
    "argv",
    [["size"], ["size", "--target", "esp32s3+esp-nn"], ["size", "--split"], ["plan"]],
    ids=lambda a: " ".join(a),
)
def test_cli_prints_one_line_and_exits_1(bad_model, argv, capsys):
    assert main([*argv, str(bad_model)]) == 1
    out = capsys.readouterr()
    err = out.err.strip().splitlines()
    assert len(err) == 1, out.err
    assert err[0].startswith("tflm-arena: error: ")
    assert WHERE in err[0] and REASON in err[0]


def test_the_report_states_the_refusal_for_every_target(bad_model):
    # The report still shows where the bytes go (tensors only) and says, per
    # target, that stock TFLM refuses the model and why.
    page = ta.report_html(bad_model, time_limit=0.2)
    assert page.count("TflmRefusesModelError") >= 2
    assert REASON in page and "tensors only" in page


@pytest.mark.parametrize("command", ["optimize"])
def test_cli_writers_refuse_and_write_nothing(bad_model, command, tmp_path, capsys):
    out = tmp_path / ("out.tflite" if command == "optimize" else "out.html")
    assert main([command, str(bad_model), "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and WHERE in err[0]
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temp file left behind either


def test_a_negative_code_is_tflms_not_found(models_dir, tmp_path):
    """max(deprecated_builtin_code, builtin_code) < 0: TFLM looks the code up,
    finds nothing and names it by the enum's empty name."""
    data = bytearray((models_dir / "seanet_strided_slice0.tflite").read_bytes())
    fields = hostile_sweep.layout(bytes(data)).fields
    off = next(o for o, n in fields.items() if n == "operator_codes[0].builtin_code")
    struct.pack_into("<i", data, off, -1)
    data[1127] = 0xFF  # the int8 deprecated_builtin_code (45) of the same table
    path = tmp_path / "negative_code.tflite"
    path.write_bytes(bytes(data))
    assert ta.Model.load(path).operators[0].builtin_code == -1
    reason = "Didn't find op for builtin opcode ''"
    for target in ta.TARGETS:
        with pytest.raises(ta.TflmRefusesModelError) as e:
            ta.tflm_arena(path, target=target)
        assert e.value.reason == reason
        assert "builtin code -1 (subgraph 0, operator 0)" in str(e.value)
    require_tflite_micro()
    accepted, log = wheel_log(path, BIG_ARENA)
    assert not accepted and reason in log
