"""Draws docs/design_layers.png, DESIGN.md's picture of the C++ libraries and
their dependencies. The edges are read from the CMake files that build the
libraries (the ``DEPS`` of every ``tflm_arena_runtime_library`` /
``tflm_arena_host_library`` call in cpp/tflm_arena/*/sources.cmake and the
files they include), so the picture is redrawn true from the build.
tests_py/test_design_doc.py uses the same reader to check DESIGN.md's ASCII
diagram. Run from anywhere: python docs/make_design_figure.py"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "cpp" / "tflm_arena"
# The layers in CMakeLists.txt's order: its `foreach(layer ...)` that
# includes every cpp/tflm_arena/<layer>/sources.cmake (one list, read here).
LAYERS = tuple(
    re.search(
        r"^foreach\(layer ([\w ]+)\)\n\s*include\(\$\{TFLM_ARENA_SRC\}",
        (ROOT / "CMakeLists.txt").read_text(),
        re.M,
    )
    .group(1)
    .split()
)
PREFIX = "tflm_arena_"
_COMMAND = re.compile(r"\b([A-Za-z_]\w*)\s*\(([^()]*)\)", re.S)
_VAR = re.compile(r"\$\{(\w+)\}")


def short(name: str) -> str:
    """A library's name without the common prefix: tflm_arena_plan -> plan."""
    return name[len(PREFIX) :] if name.startswith(PREFIX) else name


def _tokens(args: str) -> list:
    return [t.strip('"') for t in args.split()]


def _expand(tokens, variables):
    out = []
    for t in tokens:
        names = _VAR.findall(t)
        if len(names) == 1 and t == "${" + names[0] + "}":
            out.extend(variables.get(names[0], [t]))  # a list variable
        else:
            out.append(_VAR.sub(lambda m: (variables.get(m.group(1)) or [m.group(0)])[0], t))
    return out


def _read(path: Path, variables: dict, libraries: dict, layer: str) -> None:
    text = "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())
    for command, args in _COMMAND.findall(text):
        command, tokens = command.lower(), _expand(_tokens(args), variables)
        if command == "set" and tokens:
            variables[tokens[0]] = tokens[1:]
        elif command == "file" and tokens[:1] == ["GLOB"]:
            patterns = [t for t in tokens[2:] if t != "CONFIGURE_DEPENDS"]
            variables[tokens[1]] = sorted(
                str(p) for pat in patterns for p in Path(pat).parent.glob(Path(pat).name)
            )
        elif command == "list" and tokens[:1] == ["REMOVE_ITEM"]:
            variables[tokens[1]] = [t for t in variables.get(tokens[1], []) if t not in tokens[2:]]
        elif command == "include" and tokens and tokens[0].endswith("sources.cmake"):
            _read(Path(tokens[0]), variables, libraries, layer)
        elif command in ("tflm_arena_runtime_library", "tflm_arena_host_library"):
            name, section, parts = tokens[0], None, {"SOURCES": [], "DEPS": []}
            for t in tokens[1:]:
                if t in parts:
                    section = t
                elif section:
                    parts[section].append(t)
            libraries[name] = {
                "kind": "runtime" if command == "tflm_arena_runtime_library" else "host",
                "layer": layer,
                "deps": parts["DEPS"],
                "sources": [Path(s).resolve() for s in parts["SOURCES"] if Path(s).is_file()],
            }


def cmake_libraries(root: Path = ROOT) -> dict:
    """Every C++ library CMake builds from cpp/tflm_arena, by full target name:
    {"kind": "runtime" | "host", "layer": folder, "deps": [targets],
    "sources": [paths]}, read from each layer's sources.cmake (and the
    sources.cmake files it includes) as CMakeLists.txt includes them.

    >>> libs = cmake_libraries()
    >>> libs["tflm_arena_core"]["kind"], libs["tflm_arena_core"]["deps"]
    ('runtime', [])
    """
    src = root / "cpp" / "tflm_arena"
    variables = {"TFLM_ARENA_SRC": [str(src)]}
    libraries: dict = {}
    for layer in LAYERS:
        path = src / layer / "sources.cmake"
        if path.is_file():
            _read(path, variables, libraries, layer)
    return libraries


def depth(libraries: dict) -> dict:
    """Longest dependency chain below each library (core: 0); raises
    ValueError on a cycle."""
    memo: dict = {}

    def visit(name, stack):
        if name in stack:
            raise ValueError("dependency cycle: " + " -> ".join(stack + (name,)))
        if name not in memo:
            deps = libraries.get(name, {"deps": []})["deps"]
            memo[name] = 1 + max((visit(d, stack + (name,)) for d in deps), default=-1)
        return memo[name]

    for name in libraries:
        visit(name, ())
    return memo


DEFAULT_OUT = Path(__file__).resolve().parent / "design_layers.png"


def main(out: Path = DEFAULT_OUT) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    libs = cmake_libraries()
    level = depth(libs)
    nodes = sorted(
        level, key=lambda n: (level[n], LAYERS.index(libs[n]["layer"]) if n in libs else -1, n)
    )
    rows: dict = {}
    for n in nodes:
        rows.setdefault(level[n], []).append(n)
    top = max(rows) + 1
    pos = {}

    def place(lv):
        names = rows[lv]
        for i, n in enumerate(names):
            pos[n] = (5.0 + (i - (len(names) - 1) / 2) * 10.0 / max(len(names), 3), lv * 1.3)

    # Fewer crossings: order each row by the mean x of what it links to
    # (bottom up), then by the mean x of its users (top down).
    dependents = {n: [m for m in libs if n in libs[m]["deps"]] for n in level}
    for lv in sorted(rows):
        if lv:
            rows[lv].sort(
                key=lambda n: sum(pos[d][0] for d in libs[n]["deps"]) / len(libs[n]["deps"])
            )
        place(lv)
    for lv in sorted(rows, reverse=True)[1:]:
        rows[lv].sort(
            key=lambda n: (
                sum(pos[u][0] for u in dependents[n]) / max(len(dependents[n]), 1)
                if dependents[n]
                else pos[n][0]
            )
        )
        place(lv)
    pos["_core"] = (5.0, top * 1.3)

    colours = {"runtime": "#cfe8cf", "host": "#f7dcb4", None: "#e4e4e4"}
    fig, ax = plt.subplots(figsize=(10, 6.4))
    edges = [(n, d) for n in libs for d in libs[n]["deps"]]
    for a, b in edges:
        (x0, y0), (x1, y1) = pos[a], pos[b]
        ax.annotate(
            "",
            xy=(x1, y1 + 0.22),
            xytext=(x0, y0 - 0.22),
            arrowprops=dict(
                arrowstyle="-|>",
                color="#555",
                lw=1,
                shrinkA=0,
                shrinkB=0,
                connectionstyle="arc3,rad=0.06",
            ),
        )
    ax.annotate(
        "",
        xy=(5.0, (top - 1) * 1.3 + 0.45),
        xytext=(5.0, top * 1.3 - 0.22),
        arrowprops=dict(arrowstyle="-|>", color="#555", lw=1.6, ls="--"),
    )
    for n, (x, y) in pos.items():
        lib = libs.get(n)
        kind = lib["kind"] if lib else None
        label = short(n) if n != "_core" else "_core (cpp/bindings, pybind11): links every library"
        if lib:
            label += f"\n{lib['layer']}/ · {kind}"
        elif n != "_core":
            label += "\n(external headers)"
        w = 0.36 + 0.085 * max(len(s) for s in label.split("\n"))
        ax.add_patch(
            FancyBboxPatch(
                (x - w / 2, y - 0.22),
                w,
                0.44,
                boxstyle="round,pad=0.02",
                fc=colours[kind],
                ec="#333",
            )
        )
        ax.text(x, y, label, ha="center", va="center", fontsize=8)
    ax.text(
        0.0,
        -0.75,
        "green: runtime library (-fno-exceptions -fno-rtti, no heap after "
        "construction)   orange: host library (standard library)   "
        "arrow: CMake DEPS (A -> B: A links B)",
        fontsize=7.5,
    )
    ax.set_xlim(-0.4, 10.4)
    ax.set_ylim(-1.0, top * 1.3 + 0.5)
    ax.axis("off")
    ax.set_title(
        "tflm_arena C++ libraries, dependencies as in cpp/tflm_arena/*/sources.cmake", fontsize=10
    )
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    print(out, len(libs), "libraries,", len(edges), "edges")


if __name__ == "__main__":
    main()
