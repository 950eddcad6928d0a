"""Plan: buffer offsets in one arena, checked when made."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Optional

import numpy as np

from . import _core
from ._records import ArrayLike, columns, records_from_args

#: Strategies accepted by :func:`plan`.
#: ``tflm_greedy`` reproduces TFLM's GreedyMemoryPlanner byte for byte (fast
#: host implementation); ``tflm_greedy_runtime`` is the microcontroller
#: implementation (same output, quadratic, no heap); ``linear`` is TFLM's
#: LinearMemoryPlanner (no reuse).
STRATEGIES = (
    "tflm_greedy",
    "tflm_greedy_runtime",
    "linear",
    # TFLite GPU delegate family (no fixed offsets): best-fit offsets, and
    # shared objects laid end to end ("greedy_by_breadth" = its objects).
    "greedy_by_size",
    "greedy_by_breadth",
    "naive_objects",
    "equality_objects",
    "greedy_in_order_objects",
    "greedy_by_breadth_objects",
    "greedy_by_size_objects",
    "greedy_best_objects",
    "mincostflow_objects",
    # Exact search (MiniMalloc-style canonical placements): the smallest arena
    # it can prove within ``time_limit`` seconds, else the best plan found;
    # never worse than tflm_greedy (with sizes that are multiples of the
    # alignment, as models' records are).
    "optimal",
)

#: What ``best`` tries, in this order (ties keep the earlier one, so TFLM's
#: own plan wins a tie): every strategy that can win. ``tflm_greedy_runtime``
#: gives ``tflm_greedy``'s plan; ``linear`` reuses nothing.
BEST_STRATEGIES = tuple(s for s in STRATEGIES if s not in ("tflm_greedy_runtime", "linear"))

#: ``best``: the smallest arena of all :data:`BEST_STRATEGIES` (``optimal``
#: with ``time_limit``); the returned plan names the strategy that made it.
STRATEGIES = STRATEGIES + ("best",)

#: The names :func:`plan` accepts, as a type (one list: built from STRATEGIES).
Strategy = Literal[STRATEGIES]  # type: ignore[valid-type]


@dataclass(frozen=True)
class Plan:
    """Offsets for every buffer of ``records`` plus the arena size they need.

    >>> import tflm_arena as ta
    >>> p = ta.plan([10, 20], first=[0, 2], last=[1, 3])
    >>> p.offsets.tolist(), p.arena_bytes
    ([0, 0], 20)
    """

    records: np.ndarray
    offsets: np.ndarray
    arena_bytes: int
    strategy: str
    #: The planner proved no smaller arena exists (strategy "optimal": its
    #: search closed the gap). Use :attr:`optimal` to read the verdict.
    proven: bool = False
    lower_bound: int = field(init=False)
    #: True when arena_bytes is provably the smallest possible: it equals the
    #: lower bound (with no offline aliases, which the bound counts twice) or
    #: the optimal planner's search proved it (among plans whose offsets are
    #: multiples of the alignment it was given).
    optimal: bool = field(init=False)

    def __post_init__(self) -> None:
        offsets = np.array(self.offsets, dtype=np.int64)  # own copy, read-only
        offsets.setflags(write=False)
        object.__setattr__(self, "offsets", offsets)
        cols = columns(self.records)
        object.__setattr__(self, "lower_bound", int(_core.lower_bound(*cols)))
        at_bound = int(self.arena_bytes) == self.lower_bound
        if at_bound and bool(np.any(cols[3] >= 0)) and _core.fixed_aliases(*cols):
            at_bound = False
        object.__setattr__(self, "optimal", bool(self.proven) or at_bound)
        self.validate()

    def validate(self) -> None:
        """Raises ValueError naming the buffers if any constraint is broken."""
        _core.validate_plan(*columns(self.records), self.offsets, int(self.arena_bytes))

    def ascii(self) -> str:
        """The plan drawn exactly like TFLM's ``PrintMemoryPlan``."""
        return _core.render_ascii(*columns(self.records), self.offsets)

    @property
    def overhead(self) -> float:
        """arena_bytes / lower_bound - 1 (0.0 means provably optimal)."""
        return self.arena_bytes / self.lower_bound - 1.0 if self.lower_bound else 0.0

    def __len__(self) -> int:
        return len(self.offsets)

    def plot(self, ax: Any = None, **kw: Any) -> Any:
        """Draws this plan with :func:`tflm_arena.viz.plot_plan` (needs
        matplotlib; keywords ``model``, ``names``, ``title`` are passed on)
        and returns the matplotlib Axes.

        >>> import tflm_arena as ta
        >>> ax = ta.plan([10, 20], first=[0, 2], last=[1, 3]).plot()
        >>> [r.get_height() for r in ax.patches]
        [10.0, 20.0]
        """
        from . import viz

        return viz.plot_plan(self, ax, **kw)

    def _repr_html_(self) -> str:
        """Notebook display: key figures and, with matplotlib, the picture."""
        from . import viz

        return viz.plan_html(self)

    def __repr__(self) -> str:
        return (
            f"Plan(strategy={self.strategy!r}, buffers={len(self)}, "
            f"arena_bytes={self.arena_bytes}, lower_bound={self.lower_bound}, "
            f"optimal={self.optimal})"
        )


def plan(
    sizes: Any,
    first: Optional[ArrayLike] = None,
    last: Optional[ArrayLike] = None,
    offline_offsets: Optional[ArrayLike] = None,
    strategy: Strategy = "tflm_greedy",
    *,
    alignment: int = 16,
    time_limit: float = 1.0,
    progress: Optional[Callable[[int, int, float], None]] = None,
) -> Plan:
    """Plans buffers into one arena.

    Either pass columns ``plan(sizes, first, last, offline_offsets=None)``,
    one records array (``RECORD_DTYPE`` or a model's records) as
    ``plan(records)``, or a :class:`Model` as ``plan(model)``. Lifetimes are
    inclusive. Sizes are used as given (TFLM's planners add no padding; models'
    records are already 16-aligned). Fixed offsets (``offline_offsets``, -1 =
    plan online) must be multiples of ``alignment`` (pass 1 to allow any).

    ``tflm_greedy`` plans a million buffers in seconds even with hundreds live
    at every step, and Ctrl-C stops it within milliseconds (KeyboardInterrupt).
    ``tflm_greedy_runtime`` is quadratic and cannot be interrupted.

    ``best`` runs every strategy of :data:`BEST_STRATEGIES` and returns the
    smallest plan; its ``strategy`` names the one that made it (ties go to
    the earlier one, TFLM's own greedy first).

    ``optimal`` searches for up to ``time_limit`` seconds (Ctrl-C stops it);
    its planner-placed offsets are multiples of ``alignment``, so with sizes
    that are not multiples of it (models' sizes always are) it can need more
    than ``tflm_greedy``, whose offsets then are not aligned. ``progress``,
    if given, is called as ``progress(best_bytes, lower_bound, seconds)`` at
    most about 10 times a second. Both are used by ``optimal`` only.

    >>> import tflm_arena as ta
    >>> ta.plan([32, 16], first=[0, 0], last=[1, 1], strategy="linear").offsets.tolist()
    [0, 32]
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if alignment < 1:
        raise ValueError(f"alignment must be >= 1, got {alignment}")
    rec = records_from_args(sizes, first, last, offline_offsets)
    cols = columns(rec)
    _core.validate_records(*cols, alignment)
    if strategy == "best":
        return _best(rec, alignment, time_limit, progress)
    if strategy == "optimal":
        if not time_limit >= 0:
            raise ValueError(f"time_limit must be >= 0 seconds, got {time_limit}")
        offsets, arena_bytes, info = _core.plan_optimal(*cols, alignment, float(time_limit),
                                                        progress)
        return Plan(records=rec, offsets=offsets, arena_bytes=int(arena_bytes),
                    strategy=strategy, proven=bool(info["proven_optimal"]))
    offsets, arena_bytes = _core.plan(*cols, strategy)
    return Plan(records=rec, offsets=offsets, arena_bytes=int(arena_bytes), strategy=strategy)


def _best(rec: np.ndarray, alignment: int, time_limit: float,
          progress: Optional[Callable[[int, int, float], None]]) -> Plan:
    best: Optional[Plan] = None
    refused = []
    for s in BEST_STRATEGIES:
        try:
            p = plan(rec, strategy=s, alignment=alignment, time_limit=time_limit,
                     progress=progress)
        except ValueError as e:  # not applicable here (fixed offsets, too many buffers)
            refused.append(f"{s}: {str(e).splitlines()[0]}")
            continue
        if best is None or p.arena_bytes < best.arena_bytes:
            best = p
    if best is None:  # tflm_greedy takes every valid input, so this is a bug
        raise RuntimeError("internal error: no strategy planned these records: " + "; ".join(refused))
    return best
