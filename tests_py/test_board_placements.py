"""Where the arena goes on a board: internal RAM, external RAM (PSRAM,
SDRAM), or two buffers split between them; --board combined with --target,
--split and --shared-arena, each printing the lines a firmware needs."""

from __future__ import annotations

import io
import json

import pytest

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli import main

N8R8 = "esp32-s3-devkitc-1-n8r8"


def _relu(tmp_path, n: int, name: str) -> str:
    mb = ModelBuilder()
    x = mb.add_tensor([1, n], "int8", "x", scale=[0.1], zero_point=[0])
    y = mb.add_tensor([1, n], "int8", "y", scale=[0.1], zero_point=[0])
    mb.add_operator("RELU", [x], [y])
    mb.set_io([x], [y])
    path = tmp_path / name
    path.write_bytes(mb.build())
    return str(path)


@pytest.fixture
def big(tmp_path):
    """2.6 MB of activations (two 1.3 MB int8 tensors): more than the
    ESP32-S3's 416 KB of internal RAM, less than the N8R8's 8 MB PSRAM."""
    return _relu(tmp_path, 1_300_000, "big.tflite")


def _run(args, capsys):
    out = io.StringIO()
    code = main(["size", *map(str, args)], out=out)
    return code, out.getvalue(), capsys.readouterr().err


def test_a_model_too_big_for_internal_ram_fits_in_psram(big, capsys):
    b = ta.board(N8R8)
    f = ta.fit(big, board=N8R8)
    assert f.needed > b.ram_bytes and f.needed <= b.external_ram_bytes
    assert f.fits and not f.fits_internal and f.placement.name == "external"
    code, out, err = _run([big, "--board", N8R8], capsys)
    assert code == 0 and err == ""
    assert f"fits on board {N8R8}" in out and "in external RAM (octal PSRAM, 8 MB)" in out
    assert f"constexpr int kTensorArenaSize = {f.needed};" in out
    # Requiring internal RAM: exit status 3.
    assert not ta.fit(big, board=N8R8, placement="internal").fits
    code, out, _ = _run([big, "--board", N8R8, "--placement", "internal"], capsys)
    assert code == 3 and "does not fit" in out and "(placement internal required)" in out


def test_a_split_placement_gives_both_buffers_lines(big, capsys):
    s = ta.tflm_split_arena(big, target=ta.board_target(ta.board(N8R8)))
    f = ta.fit(big, board=N8R8, placement="persistent-internal")
    assert f.fits and f.placement.internal_bytes == s.min_persistent_bytes
    assert f.placement.external_bytes == s.min_non_persistent_bytes
    code, out, _ = _run([big, "--board", N8R8, "--placement", "persistent-internal"], capsys)
    assert code == 0
    assert f"    constexpr int kNonPersistentArenaSize = {s.min_non_persistent_bytes};" in out
    assert f"    constexpr int kPersistentArenaSize = {s.min_persistent_bytes};" in out
    # The activations do not fit in internal RAM: that split is refused.
    assert not ta.fit(big, board=N8R8, placement="activations-internal").fits
    code, out, _ = _run([big, "--board", N8R8, "--json"], capsys)
    d = json.loads(out)[big]
    assert d["placement"] == "external" and d["fits_internal"] is False
    assert d["placements"]["persistent-internal"]["internal"] == s.min_persistent_bytes


def test_without_external_ram_only_internal_counts(big):
    f = ta.fit(big, board="esp32-s3-devkitc-1")
    assert not f.fits and [p.name for p in f.placements()] == ["internal"]
    with pytest.raises(ValueError, match="unknown placement"):
        ta.fit(big, board=N8R8, placement="flash")


def test_the_board_takes_a_legal_kernel_choice_for_its_core(tmp_path, capsys):
    small = _relu(tmp_path, 1000, "small.tflite")
    assert ta.fit(small, board="raspberry-pi-pico", target="cortex-m").arena.target == "cortex-m"
    nano = ta.fit(small, board="arduino-nano-33-ble-sense", target="cortex-m")
    assert (nano.arena.target, nano.arena.version) == ("cortex-m", "arduino")
    s3 = ta.fit(small, board="esp32-s3-devkitc-1", target="esp32+esp-nn-ansi-c")
    assert s3.arena.target == "esp32+esp-nn-ansi-c" and s3.arena.version == "1.2.3"
    code, out, _ = _run(
        [small, "--board", "esp32-s3-devkitc-1", "--target", "esp32+esp-nn-ansi-c"], capsys
    )
    assert code == 0 and "(stock TFLM, target esp32+esp-nn-ansi-c@1.2.3) leaves" in out
    with pytest.raises(ValueError, match="builds legal on it: esp32s3"):
        ta.fit(small, board="esp32-s3-devkitc-1", target="cortex-m")


def test_split_and_shared_arena_check_the_board(tmp_path, big, capsys):
    small = _relu(tmp_path, 1000, "small.tflite")
    s = ta.tflm_split_arena(small, target="cortex-m0plus+cmsis-nn")
    code, out, _ = _run([small, "--split", "--board", "raspberry-pi-pico"], capsys)
    assert code == 0
    assert f"constexpr int kNonPersistentArenaSize = {s.min_non_persistent_bytes};" in out
    assert f"constexpr int kPersistentArenaSize = {s.min_persistent_bytes};" in out
    assert "fits on board raspberry-pi-pico" in out and "in internal RAM" in out
    # Without a board --split still prints both lines.
    code, out, _ = _run([small, "--split"], capsys)
    assert code == 0 and "kPersistentArenaSize" in out
    # On the N8R8 the 2.6 MB non-persistent buffer goes to PSRAM.
    code, out, _ = _run([big, "--split", "--board", N8R8], capsys)
    assert code == 0 and "non-persistent 2,600,000 in external RAM (octal PSRAM, 8 MB)" in out
    code, out, _ = _run([big, "--split", "--board", "esp32-s3-devkitc-1"], capsys)
    assert code == 3 and "does not fit" in out
    # Two models in one arena on a board.
    r = ta.tflm_shared_arena([small, small], target="cortex-m0plus+cmsis-nn")
    code, out, _ = _run([small, small, "--shared-arena", "--board", "raspberry-pi-pico"], capsys)
    assert code == 0
    assert f"constexpr int kTensorArenaSize = {(r.min_arena_bytes + 15) // 16 * 16};" in out
    assert "fits on board raspberry-pi-pico" in out
    code, out, _ = _run([big, big, "--shared-arena", "--max-bytes", "1000"], capsys)
    assert code == 3 and "does not fit on the limit of 1,000 bytes" in out
    code, _, err = _run([small, "--split", "--board", N8R8, "--placement", "internal"], capsys)
    assert code == 2 and "--placement" in err
