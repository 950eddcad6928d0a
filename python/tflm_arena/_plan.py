"""Plan: buffer offsets in one arena, checked when made."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Literal

import numpy as np

from . import _core
from ._core import TflmRefusesModelError
from ._records import ArrayLike, as_records, columns, make_records
from ._targets import DEFAULT_TARGET, scratch_requests

#: The strategy registry of the C++ core, one dict per strategy in the order
#: lists show them: ``name``, ``kind`` ("runtime_planner": a TFLM planner the
#: Interpreter also runs; "offsets"; "shared_objects": the GPU delegate's
#: shared objects laid end to end; "search": ``optimal`` and ``best``),
#: ``description`` (one line), ``tried_by_best``, ``fixed_offsets`` (accepts
#: offline offsets) and ``objects_name`` (the :func:`assign_objects` name).
#:
#: >>> import tflm_arena as ta
#: >>> [s["name"] for s in ta._plan.STRATEGY_TABLE if s["kind"] == "runtime_planner"]
#: ['tflm_greedy', 'linear']
STRATEGY_TABLE: tuple[dict[str, Any], ...] = tuple(_core.strategies())

#: Strategies accepted by :func:`plan`, read from the registry (one line each
#: in ``tflm-arena plan --help`` and docs/reference.md). ``tflm_greedy``
#: reproduces TFLM's GreedyMemoryPlanner byte for byte (fast host
#: implementation); ``optimal`` searches for up to ``time_limit`` seconds;
#: ``best`` returns the smallest plan of :data:`BEST_STRATEGIES`.
STRATEGIES = tuple(s["name"] for s in STRATEGY_TABLE)

#: What ``best`` tries, in this order (ties keep the earlier one, so TFLM's
#: own plan wins a tie): every strategy that can win. ``tflm_greedy_runtime``
#: gives ``tflm_greedy``'s plan; ``linear`` reuses nothing.
BEST_STRATEGIES = tuple(s["name"] for s in STRATEGY_TABLE if s["tried_by_best"])


def check_strategy(strategy: str) -> None:
    """Raise ValueError naming the known strategies unless ``strategy`` is one
    (the one wording of every function that takes a strategy).

    >>> check_strategy("tflm_greedy")
    >>> check_strategy("fast")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: unknown strategy 'fast'; choose one of tflm_greedy, ...
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")


def strategies() -> list[dict[str, Any]]:
    """The strategy registry, one dict per strategy in the order lists show
    them (a copy of :data:`STRATEGY_TABLE`; the C++ core's
    ``plan/strategy_list.h`` is its one source). Keys: ``name``, ``kind``,
    ``description``, ``tried_by_best``, ``fixed_offsets``, ``objects_name``.
    The CLI prints it with ``tflm-arena strategies``.

    >>> import tflm_arena as ta
    >>> rows = ta.strategies()
    >>> rows[0]["name"], rows[0]["kind"]
    ('tflm_greedy', 'runtime_planner')
    >>> [r["name"] for r in rows] == list(ta.STRATEGIES)
    True
    """
    return [dict(s) for s in STRATEGY_TABLE]


#: The names :func:`plan` accepts, as a type (one list: built from STRATEGIES).
Strategy = Literal[STRATEGIES]  # type: ignore[valid-type]


class OfflinePlanAliasWarning(UserWarning):
    """Warned by :func:`plan` when the model's offline plan puts tensors that
    are live at the same step at the same bytes (TFLM accepts that; NPU
    compilers such as Vela write it on purpose, but on a CPU one kernel
    overwrites what another still reads). The message names the tensors,
    the shared bytes and the steps; :attr:`Plan.aliases` lists them.

    >>> import warnings, tflm_arena as ta
    >>> issubclass(ta.OfflinePlanAliasWarning, UserWarning)
    True
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", ta.OfflinePlanAliasWarning)  # aliases: an error
    ...     ta.plan(ta.Model.load("hello_world_int8.tflite")).aliases   # none here
    ()
    """


def _alias_text(a: dict[str, Any]) -> str:
    """One alias of :attr:`Plan.aliases` in words."""

    def who(k: int) -> str:
        if "tensors" not in a or a["tensors"][k] < 0:
            return f"buffer {a['buffers'][k]}"
        sg = a["subgraphs"][k]
        name = a.get("names", (None, None))[k]
        return (
            f"tensor {a['tensors'][k]}"
            + (f" {name!r}" if name is not None else "")
            + (f" of subgraph {sg}" if sg else "")
        )

    (b, e), (f, l_) = a["shared_bytes"], a["steps"]
    return f"{who(0)} and {who(1)} share bytes [{b}, {e}) at steps {f}..{l_}"


@dataclass(frozen=True)
class Plan:
    """Offsets for every buffer of ``records`` plus the arena size they need.

    A plan of a model (``ta.plan(model)``, ``model.plan()``) includes the
    scratch buffers stock TFLM's kernels request on ``scratch_target``, so
    its ``tflm_greedy`` arena is TFLM's head; ``scratch=False`` makes a
    tensors-only plan (``tensors_only`` is True and its repr says so).

    >>> import tflm_arena as ta
    >>> p = ta.plan([10, 20], first=[0, 2], last=[1, 3])
    >>> p.offsets.tolist(), p.arena_bytes
    ([0, 0], 20)
    >>> m = ta.Model.load("hello_world_int8.tflite")
    >>> ta.plan(m).scratch_target, ta.plan(m, scratch=False).tensors_only
    ('cortex-m', True)
    """

    records: np.ndarray
    offsets: np.ndarray
    arena_bytes: int
    strategy: str
    #: The planner proved no smaller arena exists (strategy "optimal": its
    #: search closed the gap). Use :attr:`optimal` to read the verdict.
    proven: bool = False
    #: The stock TFLM target whose kernel scratch requests are among the
    #: records (a plan of a model with ``scratch=True``), else None.
    scratch_target: str | None = None
    #: True for a plan of a model's tensors without the kernel scratch
    #: buffers stock TFLM also places in its head (``plan(model,
    #: scratch=False)``): its arena can be below TFLM's head.
    tensors_only: bool = False
    #: One name per buffer (the tensor's; None for scratch buffers) when the
    #: plan was made from a Model, else None. Used to name aliased tensors.
    buffer_names: tuple[str | None, ...] | None = field(default=None, repr=False, compare=False)
    #: The capacity of a decision-form plan (``plan(..., strategy="optimal",
    #: capacity=N)``), else None; :attr:`fits` says whether it fits.
    capacity: int | None = field(default=None, repr=False)
    #: The search proved that no plan fits in ``capacity`` (the decision form).
    proven_does_not_fit: bool = field(default=False, repr=False)
    lower_bound: int = field(init=False)
    #: True when arena_bytes is provably the smallest possible: it equals the
    #: lower bound (a true bound also with offline aliases: their shared bytes
    #: count once) or the optimal planner's search proved it (among plans
    #: whose offsets are multiples of the alignment it was given).
    optimal: bool = field(init=False)
    #: Fixed (offline-planned) buffers that share bytes while both are live,
    #: one dict per pair: ``buffers`` (row indices), ``offsets``,
    #: ``shared_bytes`` [begin, end), ``steps`` (first, last common step) and,
    #: for a model's records, ``subgraphs``, ``tensors`` and ``names``.
    aliases: tuple[dict[str, Any], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        offsets = np.array(self.offsets, dtype=np.int64)  # own copy, read-only
        offsets.setflags(write=False)
        object.__setattr__(self, "offsets", offsets)
        cols = columns(self.records)
        object.__setattr__(self, "lower_bound", int(_core.lower_bound(*cols)))
        # The bound counts aliased bytes once, so reaching it proves optimality.
        at_bound = int(self.arena_bytes) == self.lower_bound
        object.__setattr__(self, "optimal", bool(self.proven) or at_bound)
        object.__setattr__(self, "aliases", self._find_aliases(cols))
        self.validate(allow_aliases=True)

    @property
    def fits(self) -> bool | None:
        """For a decision-form plan (``capacity`` given): whether it fits in
        ``capacity`` bytes; None otherwise.

        >>> import tflm_arena as ta
        >>> ta.plan([8, 8], [0, 0], [1, 1], strategy="optimal", alignment=1, capacity=16).fits
        True
        """
        return None if self.capacity is None else int(self.arena_bytes) <= self.capacity

    def _find_aliases(self, cols: tuple[np.ndarray, ...]) -> tuple[dict[str, Any], ...]:
        if not bool(np.any(cols[3] >= 0)):
            return ()
        size, first, last, fixed = cols
        names = self.records.dtype.names or ()
        out = []
        for i, j in _core.fixed_aliases(*cols):
            i, j = int(i), int(j)
            oi, oj = int(fixed[i]), int(fixed[j])  # Python ints: no int64 overflow
            a: dict[str, Any] = {
                "buffers": (i, j),
                "offsets": (oi, oj),
                "shared_bytes": (max(oi, oj), min(oi + int(size[i]), oj + int(size[j]))),
                "steps": (int(max(first[i], first[j])), int(min(last[i], last[j]))),
            }
            if "tensor" in names and "subgraph" in names:
                a["subgraphs"] = (
                    int(self.records["subgraph"][i]),
                    int(self.records["subgraph"][j]),
                )
                a["tensors"] = (int(self.records["tensor"][i]), int(self.records["tensor"][j]))
            if self.buffer_names is not None:
                a["names"] = (self.buffer_names[i], self.buffer_names[j])
            out.append(a)
        return tuple(out)

    def validate(self, allow_aliases: bool = False) -> None:
        """Raises ValueError naming the buffers if any constraint is broken,
        and naming the tensors (buffers) of every offline alias (fixed
        buffers sharing bytes while live, :attr:`aliases`) unless
        ``allow_aliases=True``.

        >>> import tflm_arena as ta
        >>> p = ta.plan([16, 16], [0, 0], [1, 1], offline_offsets=[0, 0])
        >>> p.validate(allow_aliases=True)
        >>> p.validate()
        Traceback (most recent call last):
        ...
        ValueError: plan aliases live buffers: buffer 0 and buffer 1 share bytes [0, 16) at steps 0..1 (pass allow_aliases=True to accept deliberate aliases)
        """  # noqa: E501 (a doctest's expected output is one line)
        _core.validate_plan(*columns(self.records), self.offsets, int(self.arena_bytes))
        if self.aliases and not allow_aliases:
            raise ValueError(
                "plan aliases live buffers: "
                + "; ".join(_alias_text(a) for a in self.aliases)
                + " (pass allow_aliases=True to accept deliberate aliases)"
            )

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
        what = (
            f", scratch_target={self.scratch_target!r}"
            if self.scratch_target is not None
            else ", tensors only"
            if self.tensors_only
            else ""
        )
        alias = f", aliases={len(self.aliases)}" if self.aliases else ""
        return (
            f"Plan(strategy={self.strategy!r}, buffers={len(self)}, "
            f"arena_bytes={self.arena_bytes}, lower_bound={self.lower_bound}, "
            f"optimal={self.optimal}{what}{alias})"
        )


def plan(
    sizes: Any,
    first: ArrayLike | None = None,
    last: ArrayLike | None = None,
    offline_offsets: ArrayLike | None = None,
    strategy: Strategy = "tflm_greedy",
    *,
    target: str = DEFAULT_TARGET,
    scratch: bool = True,
    alignment: int = 16,
    time_limit: float = 1.0,
    progress: Callable[[int, int, float], None] | None = None,
    capacity: int | None = None,
) -> Plan:
    """Plans buffers into one arena.

    Either pass columns ``plan(sizes, first, last, offline_offsets=None)``,
    one records array (``RECORD_DTYPE`` or a model's records) as
    ``plan(records)``, or a :class:`Model` as ``plan(model)``. Lifetimes are
    inclusive. Sizes are used as given (TFLM's planners add no padding; models'
    records are already 16-aligned). Fixed offsets (``offline_offsets``, -1 =
    plan online) must be multiples of ``alignment`` (pass 1 to allow any).

    A Model is planned with the scratch buffers stock TFLM's kernels request
    on ``target`` (``model.usage_records(scratch=...)``), as TFLM's head
    holds them: with ``tflm_greedy`` the arena is TFLM's head on that target,
    and the plan's ``scratch_target`` names it. ``scratch=False`` plans the
    tensors alone (``Plan.tensors_only``; stock TFLM's head can be larger).
    A model with an operator whose memory behaviour in TFLM is not modelled
    raises NotImplementedError naming it, and a model stock TFLM refuses
    (an operator it has no kernel for, ...) TflmRefusesModelError (pass
    ``scratch=False`` for a tensors-only plan). When the model's offline plan puts tensors that are
    live together at the same bytes, an :class:`OfflinePlanAliasWarning`
    names them. ``target`` and ``scratch`` do not apply to records or
    columns, which are planned as given.

    ``tflm_greedy`` plans a million buffers in seconds even with hundreds live
    at every step, and Ctrl-C stops it within milliseconds (KeyboardInterrupt).
    ``tflm_greedy_runtime`` is quadratic and cannot be interrupted.

    ``best`` runs every strategy of :data:`BEST_STRATEGIES` and returns the
    smallest plan; its ``strategy`` names the one that made it (ties go to
    the earlier one, TFLM's own greedy first). They run on worker threads
    (one per core; the result does not depend on it), and those listed
    after a plan at the lower bound are skipped. ``time_limit`` and
    ``progress`` are ``optimal``'s; ``progress`` is then called from a
    worker thread.

    ``optimal`` searches for up to ``time_limit`` seconds (Ctrl-C stops it).
    It first completes TFLM's greedy, whose plan it never exceeds, so a
    limit shorter than that greedy's own time (well under 0.1 s below
    10,000 buffers) is exceeded by it. Its planner-placed offsets are multiples of ``alignment``, so with sizes
    that are not multiples of it (models' sizes always are) it can need more
    than ``tflm_greedy``, whose offsets then are not aligned. ``progress``,
    if given, is called as ``progress(best_bytes, lower_bound, seconds)`` at
    most about 10 times a second. Both are used by ``optimal`` (and ``best``) only.
    ``capacity`` (``optimal`` only) asks the decision question "does it fit
    in that many bytes?": the search stops at the first plan that fits
    (:attr:`Plan.fits`) and searches at that capacity only, so it can also
    prove that nothing fits (:attr:`Plan.proven_does_not_fit`); the plan
    returned is then the best found.

    >>> import tflm_arena as ta
    >>> ta.plan([32, 16], first=[0, 0], last=[1, 1], strategy="linear").offsets.tolist()
    [0, 32]
    >>> m = ta.Model.load("hello_world_int8.tflite")
    >>> ta.plan(m)          # TFLM's head on cortex-m, kernel scratch included
    Plan(strategy='tflm_greedy', buffers=4, arena_bytes=32, lower_bound=32, optimal=True, scratch_target='cortex-m')
    >>> ta.plan(m, scratch=False)
    Plan(strategy='tflm_greedy', buffers=4, arena_bytes=32, lower_bound=32, optimal=True, tensors only)
    """  # noqa: E501 (a doctest's expected output is one line)
    check_strategy(strategy)
    if alignment < 1:
        raise ValueError(f"alignment must be >= 1, got {alignment}")
    meta: dict[str, Any] = {}
    if first is None and last is None and hasattr(sizes, "usage_records"):  # a Model
        rec, meta = _model_records(sizes, target, scratch)
    elif first is None and last is None:
        rec = as_records(sizes)
    elif first is None or last is None:
        raise ValueError("pass both first and last, or a single records array")
    else:
        rec = make_records(sizes, first, last, offline_offsets)
    if capacity is not None:
        if strategy != "optimal":
            raise ValueError(f"capacity= is for strategy='optimal', not {strategy!r}")
        if capacity < 1:
            raise ValueError(f"capacity must be >= 1 byte, got {capacity}")
        meta = {**meta, "capacity": int(capacity)}
    return _plan_records(rec, strategy, alignment, time_limit, progress, meta)


def _model_records(model: Any, target: str, scratch: bool) -> tuple[np.ndarray, dict[str, Any]]:
    """A model's records (with TFLM's kernel scratch on ``target`` when
    ``scratch``) and the Plan fields that say what they hold and name them."""
    requests: list[tuple[int, int, int]] = []
    if scratch:
        try:
            requests = scratch_requests(model._handle, target)
        except (NotImplementedError, TflmRefusesModelError) as e:
            # The same error type (a refusal keeps its fields), with the way out.
            err = type(e)(
                f"cannot include stock TFLM's kernel scratch buffers ({target}): "
                f"{str(e).splitlines()[0] if str(e) else 'not modelled'}; pass scratch=False "
                f"(CLI: --tensors-only) for a tensors-only plan"
            )
            err.__dict__.update(e.__dict__)
            raise err from None
    rec = model.usage_records(scratch=requests)
    names = tuple(
        model.subgraphs[int(sg)].tensors[int(t)].name if t >= 0 else None
        for sg, t in zip(rec["subgraph"], rec["tensor"], strict=True)
    )
    return rec, {
        "scratch_target": target if scratch else None,
        "tensors_only": not scratch,
        "buffer_names": names,
    }


def _plan_records(
    rec: np.ndarray,
    strategy: str,
    alignment: int,
    time_limit: float,
    progress: Callable[[int, int, float], None] | None,
    meta: dict[str, Any],
) -> Plan:
    cols = columns(rec)
    _core.validate_records(*cols, alignment)
    if strategy in ("best", "optimal") and not time_limit >= 0:  # also NaN
        raise ValueError(f"time_limit must be >= 0 seconds, got {time_limit}")
    if strategy == "best":
        offsets, arena_bytes, info = _core.plan_best(*cols, alignment, float(time_limit), progress)
        p = Plan(
            records=rec,
            offsets=offsets,
            arena_bytes=int(arena_bytes),
            strategy=str(info["strategy"]),
            proven=bool(info["proven_optimal"]),
            **meta,
        )
    elif strategy == "optimal":
        capacity = int(meta.get("capacity") or 0)
        offsets, arena_bytes, info = _core.plan_optimal(
            *cols, alignment, float(time_limit), progress, capacity
        )
        p = Plan(
            records=rec,
            offsets=offsets,
            arena_bytes=int(arena_bytes),
            strategy=strategy,
            proven=bool(info["proven_optimal"]),
            proven_does_not_fit=bool(capacity) and int(info["lower_bound"]) > capacity,
            **meta,
        )
    else:
        offsets, arena_bytes = _core.plan(*cols, strategy)
        p = Plan(
            records=rec, offsets=offsets, arena_bytes=int(arena_bytes), strategy=strategy, **meta
        )
    if p.aliases and "buffer_names" in meta:  # a model whose offline plan aliases tensors
        warnings.warn(
            OfflinePlanAliasWarning(
                "the model's offline plan puts tensors that are live together at the same bytes: "
                + "; ".join(_alias_text(a) for a in p.aliases)
                + " (a deliberate alias for an NPU; on a CPU one kernel overwrites what another "
                "still reads)"
            ),
            stacklevel=_caller_level(),
        )
    return p


def _caller_level() -> int:
    """warnings.warn's stacklevel that names the first caller outside this
    package (plan() is reached through Model.plan and others)."""
    here = os.path.dirname(os.path.abspath(__file__))
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(here + os.sep):
        frame, level = frame.f_back, level + 1
    return level
