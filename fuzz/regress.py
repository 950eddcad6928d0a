#!/usr/bin/env python3
"""Reproducers in fuzz/regressions/<harness>/ without copying shared models.

A crash found by mutating one of the shared .tflite models is nearly a copy
of that model, which must not enter the repo. Such reproducers are stored as
a small delta against the model (NAME.delta: base file name and sha256, the
differing bytes, the sha256 of the result); everything else (inputs grown
from builder models or from nothing) is stored as raw bytes.

  regress.py save HARNESS CRASH_FILE NAME [--models DIR]
      write fuzz/regressions/HARNESS/NAME (raw) or NAME.delta
  regress.py materialize OUT_DIR [--models DIR]
      rebuild every reproducer into OUT_DIR/HARNESS/NAME (run.sh replays
      these); a .delta whose base model is missing or changed is an error
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
REGRESSIONS = HERE / "regressions"
DEFAULT_MODELS = HERE.parent.parent / "shared" / "models"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def runs_of_changes(base: bytes, data: bytes) -> list[list]:
    """[offset, base_length, replacement_hex] edits turning base into data.
    Same length: one edit per run of differing bytes. Otherwise: the span
    between the common prefix and the common suffix."""
    if len(base) == len(data):
        edits, i = [], 0
        while i < len(data):
            if base[i] == data[i]:
                i += 1
                continue
            j = i
            while j < len(data) and base[j] != data[j]:
                j += 1
            edits.append([i, j - i, data[i:j].hex()])
            i = j
        return edits
    p = 0
    while p < min(len(base), len(data)) and base[p] == data[p]:
        p += 1
    s = 0
    while s < min(len(base), len(data)) - p and base[-1 - s] == data[-1 - s]:
        s += 1
    return [[p, len(base) - p - s, data[p:len(data) - s].hex()]]


def apply(base: bytes, edits: list[list]) -> bytes:
    out, pos = bytearray(), 0
    for offset, length, hexdata in edits:
        out += base[pos:offset]
        out += bytes.fromhex(hexdata)
        pos = offset + length
    out += base[pos:]
    return bytes(out)


def save(args) -> int:
    data = pathlib.Path(args.crash_file).read_bytes()
    out_dir = REGRESSIONS / args.harness
    out_dir.mkdir(parents=True, exist_ok=True)
    best = None
    for model in sorted(args.models.glob("*.tflite")):
        base = model.read_bytes()
        edits = runs_of_changes(base, data)
        changed = sum(len(e[2]) // 2 for e in edits)
        if changed < len(data) // 2 and (best is None or changed < best[0]):
            best = (changed, model.name, base, edits)
    if best is None:
        (out_dir / args.name).write_bytes(data)
        print(f"saved raw {out_dir / args.name} ({len(data)} bytes)")
        return 0
    changed, name, base, edits = best
    assert apply(base, edits) == data
    delta = {"base": name, "base_sha256": sha256(base), "sha256": sha256(data),
             "edits": edits}
    path = out_dir / (args.name + ".delta")
    lines = ",\n  ".join(json.dumps(e) for e in edits)
    head = json.dumps({k: v for k, v in delta.items() if k != "edits"})[:-1]
    path.write_text(f'{head}, "edits": [\n  {lines}\n]}}\n')
    print(f"saved {path}: {changed} of {len(data)} bytes differ from {name}")
    return 0


def materialize(args) -> int:
    errors = 0
    for f in sorted(REGRESSIONS.glob("*/*")):
        if f.name.endswith(".md"):
            continue
        harness_dir = args.out_dir / f.parent.name
        harness_dir.mkdir(parents=True, exist_ok=True)
        if f.suffix != ".delta":
            (harness_dir / f.name).write_bytes(f.read_bytes())
            continue
        delta = json.loads(f.read_text())
        model = args.models / delta["base"]
        if not model.is_file() or sha256(model.read_bytes()) != delta["base_sha256"]:
            print(f"regress.py: {f}: base model {model} missing or changed", file=sys.stderr)
            errors += 1
            continue
        data = apply(model.read_bytes(), delta["edits"])
        if sha256(data) != delta["sha256"]:
            print(f"regress.py: {f}: rebuilt bytes do not match", file=sys.stderr)
            errors += 1
            continue
        (harness_dir / f.stem).write_bytes(data)
    return 1 if errors else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save")
    s.add_argument("harness")
    s.add_argument("crash_file")
    s.add_argument("name")
    m = sub.add_parser("materialize")
    m.add_argument("out_dir", type=pathlib.Path)
    for p in (s, m):
        p.add_argument("--models", type=pathlib.Path, default=DEFAULT_MODELS)
    args = ap.parse_args()
    return save(args) if args.cmd == "save" else materialize(args)


if __name__ == "__main__":
    sys.exit(main())
