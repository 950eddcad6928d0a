"""ta.rewrite at the API level, without the real TFLM: the trade-off table,
its rows and plot say what the choices hold, bad tilings and models the
rewrite refuses are ValueErrors naming why, a model with nothing to tile
comes back unchanged, and the result is never worse than the original on
any shared model (stock TFLM's figures, the default target)."""

from __future__ import annotations

import pytest
from conftest import model_params

import tflm_arena as ta
from tflm_arena import _sample_models
from tflm_arena.builder import ModelBuilder
from tflm_arena.rewrite import PLANNED_TILINGS, Rewrite, TilingChoice

#: A few tilings: the full search (up to 10 x 10 at every cut) takes
#: seconds on the larger shared models.
FEW_TILES = [(2, 1), (4, 1), (2, 2)]


@pytest.fixture(scope="module")
def small_cnn() -> bytes:
    """MobileNetV2 at 64 x 64 (int8, random weights): a tileable first
    stage, small enough to search quickly."""
    return _sample_models.mobilenet_v2("int8", resolution=64, alpha=0.35, num_classes=10)


@pytest.fixture(scope="module")
def searched(small_cnn) -> Rewrite:
    return ta.rewrite(small_cnn, tiles=FEW_TILES, plan=False)


def test_public_names():
    assert ta.rewrite is ta.rewrite  # exported
    assert "rewrite" in ta.__all__ and "Rewrite" in ta.__all__ and "TilingChoice" in ta.__all__
    assert ta.Rewrite is Rewrite and ta.TilingChoice is TilingChoice


def test_rows_hold_the_original_first_then_every_tiling_by_total(searched):
    r = searched
    rows = r.rows()
    o = r.original
    assert rows[0]["label"] == "original" and rows[0]["length"] == 0
    assert (rows[0]["head"], rows[0]["tail"], rows[0]["total"]) == (o.head, o.tail, o.total)
    assert rows[0]["macs_pct"] == 0.0 and rows[0]["file_delta"] == 0
    ok = [c for c in r.choices if not c.error]
    assert len(rows) == 1 + len(ok)
    # every shape tried at every cut of the stage
    assert {(c.length, c.rows, c.cols) for c in r.choices} == {
        (n, a, b) for n in r.cuts for a, b in FEW_TILES
    }
    totals = [row["total"] for row in rows[1:]]
    assert totals == sorted(totals)  # plan=False: best_total is total
    for row in rows[1:]:
        c = next(
            c for c in ok if (c.length, c.rows, c.cols) == (row["length"], row["rows"], row["cols"])
        )
        assert row["head"] + row["tail"] <= row["total"]
        assert row["operators"] > o.operators  # slices, pads and a concatenation added
        assert row["macs"] >= o.macs  # halos recompute, never fewer MACs
        assert row["macs_pct"] == pytest.approx(100.0 * (c.macs / o.macs - 1.0))
        assert row["file_delta"] == c.file_bytes - o.file_bytes
        assert row["planned_total"] is None
    assert sum(row["written"] for row in rows) == 1


def test_head_and_tail_add_up_to_total_on_the_original(searched):
    o = searched.original
    assert o.head > 0 and o.tail > 0 and o.total >= o.head + o.tail
    assert o.macs > 0 and o.file_bytes > 0 and o.operators > 10


def test_table_says_whose_figures_and_marks_what_was_written(searched):
    r = searched
    text = r.table()
    lines = text.splitlines()
    assert lines[0].startswith(f"stock TFLM, target {r.target}")
    assert lines[2].startswith("original") and f"{r.original.total:,}" in lines[2]
    assert text.endswith(r.reason)
    starred = [ln for ln in lines if ln.endswith(" *")]
    assert len(starred) == 1 and starred[0].startswith(r.chosen.label)
    assert f"{r.chosen.total:,}" in starred[0]
    short = r.table(limit=1).splitlines()
    assert len([ln for ln in short if "tiles," in ln]) == 1
    assert any(ln.startswith("... ") and "more tilings" in ln for ln in short)


def test_chosen_is_the_smallest_and_the_reason_says_so(searched, small_cnn):
    r = searched
    ok = [c for c in r.choices if not c.error]
    best = min(ok, key=lambda c: c.total)
    if best.total < r.original.total:
        assert r.written == "tiled" and r.chosen.total == best.total
        assert r.min_arena == best.total
        assert r.reason.startswith(f"written: the first {r.chosen.length} operators")
        assert f"{r.chosen.total:,} bytes instead of {r.original.total:,}" in r.reason
        assert len(r.model.data) == r.chosen.file_bytes
        assert len(r.model.subgraphs[0].operators) == r.chosen.operators
    else:
        assert r.written == "unchanged" and r.chosen == r.original
        assert r.model.data == small_cnn
        assert r.reason.startswith("no tiling beats the original")


def test_plot_draws_one_line_per_cut_and_the_original(searched):
    """One line per stage length; the legend names the 6 lengths reaching
    the smallest arenas and puts the rest under one entry, so it fits."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    r = searched
    ax = r.plot()
    try:
        ok = [c for c in r.choices if not c.error]
        lengths = sorted({c.length for c in ok})

        def curve(n):
            xs = sorted({c.rows * c.cols for c in ok if c.length == n})
            return xs, [
                min(c.total for c in ok if c.length == n and c.rows * c.cols == x) for x in xs
            ]

        drawn = [
            ([int(x) for x in ln.get_xdata()], [int(y) for y in ln.get_ydata()]) for ln in ax.lines
        ]
        for n in lengths:
            assert curve(n) in drawn, n
        best = sorted(lengths, key=lambda n: min(curve(n)[1]))[:6]
        labels = [ln.get_label() for ln in ax.lines]
        for n in best:
            assert f"{n} ops tiled" in labels
        assert f"original {r.original.total:,} B" in labels
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert len(legend) <= 6 + 4
        if len(lengths) > 6:
            assert f"{len(lengths) - 6} other stage lengths" in legend
        assert r.target in ax.get_ylabel()
    finally:
        plt.close(ax.figure)


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        ((0, 1), "tiles must be at least 1 x 1, got 0 x 1"),
        ((1, -2), "tiles must be at least 1 x 1, got 1 x -2"),
        ((1000, 1), "cannot tile this model so: "),
    ],
)
def test_tilings_that_do_not_fit_are_value_errors(small_cnn, tiles, message):
    with pytest.raises(ValueError, match=message):
        ta.rewrite(small_cnn, tiles=tiles, plan=False)


def test_a_length_that_is_not_a_cut_is_a_value_error(small_cnn, searched):
    bad = next(n for n in range(1, 100) if n not in searched.cuts)
    with pytest.raises(ValueError, match=f"{bad}"):
        ta.rewrite(small_cnn, tiles=(2, 1), length=bad, plan=False)
    with pytest.raises(ValueError, match="length must be >= 1"):
        ta.rewrite(small_cnn, length=0, plan=False)


def test_a_forced_length_and_tiling_is_the_only_one_tried(small_cnn, searched):
    n = searched.cuts[0]
    r = ta.rewrite(small_cnn, tiles=(2, 2), length=n, plan=False)
    assert [(c.length, c.rows, c.cols) for c in r.choices] == [(n, 2, 2)]


def test_unknown_target_is_a_value_error(small_cnn):
    with pytest.raises(ValueError, match="unknown target 'nope'"):
        ta.rewrite(small_cnn, target="nope", plan=False)


def _control_flow_model() -> bytes:
    mb = ModelBuilder()
    body = mb.add_subgraph("then")
    x = mb.add_tensor([1, 8, 8, 1], "INT8", name="x")
    y = mb.add_tensor([1, 8, 8, 1], "INT8", name="y")
    mb.add_operator(
        "IF", [x, x], [y], options={"then_subgraph_index": body, "else_subgraph_index": body}
    )
    mb.set_io([x], [y])
    a = mb.add_tensor([1, 8, 8, 1], "INT8", name="a", subgraph=body)
    mb.set_io([a], [a], subgraph=body)
    return mb.build()


def test_refused_models_are_value_errors_naming_why(models_dir, small_cnn):
    planned = ta.Model.from_bytes(small_cnn)
    with pytest.warns(UserWarning, match="head larger"):
        planned = planned.with_offline_plan(planned.plan("linear"), allow_larger_head=True)
    with pytest.raises(ValueError, match=r"cannot rewrite this model: .*OfflineMemoryAllocation"):
        ta.rewrite(planned, plan=False)
    try:
        cf = _control_flow_model()
    except Exception as e:  # the builder's own checks: say so rather than skip silently
        pytest.fail(f"could not build the control-flow model: {e}")
    with pytest.raises(ValueError, match=r"cannot rewrite this model: .*control flow"):
        ta.rewrite(cf, plan=False)


def test_a_model_without_an_image_input_comes_back_unchanged_naming_why(models_dir):
    # hello_world's input is [1, 1]: no image stage to tile.
    path = models_dir / "hello_world_int8.tflite"
    r = ta.rewrite(path, plan=False)
    assert r.written == "unchanged" and r.choices == () and r.stage == ()
    assert r.model.data == ta.Model.load(path).data
    assert "the model input: tensor 0 is not [1, H, W, C]" in r.end_reason
    assert "nothing to tile (the model input" in r.reason


def test_when_no_tiling_helps_the_model_comes_back_unchanged(models_dir):
    # kws_ref_model: a small first stage; every tiling's extra operators
    # cost more of TFLM's persistent tail than the tiles save.
    path = models_dir / "kws_ref_model.tflite"
    original = ta.Model.load(path)
    r = ta.rewrite(path, plan=False)
    assert r.choices and all(c.best_total >= r.original.total for c in r.choices if not c.error)
    assert r.written == "unchanged" and r.model.data == original.data
    assert r.chosen == r.original
    assert r.min_arena == r.original.total == ta.tflm_arena(original).min_arena_bytes
    assert r.reason.startswith(f"no tiling beats the original ({r.original.total:,} bytes on ")
    assert r.reason.endswith("the model is written unchanged")


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_never_worse_than_the_original(model_path):
    try:
        r = ta.rewrite(model_path, tiles=FEW_TILES, plan=False)
    except ValueError as e:  # refused: the message says why
        assert str(e).startswith(("cannot rewrite this model: ", "cannot tile this model so: "))
        return
    total = ta.tflm_arena(ta.Model.load(model_path), target=r.target).min_arena_bytes
    assert r.original.total == total
    assert r.min_arena <= total
    assert ta.tflm_arena(r.model, target=r.target).min_arena_bytes == r.min_arena
    if r.written == "unchanged":
        assert r.model.data == ta.Model.load(model_path).data


def test_plan_adds_our_offline_plan_to_the_best_tilings(small_cnn):
    r = ta.rewrite(small_cnn, tiles=FEW_TILES, plan=True, time_limit=0.2)
    assert r.original.planned_total is not None
    planned = [c for c in r.choices if c.planned_total is not None]
    assert 1 <= len(planned) <= PLANNED_TILINGS
    assert r.min_arena == min([r.original.best_total] + [c.best_total for c in planned])
    assert ta.tflm_arena(r.model, target=r.target).min_arena_bytes == r.min_arena


def test_repr_is_one_short_line_of_figures(searched):
    text = repr(searched)
    assert "\n" not in text and len(text) < 200
    assert f"min_arena {searched.original.best_total} -> {searched.min_arena}" in text
    assert f"target={searched.target!r}" in text
