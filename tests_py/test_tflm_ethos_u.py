"""Vela-compiled models (Arm Ethos-U): the ethos-u custom operator as
TFLM's kernels/ethos_u/ethosu.cc allocates, Vela's offline plan honoured,
Vela's fast scratch read from the model. Every shared int8 model is
compiled here with the pinned Vela for six configurations and sized on
``cortex-m+ethos-u``, against real TFLM built for 32-bit ARM with the
Ethos-U kernel (tests_py/data/oracle_armhf_ethos_u.tsv)."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

import tflm_arena as ta

MODELS = REPO.parent / "shared" / "models"
TABLE = Path(__file__).with_name("data") / "oracle_armhf_ethos_u.tsv"


def _rows() -> list[dict[str, str]]:
    with open(TABLE) as f:
        return list(
            csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        )


def _vela_args(config: str) -> list[str]:
    """Vela's options for each configuration of the table; system configs
    and memory modes from Vela's bundled config_files/Arm/vela.ini."""
    import ethosu  # the ethos-u-vela package

    ini = str(Path(next(iter(ethosu.__path__))) / "config_files" / "Arm" / "vela.ini")
    return {
        "u55-128": ["--accelerator-config", "ethos-u55-128"],
        "u55-256": ["--accelerator-config", "ethos-u55-256"],
        "u65-256": ["--accelerator-config", "ethos-u65-256"],
        "u55-256-sramonly": [
            "--accelerator-config",
            "ethos-u55-256",
            "--config",
            ini,
            "--system-config",
            "Ethos_U55_High_End_Embedded",
            "--memory-mode",
            "Sram_Only",
        ],
        "u65-256-shared": [
            "--accelerator-config",
            "ethos-u65-256",
            "--config",
            ini,
            "--system-config",
            "Ethos_U65_High_End",
            "--memory-mode",
            "Shared_Sram",
        ],
        "u65-256-ded64k": [
            "--accelerator-config",
            "ethos-u65-256",
            "--config",
            ini,
            "--system-config",
            "Ethos_U65_High_End",
            "--memory-mode",
            "Dedicated_Sram",
            "--arena-cache-size",
            "65536",
        ],
    }[config]


def vela(model: str, config: str, out: Path) -> tuple[Path, float]:
    """Compiles a shared model; returns the Vela model and Vela's summary
    SRAM figure (KiB)."""
    pytest.importorskip("ethosu", reason="ethos-u-vela (.ci/requirements.txt) not installed")
    src = out / f"{model}_{config}.tflite"
    shutil.copyfile(MODELS / f"{model}.tflite", src)
    cmd = [
        sys.executable,
        "-m",
        "ethosu.vela",
        *_vela_args(config),
        "--output-dir",
        str(out),
        str(src),
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=300)
    (summary,) = out.glob(f"{model}_{config}_summary_*.csv")
    with open(summary) as f:
        sram = float(next(csv.DictReader(f))["sram_memory_used"])
    return out / f"{model}_{config}_vela.tflite", sram


ROWS = _rows()


def test_the_table_covers_every_configuration():
    assert len(ROWS) == 60
    assert {r["config"] for r in ROWS} == {
        "u55-128",
        "u55-256",
        "u55-256-sramonly",
        "u65-256",
        "u65-256-shared",
        "u65-256-ded64k",
    }


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['model']}-{r['config']}" for r in ROWS])
def test_vela_models_equal_real_tflm_with_the_ethos_u_kernel(row, tmp_path):
    path, sram_kib = vela(row["model"], row["config"], tmp_path)
    r = ta.tflm_arena(path, target="cortex-m+ethos-u")
    assert (r.min_arena_bytes, r.head, r.tail) == (
        int(row["min_arena"]),
        int(row["head"]),
        int(row["tail"]),
    )
    fast = int(row["scratch_fast"])
    assert r.ethos_u_fast_scratch_bytes == fast
    if row["memory_mode"].startswith("Dedicated"):
        # Vela's report: its SRAM (the fast memory) is the scratch_fast tensor.
        assert round(fast / 1024, 2) == pytest.approx(sram_kib, abs=0.006)
        if fast:
            assert f"Ethos-U fast scratch {fast:,} bytes" in str(r)
    else:
        assert fast == 0 and "fast scratch" not in str(r)
    # Without the Ethos-U kernel stock TFLM refuses the model at registration.
    with pytest.raises(ta.TflmRefusesModelError, match="ethos-u"):
        ta.tflm_arena(path, target="cortex-m")


def test_ethos_u_boards_and_targets():
    for name in ("corstone-300-ethos-u55", "alif-ensemble-e7-hp", "himax-we2"):
        assert ta.board(name).target == "cortex-m55+ethos-u"
    from tflm_arena import _core

    assert "ethos-u" in _core.tflm_modelled_ops("cortex-m+ethos-u")
    assert "ethos-u" not in _core.tflm_modelled_ops("cortex-m")


def test_ethos_u_refusals_are_tflms(tmp_path):
    from tflm_arena.builder import ModelBuilder

    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "int8", "x")
    y = mb.add_tensor([1, 4], "int8", "y")
    mb.add_operator("CUSTOM", [x], [y], custom_code="ethos-u")  # no custom options
    mb.set_io([x], [y])
    with pytest.raises(ta.TflmRefusesModelError, match="custom_initial_data_size > 0"):
        ta.tflm_arena(mb.build(), target="cortex-m+ethos-u")


@pytest.mark.parametrize("fast, said", [(64, 0), (32, 32), (None, 0)])
def test_fast_scratch_only_when_vela_wrote_a_tensor_of_its_own(fast, said):
    # Vela 5 passes the scratch twice when there is no fast memory; earlier
    # Velas write a second tensor of the scratch's size (TFLM's own
    # person_detect_vela): neither is a separate fast memory.
    import numpy as np

    from tflm_arena.builder import ModelBuilder

    mb = ModelBuilder()
    cms = mb.add_tensor([8], "uint8", "command_stream", data=np.zeros(8, np.uint8))
    ro = mb.add_tensor([8], "uint8", "read_only", data=np.zeros(8, np.uint8))
    scratch = mb.add_tensor([64], "uint8", "scratch")
    f = scratch if fast is None else mb.add_tensor([fast], "uint8", "scratch_fast")
    x = mb.add_tensor([1, 4], "int8", "x")
    y = mb.add_tensor([1, 4], "int8", "y")
    mb.add_operator(
        "CUSTOM",
        [cms, ro, scratch, f, x],
        [y],
        custom_code="ethos-u",
        custom_options=b"\x01\x04\x01",
    )
    mb.set_io([x], [y])
    r = ta.tflm_arena(mb.build(), target="cortex-m+ethos-u")
    assert r.ethos_u_fast_scratch_bytes == said
    # Two scratch requests: one uint64_t and one size_t per input and output.
    reqs = ta.tflm_scratch_requests(mb.build(), target="cortex-m+ethos-u")
    assert [b for b, _, _ in reqs] == [6 * 8, 6 * 4]
