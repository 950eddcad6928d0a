"""ta.tflm_arena(target="cortex-m") against real TFLM built for 32-bit ARM
(armhf under qemu-arm, int-sized enums): benchmarks/data/tflm_oracle_armhf.tsv
holds the byte minimum, the smallest working multiple of 16, head and tail
that the oracle measured for every shared model, plain and recording
allocators and the linear planner (how: that file's header)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import tflm_arena as ta

DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "tflm_oracle_armhf.tsv"


def _rows():
    with open(DATA) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


@pytest.mark.parametrize(
    "row", _rows(), ids=lambda r: f"{r['model']}-{r['allocator']}-{r['planner']}"
)
def test_cortex_m_equals_tflm_built_for_arm(row, models_dir):
    assert row["status"] == "ok"
    m = ta.Model.load(models_dir / f"{row['model']}.tflite")
    # The table names TFLM's GreedyMemoryPlanner "greedy" (the oracle's word);
    # ours is "tflm_greedy".
    planner = {"greedy": "tflm_greedy"}.get(row["planner"], row["planner"])
    r = ta.tflm_arena(
        m, target="cortex-m", recording=row["allocator"] == "recording", planner=planner
    )
    assert (r.min_arena_bytes, r.min_arena_bytes_16, r.head, r.tail) == (
        int(row["min_arena"]),
        int(row["min_arena_16"]),
        int(row["head"]),
        int(row["tail"]),
    )


def test_every_shared_model_is_covered(models_dir):
    measured = {r["model"] for r in _rows()}
    assert measured == {p.stem for p in models_dir.glob("*.tflite")}
