"""Rewritten models against real TFLM built for 32-bit ARM (the oracle
table data/oracle_armhf_rewrite.tsv: reference kernels, CMSIS-NN DSP and
scalar): our prediction of each build's minimum arena, head and tail equals
the oracle's. The table names the tiling; the test writes the same model
again and checks its sha256, so a change of the rewrite's output fails here
until it is measured again.
"""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from conftest import _models_dir

import tflm_arena as ta
from tflm_arena import _core
from tflm_arena import _sample_models as sm

DATA = Path(__file__).with_name("data") / "oracle_armhf_rewrite.tsv"
# The same oracle builds as oracle_armhf_cmsis_nn.tsv, so the same targets.
BUILD_TARGETS = json.loads((DATA.parent / "oracle_builds.json").read_text())[
    "oracle_armhf_cmsis_nn.tsv"
]


def _rows() -> list[dict[str, str]]:
    with open(DATA) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


ROWS = _rows()
_MODELS: dict[str, bytes] = {}


def _rewritten(row: dict[str, str]) -> ta.Model:
    key = row["model"] + row["sha256"]
    if key not in _MODELS:
        name = row["model"]
        if name.startswith("mobilenet_v2_224_"):
            m = ta.Model.from_bytes(sm.mobilenet_v2(name.rsplit("_", 1)[1]))
        else:
            m = ta.Model.load(_models_dir() / f"{name}.tflite")
        t = [int(row[k]) for k in ("length", "rows", "cols", "length2", "rows2", "cols2")]
        _MODELS[key] = _core.rewrite_write(m._handle, *t)
    return ta.Model.from_bytes(_MODELS[key])


def test_table_covers_every_build_of_every_model():
    assert len(ROWS) == 15
    assert {r["build"] for r in ROWS} == set(BUILD_TARGETS)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['model']}-{r['build']}")
def test_prediction_equals_the_arm_oracle(row):
    m = _rewritten(row)
    assert hashlib.sha256(m.data).hexdigest() == row["sha256"], (
        "the rewrite writes another model now: measure it again with the oracle"
    )
    for target in BUILD_TARGETS[row["build"]]:
        a = ta.tflm_arena(m, target=target)
        assert (a.min_arena_bytes, a.head, a.tail) == (
            int(row["min_arena"]),
            int(row["head"]),
            int(row["tail"]),
        ), target
