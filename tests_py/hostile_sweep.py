"""Hostile-model sweep: mutants of the shared models through every public
function that accepts a model, in worker processes, so that a crash or a
hang is counted rather than fatal.

Mutants are made at run time, deterministically from a seed and an index,
from the shared models of at most :data:`MAX_BASE_BYTES` bytes. Each one
is written as a one-line description that is also its recipe (the bytes
are always made from the description, so the description reproduces it):

- ``BASE:flip@OFF.BIT,OFF.BIT``: one to four bits flipped;
- ``BASE:poke@OFF=VALUE``: the int32 at a 4-aligned offset set to VALUE
  (aimed at the flatbuffer tables: fields found by walking the model's
  tables, words holding small values, any word outside constant data);
- ``BASE:trunc@LEN``: the first LEN bytes;
- ``BASE:head@K+OTHER@K2``: ``BASE[:K] + OTHER[K2:]``;
- ``BASE:block@OFF+LEN<OTHER``: ``OTHER[OFF:OFF+LEN]`` copied over BASE at OFF;
- ``BASE:fill@OFF+LEN=HH`` / ``=hex:BYTES``: a byte range filled.

A description may end with a note in brackets (the field poked, its old
value); the note is not part of the recipe.

Calls (:func:`call_names`): ``Model.from_bytes`` and ``Model.load``, the
model's properties, ``plan`` (default strategy and ``optimal``),
``tflm_arena`` on every target, ``tflm_split_arena``,
``tflm_shared_arena`` (with a clean shared model) and
``tflm_scratch_requests`` (one target per mutant, in rotation),
``plan_for_tflm``, ``Model.with_offline_plan``, ``fit``, the resolver
generators, ``Interpreter`` (allocate, zero inputs, invoke), ``optimize``,
``optimize(reorder=True, rewrite=True)``, ``rewrite``, ``reorder``,
``report_html`` and the command line in-process (``size``, ``plan``,
``inspect``, ``optimize``, ``report``, ``write-plan``, ``resolver``).
Mutants that do not load get only the loading calls and ``cli:size``;
the expensive calls (:data:`EXPENSIVE_EVERY`) run on a fixed share of the
loading mutants, chosen by index.

Outcomes of one call: ``result``; ``clean error`` (ValueError and its
subclasses such as ``TflmRefusesModelError``, NotImplementedError,
``ArenaTooSmallError``, OSError, RuntimeError as the bindings map internal
errors; for the command line exit status 1); and the failures: ``crash``
(the worker died, e.g. from SIGSEGV or SIGABRT), ``hang`` (no answer within
the per-call timeout, default :data:`DEFAULT_TIMEOUT` seconds: the worker
is killed), ``bad exception`` (any other exception out of the package:
MemoryError that is not ArenaTooSmallError, SystemError, TypeError,
KeyError, IndexError, AssertionError, RecursionError, ...; for the command
line a traceback or an exit status other than 0, 1 and 3) and ``bad
write`` (a model a call wrote does not load, or does not plan while the
mutant does).

Workers: each is a "zygote" process (``--worker``) that imports the package
once and forks a child that runs one call at a time over a line protocol
(JSON lines on stdin/stdout). When the child dies, the zygote reports how
and forks a fresh one, so a crash costs milliseconds, not an interpreter
start. Workers inherit the environment (LD_PRELOAD, PYTHONPATH,
ASAN_OPTIONS), so they load the same ``tflm_arena._core`` as the caller;
their stderr goes to a file, and the part a failed call wrote (a
faulthandler or sanitizer report) is attached to the failure.

Command line::

    python tests_py/hostile_sweep.py [--count N] [--seed S] [--timeout T]
        [--workers W] [--calls NAME,NAME] [--json FILE]
    python tests_py/hostile_sweep.py --repro 'DESCRIPTION' [--calls ...]
    python tests_py/hostile_sweep.py --seed S --index I [--write FILE] [--inprocess]

``--calls`` takes call names or families (``tflm_arena`` for every target,
``cli`` for every command); ``--inprocess`` runs the repro calls in this
process (a crash then kills it: for a debugger); ``--write`` saves the
mutant's bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import functools
import io
import json
import os
import random
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tflm_arena as ta

#: The shared models (outside the repository; never copied into it).
MODELS_DIR = Path(__file__).resolve().parents[2] / "shared" / "models"
#: Bases larger than this are left out (their calls are slow).
MAX_BASE_BYTES = 300_000
#: The clean model ``tflm_shared_arena`` pairs each mutant with.
CLEAN_SHARED_MODEL = "hello_world_int8.tflite"
#: Seconds one call may take before it counts as a hang.
DEFAULT_TIMEOUT = 20.0
#: Seconds a worker may take to start (import, warm-up).
STARTUP_TIMEOUT = 180.0
#: Search time given to every call that takes a ``time_limit``.
TIME_LIMIT = 0.1

#: Mutation kinds and their weights.
KINDS = {"flip": 22, "poke": 40, "trunc": 8, "head": 8, "block": 11, "fill": 11}

#: The outcomes, in table order; the last four are failures.
OUTCOMES = ("result", "clean error", "crash", "hang", "bad exception", "bad write")
FAILURES = OUTCOMES[2:]

_INTERESTING = (0, -1, 1, 0x7FFFFFFF, -0x80000000, 65535, 65581, 255, 127, 128)


# --- where the tables are: a bounds-checked walk of the TFLite flatbuffer ----


class _Malformed(Exception):
    """A read outside the bytes while walking a (clean) model."""


class _Walker:
    """Walks a TFLite flatbuffer (schema.fbs field numbers) and names the
    4-aligned words of its table fields; byte vectors and strings (constant
    data, names, custom options) are collected as blobs."""

    CAP = 4096  # elements looked at per vector

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.fields: dict[int, str] = {}
        self.blobs: list[tuple[int, int]] = []
        self.vtables: set[int] = set()

    def _read(self, fmt: str, pos: int) -> int:
        if pos < 0 or pos + struct.calcsize(fmt) > len(self.data):
            raise _Malformed(pos)
        value: int = struct.unpack_from(fmt, self.data, pos)[0]
        return value

    def note(self, pos: int, name: str) -> None:
        """Names the word holding ``pos`` (the first name given stays)."""
        self.fields.setdefault(pos & ~3, name)

    def table(self, pos: int, name: str) -> list[int | None]:
        """The positions of a table's fields (None = absent), its vtable noted."""
        self.note(pos, f"{name}.vtable_offset")
        vt = pos - self._read("<i", pos)
        vt_len = self._read("<H", vt)
        if vt not in self.vtables:
            self.vtables.add(vt)
            for w in range(vt & ~3, vt + vt_len, 4):
                self.note(w, f"{name}.vtable")
        out: list[int | None] = []
        for k in range(max(0, (vt_len - 4) // 2)):
            off = self._read("<H", vt + 4 + 2 * k)
            out.append(pos + off if off else None)
        return out

    @staticmethod
    def _at(fields: list[int | None], k: int) -> int | None:
        return fields[k] if k < len(fields) else None

    def scalar(self, fields: list[int | None], k: int, name: str) -> None:
        p = self._at(fields, k)
        if p is not None:
            self.note(p, name)

    def ref(self, fields: list[int | None], k: int, name: str) -> int | None:
        """Where an offset field points (None when absent)."""
        p = self._at(fields, k)
        if p is None:
            return None
        self.note(p, f"{name} (offset)")
        return p + self._read("<I", p)

    def vector(self, fields: list[int | None], k: int, name: str) -> tuple[int, int] | None:
        """A vector's first element and length."""
        v = self.ref(fields, k, name)
        if v is None:
            return None
        self.note(v, f"{name}.length")
        return v + 4, self._read("<I", v)

    def ints(self, fields: list[int | None], k: int, name: str, width: int = 4) -> None:
        vec = self.vector(fields, k, name)
        if vec is not None:
            for j in range(min(vec[1], self.CAP)):
                self.note(vec[0] + width * j, f"{name}[{j}]")

    def blob(self, fields: list[int | None], k: int, name: str) -> None:
        vec = self.vector(fields, k, name)
        if vec is not None and vec[1]:
            self.blobs.append((vec[0], min(len(self.data), vec[0] + vec[1])))

    def tables(self, fields: list[int | None], k: int, name: str) -> Iterator[tuple[int, int]]:
        """(index, position) of each table of a vector of tables."""
        vec = self.vector(fields, k, name)
        if vec is None:
            return
        for j in range(min(vec[1], self.CAP)):
            e = vec[0] + 4 * j
            self.note(e, f"{name}[{j}] (offset)")
            yield j, e + self._read("<I", e)

    def options(self, fields: list[int | None], k: int, name: str) -> None:
        """A union's table, each of its fields named by number."""
        p = self.ref(fields, k, name)
        if p is not None:
            for j, q in enumerate(self.table(p, name)):
                if q is not None:
                    self.note(q, f"{name}.field{j}")

    def walk(self) -> None:
        """Every table of the model (what cannot be read is left out)."""
        self.note(0, "root_offset")
        self.note(4, "file_identifier")
        m = self.table(self._read("<I", 0), "model")
        self.scalar(m, 0, "model.version")
        for j, p in self.tables(m, 1, "operator_codes"):
            n = f"operator_codes[{j}]"
            oc = self.table(p, n)
            self.scalar(oc, 0, f"{n}.deprecated_builtin_code")
            self.blob(oc, 1, f"{n}.custom_code")
            self.scalar(oc, 2, f"{n}.version")
            self.scalar(oc, 3, f"{n}.builtin_code")
        for s, p in self.tables(m, 2, "subgraphs"):
            self._subgraph(p, f"subgraphs[{s}]")
        self.blob(m, 3, "model.description")
        for j, p in self.tables(m, 4, "buffers"):
            b = self.table(p, f"buffers[{j}]")
            self.blob(b, 0, f"buffers[{j}].data")
            self.scalar(b, 1, f"buffers[{j}].offset")
            self.scalar(b, 2, f"buffers[{j}].size")
        self.ints(m, 5, "model.metadata_buffer")
        for j, p in self.tables(m, 6, "metadata"):
            md = self.table(p, f"metadata[{j}]")
            self.blob(md, 0, f"metadata[{j}].name")
            self.scalar(md, 1, f"metadata[{j}].buffer")
        for j, p in self.tables(m, 7, "signature_defs"):
            n = f"signature_defs[{j}]"
            sd = self.table(p, n)
            for side, k in (("inputs", 0), ("outputs", 1)):
                for i, q in self.tables(sd, k, f"{n}.{side}"):
                    tm = self.table(q, f"{n}.{side}[{i}]")
                    self.blob(tm, 0, f"{n}.{side}[{i}].name")
                    self.scalar(tm, 1, f"{n}.{side}[{i}].tensor_index")
            self.blob(sd, 2, f"{n}.signature_key")
            self.scalar(sd, 4, f"{n}.subgraph_index")

    def _subgraph(self, p: int, n: str) -> None:
        sg = self.table(p, n)
        for t, q in self.tables(sg, 0, f"{n}.tensors"):
            tn = f"{n}.tensors[{t}]"
            tt = self.table(q, tn)
            self.ints(tt, 0, f"{tn}.shape")
            self.scalar(tt, 1, f"{tn}.type")
            self.scalar(tt, 2, f"{tn}.buffer")
            self.blob(tt, 3, f"{tn}.name")
            qp = self.ref(tt, 4, f"{tn}.quantization")
            if qp is not None:
                qt = self.table(qp, f"{tn}.quantization")
                for k, what in enumerate(("min", "max", "scale")):
                    self.ints(qt, k, f"{tn}.quantization.{what}")
                self.ints(qt, 3, f"{tn}.quantization.zero_point", width=8)
                self.scalar(qt, 4, f"{tn}.quantization.details_type")
                self.scalar(qt, 6, f"{tn}.quantization.quantized_dimension")
            self.scalar(tt, 5, f"{tn}.is_variable")
            self.ref(tt, 6, f"{tn}.sparsity")
            self.ints(tt, 7, f"{tn}.shape_signature")
            self.scalar(tt, 8, f"{tn}.has_rank")
        self.ints(sg, 1, f"{n}.inputs")
        self.ints(sg, 2, f"{n}.outputs")
        for o, q in self.tables(sg, 3, f"{n}.operators"):
            on = f"{n}.operators[{o}]"
            ot = self.table(q, on)
            self.scalar(ot, 0, f"{on}.opcode_index")
            self.ints(ot, 1, f"{on}.inputs")
            self.ints(ot, 2, f"{on}.outputs")
            self.scalar(ot, 3, f"{on}.builtin_options_type")
            self.options(ot, 4, f"{on}.builtin_options")
            self.blob(ot, 5, f"{on}.custom_options")
            self.ints(ot, 8, f"{on}.intermediates")
            self.scalar(ot, 9, f"{on}.large_custom_options_offset")
            self.scalar(ot, 10, f"{on}.large_custom_options_size")
            self.scalar(ot, 11, f"{on}.builtin_options_2_type")
            self.options(ot, 12, f"{on}.builtin_options_2")
        self.blob(sg, 4, f"{n}.name")


@dataclass(frozen=True)
class Layout:
    """Where a clean model's tables are: named field words, the blobs
    (constant data, strings), and the 4-aligned words outside the blobs."""

    size: int
    fields: dict[int, str]
    blobs: tuple[tuple[int, int], ...]
    table_words: tuple[int, ...]  # 4-aligned words outside the blobs
    small_words: tuple[int, ...]  # those holding an int32 in [0, 256)
    opcode_words: tuple[int, ...]  # operator-code fields and opcode indices

    def name(self, offset: int) -> str:
        """The field at a 4-aligned offset, or where it lies."""
        if offset in self.fields:
            return self.fields[offset]
        if any(a <= offset < b for a, b in self.blobs):
            return "in a blob"
        return "table word" if offset < self.size else "past the end"


def layout(data: bytes) -> Layout:
    """The :class:`Layout` of a clean model's bytes."""
    w = _Walker(data)
    with contextlib.suppress(_Malformed, struct.error, RecursionError):
        w.walk()
    mask = bytearray(len(data))
    for a, b in w.blobs:
        mask[a:b] = b"\1" * (b - a)
    words = tuple(o for o in range(0, len(data) - 3, 4) if not mask[o])
    small = tuple(o for o in words if 0 <= struct.unpack_from("<i", data, o)[0] < 256)
    fields = {o: n for o, n in w.fields.items() if 0 <= o <= len(data) - 4}
    opcode = tuple(
        sorted(
            o
            for o, n in fields.items()
            if n.startswith("operator_codes[")
            or n.endswith((".opcode_index", ".builtin_options_type"))
        )
    )
    return Layout(len(data), fields, tuple(sorted(w.blobs)), words, small, opcode)


# --- mutants -------------------------------------------------------------------


def base_models(models_dir: Path = MODELS_DIR) -> list[str]:
    """File names of the shared models used as bases (sorted)."""
    return sorted(
        p.name for p in Path(models_dir).glob("*.tflite") if p.stat().st_size <= MAX_BASE_BYTES
    )


@functools.lru_cache(maxsize=64)
def _model_bytes(models_dir: str, name: str) -> bytes:
    """A shared model's bytes (cached)."""
    return (Path(models_dir) / name).read_bytes()


@functools.lru_cache(maxsize=64)
def _layout_of(models_dir: str, name: str) -> Layout:
    """A shared model's :class:`Layout` (cached)."""
    return layout(_model_bytes(models_dir, name))


def _int32(value: int) -> int:
    """``value`` wrapped into a signed 32-bit integer."""
    return (value + 2**31) % 2**32 - 2**31


def _table_offset(rng: random.Random, lay: Layout, size: int) -> int:
    """A byte offset, mostly inside the tables region."""
    if lay.table_words and rng.random() < 0.7:
        return rng.choice(lay.table_words) + rng.randrange(4)
    return rng.randrange(size)


def _poke(rng: random.Random, data: bytes, lay: Layout) -> str:
    """A poke recipe: a field, a small-valued word or any table word, and an interesting value."""
    r = rng.random()
    if r < 0.45 and lay.fields:
        if lay.opcode_words and rng.random() < 0.35:
            off = rng.choice(lay.opcode_words)
        else:
            off = rng.choice(sorted(lay.fields))
    elif r < 0.7 and lay.small_words:
        off = rng.choice(lay.small_words)
    elif lay.table_words:
        off = rng.choice(lay.table_words)
    else:
        off = rng.randrange(max(1, len(data) - 3)) & ~3
    orig = struct.unpack_from("<i", data, off)[0]
    value = orig
    for _ in range(4):
        choices = (
            *_INTERESTING,
            rng.randint(2, 16),
            len(data) + rng.randint(-8, 8),
            rng.randint(-(2**31), 2**31 - 1),
            orig + 1,
            orig - 1,
            orig + 65536,
            orig + 256,
            orig ^ 0x80,
        )
        value = _int32(rng.choice(choices))
        if value != orig:
            break
    return f"poke@{off}={value} [{lay.name(off)} was {orig}]"


def describe(seed: int, index: int, models_dir: Path = MODELS_DIR) -> str:
    """The description of mutant ``index`` of ``seed`` (deterministic; it
    does not depend on how many mutants are made)."""
    rng = random.Random(f"hostile-sweep:{seed}:{index}")
    pool = base_models(models_dir)
    if not pool:
        raise FileNotFoundError(
            f"no .tflite models of at most {MAX_BASE_BYTES} bytes in {models_dir}"
        )
    base = rng.choice(pool)
    data = _model_bytes(str(models_dir), base)
    lay = _layout_of(str(models_dir), base)
    size = len(data)
    kind = rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
    others = [p for p in pool if p != base] or pool
    if kind == "flip":
        bits = [
            f"{_table_offset(rng, lay, size)}.{rng.randrange(8)}" for _ in range(rng.randint(1, 4))
        ]
        recipe = "flip@" + ",".join(bits)
    elif kind == "poke":
        recipe = _poke(rng, data, lay)
    elif kind == "trunc":
        r = rng.random()
        if r < 0.5:
            n = rng.randrange(size)
        elif r < 0.75:
            n = max(0, size - rng.randint(1, 64))
        else:
            n = min(size - 1, _table_offset(rng, lay, size))
        recipe = f"trunc@{n}"
    elif kind == "head":
        other = rng.choice(others)
        olen = len(_model_bytes(str(models_dir), other))
        k = rng.randrange(8, size)
        k2 = k if k < olen and rng.random() < 0.5 else rng.randrange(olen)
        recipe = f"head@{k}+{other}@{k2}"
    elif kind == "block":
        other = rng.choice(others)
        common = min(size, len(_model_bytes(str(models_dir), other)))
        off = rng.randrange(max(1, common - 4)) & ~3
        n = min(rng.choice((4, 8, 16, 32, 64, 128)), common - off)
        recipe = f"block@{off}+{n}<{other}"
    else:  # fill
        off = _table_offset(rng, lay, size)
        n = min(rng.randint(1, 32), size - off)
        pick = rng.randrange(6)
        if pick < 4:
            value = ("00", "ff", "7f", "80")[pick]
        elif pick == 4:
            value = f"{rng.randrange(256):02x}"
        else:
            value = "hex:" + bytes(rng.randrange(256) for _ in range(n)).hex()
        recipe = f"fill@{off}+{n}={value}"
    return f"{base}:{recipe}"


def generate(seed: int, count: int, models_dir: Path = MODELS_DIR) -> list[str]:
    """The descriptions of mutants ``0..count-1`` of ``seed``."""
    return [describe(seed, i, models_dir) for i in range(count)]


_DESC = re.compile(r"^(?P<base>[^:\s]+):(?P<kind>[a-z]+)@(?P<args>\S+)")


def kind_of(desc: str) -> str:
    """The mutation kind of a description (``flip``, ``poke``, ...)."""
    m = _DESC.match(desc)
    if not m:
        raise ValueError(f"not a mutant description: {desc!r}")
    return m["kind"]


def mutant_bytes(desc: str, models_dir: Path = MODELS_DIR) -> bytes:
    """The bytes a description stands for (its recipe applied to the base)."""
    m = _DESC.match(desc)
    if not m:
        raise ValueError(f"not a mutant description: {desc!r}")
    md = str(models_dir)
    data = bytearray(_model_bytes(md, m["base"]))
    kind, args = m["kind"], m["args"]
    if kind == "flip":
        for bit in args.split(","):
            off, b = bit.split(".")
            data[int(off)] ^= 1 << int(b)
    elif kind == "poke":
        off, value = args.split("=")
        struct.pack_into("<I", data, int(off), int(value) & 0xFFFFFFFF)
    elif kind == "trunc":
        del data[int(args) :]
    elif kind == "head":
        k, rest = args.split("+", 1)
        other, k2 = rest.rsplit("@", 1)
        data = data[: int(k)] + _model_bytes(md, other)[int(k2) :]
    elif kind == "block":
        span, other = args.split("<", 1)
        off, n = (int(v) for v in span.split("+"))
        data[off : off + n] = _model_bytes(md, other)[off : off + n]
    elif kind == "fill":
        span, value = args.split("=", 1)
        off, n = (int(v) for v in span.split("+"))
        fill = bytes.fromhex(value[4:]) if value.startswith("hex:") else bytes.fromhex(value) * n
        data[off : off + n] = fill[:n]
    else:
        raise ValueError(f"unknown mutation kind {kind!r} in {desc!r}")
    return bytes(data)


# --- the calls ---------------------------------------------------------------


class BadWrite(Exception):
    """A model a call wrote does not load again (or does not plan)."""


class CliStatus(Exception):
    """The command line's exit status and what it wrote to stderr."""

    def __init__(self, status: int, stderr: str) -> None:
        super().__init__(f"exit status {status}: {stderr.strip()[-2000:]}")
        self.status = status


class _Context:
    """One mutant in a worker: its bytes, a file holding them, fresh paths
    for outputs, and the clean model paired with it."""

    def __init__(self, index: int, desc: str, models_dir: Path, tmp: Path) -> None:
        self.index = index
        self.desc = desc
        self.models_dir = models_dir
        self.data = mutant_bytes(desc, models_dir)
        self.tmp = tmp
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.clean = models_dir / CLEAN_SHARED_MODEL
        self._path: Path | None = None
        self._outputs = 0

    @property
    def path(self) -> Path:
        """The mutant written to a file."""
        if self._path is None:
            self._path = self.tmp / "mutant.tflite"
            self._path.write_bytes(self.data)
        return self._path

    def model(self) -> ta.Model:
        """The mutant parsed (a fresh Model for each call)."""
        return ta.Model.from_bytes(self.data)

    def output(self, suffix: str) -> Path:
        """A path that does not exist yet."""
        self._outputs += 1
        return self.tmp / f"out{self._outputs}{suffix}"

    def close(self) -> None:
        """Removes the mutant's files."""
        shutil.rmtree(self.tmp, ignore_errors=True)


def _check_written(ctx: _Context, written: ta.Model | None, what: str) -> str:
    """Loads and plans a model a call wrote; BadWrite when that fails."""
    if written is None:
        return ""
    data = written.data
    try:
        again = ta.Model.from_bytes(data)
    except ValueError as e:
        raise BadWrite(f"{what}: the written model ({len(data)} bytes) does not load: {e}") from e
    try:
        ta.plan(again)
    except (ValueError, NotImplementedError) as e:
        try:
            ta.plan(ctx.model())
        except (ValueError, NotImplementedError):
            return f", written {len(data)} bytes (neither plans)"
        raise BadWrite(
            f"{what}: the written model loads but does not plan ({type(e).__name__}: {e}); "
            "the mutant does"
        ) from e
    return f", written {len(data)} bytes re-load"


def _check_written_file(ctx: _Context, path: Path, what: str) -> str:
    """A model file the command line wrote must exist, load and plan."""
    if not path.exists():
        raise BadWrite(f"{what}: exit status 0 but no file at {path.name}")
    try:
        written = ta.Model.from_bytes(path.read_bytes())
    except ValueError as e:
        raise BadWrite(f"{what}: the written file does not load: {e}") from e
    return _check_written(ctx, written, what)


def _cli(argv: list[str]) -> str:
    """Runs the command line in-process; exit 0/3 is a result, 1 a clean
    error (CliStatus), anything else (or a traceback) a bad exception."""
    from tflm_arena.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv], out=out)
    if status in (0, 3):
        return f"exit status {status}"
    raise CliStatus(status, err.getvalue())


def _c_model_walk(ctx: _Context) -> str:
    """Every property and record of the Model (names, tensors, metadata, offline plan)."""
    m = ctx.model()
    parts = [m.description, m.version, m.inputs, m.outputs, m.total_tensors, m.metadata]
    parts += [m.signatures, m.offline_plan(), m.offline_plan_aliases(), repr(m), m._repr_html_()]
    for sg in m.subgraphs:
        parts += [repr(sg), *sg.tensors, *sg.operators]
    rec = m.usage_records()
    return f"{len(m.subgraphs)} subgraphs, {len(rec)} records"


def _c_interpreter(ctx: _Context) -> str:
    """Our runtime: allocate, zero every input, invoke."""
    m = ctx.model()
    it = ta.Interpreter(m)
    it.allocate_tensors()
    for i in range(len(m.inputs)):
        it.input(i)[...] = 0
    it.invoke()
    return f"invoked, arena {it.arena_size} bytes"


def _c_optimize(ctx: _Context, **kw: Any) -> str:
    """``optimize`` (options ``kw``); its model must re-load."""
    o = ta.optimize(ctx.model(), time_limit=TIME_LIMIT, **kw)
    return f"head {o.head}" + _check_written(ctx, o.model, "optimize().model")


def _c_rewrite(ctx: _Context) -> str:
    """``rewrite`` with a short search; its model must re-load."""
    r = ta.rewrite(ctx.model(), time_limit=TIME_LIMIT)
    return r.written + _check_written(ctx, r.model, "rewrite().model")


def _c_reorder(ctx: _Context) -> str:
    """``reorder`` with a short search; its model must re-load."""
    r = ta.reorder(ctx.model(), time_limit=TIME_LIMIT)
    return f"changed={r.changed}" + _check_written(ctx, r.model, "reorder().model")


def _c_plan_for_tflm(ctx: _Context) -> str:
    """``plan_for_tflm``; the model with the plan written must re-load."""
    r = ta.plan_for_tflm(ctx.model())
    return f"head {r.predicted_head}" + _check_written(ctx, r.model, "plan_for_tflm().model")


def _c_with_offline_plan(ctx: _Context) -> str:
    """A tensors-only plan written with ``Model.with_offline_plan``; it must re-load."""
    m = ctx.model()
    written = m.with_offline_plan(ta.plan(m, scratch=False))
    return "written" + _check_written(ctx, written, "with_offline_plan()")


def _c_resolver(ctx: _Context) -> str:
    """The operator lists and both C++ resolver generators."""
    m = ctx.model()
    ops = ta.resolver_ops(m)
    ta.resolver_ops(m, custom=True)
    ta.tflm_resolver_cpp(m)
    ta.runtime_resolver_cpp(m)
    return f"{len(ops)} operators"


def _c_report_html(ctx: _Context) -> str:
    """The HTML report (every strategy, the default targets, short searches)."""
    return f"{len(ta.report_html(ctx.model(), time_limit=TIME_LIMIT))} characters"


def _c_cli_optimize(ctx: _Context) -> str:
    """``tflm-arena optimize MODEL -o OUT``; OUT must re-load."""
    out = ctx.output(".tflite")
    status = _cli(["optimize", ctx.path, "-o", out, "--time-limit", TIME_LIMIT, "--quiet"])
    return status + _check_written_file(ctx, out, "cli optimize -o")


def _c_cli_write_plan(ctx: _Context) -> str:
    """``tflm-arena write-plan MODEL -o OUT``; OUT must re-load."""
    out = ctx.output(".tflite")
    status = _cli(["write-plan", ctx.path, "-o", out])
    return status + _check_written_file(ctx, out, "cli write-plan -o")


def _c_cli_report(ctx: _Context) -> str:
    """``tflm-arena report MODEL -o OUT.html``."""
    return _cli(["report", ctx.path, "-o", ctx.output(".html"), "--time-limit", TIME_LIMIT])


def _t_sleep(ctx: _Context) -> str:
    """Test-only: sleeps past any timeout (a hang)."""
    time.sleep(3600)
    return "woke"


def _t_raise(ctx: _Context) -> str:
    """Test-only: an exception the package does not document."""
    raise KeyError("test-only call: a bare KeyError")


def _t_badwrite(ctx: _Context) -> str:
    """Test-only: a "written" model that does not load (a bad write)."""

    class Truncated:
        data = ctx.data[:7]

    return _check_written(ctx, Truncated(), "test-only call")  # type: ignore[arg-type]


def _t_abort(ctx: _Context) -> str:
    """Test-only: SIGABRT."""
    os.abort()


def _t_segv(ctx: _Context) -> str:
    """Test-only: SIGSEGV."""
    os.kill(os.getpid(), signal.SIGSEGV)
    time.sleep(10)
    return "survived SIGSEGV"


_SIMPLE: dict[str, Callable[[_Context], object]] = {
    "from_bytes": lambda c: len(c.model().subgraphs),
    "load": lambda c: len(ta.Model.load(c.path).subgraphs),
    "model_walk": _c_model_walk,
    "plan": lambda c: ta.plan(c.model()).arena_bytes,
    "plan[optimal]": lambda c: (
        ta.plan(c.model(), strategy="optimal", time_limit=TIME_LIMIT).arena_bytes
    ),
    "plan_for_tflm": _c_plan_for_tflm,
    "with_offline_plan": _c_with_offline_plan,
    "fit": lambda c: ta.fit(c.model(), board="raspberry-pi-pico").fits,
    "resolver": _c_resolver,
    "interpreter": _c_interpreter,
    "optimize": _c_optimize,
    "optimize[reorder+rewrite]": lambda c: _c_optimize(c, reorder=True, rewrite=True),
    "rewrite": _c_rewrite,
    "reorder": _c_reorder,
    "report_html": _c_report_html,
    "cli:size": lambda c: _cli(["size", c.path]),
    "cli:plan": lambda c: _cli(["plan", c.path]),
    "cli:inspect": lambda c: _cli(["inspect", c.path]),
    "cli:resolver": lambda c: _cli(["resolver", c.path]),
    "cli:write-plan": _c_cli_write_plan,
    "cli:optimize": _c_cli_optimize,
    "cli:report": _c_cli_report,
}

#: Test-only calls (never in a default sweep): they check that the harness
#: counts each failure.
TEST_CALLS: dict[str, Callable[[_Context], object]] = {
    "_segv": _t_segv,
    "_abort": _t_abort,
    "_sleep": _t_sleep,
    "_raise": _t_raise,
    "_badwrite": _t_badwrite,
}

_TARGETED: dict[str, Callable[[_Context, str], object]] = {
    "tflm_arena": lambda c, t: ta.tflm_arena(c.model(), target=t).min_arena_bytes,
    "tflm_split_arena": lambda c, t: ta.tflm_split_arena(c.model(), target=t).min_persistent_bytes,
    "tflm_shared_arena": lambda c, t: (
        ta.tflm_shared_arena([c.model(), ta.Model.load(c.clean)], target=t).min_arena_bytes
    ),
    "tflm_scratch_requests": lambda c, t: len(ta.tflm_scratch_requests(c.model(), target=t)),
}

#: Calls every mutant gets; mutants that do not load get only these.
ALWAYS = ("from_bytes", "load", "cli:size")
#: Calls every loading mutant gets.
LOADED = (
    "model_walk",
    "plan",
    "plan[optimal]",
    *(f"tflm_arena[{t}]" for t in ta.TARGETS),
    "tflm_split_arena",
    "tflm_shared_arena",
    "tflm_scratch_requests",
    "plan_for_tflm",
    "with_offline_plan",
    "fit",
    "resolver",
    "interpreter",
    "optimize",
    "cli:plan",
    "cli:inspect",
    "cli:resolver",
    "cli:write-plan",
)
#: The expensive calls: each runs on the loading mutants whose index is
#: its offset modulo the number given (offsets differ, so they spread).
EXPENSIVE_EVERY = {
    "rewrite": 2,
    "reorder": 2,
    "optimize[reorder+rewrite]": 2,
    "cli:optimize": 2,
    "report_html": 3,
    "cli:report": 3,
}

#: The families whose calls take one target each, in rotation by index.
ROTATING = ("tflm_split_arena", "tflm_shared_arena", "tflm_scratch_requests")


def call_names() -> list[str]:
    """Every call of a default sweep, in the order a mutant gets them."""
    return [*ALWAYS, *LOADED, *EXPENSIVE_EVERY]


def family(call: str) -> str:
    """``tflm_split_arena[esp32+esp-nn]`` -> ``tflm_split_arena``."""
    return call.split("[", 1)[0]


def table_row(call: str) -> str:
    """The summary-table row a call counts in (the rotating families share one)."""
    return family(call) if family(call) in ROTATING else call


def select_calls(spec: Sequence[str] | None) -> list[str]:
    """The calls named (an exact name selects that call; a family such as
    ``tflm_arena`` every call of it; ``cli`` every command); None = every
    call of :func:`call_names`."""
    every = call_names()
    if spec is None:
        return every
    chosen: list[str] = []
    for name in spec:
        hits = [name] if name in every else []
        hits = hits or [
            c for c in every if name == family(c) or (name == "cli" and c.startswith("cli:"))
        ]
        if not hits and name in TEST_CALLS:
            hits = [name]
        if not hits and family(name) in _TARGETED and name.endswith("]"):
            hits = [name]
        if not hits:
            raise ValueError(f"unknown call {name!r} (known: {', '.join(every)})")
        chosen += [c for c in hits if c not in chosen]
    return chosen


def schedule(index: int, loaded: bool, selected: Sequence[str], every: bool = False) -> list[str]:
    """The calls mutant ``index`` gets after ``from_bytes`` (``loaded``: it
    loaded), concrete names (rotating targets filled in), in order.
    ``every`` gives each selected call (a repro)."""
    n = len(ta.TARGETS)
    out: list[str] = []
    for c in selected:
        if c == "from_bytes":
            continue
        if c in TEST_CALLS or c in ALWAYS:
            out.append(c)
            continue
        if not loaded:
            continue
        if c in EXPENSIVE_EVERY and not every:
            k = list(EXPENSIVE_EVERY).index(c)
            if index % EXPENSIVE_EVERY[c] != k % EXPENSIVE_EVERY[c]:
                continue
        if c in ROTATING:
            c = f"{c}[{ta.TARGETS[(index + 5 * ROTATING.index(c)) % n]}]"
        out.append(c)
    return out


def _callable(call: str) -> Callable[[_Context], object]:
    """The function a call name stands for."""
    if call in _SIMPLE:
        return _SIMPLE[call]
    if call in TEST_CALLS:
        return TEST_CALLS[call]
    fam = family(call)
    if fam in _TARGETED and call.endswith("]"):
        target = call[len(fam) + 1 : -1]
        fn = _TARGETED[fam]
        return lambda c: fn(c, target)
    raise ValueError(f"unknown call {call!r}")


def _first_line(e: BaseException) -> str:
    """``Type: first line of the message``."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0][:300] if text else ''}"


def _acceptable(e: BaseException) -> bool:
    """A clean error: what the package documents for bad models."""
    if isinstance(e, ta.ArenaTooSmallError):
        return True
    if isinstance(e, (MemoryError, RecursionError)):
        return False
    return isinstance(e, (ValueError, NotImplementedError, OSError, RuntimeError))


def run_call(call: str, ctx: _Context) -> tuple[str, str]:
    """(outcome, detail) of one call in this process (crashes kill it)."""
    fn = _callable(call)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(ctx)
        return "result", str(result)[:300]
    except BadWrite as e:
        return "bad write", str(e)[:2000]
    except CliStatus as e:
        if e.status == 1:
            return "clean error", str(e)[:300]
        return "bad exception", str(e)
    except BaseException as e:
        if _acceptable(e) and not isinstance(e, CliStatus):
            return "clean error", _first_line(e)
        tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
        return "bad exception", f"{_first_line(e)}\n{tb[-3000:]}"


# --- the worker side ---------------------------------------------------------

_EXIT_DONE = 0  # a child's exit status when its stdin closed


def _send(fd: int, msg: dict[str, Any]) -> None:
    """Writes one protocol message (a JSON line) whole."""
    data = (json.dumps(msg) + "\n").encode()
    while data:
        data = data[os.write(fd, data) :]


def _child_loop(proto: int, models_dir: Path, tmp: Path) -> int:
    """Serves calls (one JSON line in, one out) until stdin closes."""
    faulthandler.enable(file=sys.stderr, all_threads=True)
    ctx: _Context | None = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            if ctx is not None:
                ctx.close()
            return _EXIT_DONE
        req = json.loads(line)
        if ctx is None or ctx.desc != req["desc"]:
            if ctx is not None:
                ctx.close()
            ctx = _Context(req["index"], req["desc"], models_dir, tmp / f"m{os.getpid()}")
        sys.stderr.write(f"hostile_sweep: #{req['index']} {req['call']} on {req['desc']}\n")
        sys.stderr.flush()
        faulthandler.dump_traceback_later(max(0.5, req["timeout"] * 0.9))
        t0 = time.perf_counter()
        outcome, detail = run_call(req["call"], ctx)
        seconds = time.perf_counter() - t0
        faulthandler.cancel_dump_traceback_later()
        _send(proto, {"index": req["index"], "outcome": outcome, "detail": detail, "s": seconds})


def _warm_up(models_dir: Path, report: bool) -> None:
    """Imports and first uses (fonts, caches) done once, before forking."""
    import tflm_arena.cli
    import tflm_arena.report  # noqa: F401

    m = ta.Model.load(models_dir / CLEAN_SHARED_MODEL)
    ta.plan(m)
    ta.tflm_arena(m)
    if report:
        ta.report_html(m, strategies=["tflm_greedy"], targets=[ta.DEFAULT_TARGET])


def worker_main(models_dir: Path, tmp: Path, report: bool, expect_core: str | None) -> int:
    """The zygote: warms up, then forks one child at a time and reports on
    the protocol channel each child's pid and how it died."""
    proto = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # what the package prints never reaches the protocol
    os.close(devnull)
    if expect_core and os.path.realpath(ta._core.__file__) != expect_core:
        sys.stderr.write(f"hostile_sweep: worker loaded {ta._core.__file__}, not {expect_core}\n")
        return 2
    _warm_up(models_dir, report)
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                code = _child_loop(proto, models_dir, tmp)
            finally:
                sys.stderr.flush()
                os._exit(code)
        _send(proto, {"child": pid})
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _EXIT_DONE:
            return 0
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        _send(proto, {"died": pid, "signal": sig, "code": code})


# --- the parent side ---------------------------------------------------------


class _WorkerGone(Exception):
    """The zygote's protocol channel closed."""


@dataclass
class Outcome:
    """One call on one mutant."""

    index: int
    desc: str
    call: str
    outcome: str
    detail: str
    seconds: float
    stderr: str = ""  # what the worker wrote to stderr during a failed call


class _Worker:
    """One zygote process and its current child, seen from the parent."""

    def __init__(self, models_dir: Path, tmp: Path, name: str, report: bool) -> None:
        self.models_dir, self.tmp, self.name, self.report = models_dir, tmp, name, report
        self.err_path = tmp / f"{name}.stderr"
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        env = dict(os.environ)
        core_dir = str(Path(ta.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (core_dir, env.get("PYTHONPATH", "")) if p)
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        env.setdefault("OMP_NUM_THREADS", "1")
        env["MPLBACKEND"] = "Agg"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker"]
        cmd += ["--models", str(self.models_dir), "--tmp", str(self.tmp)]
        cmd += ["--expect-core", os.path.realpath(ta._core.__file__)]
        if self.report:
            cmd.append("--warm-report")
        with open(self.err_path, "ab") as err:
            self.proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                env=env,
                start_new_session=True,
            )
        assert self.proc.stdout is not None
        self.fd = self.proc.stdout.fileno()
        self.buf = b""
        msg = self._read(time.monotonic() + STARTUP_TIMEOUT)
        if msg is None or "child" not in msg:
            self.close()
            raise RuntimeError(f"worker did not start: {self._stderr_since(0)}")
        self.child = int(msg["child"])

    def _read(self, deadline: float) -> dict[str, Any] | None:
        """The next protocol message, or None at the deadline."""
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                chunk = os.read(self.fd, 1 << 16)
                if not chunk:
                    raise _WorkerGone
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        try:
            msg: dict[str, Any] = json.loads(line)
        except ValueError:
            return {"garbled": line.decode(errors="replace")}
        return msg

    def _stderr_since(self, pos: int, lines: int = 40) -> str:
        """The last lines the worker wrote to stderr after byte ``pos``."""
        try:
            with open(self.err_path, "rb") as f:
                f.seek(pos)
                text = f.read().decode(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def _restart(self) -> None:
        """Replaces a zygote that died."""
        self.close()
        self.restarts += 1
        self._start()

    def _next_child(self, skip_to_death: bool) -> None:
        """Reads on to the zygote's next child (past the killed child's death
        report, and an answer it may have sent just before)."""
        deadline = time.monotonic() + 60
        while skip_to_death:
            msg = self._read(deadline)
            if msg is None:
                raise _WorkerGone
            skip_to_death = "died" not in msg
        msg = self._read(deadline)
        if msg is None or "child" not in msg:
            raise _WorkerGone
        self.child = int(msg["child"])

    def call(self, index: int, desc: str, call: str, timeout: float) -> Outcome:
        """Runs one call in the child; a crash or hang is recorded and a
        fresh child takes over."""
        pos = self.err_path.stat().st_size
        req = {"index": index, "desc": desc, "call": call, "timeout": timeout}
        t0 = time.monotonic()
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write((json.dumps(req) + "\n").encode())
            self.proc.stdin.flush()
            msg = self._read(t0 + timeout)
        except (_WorkerGone, BrokenPipeError):
            code = self.proc.wait()
            self._restart()
            return Outcome(
                index,
                desc,
                call,
                "crash",
                f"worker exited ({code})",
                time.monotonic() - t0,
                self._stderr_since(pos),
            )
        seconds = time.monotonic() - t0
        if msg is None:  # a hang: kill the child, take the next
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.child, signal.SIGKILL)
            try:
                self._next_child(skip_to_death=True)
            except _WorkerGone:
                self._restart()
            return Outcome(
                index,
                desc,
                call,
                "hang",
                f"no answer in {timeout:g} s (killed)",
                seconds,
                self._stderr_since(pos),
            )
        if "died" in msg:
            sig = int(msg.get("signal") or 0)
            how = f"killed by {signal.Signals(sig).name}" if sig else f"exit status {msg['code']}"
            try:
                self._next_child(skip_to_death=False)
            except _WorkerGone:
                self._restart()
            return Outcome(
                index, desc, call, "crash", f"worker {how}", seconds, self._stderr_since(pos)
            )
        if msg.get("index") != index:
            self._restart()
            return Outcome(index, desc, call, "crash", f"protocol out of step: {msg}", seconds)
        failed = msg["outcome"] in FAILURES
        return Outcome(
            index,
            desc,
            call,
            msg["outcome"],
            msg["detail"],
            float(msg["s"]),
            self._stderr_since(pos, 15) if failed else "",
        )

    def close(self) -> None:
        """Closes stdin (the child and the zygote then exit); kills on delay."""
        with contextlib.suppress(OSError):
            if self.proc.stdin:
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.child, signal.SIGKILL)
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


@dataclass
class Sweep:
    """The outcomes of a sweep, and its summary."""

    seed: int | None
    descs: list[str]
    outcomes: list[Outcome]
    seconds: float
    workers: int
    timeout: float
    restarts: int = 0
    loaded: set[int] = field(default_factory=set)

    def failures(self) -> list[Outcome]:
        """Every crash, hang, bad exception and bad write, by mutant."""
        return sorted(
            (o for o in self.outcomes if o.outcome in FAILURES), key=lambda o: (o.index, o.call)
        )

    def counts(self) -> dict[str, Counter[str]]:
        """Outcome counts per table row (call, or rotating family)."""
        out: dict[str, Counter[str]] = {}
        for o in self.outcomes:
            out.setdefault(table_row(o.call), Counter())[o.outcome] += 1
        return out

    def loaded_per_row(self) -> Counter[str]:
        """How many loading mutants each row's calls ran on."""
        return Counter(table_row(o.call) for o in self.outcomes if o.index in self.loaded)

    def total(self, outcome: str) -> int:
        """How many calls had this outcome."""
        return sum(1 for o in self.outcomes if o.outcome == outcome)

    def table(self) -> str:
        """Outcome counts per call (rotating families on one row) and seconds spent."""
        counts = self.counts()
        loaded = self.loaded_per_row()
        order = {table_row(c): i for i, c in enumerate([*call_names(), *TEST_CALLS])}
        rows = sorted(counts, key=lambda r: (order.get(r, len(order)), r))
        width = max([len("call"), *map(len, rows)])
        seconds: Counter[str] = Counter()
        for o in self.outcomes:
            seconds[table_row(o.call)] += o.seconds
        head = f"{'call':<{width}} {'calls':>6} {'loaded':>6} " + " ".join(
            f"{h:>{max(6, len(h))}}" for h in OUTCOMES
        )
        head += f" {'seconds':>8}"
        lines = [head, "-" * len(head)]
        for r in rows:
            c = counts[r]
            lines.append(
                f"{r:<{width}} {sum(c.values()):>6} {loaded[r]:>6} "
                + " ".join(f"{c[h]:>{max(6, len(h))}}" for h in OUTCOMES)
                + f" {seconds[r]:>8.1f}"
            )
        return "\n".join(lines)

    def clean_error_types(self) -> Counter[str]:
        """Clean errors counted by exception type (or CLI exit status)."""
        return Counter(
            o.detail.split(":", 1)[0] for o in self.outcomes if o.outcome == "clean error"
        )

    def report(self, stderr_lines: int = 12) -> str:
        """The summary: mutants, loads per kind, the table, wall time, and
        each failure with its reproducer."""
        kinds = Counter(kind_of(d) for d in self.descs)
        loads = Counter(kind_of(self.descs[i]) for i in self.loaded)
        per_kind = ", ".join(f"{k} {loads[k]}/{kinds[k]}" for k in KINDS if kinds[k])
        lines = [
            f"hostile sweep: seed {self.seed}, {len(self.descs)} mutants, "
            f"{len(self.loaded)} load ({per_kind})",
            f"{len(self.outcomes)} calls in {self.seconds:.1f} s on {self.workers} workers "
            f"(timeout {self.timeout:g} s per call, {self.restarts} worker restarts)",
            "",
            self.table(),
            "",
            "clean errors by type: "
            + ", ".join(f"{k} {v}" for k, v in self.clean_error_types().most_common()),
        ]
        internal = Counter(
            o.detail
            for o in self.outcomes
            if o.outcome == "clean error" and o.detail.startswith("RuntimeError")
        )
        for detail, n in internal.most_common(10):
            lines.append(f"  note: {n} x {detail}")
        slow = sorted(self.outcomes, key=lambda o: -o.seconds)[:5]
        lines.append(
            "slowest calls: " + "; ".join(f"{o.call} #{o.index} {o.seconds:.2f} s" for o in slow)
        )
        fails = self.failures()
        lines += ["", f"failures: {len(fails)}"]
        me = "tests_py/hostile_sweep.py"
        for o in fails:
            lines.append(f"- {o.outcome.upper()}: {o.call} on #{o.index} {o.desc}")
            lines.append(f"    {o.detail.splitlines()[0] if o.detail else ''}")
            lines.append(f"    repro: python {me} --repro '{o.desc}' --calls '{o.call}'")
            if o.outcome in ("bad exception", "bad write"):
                tail = o.detail.splitlines()[1:][-stderr_lines:]
            else:
                tail = o.stderr.splitlines()[-stderr_lines:]
            lines += [f"    | {t}" for t in tail]
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        """The counts and failures, for ``--json``."""
        return {
            "seed": self.seed,
            "mutants": len(self.descs),
            "loaded": len(self.loaded),
            "seconds": self.seconds,
            "counts": {r: dict(c) for r, c in self.counts().items()},
            "failures": [vars(o) for o in self.failures()],
        }


def run_sweep(
    descs: Sequence[str],
    *,
    models_dir: Path = MODELS_DIR,
    calls: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    workers: int = 2,
    seed: int | None = None,
    every: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Sweep:
    """Runs the selected calls (:func:`select_calls`) on each mutant of
    ``descs`` (mutant ``i`` is ``descs[i]``: with :func:`generate`, index
    ``i`` of ``seed``) in ``workers`` worker processes, ``from_bytes`` first
    and then :func:`schedule`'s calls, and returns the :class:`Sweep`.
    ``every`` gives every selected call to every loading mutant (no
    expensive subset); ``progress(done, total)`` is called after each
    mutant."""
    selected = select_calls(calls)
    models_dir = Path(models_dir)
    report = any(c in ("report_html", "cli:report") for c in selected)
    outcomes: list[Outcome] = []
    loaded: set[int] = set()
    lock = threading.Lock()
    pending = iter(range(len(descs)))
    done = [0]
    errors: list[BaseException] = []
    pool: list[_Worker] = []

    def take() -> int | None:
        with lock:
            return next(pending, None)

    def run(k: int, tmp: Path) -> None:
        try:
            w = _Worker(models_dir, tmp, f"worker{k}", report)
        except BaseException as e:
            errors.append(e)
            return
        pool.append(w)
        try:
            while (i := take()) is not None:
                desc = descs[i]
                first = w.call(i, desc, "from_bytes", timeout)
                mine = [first]
                ok = first.outcome == "result"
                for c in schedule(i, ok, selected, every):
                    mine.append(w.call(i, desc, c, timeout))
                with lock:
                    if ok:
                        loaded.add(i)
                    if "from_bytes" in selected:
                        outcomes.extend(mine)
                    else:
                        outcomes.extend(mine[1:])
                    done[0] += 1
                    if progress:
                        progress(done[0], len(descs))
        except BaseException as e:
            errors.append(e)
        finally:
            w.close()

    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hostile-sweep-") as tmp:
        threads = [
            threading.Thread(target=run, args=(k, Path(tmp)), daemon=True)
            for k in range(max(1, workers))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if errors:
        raise RuntimeError(f"the sweep's driver failed: {errors[0]!r}") from errors[0]
    outcomes.sort(key=lambda o: o.index)  # stable: each mutant's calls in the order run
    return Sweep(
        seed,
        list(descs),
        outcomes,
        time.monotonic() - t0,
        workers,
        timeout,
        sum(w.restarts for w in pool),
        loaded,
    )


def is_asan() -> bool:
    """Whether the loaded ``tflm_arena._core`` is the ASan build (build/pyasan)
    or the ASan runtime is preloaded."""
    core = ta._core.__file__ or ""
    return "pyasan" in core or "libasan" in os.environ.get("LD_PRELOAD", "")


def _main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring); 1 when a failure was found."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=500, help="mutants (default 500)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the mutants (default 0)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per call (default 20)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--calls", help="comma-separated call names or families (default all)")
    ap.add_argument("--models", type=Path, default=MODELS_DIR, help="the shared models folder")
    ap.add_argument("--repro", metavar="DESCRIPTION", help="run one mutant by its description")
    ap.add_argument("--index", type=int, help="run one mutant by --seed and index")
    ap.add_argument("--inprocess", action="store_true", help="repro in this process")
    ap.add_argument("--write", type=Path, help="write the repro mutant's bytes to this file")
    ap.add_argument("--json", type=Path, help="write the outcomes as JSON to this file")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--tmp", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--warm-report", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--expect-core", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker_main(args.models, args.tmp, args.warm_report, args.expect_core)
    timeout = args.timeout or DEFAULT_TIMEOUT * (3 if is_asan() else 1)
    calls = args.calls.split(",") if args.calls else None
    if args.repro or args.index is not None:
        desc = args.repro or describe(args.seed, args.index, args.models)
        index = args.index if args.index is not None else 0
        if args.write:
            args.write.write_bytes(mutant_bytes(desc, args.models))
            print(f"wrote {args.write}")
        print(f"mutant #{index}: {desc}")
        if args.inprocess:
            faulthandler.enable()
            with tempfile.TemporaryDirectory() as tmp:
                ctx = _Context(index, desc, args.models, Path(tmp) / "m")
                chosen = select_calls(calls)
                first = run_call("from_bytes", ctx)
                print(f"  from_bytes: {first[0]}: {first[1]}", flush=True)
                for c in schedule(index, first[0] == "result", chosen, every=True):
                    print(f"  {c} ...", end=" ", flush=True)
                    outcome, detail = run_call(c, ctx)
                    print(f"{outcome}: {detail}", flush=True)
            return 0
        sweep = run_sweep([desc], models_dir=args.models, calls=calls, timeout=timeout, every=True)
        for o in sweep.outcomes:
            print(f"  {o.call}: {o.outcome}: {o.detail.splitlines()[0] if o.detail else ''}")
            for line in o.stderr.splitlines()[-20:]:
                print(f"    | {line}")
        return 1 if sweep.failures() else 0

    def progress(done: int, total: int) -> None:
        if not args.quiet and (done % 50 == 0 or done == total):
            sys.stderr.write(f"hostile_sweep: {done}/{total} mutants\n")

    descs = generate(args.seed, args.count, args.models)
    sweep = run_sweep(
        descs,
        models_dir=args.models,
        calls=calls,
        timeout=timeout,
        workers=args.workers,
        seed=args.seed,
        progress=progress,
    )
    print(sweep.report())
    if args.json:
        args.json.write_text(json.dumps(sweep.as_json(), indent=1))
    return 1 if sweep.failures() else 0


if __name__ == "__main__":
    sys.exit(_main())
