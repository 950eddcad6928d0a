"""Rewritten models against real TFLM built for 32-bit ARM (the oracle
table data/oracle_armhf_rewrite.tsv: reference kernels, CMSIS-NN DSP and
scalar): our prediction of each build's minimum arena, head and tail equals
the oracle's. The table names the tiling; the test writes the same model
again and checks its sha256, so a change of the rewrite's output fails here
until it is measured again. The MobileNetV2 models are generated
(_sample_models.mobilenet_v2): their weights and quantization scales come
from float32 arithmetic whose rounding depends on the machine (numpy's SIMD
reductions), so their bytes differ between machines; for them the check is
the written model's structure (STRUCTURE below: every tensor's type, shape,
buffer, bytes and quantization length, every operator and its tensors), all
the arena depends on.
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

# sha256 of structure() of the rewritten models the oracle measured.
STRUCTURE = {
    "mobilenet_v2_224_int8": "2e3453ddc2e9c8422dafbebb658fe3f9c7795e07ea3d65c72265cdd85e04e2cf",
    "mobilenet_v2_224_float32": "fabc7c10469c93b47fc13e2a09a14a31babb94a059ddcb96d8e24a90bbd075be",
}


def structure(m: ta.Model) -> str:
    """What the arena depends on, without weights and scale values."""
    parts = [
        (t.subgraph, t.index, t.type, t.shape, t.buffer, t.is_variable, t.is_constant, t.bytes)
        + ((len(t.scale), t.quantized_dimension) if t.scale is not None else ())
        for t in m.tensors
    ]
    parts += [
        (o.subgraph, o.index, o.name, o.custom_code, o.version, o.inputs, o.outputs)
        + (o.intermediates, o.called_subgraphs)
        for o in m.operators
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()


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
    if row["model"] in STRUCTURE:
        assert structure(m) == STRUCTURE[row["model"]], (
            "the rewrite writes another model now: measure it again with the oracle"
        )
    else:
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
