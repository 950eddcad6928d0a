"""The shipped type stubs must list exactly what the extension exports."""

from __future__ import annotations

import ast
from pathlib import Path

import tflm_arena
from tflm_arena import _core


def test_core_stub_names_match_extension():
    stub = Path(tflm_arena.__file__).with_name("_core.pyi")
    tree = ast.parse(stub.read_text())
    stub_names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stub_names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stub_names.add(node.target.id)
    runtime = {n for n in dir(_core) if not n.startswith("_")} | {"__version__"}
    assert stub_names == runtime


def test_py_typed_marker_is_shipped():
    assert Path(tflm_arena.__file__).with_name("py.typed").exists()
