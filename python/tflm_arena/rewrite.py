"""Below the lower bound: rewrite the graph so stock TFLM needs less memory.

No plan of a graph can be smaller than the most bytes live at one step, and
in vision CNNs that peak sits in the first, high-resolution layers.
:func:`rewrite` replaces that first stage by spatial tiles made of stock
operators (SLICE of the input with the halo each tile's receptive field
needs, PAD only at the image borders, the stage's own operators on the
tile with the original weight tensors, CONCATENATION into the original
stage output), so stock TFLM runs the new model with bit-identical outputs
and a smaller whole arena. The C++ core (``cpp/tflm_arena/rewrite``) finds
the stage, writes every tiling and measures it with our model of stock
TFLM on the chosen target; this module adds our optimal offline plan
(:func:`optimize`) to the best tilings and to the original, and keeps the
smallest whole arena. The original is never made worse: when nothing beats
it, the model is returned unchanged with the reason.

Figures are stock TFLM's (``target``), never our runtime's: ``head`` is
TFLM's planned (non-persistent) part, ``tail`` its persistent part,
``total`` the smallest arena ``AllocateTensors`` accepts.

>>> import tflm_arena as ta
>>> r = ta.rewrite("hello_world_int8.tflite")   # doctest: +SKIP
>>> r.written                                     # doctest: +SKIP
'unchanged'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from os import PathLike
from typing import Any

import numpy as np

from . import _core
from ._plan import plan as _plan
from ._records import RECORD_DTYPE
from .model import Model
from .tflm_plan import plan_for_tflm
from .tflm_size import DEFAULT_TARGET, check_target, tflm_arena, tflm_scratch_requests

#: How many of the best tilings (by TFLM's own plan) also get our optimal
#: offline plan before the choice.
PLANNED_TILINGS = 3


@dataclass(frozen=True)
class TilingChoice:
    """One model measured on the target: the original (``length`` 0) or the
    stage's first ``length`` operators in ``rows`` x ``cols`` tiles, then,
    when ``second`` is ``(length2, rows2, cols2)``, the next ``length2``
    operators (from the first part's output, held whole) in their own tiles.

    ``head``/``tail``/``total`` are stock TFLM's with its own planner;
    ``planned_total`` is the total with our optimal offline plan written
    (None when not tried). ``macs`` counts the model's CONV_2D,
    DEPTHWISE_CONV_2D and FULLY_CONNECTED multiply-accumulates;
    ``file_bytes`` is the ``.tflite`` size (what goes to flash).

    >>> c = TilingChoice(0, 1, 1, 10, 5, 15, 100, 1000, 3)
    >>> c.label, c.best_total
    ('original', 15)
    """

    length: int
    rows: int
    cols: int
    head: int
    tail: int
    total: int
    macs: int
    file_bytes: int
    operators: int
    planned_total: int | None = None
    error: str = ""
    second: tuple[int, int, int] | None = None
    inplace: bool = False  # planned_total has a RESHAPE in place (reshape_pairs)

    @property
    def label(self) -> str:
        if self.length == 0:
            return "original"
        first = f"{self.rows}x{self.cols} tiles, {self.length} ops"
        if self.second is None:
            return first
        length2, rows2, cols2 = self.second
        return f"{first}, then {rows2}x{cols2}, {length2}"

    @property
    def best_total(self) -> int:
        """The smaller of ``total`` and ``planned_total``."""
        return min(self.total, self.planned_total) if self.planned_total else self.total


@dataclass(frozen=True)
class StageOp:
    """One operator of the tileable stage (``kind``: conv, depthwise, pool,
    pad or pointwise) and its output's height, width and channels.

    >>> StageOp(0, "CONV_2D", "conv", 5, (112, 112, 32)).kind
    'conv'
    """

    index: int
    name: str
    kind: str
    output: int
    shape: tuple[int, int, int]


@dataclass(frozen=True)
class Rewrite:
    """Result of :func:`rewrite`.

    ``model`` is what to flash: the tiled model (with our offline plan when
    that is smaller), the original with only our offline plan, or the
    original unchanged (``written``: ``"tiled"``, ``"planned"`` or
    ``"unchanged"``). ``choices`` holds every tiling measured; ``chosen``
    the one written (``original`` when none). ``reason`` says why, in one
    paragraph.

    >>> import tflm_arena as ta
    >>> r = ta.rewrite("person_detect.tflite")    # doctest: +SKIP
    >>> r.chosen.total <= r.original.total        # doctest: +SKIP
    True
    """

    model: Model
    target: str
    stage: tuple[StageOp, ...]
    cuts: tuple[int, ...]
    end_reason: str
    original: TilingChoice
    choices: tuple[TilingChoice, ...]
    chosen: TilingChoice
    written: str
    reason: str

    @property
    def min_arena(self) -> int:
        """Stock TFLM's minimum arena (``target``) for :attr:`model`."""
        return self.chosen.best_total

    def __repr__(self) -> str:
        # One line: the figures, not the models' bytes (print() gives the table).
        return (
            f"Rewrite(target={self.target!r}, min_arena {self.original.best_total} -> "
            f"{self.min_arena}, {len(self.stage)} stage operators, {len(self.choices)} "
            f"choices, written={self.written!r})"
        )

    def rows(self) -> list[dict[str, Any]]:
        """The trade-off table as dicts (original first, then every tiling
        by total): label, head, tail, total, planned total, MACs and their
        change, file bytes and their change, operators, written.

        >>> import tflm_arena as ta
        >>> ta.rewrite("person_detect.tflite").rows()[0]["label"]   # doctest: +SKIP
        'original'
        """
        o = self.original
        out = []
        ok = [c for c in self.choices if not c.error]
        for c in [o, *sorted(ok, key=lambda c: (c.best_total, c.operators))]:
            out.append(
                {
                    "label": c.label,
                    "length": c.length,
                    "rows": c.rows,
                    "cols": c.cols,
                    "second": c.second,
                    "head": c.head,
                    "tail": c.tail,
                    "total": c.total,
                    "planned_total": c.planned_total,
                    "macs": c.macs,
                    "macs_pct": 100.0 * (c.macs / o.macs - 1.0) if o.macs else 0.0,
                    "file_bytes": c.file_bytes,
                    "file_delta": c.file_bytes - o.file_bytes,
                    "operators": c.operators,
                    "written": c == self.chosen,
                }
            )
        return out

    def table(self, limit: int | None = 12) -> str:
        """The trade-off as text: tiling -> stock TFLM head, tail, total
        (TFLM's plan, then with our optimal plan), MACs (+%), flash
        (+bytes); ``*`` marks what was written. ``limit`` rows of tilings
        (None: all).

        >>> import tflm_arena as ta
        >>> print(ta.rewrite("person_detect.tflite").table())  # doctest: +SKIP
        """
        rows = self.rows()
        shown = rows if limit is None else rows[: limit + 1]
        lines = [
            f"stock TFLM, target {self.target} (bytes; 'planned' = with our optimal offline plan)",
            f"{'tiling':<34} {'head':>10} {'tail':>8} {'total':>10} {'planned':>10} "
            f"{'MACs':>13} {'MACs +%':>8} {'flash +B':>9} {'ops':>5}",
        ]
        for r in shown:
            planned = "-" if r["planned_total"] is None else f"{r['planned_total']:,}"
            lines.append(
                f"{r['label']:<34} {r['head']:>10,} {r['tail']:>8,} {r['total']:>10,} "
                f"{planned:>10} {r['macs']:>13,} {r['macs_pct']:>+7.1f}% "
                f"{r['file_delta']:>+9,} {r['operators']:>5}" + (" *" if r["written"] else "")
            )
        if len(shown) < len(rows):
            lines.append(f"... {len(rows) - len(shown)} more tilings (table(limit=None))")
        errors = [c for c in self.choices if c.error]
        if errors:
            lines.append(f"{len(errors)} tilings could not be made: {errors[0].error}")
        lines.append(self.reason)
        return "\n".join(lines)

    def plot(self, ax: Any = None) -> Any:
        """Total stock-TFLM arena against the number of tiles, one line per
        stage length, the original as a horizontal line, the written model
        marked; returns the matplotlib Axes.

        >>> import tflm_arena as ta
        >>> ta.rewrite("person_detect.tflite").plot()  # doctest: +SKIP
        """
        from .viz import plot_rewrite

        return plot_rewrite(self, ax)


def _choice(d: dict[str, Any]) -> TilingChoice:
    return TilingChoice(
        d["length"],
        d["rows"],
        d["cols"],
        d["head"],
        d["tail"],
        d["total"],
        d["macs"],
        d["file_bytes"],
        d["operators"],
        None,
        d["error"],
        (d["length2"], d["rows2"], d["cols2"]) if d["length2"] else None,
    )


def reshape_pairs(m: Model) -> list[tuple[int, int]]:
    """(input, output) tensors of subgraph 0's RESHAPE operators that may
    share bytes: the input is last read by that RESHAPE, both are activations
    of equal size, neither is a model input or output. TFLM's RESHAPE skips
    its copy when output and input have one address (reshape.cc), so an
    offline plan may place both at one offset.

    >>> import tflm_arena as ta
    >>> reshape_pairs(ta.Model.load("person_detect.tflite"))  # doctest: +SKIP
    [(87, 88)]
    """
    sg = m.subgraphs[0]
    last_use: dict[int, int] = {}
    for i, op in enumerate(sg.operators):
        for t in op.inputs:
            if t >= 0:
                last_use[t] = i
    ends = set(sg.inputs) | set(sg.outputs)
    pairs = []
    for i, op in enumerate(sg.operators):
        if op.name != "RESHAPE" or not op.inputs or len(op.outputs) != 1:
            continue
        x, y = op.inputs[0], op.outputs[0]
        tx, ty = sg.tensors[x], sg.tensors[y]
        if (
            x in ends
            or y in ends
            or tx.is_constant
            or tx.is_variable
            or ty.is_variable
            or last_use.get(x) != i
            or tx.bytes != ty.bytes
        ):
            continue
        pairs.append((x, y))
    return pairs


def _inplace_planned(m: Model, target: str, time_limit: float) -> tuple[int, Model] | None:
    """Our optimal offline plan with every RESHAPE of :func:`reshape_pairs`
    in place (output at its input's offset): stock TFLM's minimum arena
    with it and the model; None when no RESHAPE qualifies."""
    pairs = reshape_pairs(m)
    if not pairs or m.offline_plan() is not None:
        return None
    rec = m.usage_records(scratch=tflm_scratch_requests(m, target))
    row_of = {int(rec["global_tensor"][r]): r for r in range(len(rec)) if rec["scratch"][r] < 0}
    merged = rec.copy()
    keep = np.ones(len(rec), dtype=bool)
    partner: dict[int, int] = {}
    for x, y in pairs:
        if x in row_of and y in row_of:
            i, j = row_of[x], row_of[y]
            merged["last"][i] = max(merged["last"][i], merged["last"][j])
            merged["size"][i] = max(merged["size"][i], merged["size"][j])
            keep[j] = False
            partner[j] = i
    if not partner:
        return None
    rows = np.zeros(int(keep.sum()), dtype=RECORD_DTYPE)
    for f in ("size", "first", "last"):
        rows[f] = merged[f][keep]
    rows["fixed_offset"] = -1
    p = _plan(rows, strategy="optimal", time_limit=time_limit)
    offsets = np.full(len(rec), -1, dtype=np.int64)
    offsets[keep] = p.offsets
    for j, i in partner.items():
        offsets[j] = offsets[i]
    per_tensor = np.full(m.total_tensors, -1, dtype=np.int64)
    for r in range(len(rec)):
        if rec["scratch"][r] < 0:  # TFLM places kernel scratch online
            per_tensor[rec["global_tensor"][r]] = offsets[r]
    written = Model.from_bytes(m._handle.with_offline_plan(per_tensor))
    return tflm_arena(written, target=target).min_arena_bytes, written


def _planned(m: Model, target: str, time_limit: float, inplace: bool) -> tuple[int, Model, bool]:
    """Our optimal offline plan on ``m``: stock TFLM's minimum arena with it,
    the model with it written (``m`` when it does not help: a head no smaller
    than TFLM's own, or a larger minimum arena), and whether a RESHAPE runs
    in place in it."""
    r = plan_for_tflm(
        m, strategy="optimal", target=target, also_try=(), allow_equal=True, time_limit=time_limit
    )
    best = (r.original_min_arena, m, False)
    smaller = r.plan is not None and r.predicted_head < r.original_head
    if smaller and r.plan is not None and r.predicted_min_arena <= r.original_min_arena:
        written = r.model if r.model is not None else m._with_offline_plan(r.plan)
        best = (r.predicted_min_arena, written, False)
    if inplace:
        ip = _inplace_planned(m, target, time_limit)
        if ip is not None and ip[0] < best[0]:
            best = (ip[0], ip[1], True)
    return best


def rewrite(
    model: Model | str | PathLike[str] | bytes,
    *,
    target: str = DEFAULT_TARGET,
    tiles: tuple[int, int] | Sequence[tuple[int, int]] | None = None,
    length: int | None = None,
    plan: bool = True,
    inplace: bool = True,
    time_limit: float = 1.0,
) -> Rewrite:
    """Rewrites ``model``'s first stage into spatial tiles when that makes
    the whole arena stock TFLM (``target``) needs smaller; see the module
    docstring.

    ``tiles`` forces one ``(rows, cols)`` shape (or a list of shapes to try);
    ``length`` forces how many stage operators are tiled (one of the
    stage's cuts). By default row strips and near-square grids up to 10 x 10
    are tried at every cut. ``plan`` adds our optimal offline plan
    (``time_limit`` seconds per search) to the original and to the best
    :data:`PLANNED_TILINGS` tilings; with ``inplace`` that plan may also put
    a RESHAPE's output at its input's offset (:func:`reshape_pairs`), kept
    only when stock TFLM's minimum arena is smaller with it.

    Raises ValueError for a tiling that does not fit (0 tiles, more tiles
    than rows, a length that is not a cut) and for models the rewrite
    refuses (control flow, an offline plan already written, several
    inputs).

    >>> import tflm_arena as ta
    >>> ta.rewrite("hello_world_int8.tflite").written   # doctest: +SKIP
    'unchanged'
    """
    check_target(target)
    if not isinstance(model, Model):
        model = (
            Model.from_bytes(model) if isinstance(model, (bytes, bytearray)) else Model.load(model)
        )
    shapes: list[tuple[int, int]] = []
    if tiles is not None:
        one = isinstance(tiles, tuple) and len(tiles) == 2 and isinstance(tiles[0], int)
        raw: Sequence[Any] = [tiles] if one else tiles
        for rc in raw:
            rows, cols = (int(v) for v in rc)
            if rows < 1 or cols < 1:
                raise ValueError(f"tiles must be at least 1 x 1, got {rows} x {cols}")
            shapes.append((rows, cols))
    if length is not None and length < 1:
        raise ValueError(f"length must be >= 1 stage operators, got {length}")
    try:
        found = _core.rewrite_search(model._handle, target, shapes, length or 0)
    except RuntimeError as e:  # kFailedPrecondition: the model cannot be rewritten
        raise ValueError(f"cannot rewrite this model: {e}") from None
    stage = tuple(
        StageOp(i, name, kind, out, (int(h), int(w), int(c)))
        for i, name, kind, out, (h, w, c) in found["ops"]
    )
    original = _choice(found["original"])
    choices = [_choice(d) for d in found["candidates"]]
    if shapes and choices and all(c.error for c in choices):
        raise ValueError(f"cannot tile this model so: {choices[0].error}")

    best_model: Model = model
    written = "unchanged"
    planned_original: Model | None = None
    if plan:
        total, pm, ip = _planned(model, target, time_limit, inplace)
        original = replace(original, planned_total=total, inplace=ip)
        planned_original = pm
    ranked = sorted(
        (i for i, c in enumerate(choices) if not c.error and c.total < original.best_total * 2),
        key=lambda i: choices[i].total,
    )
    tiled_models: dict[int, Model] = {}
    for i in ranked[: PLANNED_TILINGS if plan else 1]:
        c = choices[i]
        tm = Model.from_bytes(
            _core.rewrite_write(model._handle, c.length, c.rows, c.cols, *(c.second or (0, 1, 1)))
        )
        if plan:
            total, tm, ip = _planned(tm, target, time_limit, inplace)
            choices[i] = replace(c, planned_total=total, inplace=ip)
        tiled_models[i] = tm
    chosen = original
    best_total = original.total
    if plan and original.planned_total is not None and original.planned_total < best_total:
        best_total, written = original.planned_total, "planned"
        assert planned_original is not None
        best_model = planned_original
    best_tiling = min(tiled_models, key=lambda i: choices[i].best_total, default=None)
    if best_tiling is not None and choices[best_tiling].best_total < best_total:
        chosen = choices[best_tiling]
        best_total, written = chosen.best_total, "tiled"
        best_model = tiled_models[best_tiling]
    if written == "planned":
        chosen = original
    reason = _reason(original, choices, chosen, written, stage, found["end_reason"], model, target)
    if written != "unchanged":  # a model written for this build
        best_model._chosen_for = str(_core.tflm_resolve_target(target)["name"])
    return Rewrite(
        model=best_model,
        target=target,
        stage=stage,
        cuts=tuple(found["cuts"]),
        end_reason=found["end_reason"],
        original=original,
        choices=tuple(choices),
        chosen=chosen,
        written=written,
        reason=reason,
    )


def _second_words(c: TilingChoice) -> str:
    if c.second is None:
        return ""
    length2, rows2, cols2 = c.second
    return f", then the next {length2} in {rows2} x {cols2} tiles"


def _reason(
    original: TilingChoice,
    choices: list[TilingChoice],
    chosen: TilingChoice,
    written: str,
    stage: tuple[StageOp, ...],
    end_reason: str,
    model: Model,
    target: str,
) -> str:
    o = original.best_total if written != "tiled" else original.total
    if written == "tiled":
        return (
            f"written: the first {chosen.length} operators in {chosen.rows} x {chosen.cols} "
            f"tiles{_second_words(chosen)}; stock TFLM ({target}) needs "
            f"{chosen.best_total:,} bytes instead of {original.total:,} "
            f"({100.0 * chosen.best_total / original.total:.1f} %), "
            f"MACs {100.0 * (chosen.macs / original.macs - 1.0) if original.macs else 0.0:+.1f} %, "
            f"flash {chosen.file_bytes - original.file_bytes:+,} bytes"
            + (
                "; a RESHAPE runs in place (its output at its input's offset)"
                if chosen.inplace
                else ""
            )
        )
    ok = [c for c in choices if not c.error]
    why = (
        f"no tiling beats {'our offline plan alone' if written == 'planned' else 'the original'} "
        f"({o:,} bytes on {target})"
    )
    if not ok:
        why = f"nothing to tile ({end_reason})"
        return (
            why
            + "; the model is written "
            + (
                f"with our offline plan only ({original.best_total:,} bytes instead of "
                f"{original.total:,} on {target})"
                if written == "planned"
                else "unchanged"
            )
        )
    best = min(ok, key=lambda c: c.best_total)
    sg = model.subgraphs[0]
    inp = sg.tensors[sg.inputs[0]].bytes or 0
    cut_op = stage[best.length - 1]
    cut_bytes = sg.tensors[cut_op.output].bytes or 0
    why += (
        f": the best, {best.label}, needs {best.best_total:,}; its input ({inp:,} bytes) and "
        f"stage output ({cut_bytes:,} bytes, held twice while CONCATENATION joins the tiles) stay "
        f"whole, and its {best.operators - original.operators} extra operators add "
        f"{best.tail - original.tail:+,} bytes of TFLM's persistent tail"
    )
    return (
        why
        + "; the model is written "
        + ("with our offline plan only" if written == "planned" else "unchanged")
    )
