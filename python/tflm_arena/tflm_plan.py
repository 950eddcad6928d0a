"""Offline plans that STOCK TFLM keeps: tensors and kernel scratch planned
together, only the tensor offsets written.

TFLM honours a model's ``OfflineMemoryAllocation`` offsets for tensors but
always places the scratch buffers its kernels request (SVDF, LSTM,
TRANSPOSE_CONV, MEAN, ...) online, with its greedy planner, around those
fixed tensors. A plan of the tensors alone can therefore make TFLM's head
grow (keyword_scrambled: 672 -> 800 bytes). :func:`plan_for_tflm` plans the
tensors with room for the scratch buffers, predicts the head TFLM will use by
simulating that online placement (TFLM's greedy with every tensor fixed, the
same code as :func:`tflm_arena`), tries a few alternatives and returns a
model only when TFLM's head gets smaller.

>>> import tflm_arena as ta
>>> r = ta.plan_for_tflm(ta.Model.load("vww_96_int8.tflite"))  # doctest: +SKIP
>>> r.original_head, r.predicted_head                           # doctest: +SKIP
(73728, 64512)
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

import numpy as np

from ._plan import Plan
from ._plan import plan as _plan
from .model import Model
from .tflm_size import (
    DEFAULT_TARGET,
    _as_model,
    check_target,
    tflm_arena,
)
from .tflm_size import (
    tflm_scratch_requests as tflm_scratch_requests,  # also importable from here
)

#: Strategies :func:`plan_for_tflm` also tries besides the one asked for.
ALSO_TRY = ("greedy_by_size", "greedy_by_breadth", "tflm_greedy")

#: Rounds of "fix the scratch buffers where TFLM puts them, re-plan tensors".
REFIT_ROUNDS = 3

#: Planner for the tensors when the scratch buffers are fixed and the asked
#: strategy does not take fixed offsets (the TFLite-GPU family).
_FIXED_FALLBACK = "tflm_greedy"


@dataclass(frozen=True)
class Candidate:
    """One plan tried: how it was made and the head TFLM would use."""

    name: str  # e.g. "greedy_by_size joint", "... refit 1", "... tensors only"
    strategy: str
    head: int  # simulated TFLM head with its tensor offsets written
    plan: Plan  # joint records: tensors as written, scratch where TFLM puts them


@dataclass(frozen=True)
class TflmPlan:
    """Result of :func:`plan_for_tflm`.

    ``model`` is the model with the plan written, or None when no plan makes
    TFLM's head smaller (``reason`` says so, with both heads).
    ``predicted_head`` is the head stock TFLM uses with ``model`` (or with
    the best candidate when ``model`` is None); ``original_head`` TFLM's own.
    ``plan`` covers tensors and scratch buffers (the usage records with
    scratch): the tensor offsets are what is written, the scratch offsets
    where TFLM will place them.

    >>> import tflm_arena as ta
    >>> t = ta.plan_for_tflm("hello_world_int8.tflite", target="x86-64")
    >>> t.original_head, t.predicted_head
    (32, 32)
    """

    model: Model | None
    predicted_head: int
    original_head: int
    strategy: str
    target: str
    plan: Plan | None
    reason: str
    scratch: tuple[tuple[int, int, int], ...] = ()
    candidates: tuple[Candidate, ...] = field(default=(), repr=False)
    predicted_min_arena: int = 0  # tflm_arena(model, target).min_arena_bytes
    original_min_arena: int = 0
    lower_bound: int = 0  # most bytes live at once, scratch included

    @property
    def improved(self) -> bool:
        return self.model is not None and self.predicted_head < self.original_head

    @property
    def saving(self) -> int:
        """Head bytes saved in stock TFLM (0 when no model is returned)."""
        return self.original_head - self.predicted_head if self.model is not None else 0


def plan_for_tflm(
    model: Model | str | PathLike[str] | bytes,
    strategy: str = "greedy_by_size",
    target: str = DEFAULT_TARGET,
    *,
    also_try: Sequence[str] = ALSO_TRY,
    allow_equal: bool = False,
    **plan_kw: Any,
) -> TflmPlan:
    """An offline plan for ``model`` that stock TFLM (``target``) keeps and
    that makes its head smaller, or a result saying none exists.

    Candidates, each judged by the simulated TFLM head: ``strategy`` (with
    ``plan_kw``, e.g. ``time_limit=``) and each of ``also_try`` applied to
    (1) tensors + scratch together, then up to ``REFIT_ROUNDS`` times with
    the scratch buffers fixed where TFLM would put them and the tensors
    re-planned around them; (2) the tensors alone. The best is written and
    its head re-checked with :func:`tflm_arena` on the written model.

    An offline plan already in ``model`` is replaced (its offsets do not
    constrain the new plan; ``original_head`` is TFLM's head with it).

    A model is returned when its head is strictly smaller than TFLM's own and
    its minimum arena is not larger; with ``allow_equal=True`` also when the
    head is equal (a plan TFLM reproduces, no saving). Otherwise ``model``
    is None and ``reason`` says that no better plan was found (and, when
    TFLM's head already equals the lower bound, that none can exist).
    A model whose memory behaviour in TFLM is not modelled raises
    ``NotImplementedError`` (no prediction, so no plan).

    >>> import tflm_arena as ta
    >>> ta.plan_for_tflm("hello_world_int8.tflite", target="tflite-micro-wheel").predicted_min_arena
    1936
    """
    model = _as_model(model)
    check_target(target)
    original = tflm_arena(model, target=target)
    scratch = tuple(tflm_scratch_requests(model, target))
    joint = model.usage_records(scratch=scratch)
    tensors_only = model.usage_records()
    # A plan the model already carries is replaced, not kept: its offsets
    # are no constraint on the new one (original_head is TFLM's head with it).
    joint["fixed_offset"] = -1
    tensors_only["fixed_offset"] = -1

    # The asked strategy's errors (unknown name, bad plan_kw) are the caller's.
    candidates = _candidates_for(joint, tensors_only, strategy, plan_kw, bool(scratch))
    for s in also_try:
        if s == strategy:
            continue
        with contextlib.suppress(ValueError):  # a strategy this build does not have
            candidates.extend(_candidates_for(joint, tensors_only, s, {}, bool(scratch)))
    # Smallest head; ties keep the earlier candidate (the asked strategy first).
    best = min(candidates, key=lambda c: c.head)

    written = model._with_offline_plan(best.plan)  # the head is checked just below
    check = tflm_arena(written, target=target)
    if check.head != best.head:  # the simulation and the full TFLM model disagree
        raise RuntimeError(
            f"internal error: simulated TFLM head {best.head} but the TFLM "
            f"model of the written plan says {check.head}"
        )
    common: dict[str, Any] = dict(
        original_head=original.head,
        target=target,
        scratch=scratch,
        candidates=tuple(candidates),
        original_min_arena=original.min_arena_bytes,
        predicted_min_arena=check.min_arena_bytes,
        predicted_head=best.head,
        strategy=best.strategy,
        plan=best.plan,
        lower_bound=best.plan.lower_bound,
    )
    proof = (
        f"TFLM's head already equals the lower bound {best.plan.lower_bound} (most "
        f"bytes live at once, scratch included), so no plan can be smaller; "
        if original.head <= best.plan.lower_bound
        else "among the plans tried, "
    )
    n = len(scratch)
    what = f"{n} scratch buffer{'s' if n != 1 else ''}, target {target}"
    if best.head < original.head and check.min_arena_bytes <= original.min_arena_bytes:
        return TflmPlan(
            model=written,
            reason=(
                f"TFLM head {original.head} -> {best.head} bytes with the {best.name} plan ({what})"
            ),
            **common,
        )
    if (
        allow_equal
        and best.head == original.head
        and check.min_arena_bytes <= original.min_arena_bytes
    ):
        return TflmPlan(
            model=written,
            reason=(
                f"no smaller head found: {proof}the {best.name} plan keeps TFLM's head at "
                f"{best.head} bytes ({what})"
            ),
            **common,
        )
    return TflmPlan(
        model=None,
        reason=(
            f"no better plan exists for this model/target: {proof}the best plan ({best.name}) "
            f"gives a head of {best.head} bytes, TFLM's own is {original.head}"
            + (
                f", but its minimum arena is {check.min_arena_bytes} (TFLM: "
                f"{original.min_arena_bytes})"
                if best.head < original.head
                else ""
            )
            + f" ({what})"
        ),
        **common,
    )


# --- candidates -------------------------------------------------------------


def _candidates_for(
    joint: np.ndarray,
    tensors_only: np.ndarray,
    strategy: str,
    kw: dict[str, Any],
    has_scratch: bool,
) -> list[Candidate]:
    out: list[Candidate] = []
    p = _plan(joint, strategy=strategy, **kw)
    sim = simulate_tflm(joint, p.offsets)
    out.append(Candidate(f"{strategy} joint", strategy, sim.arena_bytes, sim))
    if has_scratch:
        # TFLM may place a scratch buffer elsewhere than the joint plan did;
        # take its placement as given and re-plan the tensors around it.
        for k in range(1, REFIT_ROUNDS + 1):
            fixed = joint.copy()
            is_scratch = fixed["scratch"] >= 0
            fixed["fixed_offset"][is_scratch] = sim.offsets[is_scratch]
            try:
                p = _plan(fixed, strategy=strategy, **kw)
                used = strategy
            except ValueError:  # strategy takes no fixed offsets
                p = _plan(fixed, strategy=_FIXED_FALLBACK)
                used = f"{strategy}+{_FIXED_FALLBACK}"
            nxt = simulate_tflm(joint, p.offsets)
            out.append(Candidate(f"{used} refit {k}", strategy, nxt.arena_bytes, nxt))
            if nxt.arena_bytes >= sim.arena_bytes:
                break
            sim = nxt
        # The tensors alone (TFLM finds room for the scratch on its own).
        t = _plan(tensors_only, strategy=strategy, **kw)
        offsets = np.full(len(joint), -1, dtype=np.int64)
        offsets[: len(tensors_only)] = t.offsets
        only = simulate_tflm(joint, offsets)
        out.append(Candidate(f"{strategy} tensors only", strategy, only.arena_bytes, only))
    return out


def simulate_tflm(joint: np.ndarray, offsets: np.ndarray) -> Plan:
    """What stock TFLM's greedy planner does with a model whose offline plan
    holds ``offsets`` for the tensor rows of ``joint`` (a model's usage
    records with scratch): tensors fixed there, scratch buffers placed online
    (largest first, first fit by lowest address among live buffers). The
    returned plan's ``arena_bytes`` is TFLM's head."""
    rec = joint.copy()
    is_scratch = rec["scratch"] >= 0
    rec["fixed_offset"][~is_scratch] = np.asarray(offsets)[~is_scratch]
    rec["fixed_offset"][is_scratch] = -1
    return _plan(rec, strategy="tflm_greedy")
