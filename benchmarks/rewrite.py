"""The graph rewrite (``ta.rewrite``) on the development models: how far
below the original the whole arena of stock TFLM goes, and at what cost.

For each model: the trade-off table (tiling -> stock TFLM head, tail,
total; with our optimal offline plan; MACs +%; flash +bytes) on the
``tflite-micro-wheel`` target, then one summary line per model with the
written model's minimum arena on the wheel's build (x86-64), on 32-bit ARM
Cortex-M (reference kernels) and the ratio to the original. ``--wheel``
also checks the written model in the real TFLM (the ``tflite-micro``
wheel): outputs bit-identical on 3 random inputs, and the smallest arena
it accepts, bisected, equal to our prediction.

Run: ``python benchmarks/rewrite.py [--wheel] [--models DIR]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import tflm_arena as ta
from tflm_arena import _sample_models as sm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from arena_vs_tflm import _same_outputs, _wheel_outputs
from tflm_size import wheel_minimum

WHEEL = "tflite-micro-wheel"


def models(models_dir: Path) -> list[tuple[str, ta.Model]]:
    out = [
        ("mobilenet_v2_224_int8 (built)", ta.Model.from_bytes(sm.mobilenet_v2("int8"))),
        ("mobilenet_v2_224_float32 (built)", ta.Model.from_bytes(sm.mobilenet_v2("float32"))),
    ]
    for name in ("vww_96_int8", "person_detect", "pretrainedResnet_quant", "kws_ref_model"):
        p = models_dir / f"{name}.tflite"
        if p.is_file():
            out.append((name, ta.Model.load(p)))
        else:
            print(f"(skipped {name}: {p} not found)")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", action="store_true", help="check in the tflite-micro wheel")
    ap.add_argument(
        "--models", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "models"
    )
    ap.add_argument("--time-limit", type=float, default=1.0)
    args = ap.parse_args(argv)
    summary = []
    for name, m in models(args.models):
        t0 = time.perf_counter()
        r = ta.rewrite(m, target=WHEEL, time_limit=args.time_limit)
        dt = time.perf_counter() - t0
        print(
            f"== {name}: {len(r.choices)} tilings measured in {dt:.1f} s; stage: "
            f"{len(r.stage)} operators, ends at {r.end_reason}"
        )
        print(r.table(limit=10))
        arm = ta.tflm_arena(r.model, target="cortex-m").min_arena_bytes
        arm0 = ta.tflm_arena(m, target="cortex-m").min_arena_bytes
        line = (
            f"{name:34s} {r.written:9s} wheel {r.original.total:>10,} -> {r.min_arena:>10,} "
            f"({100.0 * r.min_arena / r.original.total:5.1f} %)  cortex-m {arm0:>10,} -> "
            f"{arm:>10,} ({100.0 * arm / arm0:5.1f} %)  MACs "
            f"{100.0 * (r.chosen.macs / r.original.macs - 1) if r.original.macs else 0:+.1f} %"
            f"  flash {len(r.model.data) - len(m.data):+,} B"
        )
        if args.wheel and r.written != "unchanged":
            same = all(
                _same_outputs(
                    _wheel_outputs(m, seed=s, runs=1), _wheel_outputs(r.model, seed=s, runs=1)
                )
                for s in (0, 1, 2)
            )
            with tempfile.TemporaryDirectory() as d:
                path = Path(d) / "m.tflite"
                r.model.save(path)
                bisected, _ = wheel_minimum(path, hint=r.min_arena)
            line += (
                f"  | wheel: outputs {'identical' if same else 'DIFFER'}, bisected "
                f"{bisected:,} ({'= prediction' if bisected == r.min_arena else 'DIFFERS'})"
            )
        summary.append(line)
        print()
    print("stock TFLM's minimum arena, original -> written model (wheel = x86-64 build)")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
