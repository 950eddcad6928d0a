"""Runs the four notebooks on every .tflite model in a folder, each in a
fresh Jupyter kernel (nbclient) with TFLM_ARENA_MODEL set, and prints one
line per notebook and model: seconds, ok or the error's last line, and the
sections the notebook skipped (with the reason it printed).

    python benchmarks/notebooks.py --models-dir DIR [--notebook NAME ...]
"""

from __future__ import annotations

import argparse
import os
import re
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run(notebook: Path, model: Path) -> tuple[float, str, list[str]]:
    import nbformat
    from nbclient import NotebookClient

    os.environ["TFLM_ARENA_MODEL"] = str(model)
    os.environ["MPLBACKEND"] = "Agg"
    nb = nbformat.read(notebook, as_version=4)
    start = time.perf_counter()
    try:
        NotebookClient(
            nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}
        ).execute()
        status = "ok"
    except Exception as e:  # the notebook's error, reported as a row
        lines = [ln for ln in str(e).strip().splitlines() if ln.strip()]
        status = "FAIL " + re.sub(r"\x1b\[[0-9;]*m", "", lines[-1] if lines else type(e).__name__)
    text = "".join(
        o.get("text", "")
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "stream"
    )
    skipped = sorted(
        {ln.strip() for ln in text.splitlines() if ln.startswith(("skipped:", "not rewritten:"))}
    )
    return time.perf_counter() - start, status, skipped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models-dir", required=True)
    ap.add_argument("--notebook", action="append", help="a notebook's name (default all)")
    args = ap.parse_args(argv)
    names = args.notebook or [p.stem for p in sorted((REPO / "notebooks").glob("*.ipynb"))]
    failed = 0
    for model in sorted(Path(args.models_dir).glob("*.tflite")):
        for name in names:
            seconds, status, skipped = run(REPO / "notebooks" / f"{name}.ipynb", model)
            failed += status != "ok"
            note = f"  [{'; '.join(skipped)}]" if skipped else ""
            print(f"{model.stem:<44} {name:<32} {seconds:6.1f} s  {status}{note}", flush=True)
    print(f"{failed} run(s) failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
