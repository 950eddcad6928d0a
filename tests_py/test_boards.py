"""Boards (C++ table tflm/boards.cc): the table's fields, every board's
target known, ``ta.fit`` / ``ta.assert_fits`` and ``tflm-arena size
--board / --max-bytes`` with their exit statuses, text and JSON."""

from __future__ import annotations

import io
import json

import pytest

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli import _parser, main

# Targets another change adds to the C++ target list (ESP32 builds with
# esp-nn). A board naming one is checked once that change is merged.


@pytest.fixture
def hello(models_dir):
    return models_dir / "hello_world_int8.tflite"


@pytest.fixture
def big_model(tmp_path):
    """A float ADD of three 30,000-element tensors: about 360 KB of head,
    more than a Raspberry Pi Pico's 264 KB, less than an nRF5340's 512 KB."""
    mb = ModelBuilder()
    a, b, c = (mb.add_tensor([1, 30000], "float32") for _ in range(3))
    mb.add_operator("ADD", [a, b], [c])
    mb.set_io([a, b], [c])
    path = tmp_path / "big_add.tflite"
    path.write_bytes(mb.build())
    return path


# ---- the table ------------------------------------------------------------


def test_table_is_the_cores_and_every_field_is_filled():
    rows = _core.boards()
    assert tuple(r["name"] for r in rows) == ta.BOARDS
    assert list(ta.boards()) == list(ta.BOARDS) and len(set(ta.BOARDS)) == len(ta.BOARDS)
    for name in (
        "arduino-nano-33-ble-sense",
        "raspberry-pi-pico",
        "stm32f746g-disco",
        "stm32h747i-disco",
        "nrf5340-dk",
        "esp32-devkitc",
        "esp32-s3-devkitc-1",
        "esp32-s3-devkitc-1-n8r8",
        "esp32-p4-function-ev-board",
        "corstone-300",
    ):
        assert name in ta.BOARDS
    for b in ta.boards().values():
        assert isinstance(b.ram_bytes, int) and b.ram_bytes >= 16 * 1024, b
        assert b.ram_bytes % 1024 == 0, b
        assert (b.external_ram_bytes == 0) == (b.external_ram == ""), b
        assert len(b.chip) > 3 and len(b.core) > 3, b
        assert any(w in b.source for w in ("datasheet", "Specification", "Manual", "manual")), b
        assert len(b.note) > 20, b
        assert b.name in str(b) and f"{b.ram_bytes:,}" in str(b)


def test_ram_figures_from_the_datasheets():
    """The figures each row's source gives (see its note for the choice)."""
    kib, mib = 1024, 1024 * 1024
    expect = {
        "arduino-nano-33-ble-sense": (256 * kib, 0),  # nRF52840: 256 KB RAM
        "raspberry-pi-pico": (264 * kib, 0),  # RP2040: 264 KB SRAM
        "stm32f746g-disco": (320 * kib, 8 * mib),  # 320 KB SRAM; 64 Mbit SDRAM usable
        "stm32h747i-disco": (512 * kib, 32 * mib),  # AXI SRAM, the largest region
        "nrf5340-dk": (512 * kib, 0),  # application core RAM
        "esp32-devkitc": (160 * kib, 0),  # ESP-IDF's static DRAM limit
        "esp32-s3-devkitc-1": (416 * kib, 0),
        "esp32-s3-devkitc-1-n8r8": (416 * kib, 8 * mib),  # 8 MB octal PSRAM
        "esp32-p4-function-ev-board": (640 * kib, 32 * mib),  # 768 KB less 128 KB L2 cache
        "corstone-300": (2 * mib, 0),
        "corstone-300-ethos-u55": (2 * mib, 0),  # the SRAM the NPU reaches
        "alif-ensemble-e7-hp": (4 * mib, 0),  # SRAM0, 4096 KB
        "himax-we2": (2 * mib, 0),  # SRAM0 + SRAM1 of the SDK's linker script
    }
    got = {n: (b.ram_bytes, b.external_ram_bytes) for n, b in ta.boards().items()}
    assert got == expect


@pytest.mark.parametrize("name", ta.BOARDS)
def test_every_boards_target_is_a_known_target(name):
    b = ta.board(name)
    assert b.target in ta.TARGETS
    # The board's target at the stack version its SDK ships, named.
    assert ta.board_target(b) == f"{b.target}@{b.version}"
    assert b.version in ta.versions(b.target)


def test_targets_by_core():
    t = {n: b.target for n, b in ta.boards().items()}
    assert t["arduino-nano-33-ble-sense"] == "cortex-m4+cmsis-nn"
    assert t["raspberry-pi-pico"] == "cortex-m0plus+cmsis-nn"
    assert t["stm32f746g-disco"] == t["stm32h747i-disco"] == "cortex-m7+cmsis-nn"
    assert t["nrf5340-dk"] == "cortex-m33+cmsis-nn"
    assert t["corstone-300"] == "cortex-m55+cmsis-nn"
    assert t["corstone-300-ethos-u55"] == t["alif-ensemble-e7-hp"] == t["himax-we2"]
    assert t["himax-we2"] == "cortex-m55+ethos-u"
    assert t["esp32-devkitc"] == "esp32+esp-nn"
    assert t["esp32-s3-devkitc-1"] == t["esp32-s3-devkitc-1-n8r8"] == "esp32s3+esp-nn"
    assert t["esp32-p4-function-ev-board"] == "esp32p4+esp-nn"


def test_unknown_board_lists_the_known_ones():
    with pytest.raises(ValueError) as e:
        ta.board("arduino-uno")
    msg = str(e.value)
    assert "\n" not in msg and "unknown board 'arduino-uno'" in msg
    assert all(n in msg for n in ta.BOARDS)


# ---- fit / assert_fits ----------------------------------------------------


def test_fit_on_a_board_uses_its_target_and_ram(hello):
    b = ta.board("raspberry-pi-pico")
    f = ta.fit(hello, board=b.name)
    r = ta.tflm_arena(hello, target=b.target)
    assert f.arena == r and f.board == b and f.ram_bytes == b.ram_bytes
    assert f.fits and f.margin == b.ram_bytes - r.min_arena_bytes_16
    assert f.as_dict() == {
        "board": b.name,
        "ram": b.ram_bytes,
        "fits": True,
        "margin": b.ram_bytes - r.min_arena_bytes_16,
        "needed": r.min_arena_bytes_16,
        "external_ram": 0,
        "placement": "internal",
        "fits_internal": True,
        "placements": {
            "internal": {
                "fits": True,
                "internal": r.min_arena_bytes_16,
                "external": 0,
                "firmware": [f"constexpr int kTensorArenaSize = {r.min_arena_bytes_16};"],
            }
        },
    }


def test_fit_at_the_byte(hello):
    need = ta.tflm_arena(hello).min_arena_bytes_16  # default target
    at = ta.fit(hello, max_bytes=need)
    assert at.fits and at.margin == 0 and at.arena.target == ta.DEFAULT_TARGET
    below = ta.fit(hello, max_bytes=need - 1)
    assert not below.fits and below.margin == -1
    other = ta.fit(hello, max_bytes=need, target="x86-64")
    assert other.arena.target == "x86-64"


def test_fit_refuses_bad_requests(hello):
    with pytest.raises(ValueError, match="exactly one of board= and max_bytes="):
        ta.fit(hello)
    with pytest.raises(ValueError, match="exactly one of board= and max_bytes="):
        ta.fit(hello, board="raspberry-pi-pico", max_bytes=10)
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="max_bytes must be a whole number"):
            ta.fit(hello, max_bytes=bad)
    with pytest.raises(
        ValueError, match="uses target cortex-m0plus\\+cmsis-nn, not esp32\\+esp-nn"
    ):
        ta.fit(hello, board="raspberry-pi-pico", target="esp32+esp-nn")
    with pytest.raises(ValueError, match="unknown board"):
        ta.fit(hello, board="pico")
    with pytest.raises(ValueError, match="unknown target"):
        ta.fit(hello, max_bytes=10, target="riscv")


def test_assert_fits_returns_the_figure(hello):
    r = ta.assert_fits(hello, board="nrf5340-dk")
    assert r == ta.tflm_arena(hello, target="cortex-m33+cmsis-nn")
    assert ta.assert_fits(hello, max_bytes=r.min_arena_bytes_16, target=r.target) == r


def test_assert_fits_message_names_overshoot_and_consumers(hello):
    r = ta.tflm_arena(hello)
    limit = r.min_arena_bytes_16 - 100
    with pytest.raises(AssertionError) as e:
        ta.assert_fits(hello, max_bytes=limit)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith("hello_world_int8.tflite does not fit on the limit of ")
    assert f"{limit:,} bytes" in msg and "100 bytes over" in msg
    assert f"kTensorArenaSize {r.min_arena_bytes_16:,} bytes" in msg
    assert "stock TFLM, target cortex-m" in msg
    assert f"head {r.head:,} bytes" in msg and f"tail {r.tail:,} bytes" in msg
    top = sorted(r.categories.values(), key=lambda c: c.used, reverse=True)[:2]
    for c in top:
        assert f"{c.name} {c.used:,}" in msg


def test_assert_fits_on_a_board_too_small(big_model):
    pico = ta.board("raspberry-pi-pico")
    r = ta.tflm_arena(big_model, target=pico.target)
    assert r.min_arena_bytes_16 > pico.ram_bytes  # the model is built for this
    with pytest.raises(AssertionError) as e:
        ta.assert_fits(big_model, board=pico.name)
    over = r.min_arena_bytes_16 - pico.ram_bytes
    msg = str(e.value)
    assert "does not fit on board raspberry-pi-pico" in msg and f"{over:,} bytes over" in msg
    assert f"head {r.head:,} bytes" in msg
    assert ta.assert_fits(big_model, board="nrf5340-dk").target == "cortex-m33+cmsis-nn"


# ---- tflm-arena size --board / --max-bytes --------------------------------


def _run(args, capsys):
    out = io.StringIO()
    code = main(["size", *map(str, args)], out=out)
    return code, out.getvalue(), capsys.readouterr().err


def test_cli_board_fits(hello, capsys):
    b = ta.board("stm32f746g-disco")
    r = ta.tflm_arena(hello, target=b.target)
    code, out, err = _run([hello, "--board", b.name], capsys)
    assert code == 0 and err == ""
    margin = b.ram_bytes - r.min_arena_bytes_16
    assert f"fits on board stm32f746g-disco (ST STM32F746NG, {b.ram_bytes:,} bytes of RAM)" in out
    assert f"leaves {margin:,} bytes" in out
    assert f"(stock TFLM, target {b.target}@{b.version}) leaves" in out
    assert f"head {r.head:,} bytes" in out and f"tail {r.tail:,} bytes" in out
    assert "the application's other RAM use" in out and "is not counted" in out
    assert "external RAM: SDRAM" in out and "8,388,608 bytes" in out
    assert b.source in out


def test_cli_max_bytes_does_not_fit_exits_3(hello, capsys):
    r = ta.tflm_arena(hello, target="x86-64")
    code, out, _ = _run(
        [hello, "--max-bytes", r.min_arena_bytes_16 - 16, "--target", "x86-64"], capsys
    )
    assert code == 3
    assert f"does not fit on the limit of {r.min_arena_bytes_16 - 16:,} bytes" in out
    assert "16 bytes over" in out and "stock TFLM, target x86-64" in out
    code, out, _ = _run([hello, "--max-bytes", r.min_arena_bytes_16, "--target", "x86-64"], capsys)
    assert code == 0 and "leaves 0 bytes" in out


def test_cli_board_too_small_exits_3(big_model, capsys):
    pico = ta.board("raspberry-pi-pico")
    r = ta.tflm_arena(big_model, target=pico.target)
    code, out, err = _run([big_model, "--board", pico.name], capsys)
    assert code == 3 and err == ""
    assert "does not fit on board raspberry-pi-pico" in out
    assert f"kTensorArenaSize {r.min_arena_bytes_16:,} bytes" in out
    assert f"{r.min_arena_bytes_16 - pico.ram_bytes:,} bytes over" in out
    code, _, _ = _run([big_model, "--board", "nrf5340-dk"], capsys)
    assert code == 0


def test_cli_any_model_not_fitting_exits_3_and_errors_exit_1(hello, big_model, tmp_path, capsys):
    code, out, _ = _run([hello, big_model, "--board", "raspberry-pi-pico"], capsys)
    assert code == 3 and out.count("fits on board") == 1 and "does not fit" in out
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"not a model")
    code, _, err = _run([bad, big_model, "--board", "raspberry-pi-pico"], capsys)
    assert code == 1 and "bad.tflite" in err


def test_cli_json_carries_board_ram_fits_margin(hello, big_model, capsys):
    b = ta.board("raspberry-pi-pico")
    code, out, _ = _run([hello, big_model, "--board", b.name, "--json"], capsys)
    assert code == 3
    d = json.loads(out)
    for path, fits in ((hello, True), (big_model, False)):
        r = ta.tflm_arena(path, target=b.target)
        row = d[str(path)]
        assert row["board"] == b.name and row["ram"] == b.ram_bytes
        assert row["fits"] is fits and row["margin"] == b.ram_bytes - r.min_arena_bytes_16
        assert row["min_arena_bytes_16"] == r.min_arena_bytes_16 and row["target"] == b.target
    code, out, _ = _run([hello, "--max-bytes", 100, "--json"], capsys)
    row = json.loads(out)[str(hello)]
    assert code == 3 and row["board"] is None and row["ram"] == 100 and row["fits"] is False
    code, out, _ = _run([hello, "--json"], capsys)  # no check asked: no fit fields
    assert code == 0 and "fits" not in json.loads(out)[str(hello)]


def test_cli_unknown_board_is_one_line_usage_error(hello, capsys):
    code, out, err = _run([hello, "--board", "arduino-uno"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tflm-arena: error: unknown board 'arduino-uno'")
    assert all(n in err for n in ta.BOARDS)


def test_cli_target_disagreeing_with_board_is_a_usage_error(hello, capsys):
    code, _, err = _run([hello, "--board", "raspberry-pi-pico", "--target", "esp32+esp-nn"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "uses target cortex-m0plus+cmsis-nn, not esp32+esp-nn" in err
    code, _, _ = _run(
        [hello, "--board", "raspberry-pi-pico", "--target", "cortex-m0plus+cmsis-nn"], capsys
    )
    assert code == 0  # the board's own target, named, agrees


def test_cli_board_and_max_bytes_together_or_bad_bytes_are_usage_errors(hello, capsys):
    assert _run([hello, "--board", "raspberry-pi-pico", "--max-bytes", 10], capsys)[0] == 2
    assert _run([hello, "--max-bytes", "-1"], capsys)[0] == 2
    assert _run([hello, "--max-bytes", "12kB"], capsys)[0] == 2


@pytest.mark.parametrize("name", [n for n in ta.BOARDS if n.startswith("esp32")])
def test_cli_esp_boards_use_their_esp_nn_target(hello, name, capsys):
    b = ta.board(name)
    assert b.target.endswith("+esp-nn")
    code, out, _ = _run([hello, "--board", name], capsys)
    assert code == 0 and f"fits on board {name}" in out and f"target {b.target}" in out


def test_help_documents_exit_status_3(capsys):
    ap = _parser()
    top = ap.format_help()
    assert "\n  3    does not fit" in top
    assert main(["size", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--board NAME" in text and "--max-bytes N" in text and "3 a model does not fit" in text


# ---- the HTML report's headline ---------------------------------------------


def test_report_headline_lists_the_boards_of_a_sized_target(hello):
    import html as html_lib

    t = "cortex-m7+cmsis-nn"
    r = ta.tflm_arena(hello, target=t)
    page = ta.report_html(hello, strategies=["tflm_greedy"], targets=[t], time_limit=0.1)
    start = page.index(f'<ul class="boards" id="boards-{t}">')
    block = html_lib.unescape(page[start : page.index("</ul>", start)])
    for name in ("stm32f746g-disco", "stm32h747i-disco"):  # the boards built with t
        ram = ta.board(name).ram_bytes
        assert f"fits on {name} (" in block
        assert f"{ram:,} bytes of RAM): {ram - r.min_arena_bytes_16:,} bytes to spare" in block
    assert "raspberry-pi-pico" not in block
    assert "other RAM use is not counted" in block


def test_report_headline_names_boards_it_does_not_fit(big_model):
    t = "cortex-m0plus+cmsis-nn"
    r = ta.tflm_arena(big_model, target=t)
    over = r.min_arena_bytes_16 - ta.board("raspberry-pi-pico").ram_bytes
    page = ta.report_html(big_model, strategies=["tflm_greedy"], targets=[t], time_limit=0.1)
    assert f"does not fit on raspberry-pi-pico by {over:,} bytes" in page


def test_report_default_targets_use_no_board(hello):
    """The default targets are reference-kernel builds, which no board of
    the table uses: no board list, the first screen unchanged."""
    assert not any(b.target in ta.report.REPORT_DEFAULT_TARGETS for b in ta.boards().values())
    page = ta.report_html(hello, strategies=["tflm_greedy"], time_limit=0.1)
    assert 'class="boards"' not in page


def test_reference_doc_board_table_equals_the_core_table():
    """docs/reference.md's board table is prose about the C++ table: the
    same boards in the same order, with the same targets and RAM."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "reference.md").read_text()
    table = doc.split("| board | chip, core | target |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| `")]
    got = [
        (r[1].strip().strip("`"), r[3].split("`")[1], int(r[4].split("(")[0].replace(",", "")))
        for r in rows
    ]
    assert got == [(b.name, b.target, b.ram_bytes) for b in ta.boards().values()]


def test_report_lists_every_board_with_its_own_target(hello):
    import re

    html = ta.report_html(hello, time_limit=0.2)
    section = html[html.index('id="boards-section"') :]
    section = section[: section.index("</section>")]
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", section)]
    rows = [cells[i : i + 5] for i in range(0, len(cells), 5)]
    assert [r[0] for r in rows] == list(ta.BOARDS)
    for name, target, ram, needed, verdict in rows:
        f = ta.fit(hello, board=name)
        assert (target, ram, needed) == (
            f"{f.arena.target}@{f.arena.version}",
            f"{f.ram_bytes:,}",
            f"{f.needed:,}",
        )
        assert verdict.startswith(f"fits, {f.margin:,} bytes left")
        assert ("not checked" in verdict) == (
            f.arena.target in ("cortex-m55+cmsis-nn", "cortex-m55+ethos-u")
        )


def test_report_says_which_boards_only_their_external_ram_holds(tmp_path):
    import re

    from tflm_arena.builder import ModelBuilder

    mb = ModelBuilder()
    x = mb.add_tensor([1, 1_300_000], "int8", "x", scale=[0.1], zero_point=[0])
    y = mb.add_tensor([1, 1_300_000], "int8", "y", scale=[0.1], zero_point=[0])
    mb.add_operator("RELU", [x], [y])
    mb.set_io([x], [y])
    model = mb.build()
    html = ta.report_html(model, strategies=["tflm_greedy"], targets=["cortex-m"], time_limit=0.1)
    section = html[html.index('id="boards-section"') :]
    section = section[: section.index("</section>")]
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", section)]
    rows = {cells[i]: cells[i + 4] for i in range(0, len(cells), 5)}
    f = ta.fit(model, board="esp32-s3-devkitc-1-n8r8")
    assert f.placement.name == "external"
    assert rows["esp32-s3-devkitc-1-n8r8"].startswith(
        f"does not fit internal RAM ({-f.margin:,} over); fits as external"
    )
    assert rows["esp32-s3-devkitc-1"].startswith("does not fit: ")


def test_report_for_a_board_sizes_its_target_and_says_where_it_fits(hello):
    import html as html_lib

    b = ta.board("arduino-nano-33-ble-sense")
    page = ta.report_html(hello, strategies=["tflm_greedy"], time_limit=0.1, board=b.name)
    t = ta.board_target(b)
    assert f'id="arena-line-{t}"' in page  # the board's own build, at its stack
    section = page[page.index('id="board-fit"') :]
    section = html_lib.unescape(section[: section.index("</section>")])
    assert ta.fit(hello, board=b.name).summary() in section
    with pytest.raises(ValueError, match="builds legal on it"):
        ta.report_html(hello, targets=["esp32+esp-nn"], board=b.name, time_limit=0.1)
