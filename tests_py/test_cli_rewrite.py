"""``tflm-arena optimize --rewrite``: the trade-off table and the firmware
line (text and --json) equal ta.rewrite's, --tiles forces one tiling, bad
--tiles and --tiles without --rewrite are errors (exit 1, one clear line,
nothing written), the output is written atomically and never replaces a
file without --overwrite, and a model the rewrite refuses is written as an
unchanged copy with the reason."""

from __future__ import annotations

import io
import json

import pytest

import tflm_arena as ta
from tflm_arena.cli import main
from tflm_arena.tflm_size import DEFAULT_TARGET


def run(argv):
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def pretrained(models_dir):
    # The smallest shared model the rewrite tiles (and a smaller arena wins).
    return models_dir / "pretrainedResnet_quant.tflite"


def _leftovers(folder, keep):
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


def test_rewrite_text_prints_the_table_and_writes_the_tiled_model(pretrained, tmp_path, capsys):
    dest = tmp_path / "tiled.tflite"
    code, text = run(["optimize", str(pretrained), "-o", str(dest), "--rewrite", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert _leftovers(tmp_path, {"tiled.tflite"}) == []  # no temp file left behind
    r = ta.rewrite(pretrained, target=DEFAULT_TARGET, time_limit=1.0)
    written = ta.Model.load(dest)
    after = ta.tflm_arena(written, target=DEFAULT_TARGET)
    assert r.written == "tiled"  # the figures below depend on it
    lines = text.splitlines()
    assert lines[0] == (
        f"stock TFLM, target {DEFAULT_TARGET} (bytes; 'planned' = with our optimal offline plan)"
    )
    assert lines[2].startswith("original ") and f"{r.original.total:,}" in lines[2]
    starred = [ln for ln in lines if ln.endswith(" *")]
    assert len(starred) == 1 and starred[0].startswith(f"{r.chosen.rows}x{r.chosen.cols} tiles")
    assert len(written.subgraphs[0].operators) == r.chosen.operators
    assert after.min_arena_bytes < r.original.total
    assert (
        f"wrote {dest} (tiled):\n  {after.firmware_line()}  // stock TFLM, "
        f"{DEFAULT_TARGET}@{after.version}, MicroAllocator: exact minimum "
        f"{after.min_arena_bytes:,} bytes (original: {r.original.total:,})\n"
        f"  chosen for stock TFLM on target {DEFAULT_TARGET}@{after.version}: "
    ) in text


def test_rewrite_json_with_forced_tiles(pretrained, tmp_path, capsys):
    dest = tmp_path / "t22.tflite"
    argv = ["optimize", str(pretrained), "-o", str(dest), "--rewrite", "--tiles", "2x2"]
    code, text = run([*argv, "--json", "--target", "x86-64", "--quiet"])
    assert code == 0, capsys.readouterr().err
    d = json.loads(text)
    assert d["model"] == str(pretrained) and d["output"] == str(dest)
    assert d["target"] == "x86-64" and d["written"] in ("tiled", "planned", "unchanged")
    tilings = d["tilings"]
    assert tilings[0]["label"] == "original"
    assert {(t["rows"], t["cols"]) for t in tilings[1:]} == {(2, 2)}  # only the forced shape
    r = ta.rewrite(pretrained, target="x86-64", tiles=(2, 2), plan=False)
    assert d["original_min_arena_bytes"] == r.original.total
    assert sorted((t["length"], t["total"]) for t in tilings[1:]) == sorted(
        (c.length, c.total) for c in r.choices if not c.error
    )
    written = ta.Model.load(dest)
    assert d["min_arena_bytes"] == ta.tflm_arena(written, target="x86-64").min_arena_bytes
    assert d["min_arena_bytes"] <= d["original_min_arena_bytes"]
    assert d["stage_end"] == r.end_reason and d["reason"]


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        ("4by4", "--tiles must be ROWSxCOLS, e.g. 4x4; got '4by4'"),
        ("2x2x2", "--tiles must be ROWSxCOLS, e.g. 4x4; got '2x2x2'"),
        ("0x1", "tiles must be at least 1 x 1, got 0 x 1"),
        ("1000x1", "cannot tile this model so: 1000 x 1 tiles do not fit"),
    ],
)
def test_bad_tiles_exit_1_and_write_nothing(pretrained, tmp_path, capsys, tiles, message):
    dest = tmp_path / "out.tflite"
    argv = ["optimize", str(pretrained), "-o", str(dest), "--rewrite", "--tiles", tiles]
    code, text = run(argv)
    err = capsys.readouterr().err
    assert code == 1 and text == ""
    assert err.startswith(f"tflm-arena: error: {message}"), err
    assert len(err.strip().splitlines()) == 1
    assert _leftovers(tmp_path, set()) == []


def test_tiles_without_rewrite_is_an_error(pretrained, tmp_path, capsys):
    dest = tmp_path / "out.tflite"
    code, text = run(["optimize", str(pretrained), "-o", str(dest), "--tiles", "2x2"])
    err = capsys.readouterr().err
    assert code == 1 and text == ""
    assert (
        err == "tflm-arena: error: --tiles needs --rewrite (it chooses the tiling of the rewrite)\n"
    )
    assert not dest.exists()


def test_existing_output_is_kept_without_overwrite(pretrained, tmp_path, capsys):
    dest = tmp_path / "out.tflite"
    dest.write_bytes(b"keep me")
    code, _ = run(["optimize", str(pretrained), "-o", str(dest), "--rewrite", "--quiet"])
    assert code == 1 and "exists" in capsys.readouterr().err
    assert dest.read_bytes() == b"keep me"
    argv = ["optimize", str(pretrained), "-o", str(dest), "--rewrite", "--tiles", "2x1"]
    code, _ = run([*argv, "--overwrite", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert ta.Model.load(dest).data != b"keep me"
    assert _leftovers(tmp_path, {"out.tflite"}) == []


@pytest.mark.parametrize("json_out", [False, True])
def test_a_model_the_rewrite_refuses_is_copied_unchanged(models_dir, tmp_path, capsys, json_out):
    # A model that already carries an offline plan: the rewrite refuses it.
    m = ta.Model.load(models_dir / "hello_world_int8.tflite")
    src = tmp_path / "planned.tflite"
    m._with_offline_plan(ta.plan(m, strategy="tflm_greedy")).save(src)
    dest = tmp_path / "hello.tflite"
    argv = ["optimize", str(src), "-o", str(dest), "--rewrite", "--quiet"]
    code, text = run(argv + (["--json"] if json_out else []))
    assert code == 0, capsys.readouterr().err
    assert dest.read_bytes() == src.read_bytes()
    with pytest.raises(ValueError) as refused:
        ta.rewrite(src, plan=False)
    a = ta.tflm_arena(ta.Model.load(src), target=DEFAULT_TARGET)
    if json_out:
        d = json.loads(text)
        assert d["written"] == "unchanged" and d["reason"] == str(refused.value)
        assert d["min_arena_bytes"] == d["original_min_arena_bytes"] == a.min_arena_bytes
        assert d["tilings"] == []
    else:
        assert text == (
            f"not rewritten: {refused.value}\nwrote {dest} (unchanged):\n  {a.firmware_line()}  "
            f"// stock TFLM, {DEFAULT_TARGET}@{a.version}, MicroAllocator: exact minimum "
            f"{a.min_arena_bytes:,} bytes\n"
        )


def test_a_model_no_tiling_helps_is_copied_unchanged(models_dir, tmp_path, capsys):
    src = models_dir / "kws_ref_model.tflite"
    dest = tmp_path / "kws.tflite"
    argv = ["optimize", str(src), "-o", str(dest), "--rewrite", "--json", "--quiet"]
    code, text = run([*argv, "--time-limit", "0.2"])
    assert code == 0, capsys.readouterr().err
    d = json.loads(text)
    if d["written"] == "unchanged":
        assert dest.read_bytes() == src.read_bytes()
        assert d["reason"].startswith("no tiling beats the original")
    else:  # our offline plan alone beats the original: planned, never tiled
        assert d["written"] == "planned" and d["reason"].startswith("no tiling beats our offline")
    assert d["min_arena_bytes"] <= d["original_min_arena_bytes"]
    assert len(d["tilings"]) > 1 and all(not t["written"] for t in d["tilings"][1:])
