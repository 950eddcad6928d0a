"""Common development boards, and whether a model's stock-TFLM arena fits
in one.

The table is the C++ core's (``cpp/tflm_arena/tflm/boards.cc``): each board
names the build target it uses (one of :data:`tflm_arena.TARGETS`) and the
internal RAM one arena can occupy there (``ram_bytes``; the row's ``note``
says which RAM and why, ``source`` the datasheets), and its PSRAM or SDRAM
apart (``external_ram_bytes``).

"Fits" compares stock TFLM's ``kTensorArenaSize`` (the arena's exact
minimum as a multiple of 16, :attr:`TflmArena.min_arena_bytes_16`) with that
RAM, in the first placement that holds it (:data:`PLACEMENTS`): the whole
arena in internal RAM; on a board with external RAM, two buffers with the
activations in internal RAM and the persistent part in external RAM; the
whole arena in external RAM; two buffers the other way round. The
two-buffer figures are :func:`tflm_arena.tflm_split_arena`'s. Only the arena
is counted: the application's other RAM use (stack, heap, globals, an RTOS,
a radio stack, input buffers) is not.

>>> import tflm_arena as ta
>>> ta.BOARDS[:2]
('arduino-nano-33-ble-sense', 'raspberry-pi-pico')
>>> b = ta.boards()["raspberry-pi-pico"]
>>> b.target, b.ram_bytes
('cortex-m0plus+cmsis-nn', 270336)
>>> ta.fit("hello_world_int8.tflite", board="raspberry-pi-pico").fits
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from os import PathLike
from typing import Any

from . import _core
from .model import Model
from .tflm_size import (
    DEFAULT_TARGET,
    TARGETS,
    TflmArena,
    TflmSplitArena,
    check_target,
    tflm_arena,
    tflm_split_arena,
)

#: Every board name :func:`fit`, :func:`assert_fits` and ``tflm-arena size
#: --board`` accept, in the table's order (from the C++ core).
BOARDS = tuple(b["name"] for b in _core.boards())

#: How many tail categories a "does not fit" message names.
_TOP_CATEGORIES = 2

#: Where the arena can go on a board, in the order a fit tries them:
#: ``internal`` (one arena in internal RAM), ``activations-internal`` (two
#: buffers: the non-persistent one, activations and scratch, in internal
#: RAM, the persistent one in external RAM), ``external`` (one arena in
#: external RAM), ``persistent-internal`` (two buffers the other way round).
PLACEMENTS = ("internal", "activations-internal", "external", "persistent-internal")

_MEANING = {
    "internal": "the whole arena in internal RAM: the fastest",
    "activations-internal": (
        "two buffers, MicroAllocator::Create(persistent, ..., non_persistent, ...): "
        "activations and scratch in internal RAM, the persistent part (tensor structs, "
        "quantization, kernel data; read every Invoke, small) in external RAM"
    ),
    "external": (
        "the whole arena in external RAM: every activation read and write goes through the "
        "external-RAM interface (slower than internal RAM)"
    ),
    "persistent-internal": (
        "two buffers: the persistent part in internal RAM, activations and scratch in external "
        "RAM (as slow as the whole arena there for the activations)"
    ),
}


@dataclass(frozen=True)
class Placement:
    """One placement of the arena on a board (see :data:`PLACEMENTS`):
    whether it fits, the bytes it puts in internal and external RAM, what
    it means, and the lines a firmware needs for it.

    >>> import tflm_arena as ta
    >>> p = ta.fit("hello_world_int8.tflite", board="stm32f746g-disco").placement
    >>> p.name, p.external_bytes, p.firmware
    ('internal', 0, ('constexpr int kTensorArenaSize = 1200;',))
    """

    name: str
    fits: bool
    internal_bytes: int
    external_bytes: int
    meaning: str
    firmware: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "fits": self.fits,
            "internal": self.internal_bytes,
            "external": self.external_bytes,
            "firmware": list(self.firmware),
        }


@dataclass(frozen=True)
class Board:
    """One board of the table: the build target it uses and its RAM.

    >>> import tflm_arena as ta
    >>> b = ta.board("stm32f746g-disco")
    >>> b.target, b.ram_bytes, b.external_ram_bytes
    ('cortex-m7+cmsis-nn', 327680, 8388608)
    """

    name: str
    chip: str
    core: str
    target: str  # a build target name (tflm_arena.TARGETS once it is known)
    version: str  # the stack version its usual SDK ships (tflm_arena.versions)
    ram_bytes: int  # internal RAM one arena can occupy (see note)
    external_ram_bytes: int  # PSRAM / SDRAM, never counted in ram_bytes
    external_ram: str  # what the external RAM is, "" when none
    source: str  # datasheets and product pages of the figures
    note: str  # which RAM ram_bytes counts, and why

    def __str__(self) -> str:
        ext = (
            f"; {self.external_ram} not counted ({self.external_ram_bytes:,} bytes)"
            if self.external_ram_bytes
            else ""
        )
        return (
            f"{self.name}: {self.chip}, {self.core}; target {self.target}@{self.version}; "
            f"{self.ram_bytes:,} bytes of RAM for the arena{ext}"
        )


def boards() -> dict[str, Board]:
    """Every board by name, in the table's order.

    >>> import tflm_arena as ta
    >>> list(ta.boards()) == list(ta.BOARDS)
    True
    """
    return {b["name"]: Board(**b) for b in _core.boards()}


def board(name: str) -> Board:
    """The board called ``name``; ValueError listing the known boards
    otherwise.

    >>> import tflm_arena as ta
    >>> ta.board("nrf5340-dk").ram_bytes
    524288
    """
    table = boards()
    if name not in table:
        raise ValueError(f"unknown board {name!r} (known: {', '.join(BOARDS)})")
    return table[name]


def board_targets(b: Board) -> tuple[str, ...]:
    """The build targets that are legal builds on board ``b``: its own
    first, then the other kernel choices for its core: reference kernels
    (``cortex-m``) on an Arm Cortex-M board, CMSIS-NN alone on an Ethos-U
    board's CPU, ESP-NN's ANSI C kernels (``CONFIG_NN_ANSI_C``) on an ESP32
    board.

    >>> import tflm_arena as ta
    >>> ta.board_targets(ta.board("esp32-s3-devkitc-1"))
    ('esp32s3+esp-nn', 'esp32+esp-nn-ansi-c')
    """
    own = b.target
    alternatives: list[str] = []
    if own.startswith("esp32"):
        alternatives.append("esp32+esp-nn-ansi-c")
    elif own.startswith("cortex-m"):
        core = own.split("+")[0]
        if own.endswith("+ethos-u"):
            alternatives.append(f"{core}+cmsis-nn")
        alternatives.append("cortex-m")
    return (own, *(t for t in alternatives if t != own and t in TARGETS))


def board_target(b: Board, target: str | None = None) -> str:
    """The build target for board ``b``: its own, with the TFLM stack the
    board's SDK ships (``TARGET@VERSION``). An explicit ``target`` may name
    another version, or another kernel choice for the board's core
    (:func:`board_targets`), which then takes the board's stack version
    when it has one; any other target, or a board whose target this build
    does not know, is a ValueError.

    >>> import tflm_arena as ta
    >>> ta.board_target(ta.board("raspberry-pi-pico"))
    'cortex-m0plus+cmsis-nn@90b983c'
    >>> ta.board_target(ta.board("esp32-s3-devkitc-1"), "esp32s3+esp-nn@1.2.0")
    'esp32s3+esp-nn@1.2.0'
    >>> ta.board_target(ta.board("arduino-nano-33-ble-sense"), "cortex-m")
    'cortex-m@arduino'
    """
    own = b.target
    if own not in TARGETS:
        raise ValueError(
            f"board {b.name} uses target {b.target}, which this build of tflm_arena does not "
            f"know yet (known: {', '.join(TARGETS)})"
        )
    legal = board_targets(b)
    if target is not None and target.split("@")[0] not in legal:
        raise ValueError(
            f"board {b.name} uses target {b.target}, not {target} (the builds legal on it: "
            f"{', '.join(legal)}; or size for a RAM limit instead of a board)"
        )
    if target is None:
        chosen = f"{b.target}@{b.version}"
    elif "@" in target:
        chosen = target
    else:  # another kernel choice: at the board's stack when that target has it
        has_stack = any(
            v["name"] == b.version and target in v["targets"] for v in _core.tflm_stack_versions()
        )
        chosen = f"{target}@{b.version}" if has_stack else target
    check_target(chosen)
    return str(_core.tflm_resolve_target(chosen)["name"])


@dataclass(frozen=True)
class Fit:
    """Stock TFLM's arena for one model and target against a RAM size:
    a board's (``board``) or a plain limit (``board`` is None).

    ``placement`` is the first of :data:`PLACEMENTS` that holds the arena
    (only ``internal`` without a board or without external RAM; only
    ``require`` when it is given), None when none does; ``fits`` when there
    is one. ``margin`` is internal RAM minus ``kTensorArenaSize``
    (``needed``; negative: the overshoot). ``split`` holds the two-buffer
    figures the split placements use. The application's other RAM use is
    not counted.

    >>> import tflm_arena as ta
    >>> f = ta.fit("hello_world_int8.tflite", max_bytes=1000)
    >>> f.fits, f.margin, f.arena.min_arena_bytes_16
    (False, -104, 1104)
    """

    arena: TflmArena
    ram_bytes: int
    board: Board | None = None
    split: TflmSplitArena | None = None
    require: str | None = None

    @property
    def needed(self) -> int:
        """The bytes compared: stock TFLM's kTensorArenaSize."""
        return self.arena.min_arena_bytes_16

    @property
    def external_bytes(self) -> int:
        return 0 if self.board is None else self.board.external_ram_bytes

    def placements(self) -> list[Placement]:
        """Every placement this RAM offers, in :data:`PLACEMENTS` order."""
        ram, ext, need = self.ram_bytes, self.external_bytes, self.needed
        one = (f"constexpr int kTensorArenaSize = {need};",)
        out = [Placement("internal", need <= ram, need, 0, _MEANING["internal"], one)]
        if not ext:
            return out
        s = self.split
        two = (
            ()
            if s is None
            else (
                f"constexpr int kNonPersistentArenaSize = {s.min_non_persistent_bytes};",
                f"constexpr int kPersistentArenaSize = {s.min_persistent_bytes};",
            )
        )
        if s is not None:
            np_, p = s.min_non_persistent_bytes, s.min_persistent_bytes
            out.append(
                Placement(
                    "activations-internal",
                    np_ <= ram and p <= ext,
                    np_,
                    p,
                    _MEANING["activations-internal"],
                    two,
                )
            )
        out.append(Placement("external", need <= ext, 0, need, _MEANING["external"], one))
        if s is not None:
            out.append(
                Placement(
                    "persistent-internal",
                    p <= ram and np_ <= ext,
                    p,
                    np_,
                    _MEANING["persistent-internal"],
                    two,
                )
            )
        return out

    @property
    def placement(self) -> Placement | None:
        """The placement the fit chooses (None: the arena fits nowhere)."""
        for pl in self.placements():
            if (self.require is None or pl.name == self.require) and pl.fits:
                return pl
        return None

    @property
    def fits(self) -> bool:
        return self.placement is not None

    @property
    def fits_internal(self) -> bool:
        return self.needed <= self.ram_bytes

    @property
    def margin(self) -> int:
        return self.ram_bytes - self.needed

    def where(self) -> str:
        """ "board raspberry-pi-pico (264 KB ...)" or "a RAM limit"."""
        if self.board is None:
            return f"the limit of {self.ram_bytes:,} bytes"
        return f"board {self.board.name} ({self.board.chip}, {self.ram_bytes:,} bytes of RAM)"

    def consumers(self) -> str:
        """What the arena holds: head, tail and the biggest tail categories."""
        a = self.arena
        cats = sorted(
            (c for c in a.categories.values() if c.used), key=lambda c: c.used, reverse=True
        )[:_TOP_CATEGORIES]
        biggest = ", ".join(f"{c.name} {c.used:,}" for c in cats)
        return (
            f"head {a.head:,} bytes (activations + scratch), tail {a.tail:,} bytes "
            "(persistent" + (f"; biggest: {biggest}" if biggest else "") + ")"
        )

    def summary(self) -> str:
        """One line: fits or not, where, by how much, whose figure (no newline)."""
        a = self.arena
        whose = f"stock TFLM, target {a.target}@{a.version}"
        pl = self.placement
        if pl is not None and pl.name == "internal":
            pct = 100.0 * self.margin / self.ram_bytes if self.ram_bytes else 0.0
            return (
                f"fits on {self.where()}: kTensorArenaSize {self.needed:,} bytes ({whose}) "
                f"leaves {self.margin:,} bytes ({pct:.1f} %)"
            )
        ext = "" if self.board is None else self.board.external_ram
        if pl is not None:
            how = (
                f"in external RAM ({ext})"
                if pl.name == "external"
                else f"as two buffers, {pl.internal_bytes:,} bytes in internal RAM and "
                f"{pl.external_bytes:,} in external RAM ({ext})"
            )
            return (
                f"fits on {self.where()} {how}: kTensorArenaSize {self.needed:,} bytes "
                f"({whose}) is {-self.margin:,} bytes over the internal RAM"
                if self.margin < 0
                else f"fits on {self.where()} {how} ({whose})"
            )
        nowhere = (
            f" and in no placement with its external RAM ({ext})"
            if self.external_bytes and self.require is None
            else f" (placement {self.require} required)"
            if self.require is not None
            else ""
        )
        return (
            f"does not fit on {self.where()}: kTensorArenaSize {self.needed:,} bytes "
            f"({whose}) is {-self.margin:,} bytes over{nowhere}"
        )

    def lines(self) -> list[str]:
        """The text ``tflm-arena size --board/--max-bytes`` prints."""
        out = [self.summary()]
        pl = self.placement
        if pl is not None and pl.name != "internal":
            out.append(f"  placement {pl.name}: {pl.meaning}")
            out.extend(f"    {line}" for line in pl.firmware)
        out += [
            f"  the arena: {self.consumers()}",
            "  counted: the tensor arena only; the application's other RAM use (stack, heap, "
            "globals, RTOS, buffers) is not counted",
        ]
        if self.board is not None:
            out.append(f"  RAM: {self.board.note} (source: {self.board.source})")
            if self.board.external_ram_bytes:
                out.append(
                    f"  external RAM: {self.board.external_ram} "
                    f"({self.board.external_ram_bytes:,} bytes); placements:"
                )
                for p in self.placements():
                    mark = "fits" if p.fits else "does not fit"
                    out.append(
                        f"    {p.name:<21} {mark:<13} internal {p.internal_bytes:>10,}  "
                        f"external {p.external_bytes:>10,}"
                    )
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict[str, Any]:
        """``board`` (name or None), ``ram``, ``fits``, ``margin``,
        ``needed``, the board's ``external_ram`` bytes (0 without a board),
        ``placement`` (the chosen one's name, or None), ``fits_internal``
        and every placement's figures."""
        pl = self.placement
        return {
            "board": None if self.board is None else self.board.name,
            "ram": self.ram_bytes,
            "fits": self.fits,
            "margin": self.margin,
            "needed": self.needed,
            "external_ram": self.external_bytes,
            "placement": None if pl is None else pl.name,
            "fits_internal": self.fits_internal,
            "placements": {p.name: p.as_dict() for p in self.placements()},
        }


def make_fit(
    arena: TflmArena,
    ram_bytes: int,
    b: Board | None,
    model: Model | str | PathLike[str] | bytes,
    require: str | None = None,
) -> Fit:
    """The :class:`Fit` of ``arena`` (sized for ``model``): with the
    two-buffer figures when the board has external RAM and the target has
    the two-buffer Create."""
    if require is not None and require not in PLACEMENTS:
        raise ValueError(f"unknown placement {require!r} (known: {', '.join(PLACEMENTS)})")
    split = None
    if b is not None and b.external_ram_bytes:
        try:
            split = tflm_split_arena(
                model, target=f"{arena.target}@{arena.version}", planner=arena.planner
            )
        except ValueError:  # no two-buffer Create on this target
            split = None
    return Fit(arena, ram_bytes, b, split, require)


def layout_fit_lines(
    buffers: dict[str, int], ram_bytes: int, b: Board | None, whose: str
) -> tuple[bool, list[str]]:
    """Whether the buffers of a ``--split`` (``{"non-persistent": N,
    "persistent": M}``) or ``--shared-arena`` (``{"arena": N}``) layout fit
    ``ram_bytes`` of internal RAM, the rest in the board's external RAM,
    and the lines saying where each goes. Each buffer goes whole into one
    RAM; internal RAM is filled first with the non-persistent buffer (the
    activations, the hot part), then with what else fits."""
    ext = 0 if b is None else b.external_ram_bytes
    where = (
        f"board {b.name} ({b.chip}, {ram_bytes:,} bytes of RAM)"
        if b is not None
        else f"the limit of {ram_bytes:,} bytes"
    )
    internal: list[str] = []
    external: list[str] = []
    free_int, free_ext = ram_bytes, ext
    for name, n in buffers.items():
        if n <= free_int:
            internal.append(name)
            free_int -= n
        elif n <= free_ext:
            external.append(name)
            free_ext -= n
        else:
            total = sum(buffers.values())
            return False, [
                f"does not fit on {where}: {name} buffer {n:,} bytes ({whose}); "
                f"all buffers {total:,} bytes" + (f", external RAM {ext:,} bytes" if ext else "")
            ]

    def named(names: list[str]) -> str:
        return " and ".join(f"{k} {buffers[k]:,}" for k in names)

    lines = [f"fits on {where} ({whose}): {named(internal) or 'nothing'} in internal RAM"]
    if external and b is not None:
        lines[0] += f", {named(external)} in external RAM ({b.external_ram})"
    lines.append(f"  internal RAM left: {free_int:,} bytes")
    return True, lines


def _ram_limit(board_name: str | None, max_bytes: int | None) -> tuple[Board | None, int]:
    if (board_name is None) == (max_bytes is None):
        raise ValueError("give exactly one of board= and max_bytes=")
    if board_name is not None:
        b = board(board_name)
        return b, b.ram_bytes
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise ValueError(f"max_bytes must be a whole number of bytes >= 0, got {max_bytes!r}")
    return None, max_bytes


def fit(
    model: Model | str | PathLike[str] | bytes,
    board: str | None = None,
    max_bytes: int | None = None,
    target: str | None = None,
    recording: bool | None = None,
    planner: str = "tflm_greedy",
    placement: str | None = None,
) -> Fit:
    """Whether stock TFLM's arena for ``model`` fits on ``board`` (its
    target; an explicit ``target`` must agree) or in ``max_bytes`` (on
    ``target``, default :data:`tflm_arena.DEFAULT_TARGET`). Give exactly one
    of ``board`` and ``max_bytes``. ``placement`` requires one of
    :data:`PLACEMENTS` (``"internal"``: internal RAM only); by default the
    first that holds the arena.

    >>> import tflm_arena as ta
    >>> f = ta.fit("hello_world_int8.tflite", board="arduino-nano-33-ble-sense")
    >>> f.fits, f.arena.target, f.placement.name
    (True, 'cortex-m4+cmsis-nn', 'internal')
    """
    b, ram = _ram_limit(board, max_bytes)
    if b is not None:
        target = board_target(b, target)
    elif target is None:
        target = DEFAULT_TARGET
    check_target(target)
    arena = tflm_arena(model, target=target, recording=recording, planner=planner)
    return make_fit(arena, ram, b, model, placement)


def assert_fits(
    model: Model | str | PathLike[str] | bytes,
    board: str | None = None,
    max_bytes: int | None = None,
    target: str | None = None,
) -> TflmArena:
    """For test suites: stock TFLM's arena (:func:`tflm_arena.tflm_arena`)
    when it fits on ``board`` or in ``max_bytes`` (as :func:`fit`);
    otherwise AssertionError with one line naming the overshoot in bytes and
    the biggest consumers.

    >>> import tflm_arena as ta
    >>> ta.assert_fits("hello_world_int8.tflite", board="raspberry-pi-pico").min_arena_bytes
    1188
    >>> try:
    ...     ta.assert_fits("hello_world_int8.tflite", max_bytes=1024)
    ... except AssertionError as e:
    ...     print(str(e)[:68])
    hello_world_int8.tflite does not fit on the limit of 1,024 bytes: kT
    """
    f = fit(model, board=board, max_bytes=max_bytes, target=target)
    if not f.fits:
        raise AssertionError(f"{_model_name(model)} {f.summary()}; the arena: {f.consumers()}")
    return f.arena


def _model_name(model: Model | str | PathLike[str] | bytes) -> str:
    if isinstance(model, (str, PathLike)):
        return os.path.basename(os.fspath(model))
    return "the model"
