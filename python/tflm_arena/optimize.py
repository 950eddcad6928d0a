"""The smallest arena plan stock TFLM will keep, tried across every strategy
(and, when asked, a reordered model), for ``tflm-arena optimize``.

Each candidate is judged by the head stock TFLM uses with the plan written
(:func:`plan_for_tflm` plans tensors and kernel scratch buffers together and
simulates TFLM's online placement of the scratch buffers). The result never
makes TFLM worse: when no candidate beats TFLM's own greedy plan, the chosen
model is the original, unchanged.

>>> import tflm_arena as ta
>>> r = ta.optimize("vww_96_int8.tflite", time_limit=1.0)   # doctest: +SKIP
>>> r.original_head, r.best.head                            # doctest: +SKIP
(73728, 55296)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import Any

from ._plan import BEST_STRATEGIES
from .model import Model
from .reorder import Reordering
from .reorder import reorder as _reorder
from .tflm_plan import plan_for_tflm, tflm_scratch_requests
from .tflm_size import DEFAULT_TARGET, tflm_arena


@dataclass(frozen=True)
class Attempt:
    """One strategy on one operator order: the head stock TFLM would use.

    >>> import tflm_arena as ta
    >>> ta.optimize("hello_world_int8.tflite", time_limit=0.1).best.head
    32
    """

    strategy: str
    reordered: bool
    head: int  # TFLM's head with this plan written (simulated)
    lower_bound: int  # most bytes live at once (scratch included) in this order
    seconds: float
    optimal: bool  # the plan is proven smallest for this order
    model: Model | None  # the model with this plan written
    note: str = ""  # why a strategy gave no plan
    min_arena: int = 0  # smallest arena stock TFLM (the target) accepts for `model`


@dataclass(frozen=True)
class Optimization:
    """Result of :func:`optimize`.

    ``model`` is what to flash: the model with the best plan written, or the
    original model unchanged when nothing beats TFLM's own plan
    (``improved`` is then False and ``reason`` says so).

    >>> import tflm_arena as ta
    >>> o = ta.optimize("hello_world_int8.tflite", time_limit=0.1)
    >>> o.original_head, o.best.head
    (32, 32)
    """

    model: Model
    original_head: int
    original_lower_bound: int
    best: Attempt | None
    attempts: tuple[Attempt, ...]
    target: str
    reason: str
    reordering: Reordering | None = None  # with reorder=True
    #: Smallest arena stock TFLM (``target``) accepts for the original model
    #: (``tflm_arena(model, target).min_arena_bytes``).
    original_min_arena: int = 0
    #: With rewrite=True: the graph rewrite's result (:func:`rewrite`);
    #: ``model`` is its tiled model when that needs the smallest arena.
    rewritten: Any = None

    @property
    def min_arena(self) -> int:
        """Smallest arena stock TFLM (``target``) accepts for :attr:`model`."""
        if self.rewritten is not None and self.model is self.rewritten.model:
            return int(self.rewritten.min_arena)
        return self.best.min_arena if self.improved and self.best else self.original_min_arena

    def __repr__(self) -> str:
        # One line: the figures, not the models' bytes (table() has the rest).
        return (
            f"Optimization(target={self.target!r}, improved={self.improved}, head "
            f"{self.original_head} -> {self.head}, min_arena {self.original_min_arena} -> "
            f"{self.min_arena}, {len(self.attempts)} attempts)"
        )

    def best_of(self, reordered: bool) -> Attempt | None:
        """The attempt with the smallest head on one operator order."""
        return min(
            (a for a in self.attempts if a.reordered == reordered and a.model is not None),
            key=lambda a: a.head,
            default=None,
        )

    @property
    def improved(self) -> bool:
        return self.best is not None and self.best.head < self.original_head

    @property
    def head(self) -> int:
        if self.best is not None and self.best.head < self.original_head:  # improved
            return self.best.head
        return self.original_head

    def table(self) -> str:
        """One line per attempt: strategy, TFLM head, vs lower bound, vs
        TFLM greedy, time, proven optimal."""
        rows = [
            f"{'strategy':<28} {'order':<9} {'TFLM head':>10} {'vs bound':>9} "
            f"{'vs TFLM':>8} {'time s':>7}  proven"
        ]
        for a in self.attempts:
            if a.model is None and a.head == 0:
                rows.append(
                    f"{a.strategy:<28} {_order(a):<9} {'-':>10} {'':>9} {'':>8} "
                    f"{a.seconds:>7.2f}  {a.note}"
                )
                continue
            mark = " *" if a is self.best and self.improved else ""
            rows.append(
                f"{a.strategy:<28} {_order(a):<9} {a.head:>10} "
                f"{_pct(a.head, self.original_lower_bound):>9} "
                f"{_pct(a.head, self.original_head):>8} "
                f"{a.seconds:>7.2f}  {'yes' if a.optimal else 'no'}{mark}"
            )
        rows.append(
            f"TFLM's own greedy head: {self.original_head} bytes; lower bound "
            f"{self.original_lower_bound} bytes (target {self.target})"
        )
        rows.append(self.reason)
        return "\n".join(rows)


def _order(a: Attempt) -> str:
    return "reordered" if a.reordered else "original"


def _pct(v: int, ref: int) -> str:
    return f"{100.0 * (v / ref - 1.0):+.1f}%" if ref else "-"


def optimize(
    model: Model | str | PathLike[str] | bytes,
    *,
    reorder: bool = False,
    rewrite: bool = False,
    time_limit: float = 1.0,
    target: str = DEFAULT_TARGET,
    strategies: Sequence[str] = BEST_STRATEGIES,
    progress: Callable[[str], None] | None = None,
    search_progress: Callable[[int, int, float], None] | None = None,
) -> Optimization:
    """Tries every strategy in ``strategies`` (``optimal`` with
    ``time_limit`` seconds) on ``model``, and with ``reorder=True`` also on
    the operator order :func:`reorder` finds, and keeps the plan with the
    smallest head stock TFLM (``target``) uses. With ``rewrite=True`` the
    graph rewrite (:func:`rewrite`) is tried too, judged by the whole
    arena; its model is returned when that is smallest (``rewritten``). Ties keep the earlier
    attempt (original order first, strategies in the order given).
    ``progress(message)`` is called before each attempt;
    ``search_progress(best, lower_bound, seconds)`` during the optimal
    search (see :func:`plan`).
    Raises NotImplementedError for a model whose memory behaviour in TFLM
    is not modelled (no prediction, so no plan).

    >>> import tflm_arena as ta
    >>> ta.optimize("hello_world_int8.tflite", time_limit=0.1).best.strategy
    'tflm_greedy'
    """
    if not time_limit > 0:
        raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
    if not isinstance(model, Model):
        model = (
            Model.from_bytes(model) if isinstance(model, (bytes, bytearray)) else Model.load(model)
        )
    original = tflm_arena(model, target=target)
    orders = [(False, model)]
    reordering = None
    if reorder:
        if progress:
            progress("reordering operators")
        # The order is searched with TFLM's scratch requests counted while
        # their operator runs, so it lowers the head TFLM will really use.
        reordering = _reorder(
            model,
            time_limit=time_limit,
            drop_offline_plan=True,
            scratch=tflm_scratch_requests(model, target),
        )
        if reordering.changed:
            orders.append((True, reordering.model))
    attempts = []
    lower_bound = None
    for reordered, m in orders:
        if reordered:  # the reordered model with TFLM's own plan, nothing written
            t0 = time.perf_counter()
            own = tflm_arena(m, target=target)
            attempts.append(
                Attempt(
                    "tflm_greedy (no plan)",
                    True,
                    own.head,
                    0,
                    time.perf_counter() - t0,
                    False,
                    m,
                    min_arena=own.min_arena_bytes,
                )
            )
        for s in strategies:
            if progress:
                progress(f"{s} on the {'reordered' if reordered else 'original'} order")
            kw = {"time_limit": time_limit, "progress": search_progress} if s == "optimal" else {}
            t0 = time.perf_counter()
            try:
                r = plan_for_tflm(m, strategy=s, target=target, also_try=(), allow_equal=True, **kw)
            except ValueError as e:  # e.g. a strategy that takes no fixed offsets
                attempts.append(
                    Attempt(
                        s,
                        reordered,
                        0,
                        0,
                        time.perf_counter() - t0,
                        False,
                        None,
                        note=f"not applicable: {e}",
                    )
                )
                continue
            dt = time.perf_counter() - t0
            assert r.plan is not None  # plan_for_tflm always returns the plan it made
            proven = r.plan.optimal and r.predicted_head == r.plan.arena_bytes
            written = r.model if r.model is not None else m._with_offline_plan(r.plan)
            min_arena = r.predicted_min_arena  # TFLM's minimum for these written bytes
            attempts.append(
                Attempt(
                    s,
                    reordered,
                    r.predicted_head,
                    r.lower_bound,
                    dt,
                    proven,
                    written,
                    min_arena=min_arena,
                )
            )
            if not reordered and lower_bound is None:
                lower_bound = r.lower_bound
    # A plan may not make the whole arena TFLM needs larger (its head is
    # smaller, but the temp peak during allocation could in principle grow).
    planned = [
        a for a in attempts if a.model is not None and a.min_arena <= original.min_arena_bytes
    ]
    best = min(planned, key=lambda a: a.head) if planned else None
    lb = lower_bound or 0
    if best is not None and best.head < original.head:
        reason = (
            f"TFLM head {original.head} -> {best.head} bytes ({best.strategy}"
            f"{', reordered operators' if best.reordered else ''}; "
            f"{100.0 * (1 - best.head / original.head):.1f} % smaller)"
        )
        if best.head == (best.lower_bound if best.reordered else lb):
            reason += "; equals the lower bound" + (
                " of the new order" if best.reordered else ", so no plan can be smaller"
            )
        assert best.model is not None  # planned holds only attempts that wrote a model
        chosen = best.model
    else:
        reason = (
            f"no plan beats TFLM's own greedy plan ({original.head} bytes"
            + (", which already equals the lower bound" if lb and original.head <= lb else "")
            + "); the model is left unchanged"
        )
        chosen = model
    rewritten = None
    if rewrite:
        from .rewrite import rewrite as _rewrite

        if progress:
            progress("rewriting the first stage into tiles")
        rewritten = _rewrite(model, target=target, time_limit=time_limit)
        mine = best.min_arena if best is not None and best.head < original.head else None
        if rewritten.written == "tiled" and rewritten.min_arena < (
            mine if mine is not None else original.min_arena_bytes
        ):
            chosen = rewritten.model
            reason += "; " + rewritten.reason
    if chosen is not model:  # a model written for this build
        chosen._chosen_for = f"{original.target}@{original.version}"
    return Optimization(
        rewritten=rewritten,
        model=chosen,
        original_head=original.head,
        original_lower_bound=lb,
        best=best,
        attempts=tuple(attempts),
        target=target,
        reason=reason,
        reordering=reordering,
        original_min_arena=original.min_arena_bytes,
    )
