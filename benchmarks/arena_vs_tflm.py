"""Arena bytes: the real TFLM (tflite-micro from PyPI) next to tflm_arena, in
one process, on the shared models.

Table 1 (models our interpreter runs): TFLM's recorded head / tail / total;
ours (same greedy planner, our runtime structs); our exact required arena
(head + tail + the temp peak during allocation: the smallest arena that
works); the plan's lower bound; and tflite-micro's own default guess
(10 x model size).

Table 2, the proof in stock TFLM (every shared model TFLM's memory model
covers): what the real tflite-micro reports (head, total) and the smallest
arena it accepts (bisection, one subprocess per try) for
  orig   the model as shipped (TFLM's own greedy plan),
  plan   the model with the plan ``ta.optimize`` writes (every strategy,
         ``optimal`` at --time-limit s; "-" when nothing beats TFLM),
  reord  the reordered model with its best plan (``ta.optimize(reorder=True)``),
plus our predicted head for each, the lower bound (most bytes live at once,
scratch included) and the peak of the original and reordered operator
orders; "out" says whether all outputs were identical to the original model's
in tflite-micro on 3 random inputs.

    python benchmarks/arena_vs_tflm.py [--models-dir DIR]
        [--time-limit 1.0] [--no-bisect] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

import tflm_arena as ta
from tflm_arena._sample_models import random_inputs

MODELS = [
    "hello_world_int8",
    "hello_world_float",
    "simple_add_model",
    "micro_speech_quantized",
    "person_detect",
    "vww_96_int8",
    "kws_ref_model",
    "pretrainedResnet_quant",
    "ad01_int8",
]


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


def _wheel_outputs(model: ta.Model, seed: int = 0, runs: int = 3) -> list:
    """Outputs of the real TFLM on `runs` random inputs (same seed -> same inputs)."""
    import numpy as np
    from tflite_micro import runtime

    it = runtime.Interpreter.from_bytes(model.data, arena_size=8 << 20)
    rng = np.random.default_rng(seed)
    n_in, n_out = len(model.inputs), len(model.outputs)
    outs = []
    for _ in range(runs):
        for i, x in enumerate(random_inputs(it, n_in, rng)):
            it.set_input(x, i)
        it.invoke()
        outs.append([it.get_output(i).copy() for i in range(n_out)])
    return outs


def _same_outputs(a: list, b: list) -> bool:
    import numpy as np

    return len(a) == len(b) and all(
        len(x) == len(y) and all(np.array_equal(u, v) for u, v in zip(x, y, strict=True))
        for x, y in zip(a, b, strict=True)
    )


def proof_row(name: str, m: ta.Model, time_limit: float, bisect: bool) -> dict:
    """The figures of one line of table 2 (see the module docstring)."""
    from tflm_size import wheel_minimum  # benchmarks/tflm_size.py

    row = {"model": name}
    opt = ta.optimize(m, reorder=True, time_limit=time_limit, target="x86-64")
    row["lb"] = opt.original_lower_bound
    row["peak"], row["peak_reordered"] = opt.reordering.peak_before, opt.reordering.peak_after
    variants = {"orig": (m, opt.original_head)}
    for key, reordered in (("plan", False), ("reord", True)):
        a = opt.best_of(reordered)
        if a is not None and a.head < opt.original_head:
            variants[key] = (a.model, a.head)
    ref = _wheel_outputs(m)
    with tempfile.TemporaryDirectory() as d:
        for key, (model, predicted) in variants.items():
            t = tflm_allocations(model.data)
            row[key] = {
                "predicted": predicted,
                "head": t["head"],
                "total": t["total"],
                "same": None if key == "orig" else _same_outputs(ref, _wheel_outputs(model)),
            }
            if bisect:
                f = Path(d) / f"{key}.tflite"
                f.write_bytes(model.data)
                hint = ta.tflm_arena(model, target="x86-64", recording=True).min_arena_bytes
                row[key]["min_arena"] = wheel_minimum(f, hint=hint)[0]
    return row


def _cell(row: dict, key: str, field: str) -> str:
    v = row.get(key)
    return "-" if v is None or field not in v else f"{v[field]:,}"


def print_proof(models_dir: Path, names, time_limit: float, bisect: bool) -> None:
    print(
        f"\nTable 2: stock TFLM (tflite-micro wheel, x86-64) with our plans; optimal at "
        f"{time_limit:g} s"
    )
    cols = ["orig", "plan", "reord"]
    head = f"{'model':<26} {'LB':>8} {'peak':>8} {'peak re':>8}"
    for c in cols:
        head += f" | {c + ' head':>11} {'pred':>8} {'total':>9} {'min arena':>9} {'out':>4}"
    print(head)
    from tflm_arena.examples import branchy_model_bytes

    models = [(p.stem, ta.Model.load(p)) for p in sorted(models_dir.glob("*.tflite"))]
    # Branchy graphs are where reordering pays; no shared model is one.
    models.append(("branchy (examples.py)", ta.Model.from_bytes(branchy_model_bytes())))
    for name, m in models:
        if names and name not in names:
            continue
        try:
            row = proof_row(name, m, time_limit, bisect)
        except NotImplementedError as e:
            print(f"{name:<26} not modelled: {str(e).splitlines()[0]}")
            continue
        line = f"{row['model']:<26} {row['lb']:>8,} {row['peak']:>8,} {row['peak_reordered']:>8,}"
        for c in cols:
            v = row.get(c)
            same = "-" if v is None or v["same"] is None else ("yes" if v["same"] else "NO")
            line += (
                f" | {_cell(row, c, 'head'):>11} {_cell(row, c, 'predicted'):>8} "
                f"{_cell(row, c, 'total'):>9} {_cell(row, c, 'min_arena'):>9} {same:>4}"
            )
        print(line, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--models-dir", default=str(Path(__file__).resolve().parents[2] / "shared" / "models")
    )
    ap.add_argument("--time-limit", type=float, default=1.0, help="seconds for the optimal planner")
    ap.add_argument(
        "--no-bisect", action="store_true", help="skip the wheel's minimum-arena bisection"
    )
    ap.add_argument("--only", nargs="*", help="model names (file stems) for table 2")
    ap.add_argument("--no-table1", action="store_true", help="table 2 only")
    args = ap.parse_args()
    print(
        f"{'model':<24} {'TFLM head':>9} {'tail':>6} {'total':>7} | {'ours head':>9} "
        f"{'tail':>6} {'total':>7} {'required':>8} | {'LB':>6} {'10x guess':>9}"
    )
    for name in [] if args.no_table1 else MODELS:
        m = ta.Model.load(Path(args.models_dir) / f"{name}.tflite")
        t = tflm_allocations(m.data)
        it = ta.Interpreter(m)
        a = it.allocations()
        print(
            f"{name:<24} {t['head']:>9} {t['tail']:>6} {t['total']:>7} | {a['head']:>9} "
            f"{a['tail']:>6} {a['total']:>7} {a['required_bytes']:>8} | "
            f"{m.plan().lower_bound:>6} {10 * len(m.data):>9}"
        )
    print_proof(Path(args.models_dir), set(args.only or ()), args.time_limit, not args.no_bisect)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
