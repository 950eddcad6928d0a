"""tflm_arena.viz draws what the plan says: read back the
artists matplotlib holds (Agg backend, nothing shown) and compare them with
the plan's numbers; the package imports without matplotlib."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tflm_arena as ta
from tflm_arena import viz

try:
    import matplotlib as mpl
except ImportError:  # under CI it is a requirement (.ci/requirements.txt): fail there
    if os.environ.get("CI", "").lower() == "true":
        raise
    pytest.skip("matplotlib is not installed", allow_module_level=True)
mpl.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def vww(models_dir):
    return ta.Model.load(models_dir / "vww_96_int8.tflite")


def _buffers(ax):
    return [
        p
        for p in ax.patches
        if isinstance(p, Rectangle) and (p.get_gid() or "").startswith(viz.GID_BUFFER + ":")
    ]


def _line(ax, gid):
    hits = [ln for ln in ax.lines if ln.get_gid() == gid]
    assert len(hits) == 1, f"expected one line {gid!r}, got {len(hits)}"
    return hits[0]


def _check_rectangles(ax, plan):
    rec, off = plan.records, plan.offsets
    rects = _buffers(ax)
    assert len(rects) == int(np.count_nonzero(rec["size"] > 0))
    assert len(ax.patches) == len(rects)  # nothing else drawn as a patch
    for r in rects:
        i = int(r.get_gid().split(":")[1])
        assert r.get_xy() == (float(rec["first"][i]), float(off[i]))
        assert r.get_width() == float(rec["last"][i] - rec["first"][i] + 1)
        assert r.get_height() == float(rec["size"][i])


def _live_by_hand(plan):
    rec = plan.records
    steps = int(rec["last"].max()) + 1
    return [
        int(
            sum(
                s
                for s, f, l_ in zip(rec["size"], rec["first"], rec["last"], strict=True)
                if f <= t <= l_
            )
        )
        for t in range(steps)
    ]


def test_plan_rectangles_lines_and_peak_match_the_plan(vww):
    p = ta.plan(vww)
    ax = viz.plot_plan(p, model=vww)
    _check_rectangles(ax, p)
    assert _line(ax, viz.GID_LOWER_BOUND).get_ydata()[0] == p.lower_bound
    assert _line(ax, viz.GID_ARENA_TOP).get_ydata()[0] == p.arena_bytes
    live = _live_by_hand(p)
    peak = live.index(max(live))
    assert viz.live_bytes(p).tolist() == live and viz.peak_step(p) == peak
    x = _line(ax, viz.GID_PEAK).get_xdata()[0]
    assert peak <= x < peak + 1  # inside the peak step's column
    # Every buffer drawn is inside the arena top, which is inside the y range.
    top = max(r.get_y() + r.get_height() for r in _buffers(ax))
    assert top <= p.arena_bytes <= ax.get_ylim()[1]
    # The big buffers carry the model's tensor names.
    texts = {t.get_text() for t in ax.texts}
    big = int(np.argmax(p.records["size"]))
    name = vww.tensors[int(p.records["tensor"][big])].name
    assert viz._short(name) in texts


def test_zero_size_buffers_are_not_drawn():
    p = ta.plan([32, 0, 16], first=[0, 1, 1], last=[1, 2, 2])
    ax = p.plot()
    _check_rectangles(ax, p)
    assert len(ax.patches) == 2


def test_empty_plan_draws_nothing_but_its_frame():
    p = ta.plan(np.zeros(0, int), first=np.zeros(0, int), last=np.zeros(0, int))
    ax = p.plot()
    assert len(ax.patches) == 0 and viz.peak_step(p) == -1
    assert [ln.get_gid() for ln in ax.lines] == [viz.GID_LOWER_BOUND, viz.GID_ARENA_TOP]
    assert "<table>" in p._repr_html_()


def test_model_html_names_a_bad_offline_plan_instead_of_raising():
    from tflm_arena.builder import ModelBuilder, offline_plan_metadata

    mb = ModelBuilder()
    a = mb.add_tensor([1, 16], "float32", "a")
    b = mb.add_tensor([1, 16], "float32", "b")
    mb.add_operator("RELU", [a], [b])
    mb.set_io([a], [b])
    mb.add_metadata("OfflineMemoryAllocation", offline_plan_metadata([8, -1]))  # not 16-aligned
    m = ta.Model.from_bytes(mb.build())
    with pytest.raises(ValueError):
        m.offline_plan()
    assert "invalid (" in m._repr_html_()


def test_fixed_buffers_are_hatched():
    p = ta.plan([32, 16], first=[0, 0], last=[1, 1], offline_offsets=[16, -1])
    ax = p.plot()
    hatches = {r.get_gid(): r.get_hatch() for r in _buffers(ax)}
    assert hatches == {"buffer:0": "//", "buffer:1": None}


def test_names_come_from_the_model_or_the_records(vww):
    p = ta.plan(vww)
    plain = viz.buffer_names(p)
    named = viz.buffer_names(p, vww)
    t = int(p.records["tensor"][0])
    assert plain[0] == f"t{t}" and named[0] == vww.tensors[t].name
    assert viz.buffer_names(ta.plan([16], first=[0], last=[0])) == ["#0"]
    ax = viz.plot_plan(p, names=False)
    assert len(ax.texts) == 0


def test_live_bytes_bars_and_peak(vww):
    p = ta.plan(vww)
    ax = viz.plot_live_bytes(p)
    heights = [b.get_height() for b in ax.containers[0]]
    live = _live_by_hand(p)
    assert heights == [float(v) for v in live]
    peak = [b for b in ax.containers[0] if b.get_gid() == viz.GID_PEAK]
    assert len(peak) == 1 and peak[0].get_height() == max(live)
    assert _line(ax, viz.GID_ARENA_TOP).get_ydata()[0] == p.arena_bytes


def test_comparison_shares_the_y_scale(vww):
    greedy, best = ta.plan(vww), ta.plan(vww, strategy="greedy_by_size")
    a, b = viz.plot_comparison(greedy, best, model=vww)
    assert a.get_ylim() == b.get_ylim()
    assert a.get_ylim()[1] >= max(greedy.arena_bytes, best.arena_bytes)
    _check_rectangles(a, greedy)
    _check_rectangles(b, best)
    assert "TFLM greedy" in a.get_title() and "tflm_arena" in b.get_title()
    # Caller's own Axes are drawn on and returned.
    _fig, axes = plt.subplots(1, 2)
    assert viz.plot_comparison(greedy, best, axes) == tuple(axes)


def test_given_axes_is_used_and_returned():
    _fig, ax = plt.subplots()
    p = ta.plan([16, 16], first=[0, 1], last=[0, 1])
    assert viz.plot_plan(p, ax) is ax and p.plot(ax) is ax
    assert viz.plot_live_bytes(p, ax) is ax


def test_figure_svg_is_self_contained(vww):
    ax = ta.plan(vww).plot(model=vww)
    for source in (ax, ax.figure):
        svg = viz.figure_svg(source)
        assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
        assert not re.search(r"href=\"https?:", svg)
        assert "<image" not in svg and "@import" not in svg
        assert svg.count("<path") >= len(_buffers(ax))


def test_plan_and_model_html(vww):
    p = ta.plan(vww)
    h = p._repr_html_()
    assert f"{p.arena_bytes:,}" in h and f"{p.lower_bound:,}" in h
    assert "<svg" in h and not re.search(r"href=\"https?:", h)
    m = vww._repr_html_()
    assert "<table>" in m and f"{vww.total_tensors:,}" in m
    assert vww.tensors[vww.inputs[0]].name in m and "CONV_2D" in m
    # No picture for huge plans (the SVG would be megabytes).
    n = viz.HTML_SVG_MAX_BUFFERS + 1
    big = ta.plan(np.full(n, 16), first=np.zeros(n, int), last=np.zeros(n, int))
    assert "<svg" not in big._repr_html_()


def test_interpreter_plot_memory_draws_the_head_plan(vww):
    it = ta.Interpreter(vww)
    ax = it.plot_memory()
    mp = it.memory_plan()
    rects = sorted(_buffers(ax), key=lambda r: int(r.get_gid().split(":")[1]))
    assert len(rects) == int(np.count_nonzero(mp["size"] > 0))
    for r, row in zip(rects, mp[mp["size"] > 0], strict=True):
        assert r.get_xy() == (float(row["first"]), float(row["offset"]))
        assert r.get_height() == float(row["size"])
    top = _line(ax, viz.GID_ARENA_TOP).get_ydata()[0]
    assert top == int((mp["offset"] + mp["size"]).max()) <= it.allocations()["head"]


def test_viz_doctests_run(models_dir, monkeypatch):
    monkeypatch.chdir(models_dir)  # model_html's example reads hello_world_int8.tflite
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    ran = 0
    for test in finder.find(viz, globs=dict(vars(viz))):
        runner.run(test)
        ran += len(test.examples)
    assert runner.summarize(verbose=False).failed == 0 and ran >= 15


_BLOCKED = textwrap.dedent("""
    import sys
    sys.modules["matplotlib"] = None  # import matplotlib now raises ImportError
    import tflm_arena as ta
    assert "matplotlib" not in [m for m in sys.modules if sys.modules[m] is not None]
    p = ta.plan([16], first=[0], last=[0])
    assert "pip install matplotlib" in p._repr_html_()  # text, no picture
    for call in (p.plot, lambda: ta.viz.plot_live_bytes(p),
                 lambda: ta.viz.plot_comparison(p, p), lambda: ta.viz.figure_svg(None)):
        try:
            call()
        except ImportError as e:
            assert "pip install matplotlib" in str(e), e
        else:
            raise SystemExit("no ImportError")
    print("ok")
""")


def test_package_imports_without_matplotlib():
    r = subprocess.run(
        [sys.executable, "-c", _BLOCKED],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_importing_the_package_does_not_import_matplotlib():
    code = (
        "import sys, tflm_arena; print(any(m.split('.')[0] == 'matplotlib' for m in sys.modules))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


@pytest.mark.parametrize(
    "top, unit", [(4_000, "B"), (73_728, "kB"), (3_005_680, "kB"), (48_000_000, "MB")]
)
@pytest.mark.no_asan  # time goes to matplotlib's drawing; ta.plan of two buffers is trivial
def test_byte_axes_in_units_without_offset_text(top, unit):
    """Byte axes say B / kB / MB in their label, ticks are plain numbers of
    that unit with separators (no "1e6" offset text), steps are integers."""
    import matplotlib

    matplotlib.use("Agg")
    p = ta.plan([top // 2, top - top // 2], first=[0, 1], last=[1, 2000])
    scale = {"B": 1, "kB": 1000, "MB": 1_000_000}[unit]
    for ax in (viz.plot_plan(p), viz.plot_live_bytes(p), *viz.plot_comparison(p, p)):
        ax.figure.canvas.draw()
        assert ax.get_ylabel().endswith(f"({unit})"), ax.get_ylabel()
        for axis in (ax.yaxis, ax.xaxis):
            assert axis.get_offset_text().get_text() == ""
        ticks = [v for v in ax.get_yticks() if 0 <= v <= ax.get_ylim()[1]]
        fmt = ax.yaxis.get_major_formatter()  # (the right plot of a pair hides its labels)
        assert len(ticks) >= 3
        for v in ticks:
            text = fmt(v)
            assert "e" not in text and float(text.replace(",", "")) == pytest.approx(v / scale)
        xlabels = [ax.xaxis.get_major_formatter()(v) for v in ax.get_xticks()]
        assert "2,000" in xlabels or "1,000" in xlabels, xlabels  # steps with separators
        matplotlib.pyplot.close(ax.figure)
