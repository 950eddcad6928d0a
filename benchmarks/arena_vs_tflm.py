"""Arena bytes: the real TFLM (tflite-micro from PyPI) next to tflm_arena, in
one process, on the shared models our interpreter runs.

Columns: TFLM's recorded head / tail / total; ours (same greedy planner, our
runtime structs); our exact required arena (head + tail + the temp peak
during allocation: the smallest arena that works); the plan's lower bound;
and tflite-micro's own default guess (10 x model size).

    python benchmarks/arena_vs_tflm.py [--models-dir ../shared/models]
"""
from __future__ import annotations

import argparse
import os
import re
import tempfile
from pathlib import Path

import tflm_arena as ta

MODELS = ["hello_world_int8", "hello_world_float", "simple_add_model",
          "micro_speech_quantized", "person_detect", "vww_96_int8", "kws_ref_model",
          "pretrainedResnet_quant", "ad01_int8"]


def tflm_allocations(data: bytes) -> dict:
    from tflite_micro import runtime
    it = runtime.Interpreter.from_bytes(data, arena_size=8 << 20)
    with tempfile.TemporaryFile() as f:  # TFLM prints to the C-level stderr
        saved = os.dup(2)
        try:
            os.dup2(f.fileno(), 2)
            it.print_allocations()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        text = f.read().decode()
    return {k: int(v) for k, v in re.findall(r"Arena allocation (\w+) (\d+) bytes", text)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models-dir", default=str(Path(__file__).resolve().parents[2] / "shared" / "models"))
    args = ap.parse_args()
    print(f"{'model':<24} {'TFLM head':>9} {'tail':>6} {'total':>7} | {'ours head':>9} "
          f"{'tail':>6} {'total':>7} {'required':>8} | {'LB':>6} {'10x guess':>9}")
    for name in MODELS:
        m = ta.Model.load(Path(args.models_dir) / f"{name}.tflite")
        t = tflm_allocations(m.data)
        it = ta.Interpreter(m)
        a = it.allocations()
        print(f"{name:<24} {t['head']:>9} {t['tail']:>6} {t['total']:>7} | {a['head']:>9} "
              f"{a['tail']:>6} {a['total']:>7} {a['required_bytes']:>8} | "
              f"{m.plan().lower_bound:>6} {10 * len(m.data):>9}")


if __name__ == "__main__":
    main()
