"""Model reading and TFLM-exact lifetimes, checked against the real TFLM."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import tflm_reference as ref
from conftest import model_params

import tflm_arena as ta

# Models whose TFLM kernels request scratch buffers in the arena head (SVDF,
# TRANSPOSE_CONV int16, UNIDIRECTIONAL_SEQUENCE_LSTM): a tensors-only plan of
# them is below TFLM's head, which also holds those requests.
SCRATCH_MODELS = {"keyword_scrambled", "seanet_transpose_conv4", "trained_lstm_int8"}

#: The wheel's measured figures per shared model (benchmarks/tflm_size.py).
WHEEL = json.loads((Path(__file__).parent / "tflm_size_wheel.json").read_text())


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_every_shared_model_loads_and_plans_like_tflm(model_path):
    m = ta.Model.load(model_path)
    assert len(m.subgraphs) >= 1 and len(m.operators) >= 1
    rec = m.usage_records()
    assert np.all(rec["size"] % 16 == 0) and np.all(rec["first"] <= rec["last"])
    planned = {(int(s), int(t)) for s, t in zip(rec["subgraph"], rec["tensor"], strict=True)}
    for t in m.tensors:  # TFLM's rule (micro_allocation_info.cc): plan exactly
        # the non-constant, non-variable, sized tensors
        expect = not t.is_constant and not t.is_variable and bool(t.bytes)
        assert ((0, t.index) in planned) == expect, t
    # A model's plan holds TFLM's kernel scratch buffers: same lifetimes,
    # same requests, same greedy => TFLM's head, byte for byte, on the
    # default target and on the wheel's.
    p, px = ta.plan(m), ta.plan(m, target="x86-64")
    assert p.scratch_target == ta.tflm_size.DEFAULT_TARGET and px.scratch_target == "x86-64"
    head = ref.allocations(ref.interpreter(m.data))["head"]
    assert head == WHEEL[model_path.stem]["head"]
    assert p.arena_bytes == px.arena_bytes == head
    assert ta.tflm_arena(m, target="x86-64", recording=True).head == head
    assert m.plan().arena_bytes == head
    # Tensors only: below TFLM's head exactly when its kernels ask for scratch.
    only = ta.plan(m, scratch=False)
    assert only.tensors_only and "tensors only" in repr(only)
    assert "tensors only" not in repr(p) and not p.tensors_only
    n_scratch = int(np.count_nonzero(p.records["scratch"] >= 0))
    assert len(p) == len(only) + n_scratch
    if model_path.stem in SCRATCH_MODELS:
        assert n_scratch > 0 and only.arena_bytes < head
    else:
        assert only.arena_bytes == head


def test_person_detect_contents(models_dir):
    m = ta.Model.load(models_dir / "person_detect.tflite")
    inp = m.tensors[m.inputs[0]]
    assert inp.shape == (1, 96, 96, 1) and inp.type == "INT8" and inp.bytes == 9216
    assert inp.zero_point.tolist() == [-1]
    assert m.operators[0].name == "DEPTHWISE_CONV_2D"
    assert {o.name for o in m.operators} == {
        "AVERAGE_POOL_2D",
        "CONV_2D",
        "DEPTHWISE_CONV_2D",
        "RESHAPE",
        "SOFTMAX",
    }
    assert m.offline_plan() is None


def test_lifetimes_follow_tflm_scopes(models_dir):
    # hello_world: input lives from 0 to op 0 (scope 1); op k's output from
    # k+1 to its reader; the model output is extended to the last scope.
    m = ta.Model.load(models_dir / "hello_world_int8.tflite")
    rec = m.usage_records()
    spans = {int(r["tensor"]): (int(r["first"]), int(r["last"])) for r in rec}
    assert spans == {0: (0, 1), 7: (1, 2), 8: (2, 3), 9: (3, 3)}


def test_scratch_requests_are_appended(models_dir):
    m = ta.Model.load(models_dir / "keyword_scrambled.tflite")
    base = m.usage_records()
    rec = m.usage_records(scratch=[(256, 3, 0), (100, 3, 0)])
    assert len(rec) == len(base) + 2
    assert rec["scratch"][-2:].tolist() == [0, 1] and rec["tensor"][-1] == -1
    assert rec["size"][-1] == 112  # aligned up to 16
    assert rec["first"][-1] == rec["last"][-1] == 4  # op 3 runs at scope 4


def test_tables_are_plain_python(models_dir):
    m = ta.Model.load(models_dir / "keyword_scrambled.tflite")
    svdf = [o for o in m.operators if o.name == "SVDF"]
    assert len(svdf) == 7 and all(o.version >= 1 for o in svdf)
    variables = [t for t in m.tensors if t.is_variable]
    assert len(variables) == 7 and sum(t.bytes for t in variables) == 10240
    assert isinstance(m.metadata, dict)


def test_load_errors_name_the_file():
    with pytest.raises(ValueError, match="cannot read model"):
        ta.Model.load("/nonexistent/model.tflite")
