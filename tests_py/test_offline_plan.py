"""Offline plans: written into copies of real models, read back, and used by
the real TFLM with identical outputs; hand-made plans accepted or rejected."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
import tflm_reference as ref
from conftest import model_params

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder, offline_plan_metadata


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_written_plan_rereads_and_runs_identically_in_tflm(model_path, tmp_path):
    before = hashlib.sha256(model_path.read_bytes()).hexdigest()
    m = ta.Model.load(model_path)
    # The plan includes the wheel's kernel scratch buffers, so it is TFLM's
    # own head, and writing its tensor offsets keeps that head.
    p = m.plan(target="x86-64")
    assert p.scratch_target == "x86-64"
    out = m.with_offline_plan(p).save(tmp_path / "planned.tflite")

    m2 = ta.Model.load(out)
    offsets = m2.offline_plan()
    rec = m.usage_records()
    want = np.full(m.total_tensors, -1)
    want[rec["global_tensor"]] = p.offsets[: len(rec)]
    assert offsets.tolist() == want.tolist()
    # Re-planning the written model reproduces the plan: tensors fixed where
    # they were written, scratch buffers placed again where TFLM puts them.
    again = m2.plan(target="x86-64")
    assert again.offsets.tolist() == p.offsets.tolist()
    assert again.arena_bytes == p.arena_bytes
    # Everything else is unchanged.
    assert [t.name for t in m2.tensors] == [t.name for t in m.tensors]
    assert [o.name for o in m2.operators] == [o.name for o in m.operators]
    assert {k: v for k, v in m2.metadata.items() if k != "OfflineMemoryAllocation"} == m.metadata

    it_a, it_b = ref.interpreter(m.data), ref.interpreter(m2.data)
    rng = np.random.default_rng(42)
    for _ in range(3):
        xs = ref.random_inputs(it_a, len(m.inputs), rng)
        for a, b in zip(
            ref.run(it_a, xs, len(m.outputs)), ref.run(it_b, xs, len(m.outputs)), strict=True
        ):
            np.testing.assert_array_equal(a, b)
    assert ref.allocations(it_b)["head"] == p.arena_bytes  # TFLM used our plan
    assert hashlib.sha256(model_path.read_bytes()).hexdigest() == before  # source untouched


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_a_tensors_only_plan_is_written_only_when_tflm_keeps_its_head(model_path):
    # TFLM places its kernels' scratch buffers online around the written
    # tensors: a tensors-only plan can make its head grow (keyword_scrambled
    # 672 -> 800). with_offline_plan refuses that, or writes a plan whose
    # head is not larger.
    m = ta.Model.load(model_path)
    own = ta.tflm_arena(m, target="x86-64", recording=True).head
    # The best plan with the wheel's scratch included: written, TFLM's head
    # is at most its own (the real interpreter says so).
    best = ta.plan(m, strategy="best", target="x86-64")
    assert best.arena_bytes <= own
    written = m.with_offline_plan(best)
    assert ref.allocations(ref.interpreter(written.data))["head"] <= own
    # The best tensors-only plan: refused with both heads, or not larger.
    p = m.plan(strategy="best", scratch=False)
    assert p.tensors_only and p.scratch_target is None
    try:
        new = m.with_offline_plan(p, target="x86-64")
    except ValueError as e:
        grown = ta.tflm_arena(m._with_offline_plan(p), target="x86-64").head
        assert grown > own
        assert f"{own} -> {grown} bytes" in str(e) and "plan_for_tflm" in str(e)
        return
    assert ta.tflm_arena(new, target="x86-64", recording=True).head <= own


def _chain_model(offsets):
    """x -> ADD -> t1 -> ADD -> t2 -> ADD -> y (float32 [1,16] = 64 bytes),
    with an offline plan; t0 and t2 are never live together."""
    mb = ModelBuilder()
    c = mb.add_tensor([1, 16], "float32", "one", data=np.ones((1, 16), np.float32))
    t = [mb.add_tensor([1, 16], "float32", f"t{i}") for i in range(4)]
    for i in range(3):
        mb.add_operator("ADD", [t[i], c], [t[i + 1]])
    mb.set_io([t[0]], [t[3]])
    mb.add_metadata("OfflineMemoryAllocation", offline_plan_metadata(offsets))
    return ta.Model.from_bytes(mb.build())


def test_tensors_sharing_offsets_with_disjoint_lifetimes_are_accepted():
    # NPU-compiler style: t0 and t2 share offset 0, t1 and t3 share 64.
    m = _chain_model([-1, 0, 64, 0, 64])
    assert m.offline_plan().tolist() == [-1, 0, 64, 0, 64]
    p = m.plan()
    assert p.offsets.tolist() == [0, 64, 0, 64] and p.arena_bytes == 128
    it = ref.interpreter(m.data)
    (y,) = ref.run(it, [np.zeros((1, 16), np.float32)], 1)
    np.testing.assert_array_equal(y, np.full((1, 16), 3.0, np.float32))
    assert ref.allocations(it)["head"] == 128


@pytest.mark.parametrize(
    "offsets, message",
    [
        ([-1, 0, 8, 0, 64], "multiple of the alignment 16"),
        ([-1, 0, -5, 0, 64], "negative|-5"),
        ([-1, 0, 64, 0], "count|tensors"),
    ],
)
def test_bad_offline_plans_are_rejected_with_a_clear_error(offsets, message):
    m = _chain_model(offsets)
    with pytest.raises(ValueError, match=message):
        m.offline_plan()
    with pytest.raises(ValueError):
        m.plan()


def test_live_aliases_are_reported_planned_and_refused_only_by_the_interpreter():
    # 64-byte tensors t0..t3 (tensors 1..4) at 0, 32, 64, 0: t0/t1 and
    # t1/t2 share 32 bytes while live. TFLM accepts that (NPU compilers do it
    # on purpose); our kernels would corrupt one of each pair.
    m = _chain_model([-1, 0, 32, 64, 0])
    assert m.offline_plan().tolist() == [-1, 0, 32, 64, 0]
    aliases = m.offline_plan_aliases()
    assert [(a["tensors"], a["shared_bytes"], a["steps"]) for a in aliases] == [
        ((1, 2), (32, 64), (1, 1)),
        ((2, 3), (64, 96), (2, 2)),
    ]
    assert aliases[0]["names"] == ("t0", "t1")
    with pytest.warns(ta.OfflinePlanAliasWarning, match="tensor 1 't0' and tensor 2 't1'"):
        p = m.plan()  # fixed buffers are the caller's: planned as given, with a warning
    assert p.offsets.tolist() == [0, 32, 64, 0] and p.arena_bytes == 128
    assert _core_aliases(p) == [(0, 1), (1, 2)]
    with pytest.raises(
        ValueError,
        match=r"offline plan aliases live tensors: tensor 1 \('t0'\) "
        r"of subgraph 0 and tensor 2 \('t1'\)",
    ):
        ta.Interpreter(m).allocate_tensors()


def _core_aliases(p):
    from tflm_arena import _core
    from tflm_arena._records import columns

    return [tuple(a) for a in _core.fixed_aliases(*columns(p.records))]


def test_wrong_version_is_rejected():
    mb = ModelBuilder()
    a = mb.add_tensor([1, 4], "float32", "a")
    b = mb.add_tensor([1, 4], "float32", "b")
    mb.add_operator("ADD", [a, a], [b])
    mb.set_io([a], [b])
    words = np.frombuffer(offline_plan_metadata([-1, -1]), "<i4").copy()
    words[0] = 1
    mb.add_metadata("OfflineMemoryAllocation", words.tobytes())
    with pytest.raises(ValueError, match="version"):
        ta.Model.from_bytes(mb.build()).offline_plan()


def test_save_is_atomic_and_refuses_to_overwrite(tmp_path, models_dir):
    m = ta.Model.load(models_dir / "hello_world_int8.tflite")
    dest = tmp_path / "m.tflite"
    dest.write_bytes(b"precious")
    with pytest.raises(FileExistsError):
        m.save(dest)
    assert dest.read_bytes() == b"precious"
    m.save(dest, overwrite=True)
    assert dest.read_bytes() == m.data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.tflite"]  # no temp files left


def test_plan_from_another_model_is_refused(models_dir):
    a = ta.Model.load(models_dir / "hello_world_int8.tflite")
    b = ta.Model.load(models_dir / "hello_world_float.tflite")
    with pytest.raises(ValueError, match="another model"):
        a.with_offline_plan(b.plan())
    with pytest.raises(ValueError, match="usage records"):
        a.with_offline_plan(ta.plan([16], [0], [0]))


# --- offline plans that alias live tensors -----------------------------------


def _add_chain(n_ops, offsets, size=16):
    """t0 -> ADD -> t1 -> ... -> t<n_ops> (float32 [1, size], 4 * size bytes)
    with the constant first; ``offsets`` covers every tensor, constant first."""
    mb = ModelBuilder()
    c = mb.add_tensor([1, size], "float32", "one", data=np.ones((1, size), np.float32))
    t = [mb.add_tensor([1, size], "float32", f"t{i}") for i in range(n_ops + 1)]
    for i in range(n_ops):
        mb.add_operator("ADD", [t[i], c], [t[i + 1]])
    mb.set_io([t[0]], [t[n_ops]])
    mb.add_metadata("OfflineMemoryAllocation", offline_plan_metadata(offsets))
    return ta.Model.from_bytes(mb.build())


def _vela_style():
    """Every arena tensor has an offset (as Vela writes them): x -> ADD -> a
    -> ADD -> b -> ADD -> y with a at 64, and x, b and y at 0; x and b are
    never live together, but b and y are (b is read while y is written)."""
    return _add_chain(3, [-1, 0, 64, 0, 0])


ALIAS_CASES = {
    # name: (model, [(tensors, shared_bytes, steps)], lower bound, arena).
    # Bounds by hand: input_with_output [0, 64) at step 1; partial_overlap
    # step 2 holds t1 [48, 112) and the online t2 (64): 128, while the plan
    # must put t2 above 112 (176); chain_of_three step 2 covers [32, 128);
    # vela_style step 1 holds t0 [0, 64) and a [64, 128).
    "input_with_output": (lambda: _add_chain(1, [-1, 0, 0]), [((1, 2), (0, 64), (1, 1))], 64, 64),
    "partial_overlap": (
        lambda: _add_chain(2, [-1, 0, 48, -1]),
        [((1, 2), (48, 64), (1, 1))],
        128,
        176,
    ),
    "chain_of_three": (
        lambda: _add_chain(3, [-1, 0, 32, 64, 96]),
        [((1, 2), (32, 64), (1, 1)), ((2, 3), (64, 96), (2, 2)), ((3, 4), (96, 128), (3, 3))],
        96,
        160,
    ),
    "vela_style": (_vela_style, [((3, 4), (0, 64), (3, 3))], 128, 128),
}


@pytest.mark.parametrize("case", sorted(ALIAS_CASES))
def test_offline_aliases_warn_fail_validate_and_show_in_the_cli(case, tmp_path, capsys):
    make, want, bound, arena = ALIAS_CASES[case]
    m = make()
    found = m.offline_plan_aliases()
    assert [(a["tensors"], a["shared_bytes"], a["steps"]) for a in found] == want
    with pytest.warns(ta.OfflinePlanAliasWarning) as said:
        p = ta.plan(m)
    text = str(said[0].message)
    for a in found:  # names, indices, shared bytes and steps of every pair
        (i, j), (b, e), (f, l_) = a["tensors"], a["shared_bytes"], a["steps"]
        assert (
            f"tensor {i} '{a['names'][0]}' and tensor {j} '{a['names'][1]}' share bytes "
            f"[{b}, {e}) at steps {f}..{l_}"
        ) in text
    # The plan exposes the same pairs, and the bound counts shared bytes once.
    assert [(a["tensors"], a["shared_bytes"], a["steps"], a["names"]) for a in p.aliases] == [
        (a["tensors"], a["shared_bytes"], a["steps"], a["names"]) for a in found
    ]
    assert (p.lower_bound, p.arena_bytes) == (bound, arena)
    assert 0 <= p.lower_bound <= p.arena_bytes and p.overhead >= 0
    assert p.optimal == (arena == bound)
    with pytest.raises(
        ValueError, match=f"tensor {found[0]['tensors'][0]} '{found[0]['names'][0]}' and tensor"
    ):
        p.validate()
    p.validate(allow_aliases=True)
    # A Plan is still constructible from the same records and offsets.
    again = ta.Plan(
        records=p.records, offsets=p.offsets, arena_bytes=p.arena_bytes, strategy="copy"
    )
    assert len(again.aliases) == len(found)
    with pytest.raises(ValueError, match="aliases live buffers"):
        again.validate()
    # Model.plan warns too, naming the caller's line.
    with pytest.warns(ta.OfflinePlanAliasWarning) as said:
        m.plan()
    assert said[0].filename == __file__

    from tflm_arena.cli import main

    path = tmp_path / f"{case}.tflite"
    path.write_bytes(m.data)
    assert main(["plan", str(path)]) == 0
    out = capsys.readouterr().out
    i, j = found[0]["tensors"]
    assert f"offline plan alias: tensor {i} '{found[0]['names'][0]}' and tensor {j}" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("strategy tflm_greedy: arena"))
    pct = float(line.split("(")[-1].split(" %")[0])
    assert pct >= 0 and f"lower bound {bound} bytes" in line
    assert main(["plan", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [tuple(a["tensors"]) for a in data["aliases"]] == [a["tensors"] for a in found]
    assert data["lower_bound"] == bound and data["arena_bytes"] == arena
    assert main(["inspect", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [tuple(a["tensors"]) for a in data["offline_plan_aliases"]] == [
        a["tensors"] for a in found
    ]
    assert main(["inspect", str(path)]) == 0
    assert f"tensors {i} '{found[0]['names'][0]}' and {j}" in capsys.readouterr().out


def test_with_offline_plan_takes_only_a_plan(models_dir):
    m = ta.Model.load(models_dir / "hello_world_int8.tflite")
    p = m.plan()
    for bad in (np.asarray(p.offsets), p.offsets.tolist(), p.records, None):
        with pytest.raises(TypeError, match="takes a Plan made from this model"):
            m.with_offline_plan(bad)
    assert m.with_offline_plan(p).offline_plan() is not None


def test_with_offline_plan_warns_when_tflm_head_cannot_be_checked(tmp_path):
    # Stock TFLM has no kernel for the custom operator (refused): the plan
    # is written, with a warning that the head was not checked.
    mb = ModelBuilder()
    x = mb.add_tensor([1, 16], "float32", "x")
    y = mb.add_tensor([1, 16], "float32", "y")
    mb.add_operator("CUSTOM", [x], [y], custom_code="mystery")
    mb.set_io([x], [y])
    m = ta.Model.from_bytes(mb.build())
    with pytest.raises(ta.TflmRefusesModelError, match=r"mystery.*scratch=False"):
        m.plan()
    p = m.plan(scratch=False)
    assert p.tensors_only and "tensors only" in repr(p)
    with pytest.warns(UserWarning, match="head with this plan was not checked.*mystery"):
        new = m.with_offline_plan(p)
    want = np.full(2, -1)
    want[p.records["global_tensor"]] = p.offsets
    assert new.offline_plan().tolist() == want.tolist()
