"""The report's graph-rewrite section (:func:`tflm_arena.rewrite`): the
trade-off table, the plot and the reason, on a few tilings so the report
stays quick."""

from __future__ import annotations

from typing import Any

from ._report_html import _e, _figure, _nowrap, _table
from .model import Model

#: The tilings the rewrite section tries at every cut of the stage (the full
#: search of :func:`tflm_arena.rewrite`, up to 10 x 10, takes seconds on a
#: large model; the report stays quick).
REPORT_REWRITE_TILES: tuple[tuple[int, int], ...] = (
    (2, 1),
    (3, 1),
    (4, 1),
    (2, 2),
    (6, 1),
    (8, 1),
    (3, 3),
    (4, 4),
)


#: Tilings the rewrite table shows (the smallest first, after the original).
REPORT_REWRITE_ROWS = 12


def report_rewrite(m: Model, target: str, time_limit: float) -> tuple[Any, str]:
    """(the rewrite's result, "") on the report's tilings, or (None, why
    the rewrite refuses the model)."""
    from .rewrite import rewrite

    try:
        r = rewrite(
            m,
            target=target,
            tiles=REPORT_REWRITE_TILES,
            plan=True,
            time_limit=min(time_limit, 0.25),
        )
    except (ValueError, NotImplementedError) as e:
        return None, str(e)
    return r, ""


def rewrite_section(r: Any, refused: str, target: str) -> str:
    """Below the lower bound: the first stage in spatial tiles (``r``, from
    :func:`report_rewrite`), stock TFLM's whole arena on ``target`` for the
    original and each tiling, the plot and the reason; one line saying why
    for a model the rewrite refuses (``refused``)."""
    title = (
        '<section id="rewrite-section"><h2>Below the lower bound: graph rewrite '
        f"(stock TFLM, {_nowrap(target)})</h2>"
    )
    if r is None:
        return (
            title
            + f'<p class="note" id="rewrite-refused">not rewritten: {_e(refused)}</p></section>'
        )
    if not r.choices:  # no stage to tile: the reason alone, no table or plot
        return title + f'<p class="note" id="rewrite-reason">{_e(r.reason)}</p></section>'
    rows: list[list[Any]] = []
    classes: list[str] = []
    all_rows = r.rows()
    shown = all_rows[: REPORT_REWRITE_ROWS + 1]
    for row in shown:
        rows.append(
            [
                row["label"],
                row["head"],
                row["tail"],
                row["total"],
                "-" if row["planned_total"] is None else row["planned_total"],
                f"{row['macs_pct']:+.1f} %",
                f"{row['file_delta']:+,}",
                row["operators"],
                "written" if row["written"] else "",
            ]
        )
        classes.append("best" if row["written"] else "")
    head = [
        "tiling",
        "head",
        "tail",
        "total",
        "planned (our offline plan)",
        "MACs +%",
        "flash +bytes",
        "operators",
        "written",
    ]
    from . import viz

    return (
        title + '<p class="note">No plan can go below the most bytes live at one step; '
        "rewriting the first, high-resolution stage into spatial tiles of stock operators "
        "(outputs bit-identical) can. Figures in bytes are stock TFLM's whole arena "
        f"(head + tail) on {_e(target)}, with its own planner and, in <em>planned</em>, with "
        "our optimal offline plan written; tilings tried: "
        f"{_e(', '.join(f'{a}x{b}' for a, b in REPORT_REWRITE_TILES))} "
        "(<code>tflm_arena.rewrite</code>, <code>tflm-arena optimize --rewrite</code> "
        "searches more).</p>"
        + _table("rewrite", head, rows, text_cols=(0, 5, 6, 8), row_classes=classes)
        + (
            f'<p class="note">{len(all_rows) - len(shown)} more tilings, none smaller '
            "(<code>tflm_arena.rewrite(model).table(limit=None)</code>).</p>"
            if len(all_rows) > len(shown)
            else ""
        )
        + f'<p class="note" id="rewrite-reason">{_e(r.reason)}</p><figure>'
        + _figure(viz.plot_rewrite(r))
        + "</figure></section>"
    )
