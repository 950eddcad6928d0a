"""``tflm-arena strategies``: the registry (plan/strategies.cc) as a table
and as JSON, every row and description as the C++ core gives them."""

from __future__ import annotations

import io
import json

from tflm_arena import _core
from tflm_arena.cli import main


def _run(*argv: str) -> str:
    out = io.StringIO()
    assert main(["strategies", *argv], out=out) == 0
    return out.getvalue()


def test_json_is_the_registry():
    rows = json.loads(_run("--json"))
    assert rows == _core.strategies()
    assert len(rows) >= 10 and rows[0]["name"] == "tflm_greedy"


def test_table_has_one_row_per_strategy_with_its_description():
    lines = _run().splitlines()
    assert lines[0].split() == ["strategy", "kind", "best", "fixed", "description"]
    registry = _core.strategies()
    assert len(lines) == 1 + len(registry)
    for line, s in zip(lines[1:], registry, strict=True):
        name, kind, best, fixed, description = line.split(maxsplit=4)
        assert (name, kind) == (s["name"], s["kind"])
        assert best == ("yes" if s["tried_by_best"] else "-")
        assert fixed == ("yes" if s["fixed_offsets"] else "-")
        assert description == s["description"]


def test_help_lists_the_command(capsys):
    assert main(["--help"]) == 0
    assert "strategies" in capsys.readouterr().out
    assert main(["strategies", "--help"]) == 0
    assert "--json" in capsys.readouterr().out
    assert main(["strategies", "extra"]) == 2
