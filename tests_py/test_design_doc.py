"""docs/DESIGN.md stays true to the build: its layer diagram has exactly the
CMake DEPS of cpp/tflm_arena/*/sources.cmake (read by
docs/make_design_figure.py, which also draws docs/design_layers.png), the
dependencies are one way, every #include in cpp/tflm_arena stays inside
what its library depends on (violations are listed in DESIGN.md's "Known
include violations"), and the document names only files that exist."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "DESIGN.md"
SRC = REPO / "cpp" / "tflm_arena"
sys.path.insert(0, str(REPO / "docs"))
import make_design_figure as fig  # noqa: E402  (docs/make_design_figure.py)

_EDGE = re.compile(r"(\w+) \[(runtime|host)\] ──► ([\w, ]+?)\s*(?:\(|│|$)", re.M)
_INCLUDE = re.compile(r'^\s*#\s*include\s+"tflm_arena/([^"]+)"', re.M)


def _doc() -> str:
    return DOC.read_text()


def _layer_diagram() -> str:
    blocks = re.findall(r"```text\n(.*?)```", _doc().split("## Layers", 1)[1], re.S)
    return next(b for b in blocks if "──►" in b)


def _diagram_edges():
    """{short name: (kind, set of short deps)} as drawn in DESIGN.md."""
    out = {}
    for name, kind, deps in _EDGE.findall(_layer_diagram()):
        assert name not in out, f"{name} drawn twice"
        out[name] = (
            kind,
            set() if deps.strip() == "nothing" else {d.strip() for d in deps.split(",")},
        )
    return out


@pytest.fixture(scope="module")
def libs():
    return fig.cmake_libraries()


def _reach(libs, name):
    seen, todo = {name}, [name]
    while todo:
        for d in libs.get(todo.pop(), {"deps": []})["deps"]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def test_cmake_reader_finds_every_library_and_source(libs):
    # Every library call in the CMake files is read, and every .cc under
    # cpp/tflm_arena belongs to exactly one library (else the include check
    # below would judge files it cannot place).
    text = "\n".join(p.read_text() for p in SRC.rglob("sources.cmake"))
    declared = set(re.findall(r"^tflm_arena_(?:runtime|host)_library\((\w+)", text, re.M))
    assert declared == set(libs) and len(libs) >= 6
    owners = {}
    for name, lib in libs.items():
        for s in lib["sources"]:
            owners.setdefault(s, []).append(name)
    every_cc = {p.resolve() for p in SRC.rglob("*.cc")}
    assert {p: o for p, o in owners.items() if len(o) != 1} == {}
    assert sorted(map(str, every_cc - set(owners))) == []


def test_diagram_edges_and_kinds_equal_cmake_deps(libs):
    drawn = _diagram_edges()
    bindings = drawn.pop("_core")
    assert bindings == ("host", {"every library"})
    built = {
        fig.short(n): (lib["kind"], {fig.short(d) for d in lib["deps"]}) for n, lib in libs.items()
    }
    assert drawn == built


def test_bindings_link_every_library():
    # The diagram's "_core ──► every library": each library call appends
    # itself to TFLM_ARENA_ALL_LIBS, which the pybind11 module links.
    cmake = (REPO / "CMakeLists.txt").read_text()
    assert "set(TFLM_ARENA_ALL_LIBS ${TFLM_ARENA_ALL_LIBS} ${name} PARENT_SCOPE)" in cmake
    assert "target_link_libraries(_core PRIVATE ${TFLM_ARENA_ALL_LIBS})" in cmake
    assert re.search(r"_core \[host\] ──► every library", _layer_diagram())


def test_dependencies_are_one_way(libs):
    levels = fig.depth(libs)  # raises ValueError on a library cycle
    assert levels["tflm_arena_core"] == 0
    for name, lib in libs.items():
        assert all(levels[d] < levels[name] for d in lib["deps"])
    # Folders too: no layer reaches back into a layer that reaches it.
    layer_of = {n: lib["layer"] for n, lib in libs.items()}
    layer_deps = {}
    for n, lib in libs.items():
        for d in lib["deps"]:
            if d in layer_of and layer_of[d] != layer_of[n]:
                layer_deps.setdefault(layer_of[n], set()).add(layer_of[d])
    as_libs = {k: {"deps": sorted(v)} for k, v in layer_deps.items()}
    fig.depth(as_libs)
    assert layer_deps["runtime"] >= {"model", "plan", "arena"}
    assert "runtime" not in set().union(*layer_deps.values()) - {"runtime"}


def test_model_uses_only_core(libs):
    # DESIGN.md: model/ uses only core/ (and flatbuffers' headers); plan/
    # reorders the plain graph model/ builds, never the other way round.
    for name, lib in libs.items():
        if lib["layer"] == "model":
            reach = {libs[d]["layer"] for d in _reach(libs, name) - {name} if d in libs}
            assert reach <= {"model", "core"}, (name, reach)
    assert "`model/` uses only `core/`" in " ".join(_doc().split())


def test_cycle_is_reported():
    with pytest.raises(ValueError, match="cycle: a -> b -> a"):
        fig.depth({"a": {"deps": ["b"]}, "b": {"deps": ["a"]}})


def _owners(libs, path: Path):
    """Libraries a file belongs to: a .cc its library; a header the
    libraries of <stem>.cc and <stem>_*.cc (those without a header of their
    own); a header with no source every library of its folder."""
    path = path.resolve()
    by_source = {s: n for n, lib in libs.items() for s in lib["sources"]}
    if path.suffix == ".cc":
        return {by_source[path]} if path in by_source else set()
    found = set()
    for cc in path.parent.glob(path.stem + "*.cc"):
        cc = cc.resolve()
        own = cc.stem == path.stem or (
            cc.stem.startswith(path.stem + "_") and not cc.with_suffix(".h").exists()
        )
        if own and cc in by_source:
            found.add(by_source[cc])
    if not found:
        layer = path.relative_to(SRC.resolve()).parts[0]
        found = {n for n, lib in libs.items() if lib["layer"] == layer}
    return found


def include_violations(libs, extra=()):
    """(file, header) pairs, relative to cpp/tflm_arena, where no library of
    the file depends (itself or through DEPS) on a library of the header.
    `extra` adds (file, header) includes to judge as if written."""
    pairs = []
    for p in sorted(SRC.rglob("*")):
        if p.suffix in (".h", ".cc"):
            rel = p.relative_to(SRC).as_posix()
            pairs += [(rel, h) for h in _INCLUDE.findall(p.read_text())]
    out = []
    for rel, header in [*pairs, *extra]:
        # flatc writes tflite_subset_generated.h into the build tree.
        assert (SRC / header).is_file() or header.endswith("_generated.h"), header
        mine, theirs = _owners(libs, SRC / rel), _owners(libs, SRC / header)
        if not any(t in _reach(libs, m) for m in mine for t in theirs):
            out.append((rel, header))
    return out


def _documented_violations():
    section = _doc().split("### Known include violations", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^- `([^`]+)` includes `([^`]+)`", section, re.M)


def test_includes_follow_cmake_deps(libs):
    found = include_violations(libs)
    assert found == _documented_violations(), (
        "#include crossing a layer against its DEPS; list it in DESIGN.md "
        "'Known include violations' as - `file` includes `header`:\n"
        + "\n".join(f"- `{f}` includes `{h}`" for f, h in found)
    )


def test_include_check_catches_crossings(libs):
    bad = [
        ("model/model.cc", "plan/plan.h"),  # model does not link plan
        ("runtime/interpreter.cc", "tflm/kernel_table.h"),  # nor runtime tflm
        ("model/lifetimes.cc", "model/operator_graph.h"),  # runtime lib -> model_host
        ("model/operator_order_writer.cc", "plan/reorder.h"),  # model_host does not link plan
        ("model/operator_graph.cc", "plan/plan.h"),
        ("plan/greedy_planner.cc", "plan/reorder.h"),
    ]  # plan_runtime -> plan
    fine = [
        ("runtime/interpreter.cc", "model/model.h"),
        ("tflm/kernel_table.cc", "plan/plan.h"),
        ("runtime/kernels/add.cc", "runtime/kernels/add.h"),
    ]
    assert include_violations(libs, bad + fine)[-len(bad) :] == bad
    assert not set(include_violations(libs, fine)) & set(fine)


def test_doc_names_only_files_in_the_repository():
    doc = _doc()
    paths = set(
        re.findall(
            r"`((?:docs|cpp|python|tests_py|tests_cpp|benchmarks|fuzz|"
            r"notebooks)/[^`\s]*|README\.md|CMakeLists\.txt)`",
            doc,
        )
    )
    assert len(paths) > 20
    missing = []
    for p in paths:
        p = p.split(" ")[0]
        if "{" in p:  # tests_cpp/{arena,plan,runtime}/noheap_test.cc
            head, rest = p.split("{", 1)
            alts, tail = rest.split("}", 1)
            missing += [
                head + a + tail for a in alts.split(",") if not (REPO / (head + a + tail)).exists()
            ]
        elif "<" not in p and not (REPO / p).exists():
            missing.append(p)
    assert missing == []
    assert (REPO / "docs" / "design_layers.png").is_file()
    for ref in ("docs/DESIGN.md",):
        assert ref in (REPO / "README.md").read_text()
        assert ref in (REPO / "CMakeLists.txt").read_text()


def test_doc_cites_no_fact_ids_issues_or_outside_files():
    doc = _doc()
    assert not re.search(r"\b[A-Z]{1,2}-\d+\b", doc)  # fact IDs
    assert not re.search(r"(?i)\bissue\s*#?\d+|#\d+\b|tflm_fact[s]", doc)
    assert "../" not in doc and not re.search(r"/w[o]rk/", doc)  # no machine paths


def test_figure_script_draws_from_cmake(tmp_path, libs):
    pytest.importorskip("matplotlib")
    out = tmp_path / "layers.png"
    fig.main(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000
