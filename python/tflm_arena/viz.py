"""Pictures of an arena plan (matplotlib, imported only when you draw).

Every plotting function takes an optional matplotlib ``Axes`` (a new figure
is made when it is None) and returns the Axes it drew on, so pictures
compose with the rest of a notebook or a report.

- :func:`plot_plan`: one rectangle per buffer, x = operator step (the
  lifetime ``[first, last + 1)``), y = arena offset ``[offset, offset + size)``;
  the lower bound and the arena top are horizontal lines, the peak step a
  vertical one.
- :func:`plot_live_bytes`: bytes live at every step, peak marked.
- :func:`plot_comparison`: two plans side by side on one y scale.
- :func:`figure_svg`: a figure as self-contained ``<svg>`` text for HTML.

Byte axes are labelled in B, kB or MB (:func:`byte_unit`; 1 kB = 1,000
bytes) with thousands separators, never with an offset such as "1e6";
step axes show whole numbers.

``import tflm_arena`` works without matplotlib; drawing without it raises
ImportError saying ``pip install matplotlib``.

>>> import tflm_arena as ta
>>> p = ta.plan([10, 20], first=[0, 2], last=[1, 3])
>>> live_bytes(p).tolist(), peak_step(p)
([10, 10, 20, 20], 2)
"""

from __future__ import annotations

import contextlib
import html
import io
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

# Drawn objects carry these gids so that tests and callers can find them.
GID_BUFFER = "buffer"  # rectangles: "buffer:<row>"
GID_LOWER_BOUND = "lower_bound"
GID_ARENA_TOP = "arena_top"
GID_PEAK = "peak"
GID_WRITTEN = "written"  # the marker of the model :func:`tflm_arena.rewrite` wrote

#: A buffer gets its name written inside it when its rectangle covers at
#: least this share of the picture's height (smaller names would overlap).
LABEL_MIN_FRACTION = 0.06


def byte_unit(top: float) -> tuple[str, int]:
    """The unit a bytes axis reaching ``top`` bytes is labelled in, and its
    size in bytes: B below 10,000 bytes, kB (1,000 bytes) below 10 MB, else
    MB (1,000,000 bytes), so tick labels have at most four digits before
    the point.

    >>> byte_unit(4096), byte_unit(79_626), byte_unit(3_005_680), byte_unit(12e6)
    (('B', 1), ('kB', 1000), ('kB', 1000), ('MB', 1000000))
    """
    if top < 10_000:
        return "B", 1
    if top < 10_000_000:
        return "kB", 1000
    return "MB", 1_000_000


def _tick_text(value: float) -> str:
    """A tick value with thousands separators and no trailing zeros."""
    text = f"{value:,.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _bytes_axis(ax: Any, label: str) -> None:
    """Labels ``ax``'s y axis in the unit its current top needs (call after
    set_ylim): "``label`` (kB)", ticks like 12.5 (no offset text)."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    unit, scale = byte_unit(max(ax.get_ylim()))
    # Ticks at round numbers of the unit (1, 2, 2.5, 5 x 10^k of it).
    ax.yaxis.set_major_locator(_scaled_locator(scale))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: _tick_text(v / scale)))
    ax.set_ylabel(f"{label} ({unit})")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: _tick_text(v)))


def _scaled_locator(scale: int) -> Any:
    """A MaxNLocator whose round numbers are round in units of ``scale`` bytes."""
    from matplotlib.ticker import MaxNLocator

    class Scaled(MaxNLocator):
        def tick_values(self, vmin: float, vmax: float) -> Any:
            return np.asarray(super().tick_values(vmin / scale, vmax / scale)) * scale

    return Scaled(nbins="auto", steps=[1, 2, 2.5, 5, 10])


def _matplotlib() -> Any:
    """matplotlib, or ImportError telling how to get it."""
    try:
        import matplotlib
    except ImportError as e:
        raise ImportError(
            "tflm_arena.viz needs matplotlib: pip install matplotlib "
            "(or pip install 'tflm_arena[viz]')"
        ) from e
    return matplotlib


def _new_axes(ax: Any, figsize: tuple[float, float] = (8.0, 4.5)) -> Any:
    """``ax``, or the Axes of a new pyplot figure (so Jupyter shows it)."""
    _matplotlib()
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _fig, new = plt.subplots(figsize=figsize, layout="constrained")
    return new


def _columns(plan: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rec = plan.records
    return (
        np.asarray(rec["size"], dtype=np.int64),
        np.asarray(rec["first"], dtype=np.int64),
        np.asarray(rec["last"], dtype=np.int64),
        np.asarray(plan.offsets, dtype=np.int64),
    )


def _live_steps(plan: Any) -> dict[str, Any]:
    """The C++ core's live bytes, buffers and peak over steps 0 .. max(last)."""
    from . import _core

    size, first, last, _ = _columns(plan)
    return _core.live_steps(size, first, last, from_step=0)


def live_bytes(plan: Any) -> np.ndarray:
    """Bytes live at every step ``0 .. max(last)`` (sum of the sizes of the
    buffers whose inclusive lifetime holds the step), as the C++ core
    computes them for the CLI too.

    >>> import tflm_arena as ta
    >>> live_bytes(ta.plan([16, 32], first=[0, 1], last=[1, 2])).tolist()
    [16, 48, 32]
    """
    bytes_live: np.ndarray = _live_steps(plan)["bytes"]
    return bytes_live


def peak_step(plan: Any) -> int:
    """The first step with the most live bytes (-1 for an empty plan).

    >>> import tflm_arena as ta
    >>> peak_step(ta.plan([16, 32], first=[0, 1], last=[1, 2]))
    1
    """
    peak = _live_steps(plan)["peak"]
    return -1 if peak is None else int(peak)


def buffer_names(plan: Any, model: Any = None) -> list[str]:
    """One label per buffer of ``plan``: the tensor's name when ``model`` is
    given and the plan came from its records, ``t<index>`` / ``scratch <k>``
    from the records alone, else ``#<row>``.

    >>> import tflm_arena as ta
    >>> buffer_names(ta.plan([16], first=[0], last=[0]))
    ['#0']
    """
    rec = plan.records
    names = rec.dtype.names or ()
    out = []
    for i in range(len(rec)):
        label = f"#{i}"
        if "tensor" in names and rec["tensor"][i] >= 0:
            sg = int(rec["subgraph"][i]) if "subgraph" in names else 0
            t = int(rec["tensor"][i])
            label = f"t{t}" if sg == 0 else f"sg{sg}:t{t}"
            if model is not None:
                with contextlib.suppress(IndexError):
                    label = model.subgraphs[sg].tensors[t].name or label
        elif "scratch" in names and rec["scratch"][i] >= 0:
            label = f"scratch {int(rec['scratch'][i])}"
        out.append(label)
    return out


def _short(name: str, limit: int = 20) -> str:
    """A label that fits in a rectangle: TFLite names are long paths
    (``model/conv2d/Conv2D;model/...``), so keep the last part of the first."""
    name = "/".join(name.split(";")[0].rstrip("/").split("/")[-2:]) or name
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def plot_plan(
    plan: Any, ax: Any = None, *, model: Any = None, names: bool = True, title: str | None = None
) -> Any:
    """Draws ``plan`` (a :class:`tflm_arena.Plan`) on ``ax`` and returns it.

    One rectangle per buffer with bytes: x from ``first`` to ``last + 1``
    (operator steps), y from ``offset`` to ``offset + size``; a colour per
    buffer, offline-planned (fixed) buffers hatched. With ``names`` the big
    ones are labelled (tensor names when ``model`` is given). Dashed lines:
    the lower bound (most bytes ever live at once) and the arena top; a
    dotted vertical line marks the peak step.

    >>> import tflm_arena as ta
    >>> p = ta.plan([32, 16, 48], first=[0, 1, 2], last=[1, 2, 3])
    >>> ax = plot_plan(p)
    >>> len(ax.patches), ax.patches[2].get_xy(), ax.patches[2].get_height()
    (3, (2.0, 0.0), 48.0)
    """
    mpl = _matplotlib()
    from matplotlib.patches import Rectangle

    ax = _new_axes(ax)
    size, first, last, offset = _columns(plan)
    fixed = (np.asarray(plan.records["fixed_offset"]) >= 0) if len(size) else np.zeros(0, bool)
    labels = buffer_names(plan, model) if names else []
    cmap = mpl.colormaps["tab20"]
    top = int(plan.arena_bytes)
    height = max(top, int(plan.lower_bound), 1)
    steps = int(last.max()) + 1 if len(last) else 1
    box = ax.get_window_extent()  # the Axes' size in pixels (before layout: close enough)
    for i in np.flatnonzero(size > 0):
        x, w = float(first[i]), float(last[i] - first[i] + 1)
        r = Rectangle(
            (x, float(offset[i])),
            w,
            float(size[i]),
            facecolor=cmap(i % cmap.N),
            edgecolor="black",
            linewidth=0.4,
            hatch="//" if fixed[i] else None,
            gid=f"{GID_BUFFER}:{i}",
        )
        ax.add_patch(r)
        if names and size[i] >= LABEL_MIN_FRACTION * height and w >= LABEL_MIN_FRACTION * steps:
            # Write along the longer side of the rectangle as it appears.
            upright = size[i] / height * box.height > w / steps * box.width
            t = ax.text(
                x + w / 2,
                float(offset[i] + size[i] / 2),
                _short(labels[i]),
                ha="center",
                va="center",
                fontsize=7,
                clip_on=True,
                rotation=90 if upright else 0,
            )
            t.set_clip_path(r)  # a long name is cut at its buffer's edges
            t.set_clip_box(ax.bbox)  # ... and at the Axes' (a zoomed-in view)
    lb = ax.axhline(
        int(plan.lower_bound),
        color="tab:green",
        linestyle="--",
        linewidth=1.2,
        label=f"lower bound {int(plan.lower_bound):,} B",
    )
    lb.set_gid(GID_LOWER_BOUND)
    at = ax.axhline(
        top, color="tab:red", linestyle="--", linewidth=1.2, label=f"arena top {top:,} B"
    )
    at.set_gid(GID_ARENA_TOP)
    peak = peak_step(plan)
    if peak >= 0:
        pk = ax.axvline(
            peak + 0.5, color="black", linestyle=":", linewidth=1.2, label=f"peak step {peak}"
        )
        pk.set_gid(GID_PEAK)
    ax.set_xlim(0, steps)
    ax.set_ylim(0, height * 1.08)
    ax.set_xlabel("operator step")
    _bytes_axis(ax, "arena offset")
    if title is None:
        title = (
            f"{plan.strategy}: {top:,} bytes for {len(size)} buffers "
            f"(lower bound {int(plan.lower_bound):,})"
        )
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper right", fontsize=7, framealpha=0.85)
    return ax


def plot_live_bytes(plan: Any, ax: Any = None, *, title: str | None = None) -> Any:
    """Draws the bytes live at every step of ``plan`` (one bar per step),
    the peak step's bar outlined and marked, the arena size as a dashed line.

    >>> import tflm_arena as ta
    >>> ax = plot_live_bytes(ta.plan([16, 32], first=[0, 1], last=[1, 2]))
    >>> [int(b.get_height()) for b in ax.containers[0]]
    [16, 48, 32]
    """
    _matplotlib()
    ax = _new_axes(ax, figsize=(8.0, 3.0))
    result = _live_steps(plan)
    live = result["bytes"]
    steps = np.arange(len(live))
    bars = ax.bar(steps.tolist(), live.tolist(), width=0.9, color="tab:blue", label="live bytes")
    peak = -1 if result["peak"] is None else int(result["peak"])
    if peak >= 0:
        bars[peak].set_color("tab:orange")
        bars[peak].set_gid(GID_PEAK)
        ax.annotate(
            f"peak {int(live[peak]):,} B at step {peak}",
            (peak, float(live[peak])),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            fontsize=8,
        )
    at = ax.axhline(
        int(plan.arena_bytes),
        color="tab:red",
        linestyle="--",
        linewidth=1.2,
        label=f"arena {int(plan.arena_bytes):,} B",
    )
    at.set_gid(GID_ARENA_TOP)
    ax.set_ylim(0, max(int(plan.arena_bytes), int(live.max()) if len(live) else 0, 1) * 1.12)
    ax.set_xlabel("operator step")
    _bytes_axis(ax, "live bytes")
    ax.set_title(
        title if title is not None else f"live bytes per step ({plan.strategy})", fontsize=10
    )
    ax.legend(loc="upper right", fontsize=7)
    return ax


def plot_comparison(
    plan_a: Any,
    plan_b: Any,
    axes: Sequence[Any] | None = None,
    *,
    model: Any = None,
    labels: tuple[str, str] = ("TFLM greedy", "tflm_arena"),
) -> tuple[Any, Any]:
    """Draws two plans of the same buffers side by side on one y scale
    (``axes``: two Axes, or None for a new figure); returns both Axes.

    >>> import tflm_arena as ta
    >>> rec = ta.make_records([32, 16, 48], [0, 1, 2], [1, 2, 3])
    >>> a, b = plot_comparison(ta.plan(rec), ta.plan(rec, strategy="linear"))
    >>> a.get_ylim() == b.get_ylim()
    True
    """
    _matplotlib()
    if axes is None:
        import matplotlib.pyplot as plt

        _fig, axes = plt.subplots(1, 2, figsize=(12.0, 4.5), sharey=True, layout="constrained")
    ax_a, ax_b = axes
    for ax, p, label in ((ax_a, plan_a, labels[0]), (ax_b, plan_b, labels[1])):
        plot_plan(p, ax, model=model, title=f"{label} ({p.strategy}): {int(p.arena_bytes):,} bytes")
    top = (
        max(
            int(plan_a.arena_bytes),
            int(plan_b.arena_bytes),
            int(plan_a.lower_bound),
            int(plan_b.lower_bound),
            1,
        )
        * 1.08
    )
    for ax in (ax_a, ax_b):
        ax.set_ylim(0, top)
        _bytes_axis(ax, "arena offset")  # the unit of the shared top
    return ax_a, ax_b


#: Stage lengths :func:`plot_rewrite` names in its legend (the smallest arenas).
_REWRITE_LEGEND_LENGTHS = 6


def plot_rewrite(rewrite: Any, ax: Any = None) -> Any:
    """Draws a :class:`tflm_arena.rewrite.Rewrite`'s trade-off: stock TFLM's
    whole arena (its own plan; the ``target`` of the rewrite) against the
    number of tiles, one line per stage length, the original's arena as a
    horizontal line (dashed: with our optimal plan), the written model
    marked with a star. Returns the Axes.

    >>> from tflm_arena.rewrite import Rewrite, TilingChoice
    >>> o = TilingChoice(0, 1, 1, 100, 20, 120, 10, 50, 3)
    >>> t = TilingChoice(2, 2, 1, 40, 30, 70, 12, 80, 9)
    >>> r = Rewrite(None, "x86-64", (), (2,), "", o, (t,), t, "tiled", "")
    >>> [tuple(map(int, l.get_ydata())) for l in plot_rewrite(r).lines][:1]
    [(70,)]
    """
    _matplotlib()
    ax = _new_axes(ax, figsize=(8.0, 4.0))
    ok = [c for c in rewrite.choices if not c.error]
    curves: dict[int, dict[int, int]] = {}
    for c in ok:
        best = curves.setdefault(c.length, {})
        n = c.rows * c.cols
        best[n] = min(c.total, best.get(n, c.total))
    # The legend names the stage lengths that reach the smallest arenas; the
    # others are drawn thin and grey under one entry, so the legend fits.
    ranked = sorted(curves, key=lambda length: min(curves[length].values()))
    named = set(ranked[:_REWRITE_LEGEND_LENGTHS])
    others = 0
    for length in sorted(curves):
        xs = sorted(curves[length])
        ys = [curves[length][x] for x in xs]
        if length in named:
            ax.plot(xs, ys, marker="o", markersize=3, label=f"{length} ops tiled")
        else:
            ax.plot(
                xs,
                ys,
                color="0.75",
                linewidth=0.8,
                label=None if others else f"{len(curves) - len(named)} other stage lengths",
            )
            others += 1
    o = rewrite.original
    ax.axhline(o.total, color="black", linewidth=1.2, label=f"original {o.total:,} B")
    if o.planned_total is not None and o.planned_total < o.total:
        ax.axhline(
            o.planned_total,
            color="black",
            linestyle="--",
            linewidth=1.0,
            label=f"original, our plan {o.planned_total:,} B",
        )
    c = rewrite.chosen
    if rewrite.written == "tiled":
        (star,) = ax.plot(
            [c.rows * c.cols],
            [c.best_total],
            marker="*",
            markersize=14,
            color="tab:red",
            linestyle="none",
            label=f"written: {c.label}, {c.best_total:,} B",
        )
        star.set_gid(GID_WRITTEN)
    ax.set_xlabel("tiles (rows x columns)")
    _bytes_axis(ax, f"stock TFLM arena ({rewrite.target})")
    ax.set_ylim(0, None)
    ax.set_title("whole arena (head + tail) by tiling", fontsize=10)
    ax.legend(loc="upper right", fontsize=7)
    return ax


def figure_svg(fig_or_axes: Any) -> str:
    """The figure (or the figure of an Axes) as self-contained ``<svg>``
    text: text drawn as paths, no external references, no XML prologue, so
    it can be pasted into HTML as is.

    >>> import tflm_arena as ta
    >>> svg = figure_svg(plot_plan(ta.plan([16], first=[0], last=[0])))
    >>> svg.startswith("<svg"), 'href="http' in svg
    (True, False)
    """
    mpl = _matplotlib()
    fig = fig_or_axes
    while not hasattr(fig, "savefig"):  # an Axes (or a SubFigure): up to the Figure
        fig = fig.figure
    buf = io.StringIO()
    with mpl.rc_context({"svg.fonttype": "path", "svg.hashsalt": "tflm_arena"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    start = text.find("<svg")
    if start < 0:
        raise RuntimeError("matplotlib wrote no <svg> element")
    svg = text[start:]
    # The RDF metadata block names dublincore/creativecommons URLs; drop it.
    return re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)


def _table(rows: Sequence[tuple[str, Any]]) -> str:
    cells = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
        f"<td style='text-align:right'>{html.escape(str(v))}</td></tr>"
        for k, v in rows
    )
    return f"<table>{cells}</table>"


#: Plans with more buffers than this get no inline picture in notebooks
#: (the SVG would be megabytes).
HTML_SVG_MAX_BUFFERS = 3000


def plan_html(plan: Any) -> str:
    """Small HTML for a Plan: its key figures as a table and, when matplotlib
    is installed, the plan's picture as inline SVG (else a note saying so).

    >>> import tflm_arena as ta
    >>> "<table>" in plan_html(ta.plan([16], first=[0], last=[0]))
    True
    """
    size, _first, _last, _offset = _columns(plan)
    peak = peak_step(plan)
    rows = [
        ("strategy", plan.strategy),
        ("buffers", f"{len(size):,}"),
        ("arena bytes", f"{int(plan.arena_bytes):,}"),
        ("lower bound", f"{int(plan.lower_bound):,}"),
        ("overhead", f"{100 * plan.overhead:.1f}%"),
        ("provably optimal", "yes" if plan.optimal else "not proven"),
        ("peak step", peak),
    ]
    head = f"<div class='tflm-arena-plan'><b>Plan</b>{_table(rows)}"
    if len(size) > HTML_SVG_MAX_BUFFERS:
        return head + f"<p>(no picture: more than {HTML_SVG_MAX_BUFFERS} buffers)</p></div>"
    try:
        _matplotlib()
    except ImportError:
        return head + "<p>(pip install matplotlib for a picture of the plan)</p></div>"
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.0, 3.6), layout="constrained")  # not pyplot: no second display
    plot_plan(plan, fig.add_subplot())
    return head + figure_svg(fig) + "</div>"


def model_html(model: Any) -> str:
    """Small HTML for a Model: key figures, then its inputs and outputs and
    operator counts as tables.

    >>> import tflm_arena as ta
    >>> "FULLY_CONNECTED" in model_html(ta.Model.load("hello_world_int8.tflite"))
    True
    """
    rec = model.usage_records()
    try:
        offline = "yes" if model.offline_plan() is not None else "no"
    except ValueError as e:  # a display must not raise: say what is wrong instead
        offline = f"invalid ({str(e).splitlines()[0]})"
    rows = [
        ("path", model.path or "(bytes)"),
        ("size", f"{len(model.data):,} bytes"),
        ("subgraphs", len(model.subgraphs)),
        ("tensors", f"{model.total_tensors:,}"),
        ("operators", f"{sum(len(s.operators) for s in model.subgraphs):,}"),
        ("planned buffers", f"{len(rec):,}"),
        ("planned bytes (sum)", f"{int(rec['size'].sum()):,}"),
        ("offline plan", offline),
    ]
    io_rows = "".join(
        f"<tr><td>{kind}</td><td>{t}</td><td>{html.escape(model.tensors[t].name)}</td>"
        f"<td>{html.escape(model.tensors[t].type)}</td><td>{model.tensors[t].shape}</td></tr>"
        for kind, ts in (("input", model.inputs), ("output", model.outputs))
        for t in ts
    )
    counts: dict[str, int] = {}
    for s in model.subgraphs:
        for op in s.operators:
            counts[op.name] = counts.get(op.name, 0) + 1
    op_rows = "".join(
        f"<tr><td>{html.escape(k)}</td><td style='text-align:right'>{v}</td></tr>"
        for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    return (
        "<div class='tflm-arena-model'><b>Model</b>"
        + _table(rows)
        + "<table><tr><th></th><th>tensor</th><th>name</th><th>type</th><th>shape</th></tr>"
        + io_rows
        + "</table><table><tr><th>operator</th><th>count</th></tr>"
        + op_rows
        + "</table></div>"
    )
