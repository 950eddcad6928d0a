"""The C++ core's per-step figures as the CLI and the pictures use them:
live bytes and buffers per step and the peak (``_core.live_steps``), the
operator of every step (``_core.step_operators``), and the check that
preallocated buffers never share bytes while live."""

from __future__ import annotations

import numpy as np
import pytest

import tflm_arena as ta
from tflm_arena import _core, viz
from tflm_arena import _sample_models as sm
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli._plan import Steps as _Steps
from tflm_arena.examples import demo_model_bytes


def _live(size, first, last, **kw):
    return _core.live_steps(
        np.asarray(size, np.int64), np.asarray(first, np.int32), np.asarray(last, np.int32), **kw
    )


def test_live_steps_values_and_earliest_peak():
    r = _live([16, 32, 48], [0, 1, 3], [1, 2, 3])
    assert r["first_step"] == 0 and r["peak"] == 1
    assert r["bytes"].tolist() == [16, 48, 32, 48]
    assert r["buffers"].tolist() == [1, 2, 1, 1]


def test_live_steps_edge_cases():
    empty = _live([], [], [])
    assert empty["bytes"].tolist() == [] and empty["peak"] is None
    assert _live([0], [5], [5])["bytes"].tolist() == [0]  # one step, zero bytes
    # Step -1 (never produced): listed by default, clipped from step 0.
    r = _live([64, 16], [-1, -1], [-1, 1])
    assert (r["first_step"], r["bytes"].tolist(), r["peak"]) == (-1, [80, 16, 16], -1)
    r = _live([64, 16], [-1, -1], [-1, 1], from_step=0)
    assert (r["first_step"], r["bytes"].tolist(), r["peak"]) == (0, [16, 16], 0)
    # Huge steps: a bounded range is fine, an unbounded one is refused.
    big = np.iinfo(np.int32).max
    assert _live([16], [0], [big], from_step=big - 1)["bytes"].tolist() == [16, 16]
    with pytest.raises(ValueError, match="steps, more than the"):
        _live([16], [-big], [big])
    with pytest.raises(ValueError, match="buffer 0: size -1 is negative"):
        _live([-1], [0], [0])
    with pytest.raises(ValueError, match="buffer 0: first step 2 is after last step 1"):
        _live([1], [2], [1])


def test_viz_and_cli_use_the_same_figures():
    m = ta.Model.from_bytes(demo_model_bytes())
    p = m.plan("tflm_greedy")
    steps = _Steps(m, p.records)
    live = viz.live_bytes(p)
    # The CLI lists from the first step; the pictures from step 0.
    assert all(live[s] == steps.live[s] for s in steps.live if s >= 0)
    assert viz.peak_step(p) == steps.peak
    assert steps.live[steps.peak] == int(max(live)) == p.lower_bound


def _if_model() -> ta.Model:
    """Subgraph 0: IF(then=1, else=2), then ADD; then and else: one ADD."""
    mb = ModelBuilder()
    c = mb.add_tensor([1], "bool", "cond")
    a = mb.add_tensor([1, 2], "float32", "a")
    b = mb.add_tensor([1, 2], "float32", "b")
    o = mb.add_tensor([1, 2], "float32", "if_out")
    y = mb.add_tensor([1, 2], "float32", "y")
    then_sg = mb.add_subgraph("then")
    else_sg = mb.add_subgraph("else")
    for sg in (then_sg, else_sg):
        ta_ = mb.add_tensor([1, 2], "float32", "a", subgraph=sg)
        tb = mb.add_tensor([1, 2], "float32", "b", subgraph=sg)
        to = mb.add_tensor([1, 2], "float32", "out", subgraph=sg)
        mb.add_operator("ADD", [ta_, tb], [to], subgraph=sg)
        mb.set_io([ta_, tb], [to], subgraph=sg)
    mb.add_operator(
        "IF",
        [c, a, b],
        [o],
        options={"then_subgraph_index": then_sg, "else_subgraph_index": else_sg},
    )
    mb.add_operator("ADD", [o, b], [y])
    mb.set_io([c, a, b], [y])
    return ta.Model.from_bytes(mb.build())


def test_step_operators_through_control_flow():
    m = _if_model()
    # IF at 1, the step before then (2), then's ADD (3), before else (4),
    # else's ADD (5), the ADD after the IF (6).
    assert _core.step_operators(m._handle).tolist() == [
        [0, 0, -1],
        [0, 0, 1],
        [1, 0, -1],
        [0, 0, 2],
        [2, 0, -1],
        [0, 1, -1],
    ]
    steps = _Steps(m, m.usage_records())
    assert steps.op_steps == {(0, 0): [1], (1, 0): [3], (2, 0): [5], (0, 1): [6]}
    assert (
        steps.op_label(4) == "operator 0 IF" and steps.op_label(5) == "operator 0 ADD of subgraph 2"
    )
    assert steps.op_label(0) == "model inputs" and steps.op_label(7) == "no operator"


def test_step_operators_of_a_plain_model():
    m = ta.Model.from_bytes(demo_model_bytes())
    ops = _core.step_operators(m._handle)
    assert ops.shape == (len(m.subgraphs[0].operators), 3)
    assert ops[:, 0].tolist() == [0] * len(ops)
    assert ops[:, 1].tolist() == list(range(len(ops)))
    assert ops[:, 2].tolist() == [-1] * len(ops)
    # Every operator's outputs are first live at its own step.
    rec = m.usage_records()
    for step, (sg, index, _calls) in enumerate(ops.tolist(), start=1):
        for t in m.subgraphs[sg].operators[index].outputs:
            hit = rec[(rec["subgraph"] == sg) & (rec["tensor"] == t)]
            assert len(hit) == 0 or int(hit["first"][0]) == step


def test_one_array_for_two_live_tensors_is_refused_by_the_core():
    m = ta.Model.from_bytes(sm.add_constant_twice())  # x + c -> t, t + c -> y
    check = _core.check_preallocation_sharing
    check(m._handle, [(0, 4096, 64)], (3, 4096, 64))  # x 0..1, y 2..: never together
    check(m._handle, [(0, 4096, 64)], (2, 4160, 64))  # adjacent bytes: no overlap
    with pytest.raises(
        ValueError,
        match=r"tensors 0 and 2 share memory while both tensors "
        r"are live \(steps \(0, 1\) and \(1, 2\)\)",
    ):
        check(m._handle, [(0, 4096, 64)], (2, 4159, 64))
    # A constant tensor has no planned lifetime: sharing with it is refused.
    with pytest.raises(ValueError, match=r"tensors 1 and 3 share memory .*\(steps None and"):
        check(m._handle, [(1, 4096, 64)], (3, 4096, 64))
