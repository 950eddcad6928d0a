"""The arena stock TFLM needs, per shared model: our prediction
(``ta.tflm_arena``), the real wheel's byte-exact minimum found by
bisection, TFLM's own ``arena_used_bytes``-style total printed at that
size, and ``tflite-micro``'s default guess (10 x the model size).

Each wheel try runs in a fresh subprocess: just below its need TFLM may
segfault (docs/tflm_behaviour.md, section "Tail over temp") or abort in a
kernel's Prepare.

    python benchmarks/tflm_size.py [--models-dir DIR] [--linear]
        [--json OUT]   # also write the bisected figures (test fixture)
    python benchmarks/tflm_size.py --oracle   # every target an oracle checks

``--oracle`` prints, per shared model and oracle build (real TFLM built for
that target, measured outside this repository; tables and how they were
made in tests_py/data/oracle_*.tsv, build -> target in
tests_py/data/oracle_builds.json): our minimum, the oracle's, their
difference, and the difference from the reference-kernel build of the same
table, so that it shows how much the kernel library matters.

The functions are reused by tests_py/test_tflm_size.py.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

# The child: build an interpreter on `size` bytes, fill inputs with zeros,
# invoke, print the allocations (recording mode), report on stdout.
_CHILD = r"""
import json, os, sys, tempfile
import numpy as np
from tflite_micro import runtime
path, size, linear = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
cfg = (runtime.InterpreterConfig.kPreserveAllTensors if linear
       else runtime.InterpreterConfig.kAllocationRecording)
data = open(path, "rb").read()
err = tempfile.TemporaryFile()
os.dup2(err.fileno(), 2)          # TFLM logs to the C-level stderr
it = runtime.Interpreter.from_bytes(data, arena_size=size, intrepreter_config=cfg)
i = 0
while True:
    try:
        d = it.get_input_details(i)
    except Exception:
        break
    it.set_input(np.zeros(d["shape"], d["dtype"]), i)
    i += 1
it.invoke()
err.seek(0, 2)
start = err.tell()
if not linear:
    it.print_allocations()
err.seek(start)
print(json.dumps({"ok": True, "log": err.read().decode(errors="replace")}))
"""

_TOTALS = re.compile(r"Arena allocation (\w+) (\d+) bytes")
_CATEGORY = re.compile(
    r"'([^']+)' used (\d+) bytes with alignment overhead \(requested (\d+) bytes for (\d+) "
)


def wheel_try(path, size: int, linear: bool = False, timeout: float = 60.0) -> dict | None:
    """The wheel's figures at `size` bytes, or None when it fails (any way:
    an error, a crash, or no answer within `timeout`; just below its need
    TFLM can also loop on a corrupted arena; docs/tflm_behaviour.md, section
    "Tail over temp").

    The child gets the environment without LD_PRELOAD/ASAN_OPTIONS, so the
    wheel runs the same whether or not the caller is the ASan test run."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")
    }
    try:
        p = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path), str(size), "1" if linear else "0"],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return None
    if p.returncode != 0 or not p.stdout.strip():
        return None
    log = json.loads(p.stdout.strip().splitlines()[-1])["log"]
    out = {k: int(v) for k, v in _TOTALS.findall(log)}
    out["categories"] = {
        name: {"used": int(u), "requested": int(r), "count": int(c)}
        for name, u, r, c in _CATEGORY.findall(log)
    }
    return out


def wheel_minimum(path, linear: bool = False, hint: int | None = None) -> tuple[int, dict]:
    """Byte-exact smallest arena the wheel accepts (bisection, one subprocess
    per try) and its figures at that size. `hint` only seeds the bracket;
    the answer does not depend on it."""
    hi = max(1024, hint or 0)
    while wheel_try(path, hi, linear) is None:
        hi *= 2
        if hi > 1 << 28:
            raise RuntimeError(f"{path}: the wheel fails up to {hi} bytes")
    lo = max(0, (hint or hi) - 4096) if hint else 0
    if lo and wheel_try(path, lo, linear) is not None:
        lo = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if wheel_try(path, mid, linear) is None:
            lo = mid
        else:
            hi = mid
    return hi, wheel_try(path, hi, linear)


DATA = Path(__file__).resolve().parents[1] / "tests_py" / "data"


def _oracle_rows(table: Path) -> list[dict[str, str]]:
    import csv

    with open(table) as f:
        lines = (line for line in f if not line.startswith("#"))
        return list(csv.DictReader(lines, delimiter="\t"))


def oracle_table(models_dir: Path) -> int:
    """Ours against every oracle table, per model and build."""
    import tflm_arena as ta

    builds = json.loads((DATA / "oracle_builds.json").read_text())
    print(
        f"{'model':<24}{'target':<22}{'ours':>9}{'oracle':>9}{'ours-oracle':>12}"
        f"{'vs reference':>14}"
    )
    mismatches = generated = 0
    for table, targets in builds.items():
        if table.startswith("_"):
            continue
        print(f"# {table}")
        rows = _oracle_rows(DATA / table)
        ref_build = next(iter(targets))  # the table's reference-kernel build
        reference = {
            r["model"]: int(r["min_arena"])
            for r in rows
            if r["build"] == ref_build and r["min_arena"].isdigit()
        }
        for r in sorted(rows, key=lambda r: (r["model"], list(targets).index(r["build"]))):
            target = targets[r["build"]][0]
            model = models_dir / f"{r['model']}.tflite"
            if not model.exists():  # a model the tests generate; they check it
                generated += 1
                continue
            if r.get("status", "ok") != "ok":  # the build refuses the model
                print(f"{r['model']:<24}{target:<22} oracle: {r['status']}")
                continue
            oracle = int(r["min_arena"])
            try:
                ours = ta.tflm_arena(model, target=target).min_arena_bytes
            except (NotImplementedError, ValueError, OSError) as e:
                print(f"{r['model']:<24}{target:<22} ours: {e}")
                mismatches += 1
                continue
            mismatches += ours != oracle
            ref = reference.get(r["model"])
            vs_ref = f"{oracle - ref:+,}" if ref is not None else "-"
            print(
                f"{r['model']:<24}{target:<22}{ours:>9,}{oracle:>9,}{ours - oracle:>+12,}"
                f"{vs_ref:>14}"
            )
    print(f"{mismatches} figure(s) differ from the oracle; {generated} row(s) of models the tests")
    print("generate were left to the tests (tests_py/test_tflm_*.py)")
    return 1 if mismatches else 0


def main(argv=None) -> int:
    import tflm_arena as ta

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--models-dir", default=str(Path(__file__).resolve().parents[2] / "shared" / "models")
    )
    ap.add_argument("--linear", action="store_true", help="also bisect the linear planner")
    ap.add_argument("--json", help="write the bisected figures here")
    ap.add_argument(
        "--oracle",
        action="store_true",
        help="ours against the real-TFLM oracle tables of every target they cover",
    )
    args = ap.parse_args(argv)
    if args.oracle:
        return oracle_table(Path(args.models_dir))

    fixture: dict[str, dict] = {}
    print(
        f"{'model':<26}{'ours':>9}{'wheel':>9}{'used@min':>10}{'10x':>10}"
        f"{'lin ours':>10}{'lin wheel':>10}"
    )
    for path in sorted(Path(args.models_dir).glob("*.tflite")):
        try:
            ours = ta.tflm_arena(path, target="x86-64", recording=True)
        except (NotImplementedError, ValueError) as e:
            print(f"{path.stem:<26} not modelled: {e}")
            continue
        try:
            wmin, figs = wheel_minimum(path, hint=ours.min_arena_bytes)
        except RuntimeError as e:
            print(f"{path.stem:<26} wheel cannot allocate it: {e}")
            continue
        entry = {"min_arena_bytes": wmin, **figs}
        line = (
            f"{path.stem:<26}{ours.min_arena_bytes:>9}{wmin:>9}{figs.get('total', 0):>10}"
            f"{10 * path.stat().st_size:>10}"
        )
        if args.linear:
            lo = ta.tflm_arena(path, target="x86-64", recording=False, planner="linear")
            lmin, _ = wheel_minimum(path, linear=True, hint=lo.min_arena_bytes)
            entry["linear_min_arena_bytes"] = lmin
            line += f"{lo.min_arena_bytes:>10}{lmin:>10}"
        fixture[path.stem] = entry
        print(line, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(fixture, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
