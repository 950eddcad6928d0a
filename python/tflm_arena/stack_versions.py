"""The TFLM releases and kernel-library versions stock-TFLM figures are for.

A target (:data:`tflm_arena.TARGETS`) names the hardware and the kernel
library; ``"TARGET@VERSION"`` also names the stack version: the TFLM release
(upstream, Zephyr's module, the Arduino library, esp-tflite-micro, the
wheel) and the kernel library's version (esp-nn 1.2.0 ...). A target alone
takes the newest version modelled. Every figure names its version
(``TflmArena.version`` and ``.versions``).

:func:`compare_stacks` answers "will my update break it?": one model on two
builds, with the operators whose persistent or scratch bytes change, and
whether the arena the application gives still fits.

The table of versions lives in the C++ core (``tflm/stack_versions.cc``);
this module only formats it.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from typing import Any

from . import _core
from .model import Model
from .tflm_size import DEFAULT_TARGET, Category, TflmArena, _as_model, check_target


def versions(target: str = DEFAULT_TARGET) -> dict[str, str]:
    """The stack versions ``target`` can be built at, newest (its default)
    first: each name (what goes after ``@``) and, in words, the TFLM release
    and kernel library it is.

    >>> import tflm_arena as ta
    >>> list(ta.versions("esp32s3+esp-nn"))[:2]
    ['1.2.3', '1.2.2']
    >>> ta.tflm_arena("hello_world_int8.tflite", target="esp32s3+esp-nn@1.2.0").version
    '1.2.0'
    """
    base = _core.tflm_resolve_target(target)["target"]
    return {
        v["name"]: _core.tflm_resolve_target(f"{base}@{v['name']}")["versions"]
        for v in _core.tflm_stack_versions()
        if base in v["targets"]
    }


@dataclass(frozen=True)
class Allocations:
    """One operator's kernel allocations on one build: persistent bytes (as
    requested, before alignment) and scratch-buffer requests.

    >>> import tflm_arena as ta
    >>> c = ta.compare_stacks("person_detect.tflite", "esp32s3+esp-nn@1.2.0", "esp32s3+esp-nn")
    >>> a = c.changes[0].after
    >>> a.persistent > 0, a.scratch > 0, a.scratch_requests
    (True, True, 1)
    """

    persistent: int
    scratch: int
    scratch_requests: int


@dataclass(frozen=True)
class OperatorChange:
    """An operator whose allocations differ between the two builds.

    >>> import tflm_arena as ta
    >>> c = ta.compare_stacks("person_detect.tflite", "esp32s3+esp-nn@1.2.0", "esp32s3+esp-nn")
    >>> ch = c.changes[0]
    >>> ch.operator, ch.delta == ch.after.scratch - ch.before.scratch
    ('CONV_2D', True)
    """

    subgraph: int
    index: int  # within its subgraph
    operator: str
    before: Allocations
    after: Allocations

    @property
    def delta(self) -> int:
        """Bytes the operator asks for more (negative: fewer) after the change."""
        a, b = self.before, self.after
        return (b.persistent + b.scratch) - (a.persistent + a.scratch)


@dataclass(frozen=True)
class StackSide:
    """One build of the comparison: its arena, or TFLM's refusal.

    >>> import tflm_arena as ta
    >>> c = ta.compare_stacks("hello_world_int8.tflite", "cortex-m", "esp32s3+esp-nn@1.2.0")
    >>> c.before.name, c.before.kTensorArenaSize(), c.after.refusal
    ('cortex-m@90b983c', 1104, None)
    """

    name: str  # "TARGET@VERSION"
    description: str
    arena: TflmArena | None  # None when TFLM refuses the model
    refusal: dict[str, Any] | None  # {reason, source, operator, subgraph, index}

    def kTensorArenaSize(self) -> int | None:
        """The smallest working multiple of 16, or None when refused."""
        return None if self.arena is None else self.arena.min_arena_bytes_16


@dataclass(frozen=True)
class StackComparison:
    """One model's stock-TFLM arena before and after a stack change
    (:func:`compare_stacks`).

    >>> import tflm_arena as ta
    >>> c = ta.compare_stacks("hello_world_int8.tflite", "cortex-m", "esp32+esp-nn@1.2.0")
    >>> c.after.name, c.fits
    ('esp32+esp-nn@1.2.0', None)
    """

    before: StackSide
    after: StackSide
    changes: list[OperatorChange]
    arena_bytes: int | None  # the arena the application gives, if given

    @property
    def fits(self) -> bool | None:
        """Whether ``arena_bytes`` still holds the model after the change
        (False when the new build refuses it); None without ``arena_bytes``."""
        if self.arena_bytes is None:
            return None
        if self.after.arena is None:
            return False
        return self.after.arena.min_arena_bytes <= self.arena_bytes

    def as_dict(self) -> dict[str, Any]:
        """Every field, for JSON."""

        def side(s: StackSide) -> dict[str, Any]:
            return {
                "name": s.name,
                "description": s.description,
                "arena": None if s.arena is None else s.arena.as_dict(),
                "refusal": s.refusal,
            }

        return {
            "before": side(self.before),
            "after": side(self.after),
            "changes": [
                {
                    "subgraph": c.subgraph,
                    "index": c.index,
                    "operator": c.operator,
                    "before": vars(c.before),
                    "after": vars(c.after),
                    "delta": c.delta,
                }
                for c in self.changes
            ],
            "arena_bytes": self.arena_bytes,
            "fits": self.fits,
        }

    def __str__(self) -> str:
        lines = []
        for word, s in (("before", self.before), ("after ", self.after)):
            if s.arena is None:
                why = (s.refusal or {}).get("reason", "")
                lines.append(f"{word}  {s.name}: stock TFLM refuses the model: {why}")
            else:
                lines.append(
                    f"{word}  {s.name}: kTensorArenaSize = {s.arena.min_arena_bytes_16:,} "
                    f"(minimum {s.arena.min_arena_bytes:,}; head {s.arena.head:,}, "
                    f"tail {s.arena.tail:,})"
                )
            lines.append(f"        {s.arena.versions if s.arena else s.description}")
        if self.before.arena is not None and self.after.arena is not None:
            d = self.after.arena.min_arena_bytes - self.before.arena.min_arena_bytes
            lines.append(f"change  {d:+,} bytes of stock-TFLM arena")
        if self.changes:
            lines.append(
                f"{len(self.changes)} operator(s) change (persistent / scratch bytes, "
                "before -> after):"
            )
            for c in self.changes:
                a, b = c.before, c.after
                lines.append(
                    f"  {c.operator:<20} subgraph {c.subgraph} op {c.index:<4} "
                    f"persistent {a.persistent:>8,} -> {b.persistent:<8,} "
                    f"scratch {a.scratch:>8,} -> {b.scratch:<8,} ({c.delta:+,})"
                )
        elif self.before.arena is not None and self.after.arena is not None:
            lines.append("no operator's persistent or scratch bytes change")
        if self.arena_bytes is not None:
            verdict = "still fits" if self.fits else "NO LONGER FITS"
            lines.append(f"arena {self.arena_bytes:,} bytes: {verdict}")
        return "\n".join(lines)


def _side(d: dict[str, Any]) -> StackSide:
    arena = None
    if d["arena"] is not None:
        a = dict(d["arena"])

        cats = {
            k: Category(v["name"], v["requested"], v["used"], v["count"])
            for k, v in a.pop("categories").items()
        }
        arena = TflmArena(categories=cats, **a)
    return StackSide(d["name"], d["description"], arena, d["refusal"])


def compare_stacks(
    model: Model | str | PathLike[str] | bytes,
    before: str,
    after: str,
    arena_bytes: int | None = None,
) -> StackComparison:
    """Stock TFLM's arena for ``model`` on build ``before`` and on build
    ``after`` (targets, usually one target at two versions, e.g.
    ``"esp32s3+esp-nn@1.2.0"`` and ``"esp32s3+esp-nn@1.2.3"``), the operators
    whose persistent or scratch bytes change, and, given the application's
    ``arena_bytes``, whether it still fits. A build that refuses the model is
    a result (``after.refusal``), not an error.

    >>> import tflm_arena as ta
    >>> c = ta.compare_stacks("hello_world_int8.tflite", "cortex-m", "cortex-m",
    ...                       arena_bytes=2048)
    >>> c.changes, c.fits
    ([], True)
    """
    check_target(before)
    check_target(after)
    if arena_bytes is not None and not 0 <= int(arena_bytes) < 2**63:
        raise ValueError(f"arena_bytes must be >= 0, got {arena_bytes}")
    m = _as_model(model)
    d = _core.tflm_compare_stacks(m._handle, before, after)
    changes = [
        OperatorChange(
            c["subgraph"],
            c["index"],
            c["operator"],
            Allocations(**c["from"]),
            Allocations(**c["to"]),
        )
        for c in d["changes"]
    ]
    return StackComparison(
        _side(d["from"]),
        _side(d["to"]),
        changes,
        None if arena_bytes is None else int(arena_bytes),
    )
