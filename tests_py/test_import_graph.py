"""No import circle among the modules of python/tflm_arena: every
``from . import``/``from .x import``/``import tflm_arena.x`` counts, at module
level, inside functions and under ``TYPE_CHECKING`` alike (a circle hidden
in a function is still a circle). Importing a submodule through its package
(``from . import _core``) is not an edge to the package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "tflm_arena"


def _modules(root: Path) -> dict[str, Path]:
    """Dotted names (package root '') of the .py files under ``root``."""
    out = {}
    for p in root.rglob("*.py"):
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def _imported(module: str, path: Path, modules: dict[str, Path], top: str) -> set[str]:
    """The package's modules ``module`` imports anywhere in its file."""
    package = module.split(".") if module else []
    if path.name != "__init__.py":
        package = package[:-1]
    deps: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names = [target] + [".".join(filter(None, [target, a.name])) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == top:
            target = node.module.partition(".")[2] if node.module else ""
            names = [target] + [".".join(filter(None, [target, a.name])) for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name.partition(".")[2] for a in node.names if a.name.split(".")[0] == top]
        deps |= {n for n in names if n and n in modules and n != module}
    return deps


def import_cycles(root: Path) -> list[list[str]]:
    """Every circle found by a depth-first walk of the import graph."""
    modules = _modules(root)
    edges = {m: sorted(_imported(m, p, modules, root.name)) for m, p in modules.items()}
    state: dict[str, int] = {}
    path: list[str] = []
    cycles: list[list[str]] = []

    def walk(m: str) -> None:
        state[m] = 1
        path.append(m)
        for d in edges[m]:
            if state.get(d) == 1:
                cycles.append(path[path.index(d) :] + [d])
            elif d not in state:
                walk(d)
        path.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            walk(m)
    return cycles


def test_no_import_cycle_in_the_package():
    assert len(_modules(PACKAGE)) > 40  # the walk sees the whole package
    assert import_cycles(PACKAGE) == []


@pytest.mark.parametrize(
    "files, cycle",
    [
        # a function-local import closes the circle
        (
            {"a.py": "from .b import f\n", "b.py": "def f():\n    from . import a\n"},
            ["a", "b", "a"],
        ),
        # a type-only import, and an absolute one, through a subpackage
        (
            {
                "a.py": (
                    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.sub.c\n"
                ),
                "sub/__init__.py": "",
                "sub/c.py": "from ..a import x\n",
            },
            ["a", "sub.c", "a"],
        ),
    ],
)
def test_the_walk_finds_circles(tmp_path, files, cycle):
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "from . import a\n", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    assert import_cycles(root) == [cycle]
