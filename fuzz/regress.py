#!/usr/bin/env python3
"""Reproducers in fuzz/regressions/<harness>/ without copying shared models.

A crash found by mutating one of the shared .tflite models is nearly a copy
of that model, which must not enter the repo. Such reproducers are stored as
a small delta against the model (NAME.delta: base file name and sha256, the
differing bytes, the sha256 of the result); everything else (inputs grown
from builder models or from nothing) is stored as raw bytes.

  regress.py save HARNESS CRASH_FILE NAME [--models DIR]
      write fuzz/regressions/HARNESS/NAME (raw) or NAME.delta
  regress.py shrink HARNESS_BINARY CRASH_FILE OUT_FILE [--models DIR]
      undo as many of the changes against the closest shared model as
      possible while the binary still fails at the same place (libFuzzer's
      own -minimize_crash cannot do this: the harnesses hash the whole
      input to pick options)
  regress.py materialize OUT_DIR [--models DIR]
      rebuild every reproducer into OUT_DIR/HARNESS/NAME (run.sh replays
      these); a .delta whose base model is missing or changed is an error
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import re
import subprocess
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
    return [[p, len(base) - p - s, data[p : len(data) - s].hex()]]


def apply(base: bytes, edits: list[list]) -> bytes:
    out, pos = bytearray(), 0
    for offset, length, hexdata in edits:
        out += base[pos:offset]
        out += bytes.fromhex(hexdata)
        pos = offset + length
    out += base[pos:]
    return bytes(out)


def closest_model(data: bytes, models: pathlib.Path):
    """(changed bytes, name, base bytes, edits) of the shared model closest to
    data, or None when none is close (fewer than half the bytes changed)."""
    best = None
    for model in sorted(models.glob("*.tflite")):
        base = model.read_bytes()
        edits = runs_of_changes(base, data)
        changed = sum(len(e[2]) // 2 for e in edits)
        if changed < len(data) // 2 and (best is None or changed < best[0]):
            best = (changed, model.name, base, edits)
    return best


def failure_site(binary: str, data: bytes, scratch: pathlib.Path):
    """Where the harness fails on data (first sanitizer / check line), or None."""
    scratch.write_bytes(data)
    r = subprocess.run(
        [binary, str(scratch)],
        capture_output=True,
        text=True,
        env={"UBSAN_OPTIONS": "print_stacktrace=1"},
        timeout=60,
    )
    if r.returncode == 0:
        return None
    for line in r.stderr.splitlines():
        m = re.search(r"(\S+:\d+:\d+): runtime error", line)
        if m:
            return m.group(1)
        m = re.search(r"ERROR: AddressSanitizer: (\S+)", line)
        if m:
            frames = re.findall(r"#0 \S+ in (\S+)", r.stderr)
            return m.group(1) + (" " + frames[0] if frames else "")
        if "FUZZ_CHECK failed at" in line:
            return line.split(": ", 1)[0]
    return f"exit {r.returncode}"


def shrink(args) -> int:
    data = pathlib.Path(args.crash_file).read_bytes()
    best = closest_model(data, args.models)
    scratch = pathlib.Path(args.out_file).with_suffix(".try")
    site = failure_site(args.binary, data, scratch)
    if site is None:
        print("shrink: the input does not fail", file=sys.stderr)
        return 1
    if best is None or len(best[2]) != len(data):
        pathlib.Path(args.out_file).write_bytes(data)
        print(f"shrink: nothing to undo; failure at {site}")
        return 0
    base = best[2]
    edits = [(o, bytes.fromhex(h)) for o, _, h in best[3]]

    def build(es):
        out = bytearray(base)
        for o, b in es:
            out[o : o + len(b)] = b
        return bytes(out)

    tries, changed = 0, True
    while changed and tries < args.max_tries:
        changed = False
        i = 0
        while i < len(edits) and tries < args.max_tries:
            trial = edits[:i] + edits[i + 1 :]
            tries += 1
            if failure_site(args.binary, build(trial), scratch) == site:
                edits, changed = trial, True
                continue
            o, b = edits[i]
            if len(b) > 1:  # keep it, but try each half on its own next round
                h = len(b) // 2
                edits[i : i + 1] = [(o, b[:h]), (o + h, b[h:])]
                changed = True
                i += 2
                continue
            i += 1
    scratch.unlink(missing_ok=True)
    result = build(edits)
    assert failure_site(args.binary, result, scratch) == site
    scratch.unlink(missing_ok=True)
    pathlib.Path(args.out_file).write_bytes(result)
    n = sum(len(b) for _, b in edits)
    print(f"shrink: {n} bytes differ from {best[1]} after {tries} runs; failure at {site}")
    return 0


def save(args) -> int:
    data = pathlib.Path(args.crash_file).read_bytes()
    out_dir = REGRESSIONS / args.harness
    out_dir.mkdir(parents=True, exist_ok=True)
    best = closest_model(data, args.models)
    if best is None:
        (out_dir / args.name).write_bytes(data)
        print(f"saved raw {out_dir / args.name} ({len(data)} bytes)")
        return 0
    changed, name, base, edits = best
    assert apply(base, edits) == data
    delta = {"base": name, "base_sha256": sha256(base), "sha256": sha256(data), "edits": edits}
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
    k = sub.add_parser("shrink")
    k.add_argument("binary")
    k.add_argument("crash_file")
    k.add_argument("out_file")
    k.add_argument("--max-tries", type=int, default=400)
    m = sub.add_parser("materialize")
    m.add_argument("out_dir", type=pathlib.Path)
    for p in (s, k, m):
        p.add_argument("--models", type=pathlib.Path, default=DEFAULT_MODELS)
    args = ap.parse_args()
    return {"save": save, "shrink": shrink, "materialize": materialize}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
