"""The strategy registry of the C++ core (its list in plan/strategy_list.h,
its table in plan/strategies.cc): every Python list of names and the CLI
read it and docs/reference.md points to it; "greedy" is the deprecated name
of the "tflm_greedy" planner."""

from __future__ import annotations

import argparse
import re
import warnings
from pathlib import Path
from typing import get_args

import pytest
from conftest import _models_dir

import tflm_arena as ta
from tflm_arena import _core, cli
from tflm_arena._plan import STRATEGY_TABLE, Strategy

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "docs" / "reference.md"
STRATEGY_LIST = REPO / "cpp" / "tflm_arena" / "plan" / "strategy_list.h"


def test_table_fields():
    kinds = {"runtime_planner", "offsets", "shared_objects", "search"}
    for s in _core.strategies():
        assert set(s) == {
            "name",
            "kind",
            "description",
            "tried_by_best",
            "fixed_offsets",
            "objects_name",
        }
        assert s["kind"] in kinds and s["description"]
        assert (s["objects_name"] is not None) == (s["kind"] == "shared_objects")
        if s["objects_name"] is not None:
            assert s["name"] == s["objects_name"] + "_objects"
    assert [s["name"] for s in _core.strategies()] == [s["name"] for s in STRATEGY_TABLE]
    # ta.strategies() is the registry, as copies (a caller cannot edit it).
    rows = ta.strategies()
    assert rows == _core.strategies()
    rows[0]["name"] = "edited"
    assert ta.strategies()[0]["name"] == "tflm_greedy"


def test_python_lists_are_the_registry():
    assert tuple(s["name"] for s in _core.strategies()) == ta.STRATEGIES
    assert ta.STRATEGIES[0] == "tflm_greedy" and ta.STRATEGIES[-2:] == ("optimal", "best")
    assert ta.BEST_STRATEGIES[0] == "tflm_greedy" and ta.BEST_STRATEGIES[-1] == "optimal"
    assert not {"tflm_greedy_runtime", "linear", "best"} & set(ta.BEST_STRATEGIES)
    # best tries every GPU-delegate planner except the three whose plan can
    # never win (the same as an earlier entry's, or the sum of all sizes).
    gpu = {n for n in ta.STRATEGIES if n.endswith("_objects")} | {
        "greedy_by_size",
        "greedy_by_breadth",
    }
    never_win = {"naive_objects", "greedy_by_breadth_objects", "greedy_best_objects"}
    assert gpu - set(ta.BEST_STRATEGIES) == never_win
    assert tuple(n for n in ta.STRATEGIES if n in ta.BEST_STRATEGIES) == ta.BEST_STRATEGIES
    assert ta.OBJECT_STRATEGIES == (
        "naive",
        "equality",
        "greedy_in_order",
        "greedy_by_breadth",
        "greedy_by_size",
        "greedy_best",
        "mincostflow",
    )
    assert ta.RUNTIME_PLANNERS == ("tflm_greedy", "linear") == ta.tflm_size.PLANNERS
    assert get_args(Strategy) == ta.STRATEGIES


def test_fixed_offsets_flag_matches_behaviour():
    rec = dict(sizes=[32, 16, 16], first=[0, 1, 0], last=[1, 2, 2], offline_offsets=[64, -1, -1])
    for s in STRATEGY_TABLE:
        if s["fixed_offsets"]:
            assert ta.plan(**rec, strategy=s["name"]).offsets[0] == 64
        else:
            with pytest.raises((ValueError, NotImplementedError)):
                ta.plan(**rec, strategy=s["name"])


def test_unknown_names_list_the_registry():
    with pytest.raises(ValueError, match="known: tflm_greedy, tflm_greedy_runtime, linear, "):
        _core.plan([16], [0], [0], [-1], "nope")
    with pytest.raises(ValueError, match="search with its own options"):
        _core.plan([16], [0], [0], [-1], "optimal")
    with pytest.raises(ValueError, match="known: naive, equality, "):
        _core.assign_objects([16], [0], [0], [-1], "naive_objects")


def test_cli_choices_and_help_read_the_registry():
    parser = cli._parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    plan_cmd = sub.choices["plan"]
    opt = next(a for a in plan_cmd._actions if a.dest == "strategy")
    assert tuple(opt.choices) == ta.STRATEGIES
    assert all(n in opt.help for n in ta.STRATEGIES)
    size_cmd = sub.choices["size"]
    opt = next(a for a in size_cmd._actions if a.dest == "planner")
    assert opt.default == "tflm_greedy" and tuple(opt.choices) == ta.RUNTIME_PLANNERS + ("greedy",)


def _registry_entries() -> list[tuple[str, str]]:
    """(name, description) of every entry of the C++ list, in its order."""
    text = STRATEGY_LIST.read_text()
    body = text[text.index("#define TFLM_ARENA_STRATEGIES") : text.index("/* end of the list */")]
    entries = re.split(r"\b(?:RUNTIME|OFFSETS|OBJECTS|SEARCH)\(", body)[1:]
    out = []
    for entry in entries:
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', entry)
        out.append((strings[0], "".join(strings[1:])))
    return out


def test_every_list_entry_reaches_python():
    entries = _registry_entries()
    assert len(entries) == len(ta.STRATEGIES) >= 14
    assert [(s["name"], s["description"]) for s in STRATEGY_TABLE] == entries


def test_reference_doc_points_to_the_registry():
    text = REFERENCE.read_text()
    section = text[text.index("### Planning raw buffers") :]
    section = section[: section.index("\n### ")]
    assert "`ta.strategies()`" in section and "`tflm-arena strategies`" in section
    assert "cpp/tflm_arena/plan/strategy_list.h" in section
    assert "| strategy |" not in section  # no hand-kept copy of the list
    groups = section[section.index("The\ngroups:") : section.index("The GPU-delegate strategies")]
    named = set(re.findall(r"`([a-z_]+)`", groups))
    assert {"tflm_greedy", "linear", "optimal", "best"} <= named
    # every other name it quotes is a registry name (none stale)
    assert named - set(ta.STRATEGIES) == {"preserve_all_tensors", "alignment", "strategy"}


def test_greedy_planner_name_is_deprecated_not_gone():
    model = _models_dir() / "hello_world_int8.tflite"
    new = ta.tflm_arena(model, target="x86-64", planner="tflm_greedy")
    assert new.planner == "tflm_greedy" and new.as_dict()["planner"] == "tflm_greedy"
    with pytest.warns(DeprecationWarning, match="use planner='tflm_greedy'"):
        old = ta.tflm_arena(model, target="x86-64", planner="greedy")
    assert old.as_dict() == new.as_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ta.tflm_arena(model, target="x86-64").planner == "tflm_greedy"
    with pytest.raises(ValueError, match="known: tflm_greedy, linear"):
        ta.tflm_arena(model, target="x86-64", planner="greedy_by_size")


def test_cli_size_planner_names(capsys):
    import io
    import json

    model = str(_models_dir() / "hello_world_int8.tflite")
    out = io.StringIO()
    assert cli.main(["size", model, "--target", "x86-64", "--json"], out=out) == 0
    new = json.loads(out.getvalue())
    out = io.StringIO()
    assert (
        cli.main(["size", model, "--target", "x86-64", "--planner", "greedy", "--json"], out=out)
        == 0
    )
    assert "--planner greedy is deprecated; use --planner tflm_greedy" in capsys.readouterr().err
    assert json.loads(out.getvalue()) == new
    text = json.dumps(new)
    assert '"planner": "tflm_greedy"' in text and '"min_arena_bytes": 1704' in text
