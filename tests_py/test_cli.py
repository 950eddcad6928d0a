from __future__ import annotations

import io
import json

import tflm_arena as ta
from tflm_arena.cli import main


def run(argv):
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


def test_demo_builds_plans_and_draws_its_own_model():
    code, text = run(["demo"])
    assert code == 0
    assert "tflm_arena demo: residual MLP: 7 operators" in text
    assert "arena 1152 bytes, lower bound 1152 bytes" in text
    assert "   0: 00000000" in text  # TFLM-style picture


def test_inspect_lists_tensors_operators_and_lifetimes(models_dir):
    code, text = run(["inspect", str(models_dir / "hello_world_int8.tflite")])
    assert code == 0
    assert "FULLY_CONNECTED [0, 6, 5] -> [7]" in text
    lines = [l for l in text.splitlines() if l.strip().startswith("9 INT8")]
    assert lines and "arena" in lines[0] and "3     3" in lines[0]


def test_plan_json_matches_api(models_dir):
    path = models_dir / "person_detect.tflite"
    code, text = run(["plan", str(path), "--json"])
    assert code == 0
    data = json.loads(text)
    p = ta.Model.load(path).plan()
    assert data["arena_bytes"] == p.arena_bytes == 55296
    assert [b["offset"] for b in data["buffers"]] == p.offsets.tolist()


def test_plan_ascii(models_dir):
    code, text = run(["plan", str(models_dir / "hello_world_int8.tflite"), "--ascii"])
    assert code == 0 and "(id=0)" in text and "first_used" in text


def test_write_plan_then_replan(models_dir, tmp_path):
    out = tmp_path / "planned.tflite"
    code, text = run(["write-plan", str(models_dir / "micro_speech_quantized.tflite"), "-o", str(out)])
    assert code == 0 and "arena 5968 bytes" in text
    assert ta.Model.load(out).offline_plan() is not None
    # Writing onto the source needs --overwrite.
    code, _ = run(["write-plan", str(out), "-o", str(out)])
    assert code == 1
    code, _ = run(["write-plan", str(out), "-o", str(out), "--overwrite"])
    assert code == 0


def test_errors_are_one_line_and_nonzero(tmp_path, capsys):
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"\x00" * 64)
    assert main(["inspect", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tflm-arena: error: ") and err.count("\n") == 1
    assert main(["plan", str(tmp_path / "missing.tflite")]) == 1
    assert main(["frobnicate"]) != 0
