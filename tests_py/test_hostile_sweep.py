"""The hostile-model sweep (tests_py/hostile_sweep.py): mutants of the
shared models through every public function that accepts a model, in
worker processes. No call may crash, hang, raise an exception the package
does not document, or write a model that does not load again.

The normal pass sweeps :data:`COUNT` mutants (about 75 s on 2 cores); the
ASan pass of .ci/test.sh (the module from build/pyasan, ~5-10x slower C++)
sweeps :data:`ASAN_COUNT` with a longer per-call timeout. The environment
variable HOSTILE_SWEEP_COUNT overrides either count."""

from __future__ import annotations

import os
import struct

import hostile_sweep as hs

#: Mutants in the normal pass, and in the ASan pass.
COUNT = 500
ASAN_COUNT = 100
#: The seed of the swept mutants (fixed: a failure names its reproducer).
SEED = 0

ASAN = hs.is_asan()

#: Crashes found by earlier sweeps (operator-code builtin_code out of
#: range), kept as regressions through every call.
KNOWN_CRASHES = (
    "seanet_strided_slice0.tflite:poke@1116=65581",
    "seanet_quantize0.tflite:poke@400=402",
    "seanet_pad0.tflite:poke@772=65535",
    "seanet_sub0.tflite:poke@852=65577",
)


def _count() -> int:
    return int(os.environ.get("HOSTILE_SWEEP_COUNT", ASAN_COUNT if ASAN else COUNT))


def _timeout() -> float:
    return hs.DEFAULT_TIMEOUT * (3 if ASAN else 1)


def test_generator_is_deterministic_and_makes_every_kind(models_dir):
    descs = hs.generate(SEED, 300, models_dir)
    assert descs == hs.generate(SEED, 300, models_dir)
    assert hs.describe(SEED, 123, models_dir) == descs[123]  # independent of the count
    assert hs.generate(SEED + 1, 300, models_dir) != descs
    assert {hs.kind_of(d) for d in descs} == set(hs.KINDS)
    for d in descs[:40]:
        assert hs.mutant_bytes(d, models_dir) == hs.mutant_bytes(d, models_dir)
    changed = 0
    for d in descs:
        base = (models_dir / d.split(":", 1)[0]).read_bytes()
        changed += hs.mutant_bytes(d, models_dir) != base
    assert changed >= 0.9 * len(descs)
    # 32-bit pokes reach the operator-code fields, not only random words.
    assert sum("operator_codes[" in d for d in descs) >= 5
    assert any(".builtin_code was" in d for d in hs.generate(SEED, 500, models_dir))


def test_descriptions_are_recipes(models_dir):
    base = (models_dir / "seanet_strided_slice0.tflite").read_bytes()
    other = (models_dir / "hello_world_int8.tflite").read_bytes()
    lay = hs.layout(base)
    assert lay.fields[1116] == "operator_codes[0].builtin_code"
    assert 1116 in lay.opcode_words and 1116 in lay.table_words
    poked = hs.mutant_bytes("seanet_strided_slice0.tflite:poke@1116=65581 [a note]", models_dir)
    assert struct.unpack_from("<i", poked, 1116)[0] == 65581 and len(poked) == len(base)
    name = "seanet_strided_slice0.tflite"
    assert hs.mutant_bytes(f"{name}:trunc@100", models_dir) == base[:100]
    flipped = hs.mutant_bytes(f"{name}:flip@10.3,20.0", models_dir)
    assert flipped[10] == base[10] ^ 8 and flipped[20] == base[20] ^ 1
    head = hs.mutant_bytes(f"{name}:head@300+hello_world_int8.tflite@500", models_dir)
    assert head == base[:300] + other[500:]
    block = hs.mutant_bytes(f"{name}:block@64+16<hello_world_int8.tflite", models_dir)
    assert block == base[:64] + other[64:80] + base[80:]
    fill = hs.mutant_bytes(f"{name}:fill@8+4=ff", models_dir)
    assert fill == base[:8] + b"\xff" * 4 + base[12:]
    fill = hs.mutant_bytes(f"{name}:fill@8+2=hex:0102", models_dir)
    assert fill == base[:8] + b"\1\2" + base[10:]


def test_harness_counts_crashes_hangs_and_bad_outcomes(models_dir):
    calls = ["_segv", "_abort", "_sleep", "_raise", "_badwrite", "load"]
    sweep = hs.run_sweep(
        hs.generate(SEED, 2, models_dir), models_dir=models_dir, calls=calls, timeout=2.0
    )
    got = {(o.index, o.call): o for o in sweep.outcomes}
    assert len(got) == 2 * len(calls)
    for i in range(2):
        segv = got[i, "_segv"]
        # Under ASan its SEGV handler reports, then aborts (abort_on_error=1).
        assert segv.outcome == "crash" and ("SIGSEGV" in segv.detail or "SIGABRT" in segv.detail)
        assert "_t_segv" in segv.stderr  # faulthandler's traceback is attached
        assert got[i, "_abort"].outcome == "crash" and "SIGABRT" in got[i, "_abort"].detail
        hang = got[i, "_sleep"]
        assert hang.outcome == "hang" and "_t_sleep" in hang.stderr  # the watchdog's traceback
        assert got[i, "_raise"].outcome == "bad exception"
        assert "KeyError" in got[i, "_raise"].detail
        assert got[i, "_badwrite"].outcome == "bad write"
        # The worker went on after each crash and hang: the last call ran.
        assert got[i, "load"].outcome in ("result", "clean error")
    assert sweep.total("crash") == 4 and sweep.total("hang") == 2
    text = sweep.report()
    assert "failures: 10" in text and "--repro" in text and "worker killed by SIG" in text


def test_known_crashes_stay_fixed(models_dir):
    sweep = hs.run_sweep(list(KNOWN_CRASHES), models_dir=models_dir, timeout=_timeout(), every=True)
    assert len(sweep.loaded) == len(KNOWN_CRASHES)
    assert not sweep.failures(), sweep.report()


def test_hostile_sweep_finds_no_failures(models_dir):
    count = _count()
    sweep = hs.run_sweep(
        hs.generate(SEED, count, models_dir),
        models_dir=models_dir,
        timeout=_timeout(),
        workers=2,
        seed=SEED,
    )
    text = sweep.report()
    print(text)
    failures = {k: sweep.total(k) for k in hs.FAILURES}
    assert not any(failures.values()), f"{failures}\n{text}"
    # Every call ran, and on enough mutants that load (a tenth of the count
    # for the expensive ones, which run on a share of the loading mutants).
    assert len(sweep.loaded) >= 0.25 * count, text
    loaded = sweep.loaded_per_row()
    for call in hs.call_names():
        assert loaded[hs.table_row(call)] >= count // 12, (
            f"{call} ran on too few loading mutants\n{text}"
        )
