"""Operator reordering (ta.reorder): on every shared model the reordered
model (and, where the graph allows one, a different valid order) runs in the
real TFLM with bit-identical outputs, its records are those of the new order,
and its peak is never worse; on a branchy model reordering lowers the peak
and TFLM's own head."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import tflm_reference as ref
from conftest import shared_models

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena.builder import ModelBuilder
from tflm_arena.examples import branchy_model_bytes


def expected_lifetimes(model: ta.Model, order) -> dict:
    """{global tensor: (first, last)} from TFLM's scope rules (TFLM's
    micro_allocation_info.cc, MarkSubgraphLifetimesIfNecessary:
    inputs live from scope 0; operator i advances the scope, its outputs are
    created there and every input and output is last used there), written
    independently of the C++ code, for subgraph 0 run in ``order``."""
    sg = model.subgraphs[0]
    first, last = {}, {}
    for t in sg.inputs:
        first.setdefault(t, 0)
        last[t] = 0
    for step, i in enumerate(order, start=1):
        op = sg.operators[i]
        for t in op.outputs:
            first.setdefault(t, step)
        for t in op.inputs:
            if t >= 0:
                last[t] = step
        for t in op.outputs:
            last[t] = step
    for t in sg.outputs:
        first.setdefault(t, len(order))
        last[t] = len(order)
    return {t: (first.get(t, -1), last.get(t, -1)) for t in range(len(sg.tensors))}


def check_records(written: ta.Model, original: ta.Model, order) -> None:
    """``written``'s records (our C++ lifetimes) are those of ``original``
    run in ``order``."""
    rec = written.usage_records()
    assert len(rec) == len(original.usage_records())
    want = expected_lifetimes(original, order)
    for r in rec:
        if r["subgraph"] == 0:
            assert (int(r["first"]), int(r["last"])) == want[int(r["tensor"])], r


def run_same(a: ta.Model, b: ta.Model, seed: int = 0) -> None:
    """Both models get the same 3 random inputs; outputs must be identical."""
    it_a, it_b = ref.interpreter(a.data), ref.interpreter(b.data)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        xs = ref.random_inputs(it_a, len(a.inputs), rng)
        for x, y in zip(
            ref.run(it_a, xs, len(a.outputs)), ref.run(it_b, xs, len(b.outputs)), strict=True
        ):
            assert x.dtype == y.dtype and x.shape == y.shape
            assert x.tobytes() == y.tobytes()


def another_valid_order(model: ta.Model, seed: int = 0):
    """A valid operator order other than the original, or None: random
    topological orders of the data flow, checked by the C++ order check."""
    ops = model.subgraphs[0].operators
    n = len(ops)
    producer = {t: i for i, op in enumerate(ops) for t in op.outputs}
    inputs = set(model.inputs)
    preds = [
        {producer[t] for t in op.inputs if t in producer and t not in inputs} - {i}
        for i, op in enumerate(ops)
    ]
    rng = np.random.default_rng(seed)
    for _ in range(20):
        done, order = set(), []
        while len(order) < n:
            ready = [i for i in range(n) if i not in done and preds[i] <= done]
            i = ready[int(rng.integers(len(ready)))]
            order.append(i)
            done.add(i)
        if order == list(range(n)):
            continue
        try:
            _core.operator_order_peak(model._handle, np.asarray(order, np.int32))
        except ValueError:
            continue  # breaks a stateful or side-effect constraint
        return order
    return None


MULTI_OP = [p for p in shared_models() if len(ta.Model.load(p).subgraphs[0].operators) > 1]


@pytest.mark.skipif(not MULTI_OP, reason="no shared models")
def test_every_shared_model_reorders_and_runs_identically_in_tflm():
    rows = []
    for path in MULTI_OP:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        m = ta.Model.load(path)
        r = ta.reorder(m)
        name = path.stem
        assert r.peak_after <= r.peak_before, name
        # reorder(m) without scratch= orders the tensors alone.
        assert r.peak_after == r.model.plan(scratch=False).lower_bound, name
        assert r.peak_before == m.plan(scratch=False).lower_bound, name
        assert sorted(r.order.tolist()) == list(range(len(r.order))), name
        check_records(r.model, m, r.order.tolist())
        run_same(m, r.model)
        alt = another_valid_order(m)
        if alt is not None:  # proves a really permuted model runs the same
            alt_model = ta.Model(
                _core.write_operator_order(m._handle, np.asarray(alt, np.int32), False)
            )
            check_records(alt_model, m, alt)
            run_same(m, alt_model, seed=1)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, "source modified"
        rows.append(
            (name, len(r.order), r.peak_before, r.peak_after, r.exact, r.seconds, alt is not None)
        )
    print()
    print(
        f"{'model':30s} {'ops':>4s} {'peak before':>12s} {'peak after':>11s} {'exact':>6s} "
        f"{'time ms':>8s} {'alt order run':>14s}"
    )
    for name, n, before, after, exact, sec, alt in rows:
        print(
            f"{name:30s} {n:4d} {before:12d} {after:11d} {exact!s:>6s} {sec * 1e3:8.1f} "
            f"{alt!s:>14s}"
        )
    assert all(row[4] for row in rows)  # small models: proven optimal


def branchy_model(with_plan=None) -> ta.Model:
    """x -> FC -> big A1 -> FC -> A2; x -> FC -> big B1 -> FC -> B2;
    A2 + B2 -> y. Written with both big tensors made first."""
    return ta.Model.from_bytes(branchy_model_bytes(with_plan))


def test_branchy_model_gets_a_lower_peak_proven_in_tflm(tmp_path):
    m = branchy_model()
    data = m.data
    r = ta.reorder(m, time_limit=0.5)
    assert m.data == data  # source untouched
    assert r.order.tolist() == [0, 2, 1, 3, 4]
    assert (r.peak_before, r.peak_after) == (64 + 1024 + 1024, 64 + 1024 + 64)
    assert r.exact and r.method in ("greedy", "exact")
    assert r.greedy_after < r.greedy_before
    check_records(r.model, m, r.order.tolist())
    check_records(m, m, range(5))
    run_same(m, r.model)
    head_before = ref.allocations(ref.interpreter(m.data))["head"]
    head_after = ref.allocations(ref.interpreter(r.model.data))["head"]
    assert head_after < head_before
    assert (head_before, head_after) == (
        r.greedy_before,
        r.greedy_after,
    )  # TFLM's greedy, as predicted
    saved = r.model.save(tmp_path / "reordered.tflite")
    assert ta.Model.load(saved).data == r.model.data
    again = ta.reorder(m, time_limit=0.5)
    assert again.order.tolist() == r.order.tolist() and again.model.data == r.model.data
    with pytest.raises(ValueError, match="time_limit"):
        ta.reorder(m, time_limit=0)


def test_scratch_requests_steer_the_order():
    # 4 KiB of kernel scratch while b1's FC runs: best is to run branch b
    # first, before x is joined by a1 (without scratch both orders tie).
    m = branchy_model()
    r = ta.reorder(m, scratch=[(4096, 1, 0)])
    assert r.order[0] == 1 and r.order[4] == 4  # orders after b1 tie
    assert (r.peak_before, r.peak_after) == (64 + 1024 + 1024 + 4096, 64 + 1024 + 4096)
    assert r.exact
    assert ta.remap_scratch([(4096, 1, 0), (16, 4, 0)], r.order) == [(4096, 0, 0), (16, 4, 0)]
    run_same(m, r.model)
    plain = ta.reorder(m)
    assert _core.operator_order_peak(m._handle, plain.order) == plain.peak_after
    with pytest.raises(ValueError, match="scratch request 0: node 9 out of range"):
        ta.reorder(m, scratch=[(16, 9, 0)])


def test_offline_plan_kept_only_when_still_valid():
    # x (tensor 0) and a2 (tensor 6) never live together in the original
    # order: a plan may share their bytes. The better order breaks that.
    offsets = [-1] * 10
    offsets[0] = offsets[6] = 0
    m = branchy_model(with_plan=offsets)
    with pytest.raises(ValueError, match="offline plan is not valid in the new operator order"):
        ta.reorder(m)
    r = ta.reorder(m, drop_offline_plan=True)
    assert r.model.offline_plan() is None
    assert r.order.tolist() == [0, 2, 1, 3, 4]
    run_same(m, r.model)
    ok = [-1] * 10
    ok[0] = 0
    kept = ta.reorder(branchy_model(with_plan=ok))
    assert kept.model.offline_plan().tolist() == ok


def test_control_flow_and_bad_orders_are_refused():
    mb = ModelBuilder()
    cond = mb.add_tensor([1], "bool", "c")
    x = mb.add_tensor([1], "float32", "x")
    y = mb.add_tensor([1], "float32", "y")
    body = mb.add_subgraph("branch")
    bx = mb.add_tensor([1], "float32", "bx", subgraph=body)
    mb.set_io([bx], [bx], subgraph=body)
    mb.add_operator(
        "IF", [cond, x], [y], options={"then_subgraph_index": 1, "else_subgraph_index": 1}
    )
    mb.set_io([cond, x], [y])
    with pytest.raises(NotImplementedError, match=r"operator 0 \(IF\) invokes subgraph 1"):
        ta.reorder(ta.Model.from_bytes(mb.build()))
    m = branchy_model()
    with pytest.raises(ValueError, match="operator 2 reads tensor 2 but runs before operator 0"):
        _core.write_operator_order(m._handle, np.array([2, 0, 1, 3, 4], np.int32), False)
    assert _core.operator_order_peak(m._handle, np.array([0, 2, 1, 3, 4], np.int32)) == 1152


def test_an_offline_plan_that_puts_two_tensors_on_one_offset_reorders():
    """Vela's models (person_detect_vela in tflite-micro) put the scratch and
    the fast scratch at one offline offset: the records' lower bound counts
    those bytes once, the search's peak twice. That used to raise an
    'internal error' from reorder and optimize(reorder=True)."""
    mb = ModelBuilder()
    a = mb.add_tensor([1, 64], "float32", "a")
    b = mb.add_tensor([1, 64], "float32", "b")
    y = mb.add_tensor([1, 64], "float32", "y")
    mb.add_operator("ADD", [a, b], [y])
    mb.set_io([a, b], [y])
    plain = ta.Model.from_bytes(mb.build())
    m = ta.Model(plain._handle.with_offline_plan(np.array([0, 0, 256], np.int64)))
    records = m.usage_records()
    assert list(records["fixed_offset"]) == [0, 0, 256]
    r = ta.reorder(m, time_limit=0.1)
    assert r.order.tolist() == [0]
    assert r.peak_before == r.peak_after == 512  # a and b share bytes 0..255
    assert r.model.offline_plan() is not None
    opt = ta.optimize(m, reorder=True)
    assert opt.model is not None
