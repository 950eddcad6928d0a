"""The arena STOCK TFLM needs for a model, computed without running TFLM.

``tflm_arena(model, target=DEFAULT_TARGET, recording=None, planner="tflm_greedy")``
replays TFLM's allocation sequence (allocator objects, per-operator kernel
data, temp tensors during Prepare, the planner's temp memory, the head plan,
persistent tensors) for the chosen build and returns the smallest arena
with which ``AllocateTensors`` and ``Invoke`` succeed, plus the breakdown
TFLM's ``RecordingMicroAllocator`` prints at that size.

Targets (:data:`TARGETS`, from the C++ core; :func:`targets` describes
each, ``tflm-arena versions`` lists them with their stack versions): the
three plain builds, and the kernel libraries built on them.

- ``"cortex-m"`` (the default): a TFLM Makefile build for a 32-bit ARM core
  (reference kernels, compression off, 4-byte pointers, AAPCS), with a
  plain ``MicroAllocator``;
- ``"x86-64"``: TFLM compiled as the ``tflite-micro`` wheel compiles it
  (TF_LITE_STATIC_MEMORY, compression on), with a plain ``MicroAllocator``;
- ``"tflite-micro-wheel"``: the ``tflite-micro`` PyPI wheel as its Python
  interpreter runs a model: a ``RecordingMicroAllocator`` with the greedy
  planner (with ``planner="linear"``, its ``kPreserveAllTensors``
  configuration: a plain ``MicroAllocator``);
- CMSIS-NN per Cortex-M core (``"cortex-m4+cmsis-nn"``, ...), Ethos-U
  (``"cortex-m+ethos-u"``, ``"cortex-m55+ethos-u"``) and ESP-NN per ESP32
  chip (``"esp32s3+esp-nn"``, ..., ``"esp32+esp-nn-ansi-c"``), each at the
  stack versions :mod:`tflm_arena.stack_versions` names
  (``"cortex-m4+cmsis-nn@arduino"``).

``recording=None`` takes the allocator the target's application creates;
``True``/``False`` ask for the recording or the plain one where that build
can have it. An operator whose memory behaviour is not modelled raises
``NotImplementedError`` naming it; a model stock TFLM refuses at every arena
size (a hybrid model: float32 activations with int8 weights, ...) raises
:class:`TflmRefusesModelError` with TFLM's reason.

Other layouts of the same build: :func:`tflm_split_arena` (two buffers,
``MicroAllocator::Create(persistent, ..., non_persistent, ...)``: the minimum
of each) and :func:`tflm_shared_arena` (one arena and one allocator for
several models, in order: the largest phase, and the smallest order).

This is the number for ``constexpr int kTensorArenaSize``; our own runtime's
need is ``Interpreter(model).required_arena_size()`` (smaller tail).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

from . import _core
from ._core import TflmRefusesModelError
from ._targets import (
    DEFAULT_TARGET,
    PLANNERS,
    TARGETS,
    ChosenForAnotherTargetWarning,
    check_target,
    scratch_requests,
    targets,
    warn_if_chosen_for_another,
)
from .model import Model

__all__ = [
    "DEFAULT_TARGET",
    "PLANNERS",
    "TARGETS",
    "Category",
    "ChosenForAnotherTargetWarning",
    "TflmArena",
    "TflmSplitArena",
    "check_target",
    "targets",
    "tflm_arena",
    "tflm_scratch_requests",
    "tflm_shared_arena",
    "tflm_split_arena",
]


def _planner_words(planner: str) -> str:
    """How texts name a planner of :data:`PLANNERS`: "greedy planner" (TFLM's
    GreedyMemoryPlanner), "linear planner"."""
    return "greedy planner" if planner == "tflm_greedy" else f"{planner} planner"


TflmRefusesModelError.__doc__ = """Stock TFLM refuses the model whatever the arena size:
a kernel's Prepare rejects it (a ValueError). ``reason`` is TFLM's message,
``source`` the TFLM file and function that refuses, ``operator`` has
``index`` (within its subgraph), ``name`` and ``subgraph``.

>>> import numpy as np, tflm_arena as ta
>>> from tflm_arena.builder import ModelBuilder
>>> mb = ModelBuilder()
>>> x, y = mb.add_tensor([1, 8], "float32"), mb.add_tensor([1, 4], "float32")
>>> w = mb.add_tensor([4, 8], "int8", data=np.ones((4, 8)), scale=0.1)
>>> mb.add_operator("FULLY_CONNECTED", [x, w, -1], [y])
0
>>> mb.set_io([x], [y])
>>> try:
...     ta.tflm_arena(mb.build())
... except ta.TflmRefusesModelError as e:
...     print(e.operator.name, e.operator.index, e.reason)
FULLY_CONNECTED 0 Input type: FLOAT32 with filter type: INT8 not supported.
"""


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
    version: str  # the stack version (see :func:`versions`), e.g. "1.2.3"
    versions: str  # the TFLM release and kernel library it is, in words
    description: str  # the build, in words, versions included
    recording: bool  # RecordingMicroAllocator (else MicroAllocator)
    planner: str
    min_arena_bytes: int  # smallest working size of a 16-aligned buffer
    min_arena_bytes_16: int  # smallest working multiple of 16
    head: int  # activations (+ scratch) at the minimum
    tail: int  # persistent data at the minimum
    temp_peak: int  # most temp bytes in use at once during allocation
    planned_buffers: int
    scratch_requests: int
    limited_by: str  # what fails one byte below the minimum
    categories: dict[str, Category] = field(default_factory=dict)
    # MicroResourceVariables the application creates (0: the model has no
    # VAR_HANDLE) and whether their object and array are in this arena.
    resource_variables: int = 0
    resource_variables_in_arena: bool = True
    # A compressed model's DECODE outputs: the decompression memory region
    # (MicroInterpreter::SetDecompressionMemory) that takes them all out of
    # the arena; 0 without DECODE. The figures above are without a region.
    decompression_region_bytes: int = 0
    # A Vela model's separate Ethos-U fast scratch (its scratch_fast tensor,
    # Vela's "Total SRAM used" in Dedicated_Sram mode); 0 when none. TFLM
    # plans that tensor in the arena too (included above).
    ethos_u_fast_scratch_bytes: int = 0

    def firmware_line(self) -> str:
        return f"constexpr int kTensorArenaSize = {self.min_arena_bytes_16};"

    def as_dict(self) -> dict[str, Any]:
        d = {
            k: getattr(self, k)
            for k in (
                "target",
                "version",
                "versions",
                "description",
                "recording",
                "planner",
                "min_arena_bytes",
                "min_arena_bytes_16",
                "head",
                "tail",
                "temp_peak",
                "planned_buffers",
                "scratch_requests",
                "limited_by",
                "resource_variables",
                "resource_variables_in_arena",
                "decompression_region_bytes",
                "ethos_u_fast_scratch_bytes",
            )
        }
        d["categories"] = {k: vars(c) for k, c in self.categories.items()}
        return d

    @property
    def allocator(self) -> str:
        """The TFLM allocator the figures are for: ``RecordingMicroAllocator``
        or ``MicroAllocator``.

        >>> import tflm_arena as ta
        >>> ta.tflm_arena("hello_world_int8.tflite").allocator
        'MicroAllocator'
        """
        return "RecordingMicroAllocator" if self.recording else "MicroAllocator"

    def __str__(self) -> str:
        alloc = self.allocator
        lines = [
            f"stock TFLM, target {self.target}@{self.version}: {self.description}",
            f"  ({alloc}, {_planner_words(self.planner)})",
            f"  minimum arena   {self.min_arena_bytes:>10,} bytes "
            f"({self.min_arena_bytes_16:,} as a multiple of 16)",
            f"  head            {self.head:>10,} bytes (activations + scratch, "
            f"{self.planned_buffers} planned buffers)",
            f"  tail            {self.tail:>10,} bytes (persistent)",
            f"  temp peak       {self.temp_peak:>10,} bytes (during allocation)",
        ]
        if self.resource_variables:
            where = "in this arena" if self.resource_variables_in_arena else "in another arena"
            lines.append(
                f"  resource variables {self.resource_variables} "
                f"(MicroResourceVariables::Create {where}; their buffers in this one)"
            )
        if self.decompression_region_bytes:
            lines.append(
                f"  decompression memory {self.decompression_region_bytes:,} bytes would hold "
                "every DECODE output outside the arena (SetDecompressionMemory; the figures "
                "above are without it)"
            )
        if self.ethos_u_fast_scratch_bytes:
            lines.append(
                f"  Ethos-U fast scratch {self.ethos_u_fast_scratch_bytes:,} bytes (Vela's "
                "scratch_fast: the fast memory ethosu_init gets; TFLM also plans a tensor of "
                "that size in the arena, counted above)"
            )
        if self.limited_by:
            lines.append(f"  one byte less fails at: {self.limited_by}")
            if self.limited_by.endswith("(model input/output)"):
                lines.append(
                    "    (AllocateTensors() allocates the TfLiteTensor structs of the model's "
                    "inputs and outputs last, after the plan has taken the head: the arena "
                    "runs out there first)"
                )
        shown = [c for c in self.categories.values() if c.requested or c.used]
        for c in shown:
            lines.append(
                f"    {c.name:<44} {c.used:>8,} used, {c.requested:>8,} "
                f"requested, {c.count} allocations"
            )
        other = self.tail - sum(c.used for c in shown)
        if shown and other > 0:
            lines.append(
                f"    {'other (allocator objects, planner, handles)':<44} {other:>8,} used "
                "(the rest of the tail)"
            )
        return "\n".join(lines)


def tflm_arena(
    model: Model | str | PathLike[str] | bytes,
    target: str = DEFAULT_TARGET,
    recording: bool | None = None,
    planner: str = "tflm_greedy",
    resource_variables: int | None = None,
    resource_variables_in_arena: bool = True,
) -> TflmArena:
    """Arena stock TFLM needs for ``model`` (a Model, a path or bytes) on
    ``target`` (see the module doc; ``recording=None`` = the allocator that
    target's application creates). ``planner`` is one of :data:`PLANNERS`
    (``"greedy"``: deprecated name of ``"tflm_greedy"``, warns).

    Streaming models keep state in resource variables (VAR_HANDLE,
    ASSIGN_VARIABLE, READ_VARIABLE), which the application creates with
    ``MicroResourceVariables::Create(allocator, n)`` before the interpreter.
    ``resource_variables`` is that ``n``; ``None`` takes the ``tflite-micro``
    wheel's rule (one per distinct VAR_HANDLE ``shared_name``, none without
    VAR_HANDLE). ``resource_variables_in_arena=False`` puts their object and
    array in another arena, as ESPHome's ``micro_wake_word`` does (20
    variables in a 1 KiB arena of their own); the variables' buffers are in
    this arena either way. The figures say which (``resource_variables``).

    >>> import tflm_arena as ta
    >>> ta.tflm_arena("hello_world_int8.tflite", target="x86-64").min_arena_bytes
    1704
    >>> ta.tflm_arena("hello_world_int8.tflite", target="tflite-micro-wheel").min_arena_bytes
    1936
    """
    model = _as_model(model)
    check_target(target)
    warn_if_chosen_for_another(model.chosen_for, target, stacklevel=2)
    if planner == "greedy":
        warnings.warn(
            "planner='greedy' is deprecated; use planner='tflm_greedy' (the same "
            "planner, named as in plan() and Interpreter)",
            DeprecationWarning,
            stacklevel=2,
        )
        planner = "tflm_greedy"
    if planner not in PLANNERS:
        raise ValueError(f"unknown planner {planner!r} (known: {', '.join(PLANNERS)})")
    if resource_variables is not None and not 0 <= int(resource_variables) < 2**31:
        raise ValueError(f"resource_variables must be >= 0, got {resource_variables}")
    d = _core.tflm_arena_size(
        model._handle,
        target,
        None if recording is None else bool(recording),
        planner,
        -1 if resource_variables is None else int(resource_variables),
        bool(resource_variables_in_arena),
    )
    cats = {
        k: Category(v["name"], v["requested"], v["used"], v["count"])
        for k, v in d.pop("categories").items()
    }
    return TflmArena(categories=cats, **d)


@dataclass(frozen=True)
class TflmSplitArena:
    """Stock TFLM's need with two buffers, ``MicroAllocator::Create(persistent,
    persistent_size, non_persistent, non_persistent_size)``: the persistent
    buffer takes the tail (allocator objects, kernel data, tensor structs),
    the non-persistent one the head (activation plan, scratch) and the temp
    allocations of Prepare and planning. Each minimum holds whatever the size
    of the other buffer.

    >>> import tflm_arena as ta
    >>> r = ta.tflm_split_arena("hello_world_int8.tflite", target="cortex-m")
    >>> r.min_non_persistent_bytes, r.min_persistent_bytes
    (560, 704)
    """

    target: str
    version: str  # the stack version (see :func:`versions`)
    description: str  # the build, in words, versions included
    planner: str
    checked: bool  # this layout was run on a real build of the target
    min_persistent_bytes: int  # smallest 16-aligned persistent buffer
    min_non_persistent_bytes: int  # smallest 16-aligned non-persistent buffer
    single_arena_bytes: int  # the same build with one arena
    persistent_limited_by: str  # what fails one byte below each minimum
    non_persistent_limited_by: str

    def as_dict(self) -> dict[str, Any]:
        """Every field, for JSON."""
        return dict(vars(self))

    def __str__(self) -> str:
        both = self.min_persistent_bytes + self.min_non_persistent_bytes
        lines = [
            f"stock TFLM, target {self.target}@{self.version}: {self.description}",
            f"  (two buffers: MicroAllocator::Create(persistent, ..., non_persistent, ...), "
            f"{_planner_words(self.planner)})",
            *_unchecked_line(self.checked),
            f"  non-persistent  {self.min_non_persistent_bytes:>10,} bytes "
            "(head: activations + scratch; temp during allocation)",
            f"  persistent      {self.min_persistent_bytes:>10,} bytes (tail)",
            f"  together        {both:>10,} bytes "
            f"(one arena on the same target: {self.single_arena_bytes:,})",
        ]
        if self.non_persistent_limited_by:
            lines.append(
                f"  non-persistent one byte less fails at: {self.non_persistent_limited_by}"
            )
        if self.persistent_limited_by:
            lines.append(f"  persistent one byte less fails at: {self.persistent_limited_by}")
        return "\n".join(lines)


def tflm_split_arena(
    model: Model | str | PathLike[str] | bytes,
    target: str = DEFAULT_TARGET,
    planner: str = "tflm_greedy",
) -> TflmSplitArena:
    """Minimum of each buffer when stock TFLM on ``target`` gets two
    (:class:`TflmSplitArena`). Only a plain ``MicroAllocator`` has the
    two-buffer ``Create``: the ``tflite-micro-wheel`` target raises
    ValueError.

    >>> import tflm_arena as ta
    >>> ta.tflm_split_arena("hello_world_int8.tflite").min_persistent_bytes
    704
    """
    model = _as_model(model)
    check_target(target)
    _check_planner(planner)
    return TflmSplitArena(**_core.tflm_split_arena(model._handle, target, None, planner))


@dataclass(frozen=True)
class TflmSharedArena:
    """Stock TFLM's need when one ``MicroAllocator`` (one arena) serves
    several ``MicroInterpreter``s, allocated in the order given. The need is
    the largest phase: ``phase_bytes[k]`` is the smallest arena with which
    models ``0..k`` all allocate (each later model prepares on top of the
    tails already there; the plan reserved is the largest so far), not
    max(head) + sum(tails). ``best_order`` (indices into ``models``) is the
    smallest order found.

    >>> import tflm_arena as ta
    >>> r = ta.tflm_shared_arena(["hello_world_int8.tflite", "hello_world_float.tflite"])
    >>> r.min_arena_bytes, r.phase_bytes
    (1676, [1100, 1676])
    """

    target: str
    version: str  # the stack version (see :func:`versions`)
    description: str
    recording: bool
    planner: str
    checked: bool  # this layout was run on a real build of the target
    models: list[str]  # as given (paths, or "model N")
    min_arena_bytes: int  # in the order given
    phase_bytes: list[int]
    limited_by_model: int  # index into models of what fails one byte below
    limited_by: str
    single_arena_bytes: list[int]  # each model alone
    heads: list[int]  # each model alone, at its minimum
    tails: list[int]
    all_orders_checked: bool  # best_order is the best of every order
    best_order: list[int]
    best_min_arena_bytes: int

    def as_dict(self) -> dict[str, Any]:
        """Every field, for JSON."""
        return dict(vars(self))

    def __str__(self) -> str:
        alloc = "RecordingMicroAllocator" if self.recording else "MicroAllocator"
        names = self.models
        lines = [
            f"stock TFLM, target {self.target}@{self.version}: {self.description}",
            f"  (one {alloc} and one arena for {len(names)} interpreters, "
            f"{_planner_words(self.planner)})",
            *_unchecked_line(self.checked),
            f"  minimum arena   {self.min_arena_bytes:>10,} bytes (models allocated in the "
            "order given)",
        ]
        for k, name in enumerate(names):
            lines.append(
                f"    after {name}: {self.phase_bytes[k]:,} bytes (alone "
                f"{self.single_arena_bytes[k]:,}: head {self.heads[k]:,}, tail "
                f"{self.tails[k]:,})"
            )
        naive = max(self.heads) + sum(self.tails)
        lines.append(f"  max(head) + sum(tails) would say {naive:,} bytes")
        if self.limited_by:
            lines.append(
                f"  one byte less fails at: {names[self.limited_by_model]}: {self.limited_by}"
            )
        best = ", ".join(names[i] for i in self.best_order)
        scope = "of every order" if self.all_orders_checked else "of the orders tried"
        if self.best_min_arena_bytes < self.min_arena_bytes:
            lines.append(f"  smallest {scope}: {self.best_min_arena_bytes:,} bytes, order {best}")
        else:
            lines.append(f"  the order given is the smallest {scope}")
        return "\n".join(lines)


def tflm_shared_arena(
    models: list[Model | str | PathLike[str] | bytes],
    target: str = DEFAULT_TARGET,
    recording: bool | None = None,
    planner: str = "tflm_greedy",
) -> TflmSharedArena:
    """Minimum of one arena that one stock-TFLM allocator on ``target``
    serves to every model of ``models`` (at least two), allocated in that
    order (:class:`TflmSharedArena`). A separate function from
    :func:`tflm_arena` because it takes a list and answers with phases and
    orders. The ``tflite-micro-wheel`` target raises ValueError (its
    interpreter owns its allocator); an error in one model names it.

    >>> import tflm_arena as ta
    >>> r = ta.tflm_shared_arena(["hello_world_int8.tflite", "hello_world_float.tflite"])
    >>> r.min_arena_bytes, r.best_order, r.best_min_arena_bytes
    (1676, [1, 0], 1628)
    """
    check_target(target)
    _check_planner(planner)
    loaded = [_as_model(m) for m in models]
    names = [
        str(m) if isinstance(m, (str, PathLike)) else f"model {i + 1}" for i, m in enumerate(models)
    ]
    d = _core.tflm_shared_arena(
        [m._handle for m in loaded],
        target,
        None if recording is None else bool(recording),
        planner,
    )
    return TflmSharedArena(models=names, **d)


def _unchecked_line(checked: bool) -> list[str]:
    """The line a layout result prints when no real build of its target ran it."""
    return [] if checked else ["  (this layout is modelled only: not checked against a real build)"]


def _check_planner(planner: str) -> None:
    """ValueError naming the known planners when ``planner`` is not one."""
    if planner not in PLANNERS:
        raise ValueError(f"unknown planner {planner!r} (known: {', '.join(PLANNERS)})")


def tflm_scratch_requests(
    model: Model | str | PathLike[str] | bytes, target: str = DEFAULT_TARGET
) -> list[tuple[int, int, int]]:
    """Scratch buffers stock TFLM's kernels request for ``model``:
    ``[(bytes, operator, subgraph), ...]`` in TFLM's order, as
    :meth:`Model.usage_records` takes them (``scratch=``).
    ``NotImplementedError`` names an operator whose requests are not
    modelled.

    >>> import tflm_arena as ta
    >>> ta.tflm_scratch_requests("hello_world_int8.tflite", target="x86-64")
    []
    """
    return scratch_requests(_as_model(model)._handle, target)


def _as_model(model: Model | str | PathLike[str] | bytes) -> Model:
    """``model`` as a Model: loaded from a path or read from bytes."""
    if isinstance(model, Model):
        return model
    return Model.from_bytes(model) if isinstance(model, (bytes, bytearray)) else Model.load(model)
