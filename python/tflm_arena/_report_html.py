"""HTML building blocks of the report (report.py and its section modules):
escaping, wrapping, byte figures, tables and inline figures.

>>> _table("t", ["a"], [[1234]])
'<table id="t"><thead><tr><th>a</th></tr></thead><tbody><tr><td>1,234</td></tr></tbody></table>'
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

import numpy as np


def _e(value: Any) -> str:
    """Any value as escaped HTML text (quotes too: values end up in attributes)."""
    return html.escape(str(value), quote=True)


def _wrappable(text: str) -> str:
    """Escaped text that may wrap after / _ - . and spaces (``<wbr>``), so a
    long file name breaks between its words, not inside one."""
    return "<wbr>".join(_e(part) for part in re.split(r"(?<=[/_\-.])", text))


def _nowrap(text: str) -> str:
    """Escaped text whose hyphenated words (x86-64, tflite-micro) never
    break at their hyphen."""
    return " ".join(
        f'<span class="nw">{_e(w)}</span>' if "-" in w else _e(w) for w in text.split(" ")
    )


def _n(value: Any) -> str:
    """A byte figure with thousands separators (other values unchanged)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return f"{int(value):,}"
    return "" if value is None else str(value)


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f} %" if whole else "-"


def _table(
    table_id: str,
    head: Sequence[str],
    rows: Sequence[Sequence[Any]],
    text_cols: Sequence[int] = (),
    row_classes: Sequence[str] | None = None,
) -> str:
    """A <table>: header cells, one <tr> per row in <tbody>; every cell
    escaped, integers with thousands separators."""
    out = [f'<table id="{table_id}"><thead><tr>']
    out += [f"<th>{_e(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cls = row_classes[i] if row_classes and row_classes[i] else ""
        out.append(f'<tr class="{cls}">' if cls else "<tr>")
        for j, cell in enumerate(row):
            attr = ' class="text"' if j in text_cols else ""
            out.append(f"<td{attr}>{_e(_n(cell))}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


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
