"""Our interpreter next to the real TFLM (the tflite-micro wheel), in one
process, on every .tflite of a folder: N random input sequences run through
both (state carried from run to run, as a streaming application does), the
outputs compared bit for bit (within 1e-5 relative for float32), and the
arena sections side by side: head (activations and scratch, planned as
TFLM plans them) and tail (persistent: our runtime's structs, not TFLM's).
A model our interpreter cannot run says why.

    python benchmarks/interpreter_vs_wheel.py DIR [--runs 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests_py"))
import tflm_reference as ref

import tflm_arena as ta


def compare(data: bytes, runs: int, seed: int) -> tuple[str, dict[str, int], dict[str, int]]:
    """(identical or what differs, our allocations, TFLM's)."""
    try:
        ours, theirs = ref.compare_runs(data, runs, seed)
        same = "yes"
    except AssertionError as e:  # compare_runs asserts equal outputs
        ours, theirs = ta.Interpreter(ta.Model.from_bytes(data)), ref.interpreter(data)
        ours.allocate_tensors()
        same = f"no: {str(e).splitlines()[0][:80]}"
    return same, ours.allocations(), ref.allocations(theirs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    columns = ["head ours", "head TFLM", "tail ours", "tail TFLM"]
    print(f"| model | outputs identical ({args.runs} runs) | " + " | ".join(columns) + " |")
    print("|---|---|---|---|---|---|")
    for path in sorted(args.folder.glob("*.tflite")):
        try:
            same, ours, theirs = compare(path.read_bytes(), args.runs, args.seed)
        except (NotImplementedError, ValueError, RuntimeError) as e:
            print(f"| {path.stem} | not run: {str(e).splitlines()[0][:120]} | | | | |")
            continue
        print(
            f"| {path.stem} | {same} | {ours['head']:,} | {theirs['head']:,} "
            f"| {ours['tail']:,} | {theirs['tail']:,} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
