"""One self-contained HTML page about a model's arena (``tflm-arena report``).

The page has no external references (inline CSS, plots as inline SVG from
:mod:`tflm_arena.viz`, no scripts), so it can be mailed or attached to a CI
run. Every string that comes from the model (tensor, operator and subgraph
names, the description, the path) is HTML-escaped: models are untrusted.

Sections carry stable ``id`` attributes for tests and links: ``summary``,
``plan-plot``, ``live-bytes``, ``tensors``, ``operators``, ``strategies``,
``tflm-size``, ``recording``.

>>> import tflm_arena as ta
>>> page = ta.report_html("hello_world_int8.tflite", strategies=["tflm_greedy"])  # doctest: +SKIP
>>> 'id="tensors"' in page                                                       # doctest: +SKIP
True
"""
from __future__ import annotations

import html
import os
import time
from os import PathLike
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._atomic_write import write_atomic
from ._plan import STRATEGIES, Plan
from .model import Model
from .tflm_size import TARGETS, tflm_arena

ModelLike = Union[Model, str, PathLike, bytes, bytearray]

_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.4em; word-break: break-all; }
h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #eee; }
td.text { text-align: left; font-family: monospace; word-break: break-all; max-width: 40em; }
tr.best td { background: #e6f4e6; font-weight: bold; }
figure { margin: 0.5em 0; }
figure svg { max-width: 100%; height: auto; }
p.note { color: #555; font-size: 0.9em; }
"""


def _e(value: Any) -> str:
    """Any value as escaped HTML text (quotes too: values end up in attributes)."""
    return html.escape(str(value), quote=True)


def _table(table_id: str, head: Sequence[str], rows: Sequence[Sequence[Any]],
           text_cols: Sequence[int] = (), row_classes: Optional[Sequence[str]] = None) -> str:
    """A <table>: header cells, one <tr> per row in <tbody>; every cell escaped."""
    out = [f'<table id="{table_id}"><thead><tr>']
    out += [f"<th>{_e(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cls = row_classes[i] if row_classes and row_classes[i] else ""
        out.append(f'<tr class="{cls}">' if cls else "<tr>")
        for j, cell in enumerate(row):
            attr = ' class="text"' if j in text_cols else ""
            out.append(f"<td{attr}>{_e('' if cell is None else cell)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _as_model(model: ModelLike) -> Model:
    if isinstance(model, Model):
        return model
    if isinstance(model, (bytes, bytearray)):
        return Model.from_bytes(model)
    return Model.load(model)


def _one_line(err: BaseException) -> str:
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    return f"{type(err).__name__}: {text}"


def _run_strategies(m: Model, strategies: Sequence[str], time_limit: float, scratch: bool = True
                    ) -> List[Tuple[str, Optional[Plan], float, str]]:
    """(strategy, plan or None, seconds, error) for each strategy; a strategy
    that refuses this model (fixed offsets, too many buffers) is reported,
    not fatal."""
    out = []
    for s in strategies:
        kw = {"time_limit": time_limit} if s in ("optimal", "best") else {}
        start = time.perf_counter()
        try:
            p: Optional[Plan] = m.plan(s, scratch=scratch, **kw)
            err = ""
        except ValueError as e:
            p, err = None, _one_line(e)
        out.append((s, p, time.perf_counter() - start, err))
    return out


def _figure(fig_or_axes: Any) -> str:
    """Inline SVG of a viz figure, then the figure is released."""
    from . import viz

    axes = fig_or_axes[0] if isinstance(fig_or_axes, (tuple, list)) else fig_or_axes
    svg = viz.figure_svg(axes)
    fig = axes.figure
    try:  # figures made through pyplot stay registered until closed
        import matplotlib.pyplot as plt
        plt.close(fig)
    except ImportError:
        pass
    return svg


def report_html(model: ModelLike, *, strategies: Optional[Sequence[str]] = None,
                targets: Optional[Sequence[str]] = None, time_limit: float = 1.0) -> str:
    """The report on ``model`` (a Model, a path or bytes) as one HTML page.

    ``strategies``: the planning strategies to compare (default every name
    in :data:`STRATEGIES`; ``optimal`` and ``best`` search for
    ``time_limit`` seconds). ``targets``: the stock TFLM builds to size
    (default every one of :data:`tflm_size.TARGETS`). The plan plot compares
    TFLM's greedy plan with the smallest plan found. Needs matplotlib (the
    plots come from :mod:`tflm_arena.viz`).

    >>> import tflm_arena as ta
    >>> page = ta.report_html("hello_world_int8.tflite", strategies=["linear"])  # doctest: +SKIP
    >>> page.startswith("<!DOCTYPE html>")                                        # doctest: +SKIP
    True
    """
    strategies = list(STRATEGIES if strategies is None else strategies)
    targets = list(TARGETS if targets is None else targets)
    for s in strategies:
        if s not in STRATEGIES:
            raise ValueError(f"unknown strategy {s!r}; choose from {', '.join(STRATEGIES)}")
    for t in targets:
        if t not in TARGETS:
            raise ValueError(f"unknown target {t!r}; choose from {', '.join(TARGETS)}")
    from . import viz  # ImportError (with "pip install matplotlib") before any work

    m = _as_model(model)
    rec = m.usage_records()
    try:  # plans hold TFLM's kernel scratch buffers, as its head does
        greedy = m.plan("tflm_greedy")
    except NotImplementedError:  # not modelled for an operator: tensors only, said below
        greedy = m.plan("tflm_greedy", scratch=False)
    runs = _run_strategies(m, strategies, time_limit, scratch=not greedy.tensors_only)
    # The smallest plan; ties keep the earlier one, TFLM's own greedy first.
    best = greedy
    for _s, p, _t, _err in runs:
        if p is not None and p.arena_bytes < best.arena_bytes:
            best = p

    name = str(m.path) if m.path is not None else "(model from bytes)"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>tflm-arena report: {_e(name)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f'<h1 id="title">tflm-arena report: {_e(name)} ({len(m.data)} bytes)</h1>',
        _summary(m, rec, greedy, best),
        '<section id="plan-plot"><h2>Memory plan: TFLM greedy vs '
        + (f"{_e(best.strategy)} ({greedy.arena_bytes - best.arena_bytes} bytes smaller)"
           if best is not greedy else "tflm_arena (no strategy tried beats TFLM's own plan)")
        + "</h2><figure>",
        _figure(viz.plot_comparison(greedy, best, model=m)),
        "</figure></section>",
        '<section id="live-bytes"><h2>Live bytes per step</h2><figure>',
        _figure(viz.plot_live_bytes(greedy)),
        "</figure></section>",
        _tensors_section(m, rec, greedy, best),
        _operators_section(m),
        _strategies_section(runs, best),
        _size_section(m, targets),
        _recording_section(m),
        "</body></html>\n",
    ]
    return "\n".join(parts)


def _summary(m: Model, rec: np.ndarray, greedy: Plan, best: Plan) -> str:
    saving = greedy.arena_bytes - best.arena_bytes
    items = [
        f"{len(m.subgraphs)} subgraph(s), {m.total_tensors} tensors, "
        f"{sum(len(sg.operators) for sg in m.subgraphs)} operators, "
        f"{len(rec)} buffers planned in the arena head",
        f"lower bound (most bytes live at once): {greedy.lower_bound} bytes",
        f"TFLM greedy plan: {greedy.arena_bytes} bytes"
        + (" (tensors only: TFLM's kernel scratch buffers are not modelled for this model)"
           if greedy.tensors_only else ""),
        f"smallest plan ({best.strategy}): {best.arena_bytes} bytes"
        + (f", {saving} bytes smaller" if saving > 0 else ""),
    ]
    if m.description:
        items.insert(0, f"description: {m.description}")
    return ('<section id="summary"><h2>Summary</h2><ul>'
            + "".join(f"<li>{_e(i)}</li>" for i in items) + "</ul></section>")


def _tensors_section(m: Model, rec: np.ndarray, greedy: Plan, best: Plan) -> str:
    where: Dict[Tuple[int, int], int] = {
        (int(r["subgraph"]), int(r["tensor"])): i for i, r in enumerate(rec) if r["tensor"] >= 0}
    rows = []
    for sg in m.subgraphs:
        for t in sg.tensors:
            i = where.get((sg.index, t.index))
            rows.append([
                sg.index, t.index, t.name, t.type, "[" + ", ".join(map(str, t.shape)) + "]",
                "-" if t.bytes is None else t.bytes,
                "" if i is None else int(rec["first"][i]),
                "" if i is None else int(rec["last"][i]),
                "" if i is None else int(greedy.offsets[i]),
            ] + ([] if best is greedy else ["" if i is None else int(best.offsets[i])]))
    head = ["subgraph", "index", "name", "type", "shape", "bytes", "first", "last",
            "offset (tflm_greedy)"] + ([] if best is greedy else [f"offset ({best.strategy})"])
    return ('<section id="tensors-section"><h2>Tensors</h2>'
            '<p class="note">first/last: the steps a tensor is live in the arena head; '
            "empty for tensors not planned there (constants, variables, unused).</p>"
            + _table("tensors", head, rows, text_cols=(2, 4)) + "</section>")


def _operators_section(m: Model) -> str:
    rows = [[op.subgraph, op.index, op.name, list(op.inputs), list(op.outputs)]
            for sg in m.subgraphs for op in sg.operators]
    return ('<section id="operators-section"><h2>Operators</h2>'
            + _table("operators", ["subgraph", "index", "name", "inputs", "outputs"], rows,
                     text_cols=(2, 3, 4)) + "</section>")


def _strategies_section(runs: Sequence[Tuple[str, Optional[Plan], float, str]],
                        best: Plan) -> str:
    rows, classes = [], []
    for s, p, seconds, err in runs:
        if p is None:
            rows.append([s, "", "", "", f"{1000 * seconds:.1f}", "refused: " + err])
            classes.append("")
            continue
        made_by = f"plan made by {p.strategy}" if p.strategy != s else ""
        rows.append([s, p.arena_bytes, p.lower_bound, f"{100 * p.overhead:.1f} %",
                     f"{1000 * seconds:.1f}",
                     "; ".join(x for x in ("optimal" if p.optimal else "", made_by) if x)])
        classes.append("best" if p.arena_bytes == best.arena_bytes else "")
    head = ["strategy", "arena bytes", "lower bound", "above lower bound", "time (ms)", "note"]
    return ('<section id="strategies-section"><h2>Strategies</h2>'
            '<p class="note">Arena head (activations) each strategy plans; the smallest '
            "is highlighted.</p>"
            + _table("strategies", head, rows, text_cols=(0, 5), row_classes=classes)
            + "</section>")


def _size_section(m: Model, targets: Sequence[str]) -> str:
    rows = []
    for t in targets:
        try:
            r = tflm_arena(m, target=t)
            rows.append([t, r.min_arena_bytes, r.min_arena_bytes_16, r.head, r.tail,
                         r.temp_peak, r.limited_by])
        except (NotImplementedError, ValueError, RuntimeError) as e:
            rows.append([t, "", "", "", "", "", "not computed: " + _one_line(e)])
    head = ["target", "minimum arena", "kTensorArenaSize (multiple of 16)", "head", "tail",
            "temp peak", "one byte less fails at"]
    return ('<section id="tflm-size-section"><h2>Stock TFLM arena size per target</h2>'
            '<p class="note">What stock TFLM (MicroAllocator, greedy planner) needs for '
            "this model, from <code>tflm_arena.tflm_arena</code>.</p>"
            + _table("tflm-size", head, rows, text_cols=(0, 6)) + "</section>")


def _recording_section(m: Model) -> str:
    from .interpreter import Interpreter

    try:
        it = Interpreter(m)
        it.allocate_tensors()
        a = it.allocations()
    except (ValueError, RuntimeError, MemoryError, NotImplementedError) as e:
        return ('<section id="recording-section"><h2>Recording categories</h2>'
                f'<p class="note" id="recording">not available: {_e(_one_line(e))}</p>'
                "</section>")
    rows = [[name, c["requested_bytes"], c["used_bytes"], c["count"]]
            for name, c in a["categories"].items()]
    totals = ", ".join(f"{k} {a[k]} bytes" for k in ("total", "head", "tail") if k in a)
    return ('<section id="recording-section"><h2>Recording categories</h2>'
            f'<p class="note">tflm_arena.Interpreter(model).allocations(): {_e(totals)}.</p>'
            + _table("recording", ["category", "requested bytes", "used bytes", "count"], rows,
                     text_cols=(0,)) + "</section>")


def write_report(model: ModelLike, path: Union[str, PathLike], overwrite: bool = False,
                 **kwargs: Any) -> Path:
    """Writes :func:`report_html` of ``model`` to ``path`` atomically (a temp
    file in the same folder, then renamed/linked into place). An existing
    ``path`` is never replaced without ``overwrite`` (FileExistsError).
    ``kwargs`` go to :func:`report_html`.

    >>> import tflm_arena as ta
    >>> ta.write_report("hello_world_int8.tflite", "report.html")  # doctest: +SKIP
    PosixPath('report.html')
    """
    dest = Path(path)
    if os.path.lexists(dest) and not overwrite:  # checked before the (slow) report
        raise FileExistsError(f"{dest} exists; pass overwrite=True to replace it")
    data = report_html(model, **kwargs).encode("utf-8")
    return write_atomic(dest, data, overwrite)
