"""The README's CLI synopsis names every option of every command, and only
options the command has (the parser is the one source; the synopsis is
checked against it)."""

from __future__ import annotations

import re
from pathlib import Path

from tflm_arena.cli import _parser

README = Path(__file__).resolve().parent.parent / "README.md"


def _synopsis() -> dict[str, set[str]]:
    """command -> the options its synopsis lines name (continuation lines,
    indented, belong to the command above)."""
    text = README.read_text()
    block = text[text.index("CLI (`tflm-arena COMMAND --help`") :]
    block = block[block.index("```sh") : block.index("```", block.index("```sh") + 5)]
    out: dict[str, set[str]] = {}
    command = ""
    for line in block.splitlines()[1:]:
        if line.startswith("tflm-arena "):
            command = line.split()[1]
        if command:
            out.setdefault(command, set()).update(re.findall(r"(?<![\w-])-{1,2}[a-z][\w-]*", line))
    return out


def _options() -> dict[str, set[str]]:
    ap = _parser()
    sub = next(a for a in ap._actions if a.choices and isinstance(a.choices, dict))
    out = {}
    for name, p in sub.choices.items():
        flags = {o for a in p._actions for o in a.option_strings if o not in ("-h", "--help")}
        # one spelling per option: the short one when the synopsis uses it (-o)
        out[name] = {
            min(a.option_strings, key=len)
            if "-o" in a.option_strings
            else max(a.option_strings, key=len)
            for a in p._actions
            if a.option_strings and "-h" not in a.option_strings
        }
        assert out[name] <= flags
    return out


def test_synopsis_names_every_option_of_every_command():
    got, want = _synopsis(), _options()
    got.pop("demo", None)
    assert sorted(got) == sorted(c for c in want if c != "demo")
    for command, options in want.items():
        if command == "demo":
            continue
        assert got[command] == options, command
