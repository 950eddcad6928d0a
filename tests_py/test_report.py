"""The HTML report: the first screen answers (kTensorArenaSize per target,
the saving of a written plan, equal to ta.tflm_arena and ta.optimize),
structure and values equal the API's, byte figures with separators, untrusted
names escaped, the CLI's conventions, and a real browser (headless Chromium)
that draws the plot and the tables and shows the answer above the fold."""

from __future__ import annotations

import html as html_lib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO

import tflm_arena as ta
from tflm_arena._report_rewrite import report_rewrite
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli import _parser, main
from tflm_arena.report import REPORT_DEFAULT_TARGETS
from tflm_arena.tflm_size import DEFAULT_TARGET, TARGETS

#: The targets in the order the report lists them by default.
REPORT_TARGETS = list(REPORT_DEFAULT_TARGETS)


def _size_rows(chosen: list[str]) -> list[str]:
    """The per-target table's targets: the chosen ones, then every other."""
    named = {t.split("@")[0] for t in chosen}
    return chosen + [t for t in ta.TARGETS if t not in named]


HOSTILE = "<script>alert(1)</script>"
HOSTILE_OP = '<img src=x onerror="alert(2)">'
OUTPUT_DIR = REPO / "build" / "test-output"
UNDER_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(autouse=True)
def _need_matplotlib():
    try:
        import matplotlib
    except ImportError:
        if UNDER_CI:
            pytest.fail("matplotlib is missing under CI (the report's plots need it)")
        pytest.skip("matplotlib is not installed (the report's plots need it)")
    import matplotlib

    matplotlib.use("Agg")


# --- reading the page -------------------------------------------------------


class Page(HTMLParser):
    """Ids, start-tag counts, and every table's body rows as cell texts."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: dict[str, str] = {}  # id -> tag
        self.tags: dict[str, int] = {}
        self.tables: dict[str, list[list[str]]] = {}
        self.heads: dict[str, list[str]] = {}
        self.texts: list[str] = []
        self._table: str | None = None
        self._in_body = False
        self._cell: list[str] | None = None
        self._svg = 0
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        if tag == "svg":
            self._svg += 1
        # The page's own ids are unique; matplotlib's inside the SVGs (glyphs,
        # clip paths, viz's per-buffer groups) are not ours to check.
        if "id" in a and not self._svg:
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids[a["id"]] = tag
        if tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table], self.heads[self._table] = [], []
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "svg":
            self._svg -= 1
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell)
            if tag == "th":
                self.heads[self._table].append(text)
            else:
                self.tables[self._table][-1].append(text)
            self._cell = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        self.texts.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _column(page: Page, table: str, head: str) -> list[str]:
    k = page.heads[table].index(head)
    return [row[k] for row in page.tables[table]]


def _int(cell: str) -> int:
    """A byte figure as the page shows it (thousands separators) as int."""
    assert re.fullmatch(r"\d{1,3}(,\d{3})*", cell), f"not a separated number: {cell!r}"
    return int(cell.replace(",", ""))


def _by_id(text: str, element_id: str) -> str:
    """The text of the element with this id (no nested elements of its tag)."""
    m = re.search(rf'<(\w+)[^>]* id="{re.escape(element_id)}"[^>]*>(.*?)</\1>', text, flags=re.S)
    assert m, f"no element with id {element_id}"
    return html_lib.unescape(re.sub(r"<[^>]+>", "", m.group(2)))


def _hostile_model() -> bytes:
    """Names no page may run: in a tensor, a custom operator, the description."""
    mb = ModelBuilder(description=HOSTILE + ' & "quoted" -->')
    a = mb.add_tensor([1, 4], "float32", HOSTILE)
    b = mb.add_tensor([1, 4], "float32", 'b"><b>bold</b> & -->')
    y = mb.add_tensor([1, 4], "float32", "y")
    z = mb.add_tensor([1, 4], "float32", "z")
    mb.add_operator("ADD", [a, b], [y])
    mb.add_operator("CUSTOM", [y], [z], custom_code=HOSTILE_OP)
    mb.set_io([a, b], [z])
    return mb.build()


# --- structure and values ---------------------------------------------------


@pytest.mark.parametrize("name", ["hello_world_int8", "keyword_scrambled"])
def test_report_tables_equal_the_api(models_dir, name):
    path = models_dir / f"{name}.tflite"
    page = Page(ta.report_html(path, time_limit=0.2))
    m = ta.Model.load(path)
    for i in (
        "title",
        "headline",
        "summary",
        "plan-plot",
        "live-bytes",
        "tensors",
        "operators",
        "strategies",
        "tflm-size",
        "runtime-section",
        "runtime",
    ):
        assert i in page.ids, i
    assert page.ids["tensors"] == "table" and page.ids["plan-plot"] == "section"
    assert str(path) in "".join(page.texts)
    assert f"{len(m.data):,} bytes" in "".join(page.texts)

    # Tensors: one row per tensor of every subgraph, values as the API has them.
    rows = page.tables["tensors"]
    assert len(rows) == m.total_tensors == sum(len(sg.tensors) for sg in m.subgraphs)
    every = [t for sg in m.subgraphs for t in sg.tensors]
    assert _column(page, "tensors", "name") == [t.name for t in every]
    assert _column(page, "tensors", "type") == [t.type for t in every]
    assert _column(page, "tensors", "bytes") == [
        "-" if t.bytes is None else f"{t.bytes:,}" for t in every
    ]
    assert _column(page, "tensors", "shape") == [str(list(t.shape)) for t in every]
    rec = m.usage_records()
    greedy = m.plan("tflm_greedy")
    # The plan holds the tensors' records first, then the kernel scratch's.
    assert greedy.records["tensor"][: len(rec)].tolist() == rec["tensor"].tolist()
    want = {
        (int(r["subgraph"]), int(r["tensor"])): (str(r["first"]), str(r["last"]), f"{o:,}")
        for r, o in zip(rec, greedy.offsets[: len(rec)], strict=True)
        if r["tensor"] >= 0
    }
    got = {(int(r[0]), int(r[1])): (r[6], r[7], r[8]) for r in rows if r[6] != ""}
    assert got == want and len(want) == len(rec)

    # Operators, in order, every subgraph.
    ops = [o for sg in m.subgraphs for o in sg.operators]
    assert len(page.tables["operators"]) == len(ops) > 0
    assert _column(page, "operators", "name") == [o.name for o in ops]
    assert _column(page, "operators", "inputs") == [str(list(o.inputs)) for o in ops]

    # Strategies: every name of the package's one list, arena equal to plan().
    strategies = page.tables["strategies"]
    assert [r[0] for r in strategies] == list(ta.STRATEGIES)
    for r in strategies:
        if r[0] in ("optimal", "best"):  # searches: never worse than TFLM's greedy
            assert _int(r[1]) <= greedy.arena_bytes
            continue
        try:
            assert _int(r[1]) == m.plan(r[0]).arena_bytes, r
        except ValueError:
            assert r[1] == "" and r[5].startswith("refused: ")
        assert (_int(r[2]) if r[2] else greedy.lower_bound) == greedy.lower_bound
    best = min(_int(r[1]) for r in strategies if r[1])
    # A second offset column only when a plan beats TFLM's own.
    extra = page.heads["tensors"][9:]
    assert extra == ([] if best == greedy.arena_bytes else [extra[0]])

    # Stock TFLM per target: every target the API supports, its numbers.
    size = page.tables["tflm-size"]
    assert [r[0] for r in size] == _size_rows(REPORT_TARGETS) and len(size) == len(ta.TARGETS)
    for r in size:
        a = ta.tflm_arena(m, target=r[0])
        assert tuple(_int(c) for c in r[1:6]) == (
            a.min_arena_bytes,
            a.min_arena_bytes_16,
            a.head,
            a.tail,
            a.temp_peak,
        )

    # Our runtime's categories: the Interpreter's allocations() table.
    cats = ta.Interpreter(m).allocations()["categories"]
    assert [r[0] for r in page.tables["runtime"]] == list(cats)
    assert [(_int(r[1]), _int(r[2]), _int(r[3])) for r in page.tables["runtime"]] == [
        (c["requested_bytes"], c["used_bytes"], c["count"]) for c in cats.values()
    ]
    assert best <= greedy.arena_bytes


def _headline_expected(m, target, time_limit):
    """What the headline must show for one target, from the API."""
    a = ta.tflm_arena(m, target=target)
    o = ta.optimize(m, target=target, time_limit=time_limit)
    w = ta.tflm_arena(o.model, target=target)
    return a, o, w


@pytest.mark.parametrize("name", ["vww_96_int8", "person_detect", "keyword_scrambled"])
def test_headline_equals_tflm_arena_and_optimize(models_dir, name):
    """The box at the top: per target the firmware line of ta.tflm_arena, and
    stock TFLM's head and minimum arena with optimize's best plan written
    (or that TFLM's own plan is already the smallest), each labelled."""
    path = models_dir / f"{name}.tflite"
    text = ta.report_html(path, strategies=["tflm_greedy"], time_limit=0.5)
    page = Page(text)
    m = ta.Model.load(path)
    assert text.index('id="headline"') < text.index('id="summary"') < text.index('id="plan-plot"')
    for t in REPORT_TARGETS:
        a, o, w = _headline_expected(m, t, 0.5)
        assert _by_id(text, f"arena-line-{t}") == a.firmware_line()
        whose = _by_id(text, f"answer-{t}")
        assert whose.startswith(f"stock TFLM, {t} (")  # the target in words
        assert ("32-bit ARM" in whose) == (t == "cortex-m")
        table = f"headline-{t}"
        assert page.heads[table][0] == f"stock TFLM, {t}"
        rows = {r[0]: r[1:] for r in page.tables[table]}
        assert _int(rows["kTensorArenaSize (bytes)"][0]) == a.min_arena_bytes_16
        assert _int(rows["exact minimum arena (bytes)"][0]) == a.min_arena_bytes
        assert _int(rows["head: activations + scratch (bytes)"][0]) == a.head
        note = _by_id(text, f"plan-note-{t}")
        # The first target's box gives the smallest model written for it: the
        # graph rewrite of the section below when that beats every plan.
        rw = report_rewrite(m, t, 0.5)[0] if t == REPORT_TARGETS[0] else None
        plan_min = w.min_arena_bytes if o.improved else a.min_arena_bytes
        if rw is not None and rw.written == "tiled" and rw.min_arena < plan_min:
            rw_arena = ta.tflm_arena(rw.model, target=t)
            assert page.heads[table][-2:] == ["graph rewrite written", "saving"]
            assert _int(rows["kTensorArenaSize (bytes)"][-2]) == rw_arena.min_arena_bytes_16
            assert _int(rows["exact minimum arena (bytes)"][-2]) == rw_arena.min_arena_bytes
            assert note.startswith("Smallest model written: the graph rewrite")
            assert f"{rw_arena.min_arena_bytes:,} bytes instead of {a.min_arena_bytes:,}" in note
            assert _by_id(text, f"planned-line-{t}") == rw_arena.firmware_line()
            continue
        if o.improved:
            assert page.heads[table][1:] == ["model as it is", "best plan written", "saving"]
            assert o.head == w.head  # optimize's prediction is the written model's head
            assert _int(rows["kTensorArenaSize (bytes)"][1]) == w.min_arena_bytes_16
            assert _int(rows["exact minimum arena (bytes)"][1]) == w.min_arena_bytes
            assert _int(rows["head: activations + scratch (bytes)"][1]) == o.head
            saved = a.min_arena_bytes - w.min_arena_bytes
            assert rows["exact minimum arena (bytes)"][2] == (
                f"{saved:,} ({100 * saved / a.min_arena_bytes:.1f} %)"
            )
            saved = a.head - o.head
            assert rows["head: activations + scratch (bytes)"][2] == (
                f"{saved:,} ({100 * saved / a.head:.1f} %)"
            )
            assert note.startswith(f"Best plan: {o.best.strategy}")
            assert _by_id(text, f"planned-line-{t}") == w.firmware_line()
        else:
            assert page.heads[table][1:] == ["model as it is"]
            assert note.startswith("TFLM's own plan is already the smallest found")
            assert f"{a.head:,} bytes, {t}" in note
    if name == "person_detect":  # no plan helps; the rewrite does, and the box says so
        first = REPORT_TARGETS[0]
        assert _by_id(text, f"plan-note-{first}").startswith(
            "Smallest model written: the graph rewrite"
        )
    if name == "vww_96_int8":  # the case the report was made for: a plan saves
        assert all(_headline_expected(m, t, 0.5)[1].improved for t in REPORT_TARGETS)
    if name == "keyword_scrambled":  # TFLM's head already equals the lower bound
        assert not any(_headline_expected(m, t, 0.5)[1].improved for t in REPORT_TARGETS)


def test_byte_figures_have_thousands_separators(models_dir):
    """Every byte figure of vww_96_int8 (most are above 999) in the summary
    and the tables is written with separators."""
    path = models_dir / "vww_96_int8.tflite"
    text = ta.report_html(path, strategies=["tflm_greedy", "optimal"], time_limit=0.5)
    page = Page(text)
    cells = []
    for t in REPORT_TARGETS:
        cells += [c for r in page.tables[f"headline-{t}"] for c in r[1:3]]
    cells += [c for r in page.tables["tflm-size"] for c in r[1:6]]
    cells += [c for r in page.tables["strategies"] for c in r[1:3]]
    cells += [c for r in page.tables["runtime"] for c in r[1:3]]
    cells += [
        c
        for c in _column(page, "tensors", "bytes")
        + _column(page, "tensors", "offset (tflm_greedy)")
        if c not in ("", "-")
    ]
    values = [_int(c) for c in cells]  # each matches d{1,3}(,ddd)*
    assert sum(v >= 1000 for v in values) > 40
    summary = _by_id(text, "summary")
    assert "55,296 bytes" in summary and "73,728 bytes" in summary  # m.plan()'s, checked above
    assert not re.search(r"\d{4}", re.sub(r"MLIR Converted\.", "", summary))


def test_tables_are_collapsed_and_our_runtime_has_its_own_section(models_dir):
    text = ta.report_html(models_dir / "hello_world_int8.tflite", strategies=["tflm_greedy"])
    # The long tables sit in closed <details> (no "open" attribute).
    for table in ("tensors", "operators"):
        m = re.search(rf'<details id="{table}-details">(.*?)</details>', text, flags=re.S)
        assert m and f'<table id="{table}">' in m.group(1), table
    assert "<details open" not in text
    # Our runtime's figures: their own section, titled as ours, after stock
    # TFLM's table and not right under it, under no other TFLM heading.
    heads = re.findall(r'<section id="([\w-]+)"><h2>(.*?)</h2>', text)
    order = [i for i, _h in heads]
    assert order[-1] == "runtime-section"
    assert order.index("runtime-section") > order.index("tflm-size-section") + 1
    title = dict(heads)["runtime-section"]
    assert title.startswith("tflm_arena runtime (not stock TFLM)")
    runtime = text[text.index('<section id="runtime-section">') :]
    assert runtime.count("<h2>") == 1 and '<table id="runtime">' in runtime
    size = text[text.index('<section id="tflm-size-section">') :]
    size = size[: size.index("</section>")]
    assert 'id="runtime"' not in size


def test_report_best_column_is_the_smallest_plan(models_dir):
    path = models_dir / "person_detect.tflite"
    page = Page(
        ta.report_html(
            path, strategies=["tflm_greedy", "greedy_by_size", "linear"], targets=["x86-64"]
        )
    )
    m = ta.Model.load(path)
    by_size, greedy = m.plan("greedy_by_size"), m.plan("tflm_greedy")
    assert [r[0] for r in page.tables["strategies"]] == ["tflm_greedy", "greedy_by_size", "linear"]
    assert [r[0] for r in page.tables["tflm-size"]] == _size_rows(["x86-64"])
    # Whichever is smaller is shown (ties: TFLM's own greedy).
    best = by_size if by_size.arena_bytes < greedy.arena_bytes else greedy
    col = f"offset ({best.strategy})"
    rec = m.usage_records()
    # The plan holds the tensors' records first, then the kernel scratch's.
    assert best.records["tensor"][: len(rec)].tolist() == rec["tensor"].tolist()
    offsets = {
        int(r["tensor"]): f"{o:,}" for r, o in zip(rec, best.offsets[: len(rec)], strict=True)
    }
    got = {
        int(r[1]): r[page.heads["tensors"].index(col)] for r in page.tables["tensors"] if r[6] != ""
    }
    assert got == offsets
    highlighted = [r for r in page.tables["strategies"] if _int(r[1]) == best.arena_bytes]
    assert highlighted


def test_untrusted_names_are_escaped():
    data = _hostile_model()
    text = ta.report_html(data, strategies=["tflm_greedy", "linear"])
    page = Page(text)
    # The browser-visible page holds no element the model named: no script,
    # no img, no b, in the page or inside the SVG.
    assert "script" not in page.tags and "img" not in page.tags and "b" not in page.tags
    assert HOSTILE not in text and "<b>bold" not in text and "<img" not in text
    # ... and the names are shown as text, exactly.
    assert _column(page, "tensors", "name")[:2] == [HOSTILE, 'b"><b>bold</b> & -->']
    assert _column(page, "operators", "name") == ["ADD", HOSTILE_OP]
    assert any(HOSTILE + ' & "quoted" -->' in t for t in page.texts)  # the description
    # Comments in the SVG (matplotlib names its text in them) stay closed.
    for comment in re.findall(r"<!--(.*?)-->", text, flags=re.S):
        assert "<script" not in comment and "--" not in comment.strip("-"), comment
    # A custom operator stock TFLM and our runtime have no kernel for:
    # TFLM's refusal, said for every target, not fatal.
    assert [r[0] for r in page.tables["tflm-size"]] == _size_rows(REPORT_TARGETS)
    for r in page.tables["tflm-size"]:
        assert r[1] == "" and r[6].startswith(
            "not computed: TflmRefusesModelError: stock TFLM refuses the model at every arena "
            "size: "
            f"custom operator '{HOSTILE_OP}'"
        ), r
    # ... and the headline says so for every target, with the error's message.
    for t in REPORT_TARGETS:
        assert f"arena-line-{t}" not in page.ids
        assert _by_id(text, f"refused-{t}").startswith(
            "not computed: TflmRefusesModelError: stock TFLM refuses the model at every arena "
            "size: "
            f"custom operator '{HOSTILE_OP}'"
        )
    assert page.ids["runtime"] == "p" and "runtime" not in page.tables
    assert any(t.startswith("not available: NotImplementedError: no kernel") for t in page.texts)


def test_page_is_self_contained(models_dir):
    text = ta.report_html(models_dir / "hello_world_int8.tflite", strategies=["tflm_greedy"])
    assert text.startswith("<!DOCTYPE html>")
    # Only XML namespace names may look like URLs; nothing is fetched.
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+[^\s\"'<>)]*", text))
    assert urls <= {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
        "http://purl.org/dc/elements/1.1/",
        "http://creativecommons.org/ns#",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    }, urls
    assert not re.search(r"<(script|link|img|iframe|object|embed)\b", text, flags=re.I)
    assert "@import" not in text and "url(" not in text.replace("url(#", "")
    assert text.count("<svg") == 2


# --- write_report and the CLI -------------------------------------------------


def test_unknown_target_names_the_known_ones(models_dir, tmp_path):
    # The same check and wording as every other function taking a target.
    path = models_dir / "hello_world_int8.tflite"
    known = ", ".join(TARGETS)
    with pytest.raises(ValueError) as e:
        ta.report_html(path, strategies=["linear"], targets=[DEFAULT_TARGET, "arm"])
    assert str(e.value) == f"unknown target 'arm' (known: {known})"
    with pytest.raises(ValueError, match=r"unknown target 'arm' \(known: "):
        ta.write_report(path, tmp_path / "r.html", targets=["arm"])
    assert not (tmp_path / "r.html").exists()


def test_write_report_refuses_to_overwrite(models_dir, tmp_path):
    path = models_dir / "hello_world_int8.tflite"
    out = tmp_path / "r.html"
    assert ta.write_report(path, out, strategies=["linear"]) == out
    first = out.read_bytes()
    assert first.startswith(b"<!DOCTYPE html>")
    with pytest.raises(FileExistsError, match=r"r\.html exists"):
        ta.write_report(path, out, strategies=["tflm_greedy"])
    assert out.read_bytes() == first
    ta.write_report(path, out, overwrite=True, strategies=["tflm_greedy"])
    assert out.read_bytes() != first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]  # no temp files left


def run(argv):
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_cli_report_writes_refuses_and_overwrites(models_dir, tmp_path, capsys):
    model = models_dir / "micro_speech_quantized.tflite"
    before = model.read_bytes()
    out = tmp_path / "report.html"
    code, text = run(
        [
            "report",
            str(model),
            "-o",
            str(out),
            "--strategy",
            "tflm_greedy",
            "--strategy",
            "greedy_by_size",
            "--target",
            "cortex-m",
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert text.startswith(f"wrote {out}: report on {model}")
    page = Page(out.read_text(encoding="utf-8"))
    assert [r[0] for r in page.tables["strategies"]] == ["tflm_greedy", "greedy_by_size"]
    assert [r[0] for r in page.tables["tflm-size"]] == _size_rows(["cortex-m"])
    assert "arena-line-cortex-m" in page.ids and "arena-line-x86-64" not in page.ids
    written = out.read_bytes()

    # An existing OUTPUT is an error (exit 1, one line) unless --overwrite.
    capsys.readouterr()
    code, _ = run(["report", str(model), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1 and err == f"tflm-arena: error: {out} exists; pass --overwrite to replace it\n"
    assert out.read_bytes() == written
    code, _ = run(["report", str(model), "-o", str(out), "--overwrite", "--strategy", "linear"])
    assert code == 0 and out.read_bytes() != written
    assert [r[0] for r in Page(out.read_text()).tables["strategies"]] == ["linear"]

    # Never over the model itself, even with --overwrite.
    code, _ = run(["report", str(model), "-o", str(model), "--overwrite"])
    assert code == 1 and "refusing to write over the source model" in capsys.readouterr().err
    assert model.read_bytes() == before

    # Usage errors: exit 2.
    assert (
        run(["report", str(model), "-o", str(tmp_path / "x.html"), "--strategy", "nonsense"])[0]
        == 2
    )
    assert run(["report", str(model)])[0] == 2  # -o is required
    assert not (tmp_path / "x.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_cli_report_help_describes_every_option():
    sub = next(a for a in _parser()._actions if a.dest == "command").choices["report"]
    for action in sub._actions:
        assert action.help and "``" not in action.help, action.dest
    text = sub.format_help()
    for opt in (
        "-o OUTPUT, --output OUTPUT",
        "--overwrite",
        "--strategy STRATEGY",
        "--target",
        "--time-limit S",
    ):
        assert opt in text, opt


# --- a real browser -------------------------------------------------------------


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    if UNDER_CI:
        pytest.fail("chromium is missing under CI (apt-get install chromium; .ci/install.sh)")
    pytest.skip("chromium is not installed (apt-get install chromium) for the browser test")


def _browser(args: list[str], profile: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    cmd = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        f"--user-data-dir={profile}",
        *args,
    ]
    # Not the sanitizer preload of an ASan run of this suite (.ci/test.sh):
    # Chromium is not instrumented and exits at once with libasan preloaded.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")
    }
    try:
        return subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, env={**env, "HOME": str(profile)}
        )
    except subprocess.TimeoutExpired:  # e.g. an alert() dialog waits for a click forever
        pytest.fail(f"chromium did not finish in {timeout} s (a script dialog on the page?)")


def read_png(path: Path) -> np.ndarray:
    """An 8-bit RGB or RGBA PNG as an (h, w, channels) uint8 array (no deps:
    zlib and the five PNG row filters)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, color, _c, _f, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    ch = 3 if color == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8)
    raw = raw.reshape(h, 1 + w * ch)
    out = np.zeros((h, w * ch), dtype=np.uint8)
    prev = np.zeros(w * ch, dtype=np.int32)
    for y in range(h):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if f == 0:  # none
            cur = line
        elif f == 1:  # sub: a running sum per channel along the row
            cur = (np.cumsum(line.reshape(w, ch), axis=0) & 0xFF).reshape(-1)
        elif f == 2:  # up
            cur = (line + prev) & 0xFF
        else:  # average, Paeth: sequential along the row (slow, rare in Chromium's)
            cur = _average_or_paeth(int(f), line.tolist(), prev.tolist(), ch)
        out[y] = cur
        prev = cur
    return out.reshape(h, w, ch)[:, :, :3]


def _average_or_paeth(f: int, line: list[int], prev: list[int], ch: int) -> np.ndarray:
    cur = [0] * len(line)
    for x, v in enumerate(line):
        a = cur[x - ch] if x >= ch else 0
        b = prev[x]
        if f == 3:
            pred = (a + b) >> 1
        elif f == 4:
            c = prev[x - ch] if x >= ch else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
        else:
            raise AssertionError(f"bad PNG filter {f}")
        cur[x] = (v + pred) & 0xFF
    return np.array(cur, dtype=np.int32)


def _colourful_rows(img: np.ndarray) -> np.ndarray:
    """Per pixel row: distinct saturated colours (max - min channel > 60).
    Text and table lines are grey; the plot's rectangles are coloured."""
    px = img.astype(np.int16)
    sat = (px.max(axis=2) - px.min(axis=2)) > 60
    packed = (px[..., 0].astype(np.int32) << 16) | (px[..., 1] << 8) | px[..., 2]
    return np.array([len(np.unique(packed[y][sat[y]])) for y in range(img.shape[0])])


def _screenshot(html_path: Path, png: Path, profile: Path, height: int = 2400) -> np.ndarray:
    r = _browser(
        [f"--screenshot={png}", f"--window-size=1280,{height}", html_path.as_uri()], profile
    )
    assert png.is_file(), f"chromium wrote no screenshot: {r.stderr[-2000:]}"
    return read_png(png)


#: Run in a copy of the page (the report itself has no scripts): where
#: Chromium laid out the elements that matter, written into the DOM that
#: --dump-dom prints.
_MEASURE_JS = """
(function () {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const out = {innerWidth: innerWidth, innerHeight: innerHeight,
               scrollWidth: document.documentElement.scrollWidth, boxes: {}, text: {}};
  for (const el of document.querySelectorAll('[id]')) {
    if (el.closest('svg')) continue;
    out.boxes[el.id] = box(el);
    if (el.id.startsWith('arena-line-') || el.id.startsWith('plan-note-'))
      out.text[el.id] = el.textContent;
  }
  // The title's line breaks: the characters either side of each one.
  const h1 = document.getElementById('title');
  out.title = {scrollWidth: h1.scrollWidth, clientWidth: h1.clientWidth, breaks: []};
  const walk = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
  let node, lastTop = null, prev = '';
  while ((node = walk.nextNode())) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const r = range.getClientRects()[0];
      if (!r || r.width === 0) continue;
      if (lastTop !== null && r.top > lastTop + 2) out.title.breaks.push(prev + node.data[i]);
      lastTop = r.top; prev = node.data[i];
    }
  }
  out.tensorsShown = document.getElementById('tensors').checkVisibility();
  out.detailsOpen = document.getElementById('tensors-details').open;
  document.body.setAttribute('data-measure', JSON.stringify(out));
})();
"""


def _measure(html_path: Path, profile: Path, width: int, height: int) -> dict:
    """Chromium's layout of the page at width x height (CSS pixels)."""
    probe = profile.parent / (html_path.stem + "-measure.html")
    text = html_path.read_text(encoding="utf-8")
    probe.write_text(
        text.replace("</body>", f"<script>{_MEASURE_JS}</script></body>"), encoding="utf-8"
    )
    r = _browser(["--dump-dom", f"--window-size={width},{height}", probe.as_uri()], profile)
    m = re.search(r'<body[^>]*data-measure="([^"]*)"', r.stdout)
    assert m, f"chromium ran no measuring script: {r.stderr[-2000:]}"
    out = json.loads(html_lib.unescape(m.group(1)))
    # The width is the window's; --dump-dom takes some height for window
    # decorations (innerHeight 757 of 900), which does not change the layout
    # (the page sizes nothing by the viewport's height): boxes are page
    # coordinates from the top, as in a screenshot of the same window size.
    assert out["innerWidth"] == width, out
    return out


@pytest.mark.parametrize("name", ["vww_96_int8", "person_detect"])
@pytest.mark.no_asan  # time goes to Chromium; the report it loads is built under ASan elsewhere
def test_first_screen_shows_the_arena_size(models_dir, tmp_path, name):
    """At 1400 x 900 (a laptop's first screen) Chromium shows every target's
    kTensorArenaSize line; nothing overflows sideways; the tensor table is
    collapsed. The screenshot stays in build/test-output/ to look at."""
    _chromium()
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    html_path = OUTPUT_DIR / f"report_{name}_first_screen.html"
    png = OUTPUT_DIR / f"report_{name}_first_screen.png"
    png.unlink(missing_ok=True)
    ta.write_report(models_dir / f"{name}.tflite", html_path, overwrite=True, time_limit=0.5)
    print(f"\nreport: {html_path}\nscreenshot: {png}")
    got = _measure(html_path, tmp_path / "profile", 1400, 900)
    m = ta.Model.load(models_dir / f"{name}.tflite")
    for t in REPORT_TARGETS:
        line = got["boxes"][f"arena-line-{t}"]
        assert line["top"] >= 0 and line["bottom"] <= 900, (t, line)
        assert got["text"][f"arena-line-{t}"] == ta.tflm_arena(m, target=t).firmware_line()
    assert got["scrollWidth"] <= 1400
    assert got["title"]["scrollWidth"] <= got["title"]["clientWidth"]
    assert not got["tensorsShown"] and not got["detailsOpen"]
    if name == "person_detect":  # no plan helps: the first screen shows the rewrite's saving
        first = REPORT_TARGETS[0]
        note = got["boxes"][f"plan-note-{first}"]
        assert note["top"] >= 0 and note["bottom"] <= 900, note
        rw = report_rewrite(m, first, 0.5)[0]
        after = ta.tflm_arena(rw.model, target=first).min_arena_bytes
        before = ta.tflm_arena(m, target=first).min_arena_bytes
        assert f"needs {after:,} bytes instead of {before:,}" in got["text"][f"plan-note-{first}"]
    r = _browser(
        [f"--screenshot={png}", "--window-size=1400,900", html_path.as_uri()],
        tmp_path / "profile-shot",
    )
    assert png.is_file(), r.stderr[-2000:]
    assert read_png(png).shape[:2] == (900, 1400)


@pytest.mark.no_asan  # time goes to Chromium; the report it loads is built under ASan elsewhere
def test_long_model_name_wraps_between_words(models_dir, tmp_path):
    """A model file name far wider than the screen: the title wraps only
    after a separator (_ - . / or a space), never inside a word, and
    nothing overflows."""
    _chromium()
    words = [
        "visual",
        "wake",
        "words",
        "person",
        "detection",
        "mobilenet",
        "v1",
        "025",
        "96x96",
        "grayscale",
        "int8",
        "quantized",
        "trained",
        "on",
        "coco",
        "2014",
        "minival",
        "split",
        "with",
        "an",
        "offline",
        "memory",
        "plan",
    ]
    model = tmp_path / ("_".join(words) + ".tflite")  # 150 characters
    assert len(model.name) > 140
    shutil.copyfile(models_dir / "hello_world_int8.tflite", model)
    html_path = tmp_path / "long.html"
    ta.write_report(model, html_path, strategies=["tflm_greedy"], targets=["cortex-m"])
    got = _measure(html_path, tmp_path / "profile", 700, 900)
    breaks = got["title"]["breaks"]
    assert len(breaks) >= 2, got["title"]  # it did wrap
    for pair in breaks:
        assert pair[0] in "_-./ " or pair[1] == " ", pair
    assert got["title"]["scrollWidth"] <= got["title"]["clientWidth"]
    assert got["scrollWidth"] <= 700


@pytest.mark.no_asan  # time goes to Chromium; the report it loads is built under ASan elsewhere
def test_report_in_headless_chromium(models_dir, tmp_path):
    """Chromium draws the report: the plot region is full of colours, the
    DOM it parsed has the SVG plots (as SVG) and every table's rows. The
    page and the screenshot stay in build/test-output/ for CI."""
    _chromium()
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    model = models_dir / "person_detect.tflite"
    html_path = OUTPUT_DIR / "report_person_detect.html"
    png = OUTPUT_DIR / "report_person_detect.png"
    for p in (html_path, png):
        p.unlink(missing_ok=True)
    ta.write_report(model, html_path, time_limit=0.5)
    print(f"\nreport: {html_path}\nscreenshot: {png}")
    m = ta.Model.load(model)

    # What Chromium parsed: inline SVG in the SVG namespace (case-sensitive
    # names such as viewBox and clipPath survive; as unknown HTML elements
    # they would be lower-cased), the tables with all their rows.
    r = _browser(["--dump-dom", html_path.as_uri()], tmp_path / "profile-dom")
    dom = r.stdout
    assert "<body" in dom, r.stderr[-2000:]
    page = Page(dom)
    # the plan plot, live bytes, the rewrite's trade-off
    assert dom.count("<svg") == 3 and dom.count("viewBox=") >= 3 and "viewbox=" not in dom
    plot = dom[dom.index('id="plan-plot"') : dom.index('id="live-bytes"')]
    assert plot.count("<path") > 2 * len(m.usage_records())  # a rectangle per buffer, + axes
    assert len(page.tables["tensors"]) == len(m.tensors)
    assert len(page.tables["operators"]) == len(m.operators)
    assert len(page.tables["strategies"]) == len(ta.STRATEGIES)
    assert len(page.tables["tflm-size"]) == len(ta.TARGETS)
    assert page.tables["rewrite"][0][0] == "original"
    assert len(page.tables["runtime"]) == len(ta.Interpreter(m).allocations()["categories"])

    # Where Chromium laid out the plan plot (below the headline, the summary
    # and stock TFLM's table, one row per target): the screenshot reaches
    # past it, and its pixel rows are full of colours.
    box = _measure(html_path, tmp_path / "profile-measure", 1280, 2400)["boxes"]["plan-plot"]
    top, bottom = int(box["top"]), int(box["bottom"])
    height = max(2400, bottom + 200)
    img = _screenshot(html_path, png, tmp_path / "profile-shot", height)
    assert img.shape[:2] == (height, 1280)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 100  # not blank
    colours = _colourful_rows(img)
    rows = top + np.flatnonzero(colours[top:bottom] >= 3)
    assert len(rows) > 200, "no coloured plot drawn"
    assert rows[0] <= top + 120, (rows[0], box)
    plot_band = img[rows[0] : rows[0] + 300]
    px = plot_band.reshape(-1, 3).astype(np.int16)
    sat = px[(px.max(axis=1) - px.min(axis=1)) > 60]
    assert len(np.unique(sat, axis=0)) >= 20, "the plot region has few colours"

    # Control: the same page without its figures has no coloured region, so
    # the check above sees the plot, not the page's styling.
    bare = tmp_path / "bare.html"
    bare.write_text(re.sub(r"<svg.*?</svg>", "", html_path.read_text(), flags=re.S))
    bare_img = _screenshot(bare, tmp_path / "bare.png", tmp_path / "profile-bare")
    assert int((_colourful_rows(bare_img)[top:bottom] >= 3).sum()) < 20


@pytest.mark.no_asan  # time goes to Chromium; the report it loads is built under ASan elsewhere
def test_hostile_names_stay_text_in_chromium(tmp_path):
    """What a browser makes of the escaped names: text, no elements."""
    _chromium()
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    html_path = OUTPUT_DIR / "report_hostile_names.html"
    ta.write_report(
        _hostile_model(), html_path, overwrite=True, strategies=["tflm_greedy", "linear"]
    )
    print(f"\nreport: {html_path}")
    r = _browser(["--dump-dom", html_path.as_uri()], tmp_path / "profile", timeout=30)
    assert "<body" in r.stdout, r.stderr[-2000:]
    page = Page(r.stdout)
    assert "script" not in page.tags and "img" not in page.tags and "b" not in page.tags
    assert _column(page, "tensors", "name")[:2] == [HOSTILE, 'b"><b>bold</b> & -->']
    assert _column(page, "operators", "name")[1] == HOSTILE_OP
    assert r.stdout.count("<svg") == 2


# --- tflm-arena optimize: the firmware line for the written model -------------


def test_cli_optimize_prints_the_firmware_line_and_the_saving(models_dir, tmp_path, capsys):
    """Stock TFLM's minimum arena for the written model (the line to paste,
    target named) and the saving against the original, as ta.tflm_arena
    gives them; JSON carries both minima."""
    src = models_dir / "vww_96_int8.tflite"
    out = tmp_path / "vww_planned.tflite"
    code, text = run(["optimize", str(src), "-o", str(out), "--target", "cortex-m", "--quiet"])
    assert code == 0, capsys.readouterr().err
    before = ta.tflm_arena(ta.Model.load(src), target="cortex-m")
    after = ta.tflm_arena(ta.Model.load(out), target="cortex-m")
    saved = before.min_arena_bytes - after.min_arena_bytes
    assert saved > 0
    assert (
        f"{out}:\n  {after.firmware_line()}  // stock TFLM, cortex-m@{after.version}, "
        f"MicroAllocator: exact minimum {after.min_arena_bytes:,} bytes\n"
    ) in text
    assert f"chosen for stock TFLM on target cortex-m@{after.version}: " in text
    assert (
        f"  {saved:,} bytes ({100 * saved / before.min_arena_bytes:.1f} %) less than the "
        f"original model needs ({before.min_arena_bytes:,} bytes, "
        f"{before.firmware_line()})"
    ) in text
    code, text = run(
        [
            "optimize",
            str(src),
            "-o",
            str(out),
            "--overwrite",
            "--json",
            "--target",
            "x86-64",
            "--quiet",
        ]
    )
    d = json.loads(text)
    assert code == 0 and d["improved"]
    assert (
        d["min_arena_bytes"] == ta.tflm_arena(ta.Model.load(out), target="x86-64").min_arena_bytes
    )
    assert (
        d["original_min_arena_bytes"]
        == ta.tflm_arena(ta.Model.load(src), target="x86-64").min_arena_bytes
    )
    assert d["min_arena_bytes"] < d["original_min_arena_bytes"]


def test_cli_optimize_says_when_the_model_is_unchanged(models_dir, tmp_path, capsys):
    src = models_dir / "keyword_scrambled.tflite"
    out = tmp_path / "ks.tflite"
    code, text = run(["optimize", str(src), "-o", str(out), "--quiet"])
    assert code == 0, capsys.readouterr().err
    a = ta.tflm_arena(ta.Model.load(src))  # the default target
    assert f"{out}:\n  {a.firmware_line()}  // stock TFLM, {DEFAULT_TARGET}@{a.version}, " in text
    assert "the same as the original model needs (TFLM's own plan is already the smallest" in text


def test_report_sizes_the_cmsis_nn_builds_only_when_asked(models_dir):
    # By default one line per reference-kernel build; a CMSIS-NN (or ESP-NN)
    # build when named.
    # (every optimized or NPU build is named TARGET+LIBRARY)
    assert set(REPORT_DEFAULT_TARGETS) == {t for t in TARGETS if "+" not in t}
    path = models_dir / "hello_world_int8.tflite"
    page = ta.report_html(
        path, strategies=["linear"], targets=["cortex-m4+cmsis-nn"], time_limit=0.1
    )
    line = ta.tflm_arena(path, target="cortex-m4+cmsis-nn").firmware_line()
    assert f'<pre class="arena-line" id="arena-line-cortex-m4+cmsis-nn">{line}</pre>' in page
    assert 'id="arena-line-cortex-m"' not in page


# --- below the lower bound: the graph rewrite ------------------------------


def test_rewrite_section_holds_the_trade_off_table_plot_and_reason(models_dir):
    from tflm_arena._report_rewrite import REPORT_REWRITE_TILES

    path = models_dir / "person_detect.tflite"
    text = ta.report_html(
        path, strategies=["tflm_greedy"], targets=[DEFAULT_TARGET], time_limit=0.2
    )
    page = Page(text)
    assert page.ids["rewrite-section"] == "section" and page.ids["rewrite"] == "table"
    assert "rewrite-refused" not in page.ids
    title = re.search(r'<section id="rewrite-section"><h2>(.*?)</h2>', text, flags=re.S)
    assert title is not None
    assert html_lib.unescape(re.sub(r"<[^>]+>", "", title.group(1))) == (
        f"Below the lower bound: graph rewrite (stock TFLM, {DEFAULT_TARGET})"
    )
    # The deterministic columns equal the API's (the planned column comes
    # from a time-limited search).
    r = ta.rewrite(path, target=DEFAULT_TARGET, tiles=REPORT_REWRITE_TILES, plan=False)
    expected = r.rows()
    rows = page.tables["rewrite"]
    assert page.heads["rewrite"][:4] == ["tiling", "head", "tail", "total"]
    assert page.heads["rewrite"][5:] == ["MACs +%", "flash +bytes", "operators", "written"]
    assert _column(page, "rewrite", "tiling")[0] == "original"
    from tflm_arena._report_rewrite import REPORT_REWRITE_ROWS

    assert len(expected) > REPORT_REWRITE_ROWS + 1  # person_detect: more than shown
    assert len(rows) == REPORT_REWRITE_ROWS + 1
    labels = [row[0] for row in rows]
    assert len(set(labels)) == len(labels) and set(labels) <= {e["label"] for e in expected}
    # smallest first, by the smaller of TFLM's plan and ours (planned)
    best = [min(_int(row[3]), _int(row[4]) if row[4] != "-" else _int(row[3])) for row in rows]
    assert best[1:] == sorted(best[1:])
    assert f"{len(expected) - len(rows)} more tilings, none smaller" in text
    by_label = {e["label"]: e for e in expected}
    for row in rows:
        e = by_label[row[0]]
        assert [_int(c) for c in row[1:4]] == [e["head"], e["tail"], e["total"]]
        assert row[5] == f"{e['macs_pct']:+.1f} %"
        assert row[6] == f"{e['file_delta']:+,}"
        assert _int(row[7]) == e["operators"]
    original = rows[0]
    assert _int(original[3]) == ta.tflm_arena(path, target=DEFAULT_TARGET).min_arena_bytes
    assert original[4] != "-"  # the original also gets our optimal plan
    written = [row for row in rows if row[8] == "written"]
    assert len(written) == 1
    reason = _by_id(text, "rewrite-reason")
    assert reason.startswith("written: the first ") and f"stock TFLM ({DEFAULT_TARGET})" in reason
    assert written[0][0] != "original"
    section = text[text.index('<section id="rewrite-section">') :]
    section = section[: section.index("</section>")]
    assert "<svg" in section  # the plot


def test_rewrite_section_says_why_a_model_is_refused(models_dir):
    # A model that already carries an offline plan: the rewrite refuses it.
    m = ta.Model.load(models_dir / "hello_world_int8.tflite")
    path = m._with_offline_plan(ta.plan(m, strategy="tflm_greedy"))
    text = ta.report_html(
        path, strategies=["tflm_greedy"], targets=[DEFAULT_TARGET], time_limit=0.2
    )
    page = Page(text)
    assert "rewrite-section" in page.ids and "rewrite" not in page.ids
    with pytest.raises(ValueError) as e:
        ta.rewrite(path, target=DEFAULT_TARGET, plan=False)
    assert _by_id(text, "rewrite-refused") == f"not rewritten: {e.value}"


def test_every_section_uses_the_chosen_target(models_dir):
    """With --target esp32s3+esp-nn the sections quote that build's figures:
    the summary's TFLM head (tensors and that target's kernel scratch), the
    headline, the rewrite section's title and its original row."""
    path = models_dir / "person_detect.tflite"
    t = "esp32s3+esp-nn"
    text = ta.report_html(path, strategies=["tflm_greedy"], targets=[t], time_limit=0.5)
    page = Page(text)
    a = ta.tflm_arena(path, target=t)
    cm = ta.tflm_arena(path, target="cortex-m")
    assert a.head != cm.head  # ESP-NN's scratch differs: the check can fail
    start = text.index('<section id="summary">')
    summary = html_lib.unescape(text[start : text.index("</section>", start)])
    assert (
        f"TFLM greedy plan (TFLM's own planner): {a.head:,} bytes (tensors and {t} kernel scratch"
        in summary
    )
    assert f"{cm.head:,} bytes" not in summary
    rows = {r[0]: r[1:] for r in page.tables[f"headline-{t}"]}
    assert _int(rows["head: activations + scratch (bytes)"][0]) == a.head
    rewrite = text[text.index('<section id="rewrite-section">') :]
    assert f"(stock TFLM, {t})" in re.sub(r"<[^>]+>", "", rewrite[:300])
    original = page.tables["rewrite"][0]
    assert original[0] == "original" and _int(original[3]) == a.min_arena_bytes
