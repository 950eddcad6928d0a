from __future__ import annotations

import io

from tflm_arena.cli import main


def test_demo_prints_plan_and_picture():
    out = io.StringIO()
    assert main(["demo"], out=out) == 0
    text = out.getvalue()
    assert "arena 64512 bytes, lower bound 64512 bytes" in text
    assert "0 (id=0): size=9216, offset=55296, first_used=0 last_used=29" in text


def test_unknown_command_fails_with_nonzero_exit(capsys):
    assert main(["frobnicate"]) != 0
