"""The arena STOCK TFLM needs for a model, computed without running TFLM.

``tflm_arena(model, target="cortex-m", recording=False, planner="greedy")``
replays TFLM's allocation sequence (allocator objects, per-operator kernel
data, temp tensors during Prepare, the planner's temp memory, the head plan,
persistent tensors) for the chosen build and returns the smallest arena
with which ``AllocateTensors`` and ``Invoke`` succeed, plus the breakdown
TFLM's ``RecordingMicroAllocator`` prints at that size.

Targets: ``"x86-64"`` reproduces the ``tflite-micro`` PyPI wheel
(TF_LITE_STATIC_MEMORY, compression on); ``"cortex-m"`` a TFLM Makefile
build for a 32-bit ARM core (compression off, 4-byte pointers, AAPCS).
An operator whose memory behaviour is not modelled raises
``NotImplementedError`` naming it.

This is the number for ``constexpr int kTensorArenaSize``; our own runtime's
need is ``Interpreter(model).required_arena_size()`` (smaller tail).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from os import PathLike
from typing import Dict, Union

from . import _core
from .model import Model

TARGETS = ("x86-64", "cortex-m")
DEFAULT_TARGET = "cortex-m"
PLANNERS = ("greedy", "linear")


@dataclass(frozen=True)
class Category:
    """One RecordingMicroAllocator category: bytes asked for, bytes the tail
    moved (alignment included) and number of allocations."""
    name: str
    requested: int
    used: int
    count: int


@dataclass(frozen=True)
class TflmArena:
    """Stock TFLM's arena need for one model and build (see module doc).

    >>> import tflm_arena as ta
    >>> r = ta.tflm_arena("hello_world_int8.tflite", target="x86-64")
    >>> r.target, r.min_arena_bytes
    ('x86-64', 1704)
    """
    target: str
    recording: bool
    planner: str
    min_arena_bytes: int      # smallest working size of a 16-aligned buffer
    min_arena_bytes_16: int   # smallest working multiple of 16
    head: int                 # activations (+ scratch) at the minimum
    tail: int                 # persistent data at the minimum
    temp_peak: int            # most temp bytes in use at once during allocation
    planned_buffers: int
    scratch_requests: int
    limited_by: str           # what fails one byte below the minimum
    categories: Dict[str, Category] = field(default_factory=dict)

    def firmware_line(self) -> str:
        return f"constexpr int kTensorArenaSize = {self.min_arena_bytes_16};"

    def as_dict(self) -> dict:
        d = {k: getattr(self, k) for k in (
            "target", "recording", "planner", "min_arena_bytes", "min_arena_bytes_16",
            "head", "tail", "temp_peak", "planned_buffers", "scratch_requests",
            "limited_by")}
        d["categories"] = {k: vars(c) for k, c in self.categories.items()}
        return d

    def __str__(self) -> str:
        alloc = "RecordingMicroAllocator" if self.recording else "MicroAllocator"
        lines = [
            f"stock TFLM, {self.target}, {alloc}, {self.planner} planner:",
            f"  minimum arena   {self.min_arena_bytes:>10,} bytes "
            f"({self.min_arena_bytes_16:,} as a multiple of 16)",
            f"  head            {self.head:>10,} bytes (activations + scratch, "
            f"{self.planned_buffers} planned buffers)",
            f"  tail            {self.tail:>10,} bytes (persistent)",
            f"  temp peak       {self.temp_peak:>10,} bytes (during allocation)",
        ]
        if self.limited_by:
            lines.append(f"  one byte less fails at: {self.limited_by}")
        for c in self.categories.values():
            if c.requested or c.used:
                lines.append(f"    {c.name:<44} {c.used:>8,} used, {c.requested:>8,} "
                             f"requested, {c.count} allocations")
        return "\n".join(lines)


def tflm_arena(model: Union[Model, str, PathLike, bytes], target: str = "cortex-m",
               recording: bool = False, planner: str = "greedy") -> TflmArena:
    """Arena stock TFLM needs for ``model`` (a Model, a path or bytes).

    >>> import tflm_arena as ta
    >>> ta.tflm_arena("hello_world_int8.tflite", target="x86-64").min_arena_bytes
    1704
    """
    if not isinstance(model, Model):
        model = Model.from_bytes(model) if isinstance(model, (bytes, bytearray)) \
            else Model.load(model)
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (known: {', '.join(TARGETS)})")
    if planner not in PLANNERS:
        raise ValueError(f"unknown planner {planner!r} (known: {', '.join(PLANNERS)})")
    d = _core.tflm_arena_size(model._handle, target, bool(recording), planner)
    cats = {k: Category(v["name"], v["requested"], v["used"], v["count"])
            for k, v in d.pop("categories").items()}
    return TflmArena(categories=cats, **d)
