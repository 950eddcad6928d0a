"""Operator reordering: run subgraph 0's operators in an order with a lower
peak of live tensor bytes, written as a new model (only the operator order
changes). See ``cpp/tflm_arena/plan/reorder.h`` for the search."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import _core
from ._plan import plan as _plan
from ._records import ArrayLike
from .model import Model

#: Counted budgets of the search (they, not the clock, decide the answer,
#: so results are reproducible unless ``time_limit`` cuts a search short).
MAX_STATES = 1 << 20
MAX_EXPANSIONS = 1 << 27


@dataclass(frozen=True)
class Reordering:
    """Result of :func:`reorder`.

    ``peak_before``/``peak_after`` are the lower bounds (max live bytes) of
    the old and new models' usage records; ``greedy_before``/``greedy_after``
    TFLM's greedy arena for each. ``exact`` is True when ``order`` is proven
    peak-optimal. ``order[k]`` is the original index of the operator that
    runs k-th.

    >>> import tflm_arena as ta
    >>> r = ta.reorder("hello_world_int8.tflite", time_limit=0.1)
    >>> r.peak_before, r.peak_after
    (32, 32)
    """

    model: Model
    order: np.ndarray
    peak_before: int
    peak_after: int
    exact: bool
    greedy_before: int
    greedy_after: int
    lower_bound: int
    method: str
    timed_out: bool
    seconds: float

    @property
    def changed(self) -> bool:
        return bool(np.any(self.order != np.arange(len(self.order))))

    def __repr__(self) -> str:
        return (
            f"Reordering(ops={len(self.order)}, peak {self.peak_before} -> {self.peak_after}, "
            f"greedy {self.greedy_before} -> {self.greedy_after}, exact={self.exact}, "
            f"method={self.method!r})"
        )


def reorder(
    model: Model | str | os.PathLike[str],
    *,
    time_limit: float = 1.0,
    scratch: Sequence[tuple[int, int, int]] = (),
    drop_offline_plan: bool = False,
) -> Reordering:
    """Finds an operator order of ``model`` (a :class:`Model` or a path) with
    the lowest peak it can, exact for small graphs, bounded heuristic for
    large ones, never worse than the original (returned when nothing better
    exists). The source model is never modified; save the result with
    ``result.model.save(path)``.

    A model with an OfflineMemoryAllocation plan keeps it only if the new
    order makes no planned tensors share bytes that did not already (else
    ValueError); ``drop_offline_plan=True`` removes the plan (the search
    then sees the model without it). Models whose subgraph 0 uses control
    flow (IF, WHILE, CALL_ONCE) raise NotImplementedError.

    ``scratch``: kernel scratch requests ``(bytes, node, subgraph)`` as
    :meth:`Model.usage_records` takes them (nodes in the original order).
    Each is live while its operator runs, so the search minimises the head
    TFLM will need; peaks and greedy arenas then include them (the new
    model's requests are the same ones with ``node`` = the operator's new
    position, ``remap_scratch``).

    >>> import tflm_arena as ta
    >>> ta.reorder("hello_world_int8.tflite", time_limit=0.1).order.tolist()
    [0, 1, 2]
    """
    if not isinstance(model, Model):
        model = Model.load(model)
    if not time_limit > 0:
        raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
    start = time.perf_counter()
    source = model
    if drop_offline_plan and model.offline_plan() is not None:
        identity = np.arange(len(model.subgraphs[0].operators), dtype=np.int32)
        source = Model(_core.write_operator_order(model._handle, identity, True))
    requests = [(int(s[0]), int(s[1]), int(s[2])) for s in scratch]
    found = _core.reorder_operators(
        source._handle, requests, float(time_limit), MAX_STATES, MAX_EXPANSIONS
    )
    order = np.asarray(found["order"], dtype=np.int32)
    new = Model(_core.write_operator_order(source._handle, order, bool(drop_offline_plan)))
    seconds = time.perf_counter() - start
    before = _plan(source.usage_records(requests), strategy="tflm_greedy")
    after = _plan(new.usage_records(remap_scratch(requests, order)), strategy="tflm_greedy")
    # The search's peaks count every planned tensor; the records' lower
    # bound counts tensors an offline plan puts on the same bytes once (Vela
    # places its scratch and fast scratch at one offset), so the two agree
    # only without such a plan.
    aliased = source.offline_plan() is not None
    if not aliased and (
        before.lower_bound != found["peak_before"] or after.lower_bound != found["peak_after"]
    ):
        raise RuntimeError(
            f"internal error: predicted peaks {found['peak_before']} -> "
            f"{found['peak_after']} but the "
            f"models' records give {before.lower_bound} -> {after.lower_bound}"
        )
    order.setflags(write=False)
    return Reordering(
        model=new,
        order=order,
        peak_before=int(before.lower_bound),
        peak_after=int(after.lower_bound),
        exact=bool(found["exact"]),
        greedy_before=int(before.arena_bytes),
        greedy_after=int(after.arena_bytes),
        lower_bound=int(found["lower_bound"]),
        method=str(found["method"]),
        timed_out=bool(found["timed_out"]),
        seconds=seconds,
    )


def remap_scratch(
    scratch: Sequence[tuple[int, int, int]], order: ArrayLike
) -> list[tuple[int, int, int]]:
    """Scratch requests ``(bytes, node, subgraph)`` of the original model as
    the model reordered by ``order`` makes them (subgraph-0 nodes move with
    their operators).

    >>> import tflm_arena as ta
    >>> ta.remap_scratch([(64, 1, 0)], [1, 0, 2])  # operator 1 now runs first
    [(64, 0, 0)]
    """
    position = np.empty(len(order), dtype=np.int64)
    position[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
    return [(int(b), int(position[n]) if s == 0 else int(n), int(s)) for b, n, s in scratch]
