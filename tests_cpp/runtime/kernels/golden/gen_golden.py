#!/usr/bin/env python3
"""Regenerates the kernel tests' golden headers from the real TFLM.

Every ``<stem>_cases.py`` beside this script defines ``cases()`` (a list of
golden_lib.Case); this writes ``<stem>_golden.h`` for each (or only the
stems given on the command line). Adding an operator adds its own
``<op>_cases.py``; nothing here changes.

Usage: python3 tests_cpp/runtime/kernels/golden/gen_golden.py [stem ...]
"""

from __future__ import annotations

import glob
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import golden_lib  # noqa: E402


def main(argv: list[str]) -> int:
    stems = argv or sorted(
        os.path.basename(p)[: -len("_cases.py")]
        for p in glob.glob(os.path.join(HERE, "*_cases.py"))
    )
    for stem in stems:
        module = importlib.import_module(f"{stem}_cases")
        # Always run last: calibration runs leave a result for an older scale.
        cases = [golden_lib.run(c) for c in module.cases()]
        path = os.path.join(HERE, f"{stem}_golden.h")
        with open(path, "w") as f:
            f.write(golden_lib.emit_header(stem, "gen_golden.py", cases))
        print(f"wrote {path}: {len(cases)} cases")
        for c in cases:
            print(f"  {c.name:40s} persistent {c.persistent}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
