"""One self-contained HTML page about a model's arena (``tflm-arena report``).

The first screen answers: a headline box with ``constexpr int
kTensorArenaSize = N;`` for every target sized (stock TFLM's figure, the
target named in words) and what the best plan written into the model
(:func:`tflm_arena.optimize`) saves in stock TFLM's head and minimum arena.
Then stock TFLM's figures per target, the boards, the plan plot, live bytes
per step, what a graph rewrite (:func:`tflm_arena.rewrite`) brings below the
lower bound, every planning strategy, the tensors and operators (collapsed), and last,
in their own section, tflm_arena's own runtime figures (not stock TFLM's).
Byte figures have thousands separators; plot axes are in B / kB / MB.

The page has no external references (inline CSS, plots as inline SVG from
:mod:`tflm_arena.viz`, no scripts), so it can be mailed or attached to a CI
run. Every string that comes from the model (tensor, operator and subgraph
names, the description, the path) is HTML-escaped: models are untrusted.

Elements carry stable ``id`` attributes for tests and links: ``title``,
``headline`` (one ``answer-<target>`` block per target, with
``arena-line-<target>`` and the table ``headline-<target>``), ``summary``,
``tflm-size``, ``plan-plot``, ``live-bytes``, ``rewrite-section`` (its table
``rewrite``, the paragraph ``rewrite-reason``, or ``rewrite-refused``),
``strategies``, ``tensors`` (in the closed ``<details id="tensors-details">``),
``operators`` (in ``operators-details``), ``runtime-section`` and its table ``runtime``.

>>> import tflm_arena as ta
>>> page = ta.report_html("hello_world_int8.tflite", strategies=["tflm_greedy"])  # doctest: +SKIP
>>> 'id="arena-line-cortex-m"' in page                                           # doctest: +SKIP
True
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from . import _core
from ._atomic_write import write_atomic
from ._core import TflmRefusesModelError
from ._plan import STRATEGIES, Plan, check_strategy
from ._report_html import _e, _figure, _nowrap, _pct, _table, _wrappable
from ._report_rewrite import report_rewrite, rewrite_section
from .boards import Fit, boards
from .model import Model
from .optimize import Optimization, optimize
from .tflm_size import (
    DEFAULT_TARGET,
    TARGETS,
    TflmArena,
    _planner_words,
    check_target,
    targets,
    tflm_arena,
)

ModelLike = Model | str | PathLike[str] | bytes | bytearray

#: The targets a report sizes unless told: the default target first, then
#: every other reference-kernel build (a CMSIS-NN build, ``cortex-m4+cmsis-nn``
#: etc., and an Ethos-U build, only when named in ``targets=``, so the first
#: screen keeps one line per target).
REPORT_DEFAULT_TARGETS: tuple[str, ...] = (DEFAULT_TARGET,) + tuple(
    t["name"]
    for t in _core.tflm_targets()
    if t["kernels"] == "reference" and t["name"] != DEFAULT_TARGET and not t["ethos_u"]
)

#: Each target in words, after its name: "stock TFLM, cortex-m (32-bit ARM,
#: reference kernels)". A target missing here is shown by its name alone.

#: Errors that mean "no figure for this target", shown in the page instead:
#: a model stock TFLM refuses (ValueError), an operator whose memory
#: behaviour is not modelled (NotImplementedError), another core error.
_NOT_SIZED = (ValueError, NotImplementedError, RuntimeError)

_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.2em 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 0.1em 0; overflow-wrap: break-word; }
p.path { font-family: monospace; color: #555; margin: 0 0 0.6em 0; overflow-wrap: break-word; }
h2 { font-size: 1.15em; margin-top: 1.4em; border-bottom: 1px solid #ccc; overflow-wrap: break-word; }
#headline { border: 2px solid #3a7; border-radius: 6px; background: #f4fbf6; padding: 0.3em 1em 0.6em; }
#headline h2 { border: none; margin: 0.3em 0 0.2em 0; }
.answers { display: flex; flex-wrap: wrap; gap: 0.4em 2.5em; }
.answer { flex: 1 1 36em; min-width: 0; }
p.whose { font-weight: bold; margin: 0.5em 0 0.1em 0; overflow-wrap: break-word; }
pre.arena-line { font-size: 1.2em; font-weight: bold; margin: 0.15em 0 0.3em 0;
                 white-space: pre-wrap; overflow-wrap: break-word; }
p.refused { color: #a00; overflow-wrap: break-word; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #eee; }
td.text { text-align: left; font-family: monospace; overflow-wrap: anywhere; max-width: 40em; }
tr.best td { background: #e6f4e6; font-weight: bold; }
tr.over td { color: #a00; }
figure { margin: 0.5em 0; }
figure svg { max-width: 100%; height: auto; }
p.note { color: #555; font-size: 0.9em; }
ul.boards { color: #333; font-size: 0.9em; margin: 0.2em 0; padding-left: 1.2em; }
details > summary { cursor: pointer; color: #245; }
span.nw { white-space: nowrap; }
#headline td.text { font-family: inherit; }
#headline p.note code { font-size: 1.05em; color: #222; }
"""  # noqa: E501 (CSS rules, one per line)


def _as_model(model: ModelLike) -> Model:
    if isinstance(model, Model):
        return model
    if isinstance(model, (bytes, bytearray)):
        return Model.from_bytes(model)
    return Model.load(model)


def _one_line(err: BaseException) -> str:
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    return f"{type(err).__name__}: {text}"


def _target_words(target: str) -> str:
    """``cortex-m (TFLM Makefile build for a 32-bit ARM core, ...)``: the
    target's own description (:func:`tflm_arena.targets`)."""
    words = targets().get(target)
    return f"{target} ({words})" if words else target


def _whose(target: str, r: TflmArena | None = None) -> str:
    """Whose figure: "stock TFLM, cortex-m (TFLM Makefile build ...,
    MicroAllocator), greedy planner" (the planner when sized)."""
    text = f"stock TFLM, {_target_words(target)}"
    if r is not None:
        text += f", {_planner_words(r.planner)}"
    return text


def _boards_that_fit(target: str, r: TflmArena) -> list[str]:
    """Lines under a target's answer: the boards of the table
    (:func:`tflm_arena.boards`) built with this target that the arena fits
    on, each with its margin, then those it does not fit on with the
    overshoot. Empty when no board uses the target."""
    fits = [Fit(r, b.ram_bytes, b) for b in boards().values() if b.target == target]
    if not fits:
        return []
    out = [
        f"fits on {f.board.name} ({f.board.chip}, {f.ram_bytes:,} bytes of RAM): "
        f"{f.margin:,} bytes to spare ({100.0 * f.margin / f.ram_bytes:.1f} %)"
        for f in fits
        if f.fits_internal and f.board is not None
    ]
    over = [
        f"{f.board.name} by {-f.margin:,} bytes"
        + (f" (its external RAM holds it: {f.board.external_ram})" if f.fits else "")
        for f in fits
        if not f.fits_internal and f.board
    ]
    if over:
        out.append("does not fit on " + ", ".join(over))
    out.append("(the arena only: the application's other RAM use is not counted)")
    return out


def _run_strategies(
    m: Model,
    strategies: Sequence[str],
    time_limit: float,
    scratch: bool = True,
    target: str = DEFAULT_TARGET,
) -> list[tuple[str, Plan | None, float, str]]:
    """(strategy, plan or None, seconds, error) for each strategy; a strategy
    that refuses this model (fixed offsets, too many buffers) is reported,
    not fatal."""
    out = []
    for s in strategies:
        kw = {"time_limit": time_limit} if s in ("optimal", "best") else {}
        start = time.perf_counter()
        try:
            p: Plan | None = (
                m.plan(s, scratch=True, target=target, **kw)
                if scratch
                else m.plan(s, scratch=False, **kw)
            )
            err = ""
        except ValueError as e:
            p, err = None, _one_line(e)
        out.append((s, p, time.perf_counter() - start, err))
    return out


class _Sized:
    """One target's stock TFLM figures: the model as it is (``size``), and
    with the best plan :func:`optimize` found written (``opt``, ``written``),
    or the error that stopped each."""

    def __init__(self, m: Model, target: str, time_limit: float, plan: bool = True) -> None:
        self.target = target
        self.size: TflmArena | None = None
        self.error = ""
        self.opt: Optimization | None = None
        self.written: TflmArena | None = None
        self.opt_error = ""
        try:
            self.size = tflm_arena(m, target=target)
        except _NOT_SIZED as e:
            self.error = _one_line(e)
            return
        if not plan:  # the per-target table alone
            return
        try:
            self.opt = optimize(m, target=target, time_limit=time_limit)
            self.written = (
                tflm_arena(self.opt.model, target=target) if self.opt.improved else self.size
            )
        except _NOT_SIZED as e:
            self.opt, self.opt_error = None, _one_line(e)


def report_html(
    model: ModelLike,
    *,
    strategies: Sequence[str] | None = None,
    targets: Sequence[str] | None = None,
    time_limit: float = 1.0,
    board: str | None = None,
) -> str:
    """The report on ``model`` (a Model, a path or bytes) as one HTML page.

    ``strategies``: the planning strategies to compare (default every name
    in :data:`STRATEGIES`; ``optimal`` and ``best`` search for
    ``time_limit`` seconds). ``targets``: the stock TFLM builds to size
    (default :data:`REPORT_DEFAULT_TARGETS`: the reference-kernel builds,
    the default target first); for each, the
    headline gives ``kTensorArenaSize`` and what :func:`optimize` (with
    ``time_limit``) saves with the best plan written. The plan plot
    compares TFLM's greedy plan with the smallest plan found. ``board``
    (a name of :data:`tflm_arena.BOARDS`): the first target is the board's
    (at its stack version; a first ``targets`` entry must be a legal build
    on it), and the top box says where the arena fits on the board. Needs
    matplotlib (the plots come from :mod:`tflm_arena.viz`).

    >>> import tflm_arena as ta
    >>> page = ta.report_html("hello_world_int8.tflite", strategies=["linear"])  # doctest: +SKIP
    >>> page.startswith("<!DOCTYPE html>")                                        # doctest: +SKIP
    True
    """
    strategies = list(STRATEGIES if strategies is None else strategies)
    the_board = None
    if board is not None:
        from .boards import board as _board
        from .boards import board_target

        the_board = _board(board)
        given = list(targets or [])
        targets = [board_target(the_board, given[0] if given else None), *given[1:]]
    if targets is None:
        targets = REPORT_DEFAULT_TARGETS
    targets = list(targets)
    for s in strategies:
        check_strategy(s)
    for t in targets:
        check_target(t)
    if not time_limit > 0:
        raise ValueError(f"time_limit must be > 0 seconds, got {time_limit}")
    from . import viz  # ImportError (with "pip install matplotlib") before any work

    m = _as_model(model)
    # Every section is about the chosen target, the first one.
    primary = targets[0] if targets else DEFAULT_TARGET
    rec = m.usage_records()
    try:  # plans hold TFLM's kernel scratch buffers on the target, as its head does
        greedy = m.plan("tflm_greedy", target=primary)
    except (NotImplementedError, TflmRefusesModelError):  # tensors only, said below
        greedy = m.plan("tflm_greedy", scratch=False)
    sized = [_Sized(m, t, time_limit) for t in targets]
    # The per-target table sizes every target (no plan search for the others).
    named = {t.split("@")[0] for t in targets}
    everyone = sized + [_Sized(m, t, time_limit, plan=False) for t in TARGETS if t not in named]
    runs = _run_strategies(
        m, strategies, time_limit, scratch=not greedy.tensors_only, target=primary
    )
    rewritten, refused = report_rewrite(m, primary, time_limit)
    # The smallest plan; ties keep the earlier one, TFLM's own greedy first.
    best = greedy
    for _s, p, _t, _err in runs:
        if p is not None and p.arena_bytes < best.arena_bytes:
            best = p

    path = str(m.path) if m.path is not None else "(model from bytes)"
    name = m.path.name if m.path is not None else path
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tflm-arena report: {_e(name)}</title>",
        f"<style>{_CSS}</style></head><body>",
        f'<h1 id="title">tflm-arena report: {_wrappable(name)}</h1>',
        f'<p class="path">{_wrappable(path)} (model file, {len(m.data):,} bytes)</p>',
        _headline(sized, rewritten),
        _board_fit(m, sized[0], the_board) if the_board is not None and sized else "",
        _summary(m, rec, greedy, best),
        _size_section(everyone),
        _boards_section(m),
        '<section id="plan-plot"><h2>Memory plan (tflm_arena\'s planners): TFLM greedy vs '
        + (
            f"{_e(best.strategy)} ({greedy.arena_bytes - best.arena_bytes:,} bytes smaller)"
            if best is not greedy
            else "tflm_arena (no strategy tried beats TFLM's own plan)"
        )
        + "</h2><figure>",
        _figure(viz.plot_comparison(greedy, best, model=m)),
        "</figure></section>",
        '<section id="live-bytes"><h2>Live bytes per step</h2><figure>',
        _figure(viz.plot_live_bytes(greedy)),
        "</figure></section>",
        rewrite_section(rewritten, refused, primary),
        _strategies_section(runs, best),
        _tensors_section(m, rec, greedy, best),
        _operators_section(m),
        _runtime_section(m),
        "</body></html>\n",
    ]
    return "\n".join(parts)


def _headline(sized: Sequence[_Sized], rewritten: Any = None) -> str:
    """The box on the first screen: per target, the line for the firmware
    and the smallest model written for it (the best plan, and for the first
    target the graph rewrite when that is smaller), every figure stock
    TFLM's."""
    out = ['<section id="headline"><h2>Tensor arena for stock TFLM</h2><div class="answers">']
    for k, s in enumerate(sized):
        t = s.target
        out.append(f'<div class="answer" id="answer-{_e(t)}">')
        out.append(f'<p class="whose">{_nowrap(_whose(t, s.size))}</p>')
        if s.size is None:
            out.append(
                f'<p class="refused" id="refused-{_e(t)}">not computed: {_e(s.error)}</p></div>'
            )
            continue
        r = s.size
        out.append(f'<pre class="arena-line" id="arena-line-{_e(t)}">{_e(r.firmware_line())}</pre>')
        rows: list[list[Any]] = [
            ["kTensorArenaSize (bytes)", r.min_arena_bytes_16],
            ["exact minimum arena (bytes)", r.min_arena_bytes],
            ["head: activations + scratch (bytes)", r.head],
        ]
        head = [f"stock TFLM, {t}", "model as it is"]
        code = ""  # the firmware line for the model with the plan written
        if s.opt is None:
            note = f"no plan computed: {s.opt_error}"
        elif s.opt.improved and s.written is not None:
            w = s.written
            head += ["best plan written", "saving"]
            rows[0] += [w.min_arena_bytes_16, ""]
            rows[1] += [w.min_arena_bytes, _saving(r.min_arena_bytes, w.min_arena_bytes)]
            rows[2] += [s.opt.head, _saving(r.head, s.opt.head)]
            b = s.opt.best
            assert b is not None  # improved means a best attempt
            note = (
                f"Best plan: {b.strategy}"
                + (" (proven smallest)" if b.optimal else "")
                + ", written into the model as OfflineMemoryAllocation metadata "
                f"(tflm-arena optimize MODEL -o OUT --target {t}); with that model "
                "use "
            )
            code = w.firmware_line()
        else:
            note = (
                f"TFLM's own plan is already the smallest found: no plan tried by "
                f"tflm-arena optimize makes stock TFLM's head ({r.head:,} bytes, {t}) "
                "smaller."
            )
        best_plan = s.written.min_arena_bytes if s.written is not None else r.min_arena_bytes
        if (
            k == 0
            and rewritten is not None
            and rewritten.written == "tiled"
            and rewritten.min_arena < best_plan
        ):
            # The smallest model written for this target is the graph rewrite.
            w = tflm_arena(rewritten.model, target=t)
            head += ["graph rewrite written", "saving"]
            for row in rows:
                row += [""] * (len(head) - 2 - len(row))
            rows[0] += [w.min_arena_bytes_16, ""]
            rows[1] += [w.min_arena_bytes, _saving(r.min_arena_bytes, w.min_arena_bytes)]
            rows[2] += [w.head, _saving(r.head, w.head)]
            note = (
                f"Smallest model written: the graph rewrite "
                f"({rewritten.chosen.label}, section below; tflm-arena optimize MODEL -o OUT "
                f"--rewrite --target {t}): stock TFLM needs {w.min_arena_bytes:,} bytes "
                f"instead of {r.min_arena_bytes:,}; with that model use "
            )
            code = w.firmware_line()
        out.append(_table(f"headline-{t}", head, rows, text_cols=(0,)))
        out.append(
            f'<p class="note" id="plan-note-{_e(t)}">{_e(note)}'
            + (f'<code id="planned-line-{_e(t)}">{_e(code)}</code>' if code else "")
            + "</p>"
        )
        fits = _boards_that_fit(t, r)
        if fits:
            out.append(
                f'<ul class="boards" id="boards-{_e(t)}">'
                + "".join(f"<li>{_e(x)}</li>" for x in fits)
                + "</ul>"
            )
        out.append("</div>")
    out.append("</div></section>")
    return "".join(out)


def _board_fit(m: Model, s: _Sized, b: Any) -> str:
    """The chosen board: where the first target's arena fits on it."""
    from .boards import make_fit

    if s.size is None:
        return ""
    f = make_fit(s.size, b.ram_bytes, b, m)
    return (
        '<section id="board-fit"><h2>On board '
        + _e(b.name)
        + "</h2>"
        + "".join(f'<p class="note">{_e(line.strip())}</p>' for line in f.lines())
        + "</section>"
    )


def _saving(before: int, after: int) -> str:
    return f"{before - after:,} ({_pct(before - after, before)})"


def _summary(m: Model, rec: np.ndarray, greedy: Plan, best: Plan) -> str:
    saving = greedy.arena_bytes - best.arena_bytes
    items = [
        f"{len(m.subgraphs):,} subgraph(s), {m.total_tensors:,} tensors, "
        f"{sum(len(sg.operators) for sg in m.subgraphs):,} operators, "
        f"{len(rec):,} buffers planned in the arena head",
        f"lower bound (most bytes live at once): {greedy.lower_bound:,} bytes",
        f"TFLM greedy plan (TFLM's own planner): {greedy.arena_bytes:,} bytes"
        + (
            " (tensors only: TFLM's kernel scratch buffers are not modelled for this model)"
            if greedy.tensors_only
            else f" (tensors and {greedy.scratch_target} kernel scratch: TFLM's head)"
        ),
        f"smallest plan of tflm_arena's strategies ({best.strategy}): "
        f"{best.arena_bytes:,} bytes" + (f", {saving:,} bytes smaller" if saving > 0 else ""),
    ]
    if m.description:
        items.insert(0, f"description: {m.description}")
    return (
        '<section id="summary"><h2>Arena head: plans of the model\'s buffers</h2><ul>'
        + "".join(f"<li>{_e(i)}</li>" for i in items)
        + "</ul></section>"
    )


def _tensors_section(m: Model, rec: np.ndarray, greedy: Plan, best: Plan) -> str:
    where: dict[tuple[int, int], int] = {
        (int(r["subgraph"]), int(r["tensor"])): i for i, r in enumerate(rec) if r["tensor"] >= 0
    }
    rows = []
    for sg in m.subgraphs:
        for t in sg.tensors:
            i = where.get((sg.index, t.index))
            rows.append(
                [
                    str(sg.index),
                    str(t.index),
                    t.name,
                    t.type,
                    "[" + ", ".join(map(str, t.shape)) + "]",
                    "-" if t.bytes is None else t.bytes,
                    "" if i is None else str(int(rec["first"][i])),
                    "" if i is None else str(int(rec["last"][i])),
                    "" if i is None else int(greedy.offsets[i]),
                ]
                + ([] if best is greedy else ["" if i is None else int(best.offsets[i])])
            )
    head = [
        "subgraph",
        "index",
        "name",
        "type",
        "shape",
        "bytes",
        "first",
        "last",
        "offset (tflm_greedy)",
    ] + ([] if best is greedy else [f"offset ({best.strategy})"])
    return (
        '<section id="tensors-section"><h2>Tensors</h2>'
        '<details id="tensors-details"><summary>'
        f"{len(rows):,} tensors: name, type, shape, bytes, lifetime and offset</summary>"
        '<p class="note">first/last: the steps a tensor is live in the arena head; '
        "empty for tensors not planned there (constants, variables, unused).</p>"
        + _table("tensors", head, rows, text_cols=(2, 4))
        + "</details></section>"
    )


def _operators_section(m: Model) -> str:
    rows = [
        [str(op.subgraph), str(op.index), op.name, list(op.inputs), list(op.outputs)]
        for sg in m.subgraphs
        for op in sg.operators
    ]
    return (
        '<section id="operators-section"><h2>Operators</h2>'
        f'<details id="operators-details"><summary>{len(rows):,} operators: name, '
        "inputs and outputs</summary>"
        + _table(
            "operators",
            ["subgraph", "index", "name", "inputs", "outputs"],
            rows,
            text_cols=(2, 3, 4),
        )
        + "</details></section>"
    )


def _strategies_section(runs: Sequence[tuple[str, Plan | None, float, str]], best: Plan) -> str:
    rows: list[list[Any]] = []
    classes: list[str] = []
    for s, p, seconds, err in runs:
        if p is None:
            rows.append([s, "", "", "", f"{1000 * seconds:.1f}", "refused: " + err])
            classes.append("")
            continue
        made_by = f"plan made by {p.strategy}" if p.strategy != s else ""
        rows.append(
            [
                s,
                p.arena_bytes,
                p.lower_bound,
                f"{100 * p.overhead:.1f} %",
                f"{1000 * seconds:.1f}",
                "; ".join(x for x in ("optimal" if p.optimal else "", made_by) if x),
            ]
        )
        classes.append("best" if p.arena_bytes == best.arena_bytes else "")
    head = ["strategy", "arena bytes", "lower bound", "above lower bound", "time (ms)", "note"]
    return (
        '<section id="strategies-section"><h2>Planning strategies (tflm_arena)</h2>'
        '<p class="note">Arena head (activations) each of tflm_arena\'s strategies plans '
        "for the model's buffers, kernel scratch not included; the smallest is "
        "highlighted. What a written plan changes in stock TFLM is in the box at the "
        "top.</p>"
        + _table("strategies", head, rows, text_cols=(0, 5), row_classes=classes)
        + "</section>"
    )


def _size_section(sized: Sequence[_Sized]) -> str:
    rows: list[list[Any]] = []
    for s in sized:
        r = s.size
        if r is None:
            rows.append([s.target, "", "", "", "", "", "not computed: " + s.error])
        else:
            rows.append(
                [
                    s.target,
                    r.min_arena_bytes,
                    r.min_arena_bytes_16,
                    r.head,
                    r.tail,
                    r.temp_peak,
                    r.limited_by,
                ]
            )
    head = [
        "target",
        "minimum arena",
        "kTensorArenaSize (multiple of 16)",
        "head",
        "tail",
        "temp peak",
        "one byte less fails at",
    ]
    words = "; ".join(_whose(s.target, s.size) for s in sized)
    return (
        '<section id="tflm-size-section"><h2>Stock TFLM: arena size per target</h2>'
        f'<p class="note">What stock TFLM needs for this model as it is, in bytes, on every '
        f"target tflm_arena models ({_e(words)}), from <code>tflm_arena.tflm_arena</code>.</p>"
        + _table("tflm-size", head, rows, text_cols=(0, 6))
        + "</section>"
    )


def _boards_section(m: Model) -> str:
    """Every board of the table with stock TFLM's arena on the board's own
    build target: fits or not, and the margin (tflm_arena.boards.fit)."""
    from .boards import boards, fit

    checked = {t["name"]: bool(t["checked"]) for t in _core.tflm_targets()}
    rows: list[list[Any]] = []
    classes: list[str] = []
    for name, b in boards().items():
        try:
            f = fit(m, board=name)
        except (ValueError, NotImplementedError) as e:  # TFLM refusals are ValueErrors
            rows.append([name, b.target, b.ram_bytes, "-", f"not sized: {_one_line(e)}"])
            classes.append("")
            continue
        pl = f.placement
        if f.fits_internal:
            verdict = f"fits, {f.margin:,} bytes left"
        elif pl is not None:  # only with the board's external RAM
            verdict = (
                f"does not fit internal RAM ({-f.margin:,} over); fits as {pl.name}: "
                f"{pl.internal_bytes:,} bytes internal, {pl.external_bytes:,} external"
            )
        else:
            verdict = f"does not fit: {-f.margin:,} over"
        if not checked.get(b.target, False):
            verdict += " (target modelled only, not checked against a real build)"
        rows.append([name, f"{f.arena.target}@{f.arena.version}", b.ram_bytes, f.needed, verdict])
        classes.append("" if f.fits_internal else "over")
    head = ["board", "target", "RAM (bytes)", "kTensorArenaSize", "fits?"]
    return (
        '<section id="boards-section"><h2>Stock TFLM on common boards</h2>'
        '<p class="note">Each board with its own build target (core and kernel library); '
        "RAM is the internal RAM one arena can occupy. Only the tensor arena is counted, "
        "not the application's other RAM use (<code>tflm_arena.boards</code>, "
        "<code>tflm-arena size --board</code>).</p>"
        + _table("boards", head, rows, text_cols=(0, 1, 4), row_classes=classes)
        + "</section>"
    )


def _runtime_section(m: Model) -> str:
    from .interpreter import Interpreter

    title = (
        '<section id="runtime-section"><h2>tflm_arena runtime (not stock TFLM): '
        "allocation categories</h2>"
    )
    try:
        it = Interpreter(m)
        it.allocate_tensors()
        a = it.allocations()
    except (ValueError, RuntimeError, MemoryError, NotImplementedError) as e:
        return (
            title + f'<p class="note" id="runtime">not available: {_e(_one_line(e))}</p></section>'
        )
    rows = [
        [name, c["requested_bytes"], c["used_bytes"], c["count"]]
        for name, c in a["categories"].items()
    ]
    totals = ", ".join(f"{k} {a[k]:,} bytes" for k in ("total", "head", "tail") if k in a)
    return (
        title + '<p class="note">The arena of tflm_arena\'s own interpreter '
        f"(tflm_arena.Interpreter(model).allocations(): {_e(totals)}), in the categories "
        "TFLM's RecordingMicroAllocator uses. These are not stock TFLM's figures: ours "
        "has a smaller tail (no TfLiteTensor copies, allocator objects outside the "
        "arena). For firmware built on stock TFLM use the box at the top.</p>"
        + _table(
            "runtime", ["category", "requested bytes", "used bytes", "count"], rows, text_cols=(0,)
        )
        + "</section>"
    )


def write_report(
    model: ModelLike, path: str | PathLike[str], overwrite: bool = False, **kwargs: Any
) -> Path:
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
