"""Streaming models (the microWakeWord shape): CALL_ONCE into an init
subgraph, resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE)
holding the stream state, SPLIT_V. The application creates the
MicroResourceVariables before the interpreter; the tflite-micro wheel passes
one per distinct VAR_HANDLE shared_name. Each figure is checked against the
wheel's bisected minimum (x86-64), byte for byte."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import require_tflite_micro

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import tflm_size as wheel  # benchmarks/tflm_size.py

STATE = [1, 2, 1, 8]  # int8, 16 bytes per variable (x 2 stream frames)


def streaming_model(variables: int = 2, split_v: bool = False, shared: bool = True) -> bytes:
    """x [1, 1, 1, 8] int8 -> for each variable k: READ_VARIABLE(state k),
    CONCATENATION(state, x) [1, 3, 1, 8], STRIDED_SLICE of its last two
    frames, ASSIGN_VARIABLE (the new state); y = the last concatenation.
    Subgraph 1 (CALL_ONCE's init) assigns every variable a constant of
    zeros. With ``shared=False`` the init subgraph names its variables
    differently (each VAR_HANDLE shared_name is then its own variable)."""
    mb = ModelBuilder()
    q = {"scale": [0.5], "zero_point": [-128]}
    init = mb.add_subgraph("init")
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": init})
    x = mb.add_tensor([1, 1, 1, 8], "int8", "x", **q)
    last = x
    for k in range(variables):
        h = mb.add_tensor([], "resource", f"handle{k}")
        mb.add_operator("VAR_HANDLE", [], [h], options={"shared_name": f"stream_{k}/states"})
        state = mb.add_tensor(STATE, "int8", f"state{k}", **q)
        mb.add_operator("READ_VARIABLE", [h], [state])
        cat = mb.add_tensor([1, 3, 1, 8], "int8", f"cat{k}", **q)
        mb.add_operator("CONCATENATION", [state, last], [cat], options={"axis": 1})
        begin = mb.add_tensor([4], "int32", f"begin{k}", data=[0, 1, 0, 0])
        end = mb.add_tensor([4], "int32", f"end{k}", data=[1, 3, 1, 8])
        strides = mb.add_tensor([4], "int32", f"strides{k}", data=[1, 1, 1, 1])
        new = mb.add_tensor(STATE, "int8", f"new_state{k}", **q)
        mb.add_operator("STRIDED_SLICE", [cat, begin, end, strides], [new])
        mb.add_operator("ASSIGN_VARIABLE", [h, new], [])
        last = mb.add_tensor([1, 1, 1, 8], "int8", f"frame{k}", **q)
        if split_v:
            sizes = mb.add_tensor([2], "int32", f"sizes{k}", data=[2, 1])
            axis = mb.add_tensor([], "int32", f"axis{k}", data=[1])
            head = mb.add_tensor([1, 2, 1, 8], "int8", f"head{k}", **q)
            mb.add_operator("SPLIT_V", [cat, sizes, axis], [head, last], options={"num_splits": 2})
        else:
            begin2 = mb.add_tensor([4], "int32", f"fb{k}", data=[0, 2, 0, 0])
            end2 = mb.add_tensor([4], "int32", f"fe{k}", data=[1, 3, 1, 8])
            mb.add_operator("STRIDED_SLICE", [cat, begin2, end2, strides], [last])
    for k in reversed(range(variables)):
        name = f"stream_{k}/states" if shared else f"init_{k}"
        h = mb.add_tensor([], "resource", f"init_handle{k}", subgraph=init)
        mb.add_operator("VAR_HANDLE", [], [h], options={"shared_name": name}, subgraph=init)
        zeros = mb.add_tensor(
            STATE, "int8", f"zeros{k}", data=np.zeros(STATE, np.int8), subgraph=init, **q
        )
        mb.add_operator("ASSIGN_VARIABLE", [h, zeros], [], subgraph=init)
    mb.set_io([x], [last])
    return mb.build()


CASES = {
    "one_variable": {"variables": 1},
    "three_variables": {"variables": 3},
    "split_v": {"variables": 2, "split_v": True},
    "init_names_its_own": {"variables": 2, "shared": False},
}


@pytest.mark.no_asan
@pytest.mark.parametrize("case", sorted(CASES))
def test_streaming_models_equal_the_wheels_bisected_minimum(case, tmp_path):
    require_tflite_micro()
    path = tmp_path / f"{case}.tflite"
    path.write_bytes(streaming_model(**CASES[case]))
    ours = ta.tflm_arena(path, target="tflite-micro-wheel")
    n, figs = wheel.wheel_minimum(path, hint=ours.min_arena_bytes)
    assert ours.min_arena_bytes == n, (case, figs)
    assert (ours.head, ours.tail) == (figs["head"], figs["tail"])


def test_the_count_follows_the_wheels_rule_and_is_said():
    m = ta.Model.from_bytes(streaming_model(variables=3))
    r = ta.tflm_arena(m, target="tflite-micro-wheel")
    assert r.resource_variables == 3 and r.resource_variables_in_arena
    assert "resource variables 3 (MicroResourceVariables::Create in this arena" in str(r)
    # The init subgraph's own names are more variables (4 in all).
    other = ta.tflm_arena(streaming_model(variables=2, shared=False), target="x86-64")
    assert other.resource_variables == 4


def test_the_application_decides_the_count_and_where_the_objects_live():
    m = ta.Model.from_bytes(streaming_model(variables=2))
    base = ta.tflm_arena(m, target="cortex-m")
    twenty = ta.tflm_arena(m, target="cortex-m", resource_variables=20)
    # 32-bit MicroResourceVariable: 20 bytes each, the array 16-aligned.
    assert twenty.tail - base.tail == (20 * 20 + 15) // 16 * 16 - (2 * 20 + 15) // 16 * 16
    elsewhere = ta.tflm_arena(
        m, target="cortex-m", resource_variables=20, resource_variables_in_arena=False
    )
    assert not elsewhere.resource_variables_in_arena
    assert "in another arena" in str(elsewhere)
    # The object (12 B) and the array of two (40 B), each 16-aligned as the
    # tail grows down, are gone; the two 16-byte variable buffers stay.
    assert 12 + 40 <= base.tail - elsewhere.tail <= 16 + 48
    assert elsewhere.categories["persistent_buffer_data"].used >= 2 * 16


def test_too_few_variables_is_tflms_refusal():
    m = ta.Model.from_bytes(streaming_model(variables=2))
    with pytest.raises(ta.TflmRefusesModelError) as e:
        ta.tflm_arena(m, target="x86-64", resource_variables=1)
    assert e.value.reason == (
        "Failed to allocate resource variable. Maximum resource variable count (1) reached."
    )
    with pytest.raises(ta.TflmRefusesModelError, match="VAR_HANDLE requires resource variables"):
        ta.tflm_arena(m, target="x86-64", resource_variables=0)
    with pytest.raises(ValueError, match="resource_variables must be >= 0"):
        ta.tflm_arena(m, resource_variables=-2)


def test_resource_handles_are_not_planned():
    """VAR_HANDLE's Prepare points its output at its OpData: TFLM plans only
    tensors whose data is still null, so the handles take no head bytes."""
    m = ta.Model.from_bytes(streaming_model(variables=1))
    rec = m.usage_records()
    handles = {t.index for t in m.subgraphs[0].tensors if t.name.startswith("handle")}
    planned = {int(t) for t, sg in zip(rec["tensor"], rec["subgraph"], strict=True) if sg == 0}
    assert handles and not handles & planned


def test_cli_size_takes_the_applications_count(tmp_path, capsys):
    from tflm_arena.cli import main

    path = tmp_path / "streaming.tflite"
    path.write_bytes(streaming_model(variables=2))
    assert main(["size", str(path), "--resource-variables", "20"]) == 0
    out = capsys.readouterr().out
    assert "resource variables 20 (MicroResourceVariables::Create in this arena" in out
    argv = ["size", str(path), "--resource-variables", "20", "--resource-variables-elsewhere"]
    assert main([*argv, "--json"]) == 0
    assert '"resource_variables_in_arena": false' in capsys.readouterr().out
    assert main(["size", str(path), "--resource-variables", "1"]) == 1
    assert "Maximum resource variable count (1) reached." in capsys.readouterr().err
    assert main(["size", str(path), "--split", "--resource-variables", "3"]) == 2


def _oracle_rows() -> list[dict[str, str]]:
    import csv

    table = Path(__file__).with_name("data") / "oracle_armhf_streaming.tsv"
    with open(table) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


TARGET_OF_BUILD = {
    "reference": "cortex-m",
    "cmsis_nn_dsp": "cortex-m4+cmsis-nn",
    "esp_nn_esp32s3": "esp32s3+esp-nn",
}


@pytest.mark.parametrize("row", _oracle_rows(), ids=lambda r: f"{r['case']}-{r['build']}")
def test_streaming_models_equal_real_32_bit_tflm(row):
    # 32-bit ARM TFLM (reference, CMSIS-NN, ESP-NN for ESP32-S3): the
    # MicroResourceVariables object (12 bytes), its array (20 per variable)
    # and the variables' buffers as the real builds allocate them.
    r = ta.tflm_arena(streaming_model(**CASES[row["case"]]), target=TARGET_OF_BUILD[row["build"]])
    assert (r.min_arena_bytes, r.head, r.tail) == (
        int(row["min_arena"]),
        int(row["head"]),
        int(row["tail"]),
    )
