"""Common development boards, and whether a model's stock-TFLM arena fits
in one.

The table is the C++ core's (``cpp/tflm_arena/tflm/boards.cc``): each board
names the build target it uses (one of :data:`tflm_arena.TARGETS`) and the
internal RAM one arena can occupy there (``ram_bytes``; the row's ``note``
says which RAM and why, ``source`` the datasheets). PSRAM or SDRAM is listed
apart (``external_ram_bytes``) and never counted.

"Fits" compares stock TFLM's ``kTensorArenaSize`` (the arena's exact
minimum as a multiple of 16, :attr:`TflmArena.min_arena_bytes_16`) with that
RAM. Only the arena is counted: the application's other RAM use (stack,
heap, globals, an RTOS, a radio stack, input buffers) is not.

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
from .tflm_size import DEFAULT_TARGET, TARGETS, TflmArena, check_target, tflm_arena

#: Every board name :func:`fit`, :func:`assert_fits` and ``tflm-arena size
#: --board`` accept, in the table's order (from the C++ core).
BOARDS = tuple(b["name"] for b in _core.boards())

#: How many tail categories a "does not fit" message names.
_TOP_CATEGORIES = 2


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


def board_target(b: Board, target: str | None = None) -> str:
    """The build target for board ``b``: its own, with the TFLM stack the
    board's SDK ships (``TARGET@VERSION``). An explicit ``target`` may name
    another version of the same target (``"esp32s3+esp-nn@1.2.0"`` on an
    ESP32-S3 board); another target, or a board whose target this build does
    not know, is a ValueError.

    >>> import tflm_arena as ta
    >>> ta.board_target(ta.board("raspberry-pi-pico"))
    'cortex-m0plus+cmsis-nn@90b983c'
    >>> ta.board_target(ta.board("esp32-s3-devkitc-1"), "esp32s3+esp-nn@1.2.0")
    'esp32s3+esp-nn@1.2.0'
    """
    own = b.target
    if target is not None and target.split("@")[0] != own:
        raise ValueError(
            f"board {b.name} uses target {b.target}, not {target} (leave the target out, "
            "name another version of the same target, or size for a RAM limit instead of a "
            "board)"
        )
    if own not in TARGETS:
        raise ValueError(
            f"board {b.name} uses target {b.target}, which this build of tflm_arena does not "
            f"know yet (known: {', '.join(TARGETS)})"
        )
    chosen = f"{b.target}@{b.version}" if target is None else target
    check_target(chosen)
    return str(_core.tflm_resolve_target(chosen)["name"])


@dataclass(frozen=True)
class Fit:
    """Stock TFLM's arena for one model and target against a RAM size:
    a board's (``board``) or a plain limit (``board`` is None).

    ``fits`` when ``kTensorArenaSize`` (``arena.min_arena_bytes_16``) is at
    most ``ram_bytes``; ``margin`` is ``ram_bytes`` minus it (negative:
    the overshoot). The application's other RAM use is not counted.

    >>> import tflm_arena as ta
    >>> f = ta.fit("hello_world_int8.tflite", max_bytes=1000)
    >>> f.fits, f.margin, f.arena.min_arena_bytes_16
    (False, -104, 1104)
    """

    arena: TflmArena
    ram_bytes: int
    board: Board | None = None

    @property
    def needed(self) -> int:
        """The bytes compared: stock TFLM's kTensorArenaSize."""
        return self.arena.min_arena_bytes_16

    @property
    def fits(self) -> bool:
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
        """One line: fits or not, by how much, whose figure (no newline)."""
        a = self.arena
        whose = f"stock TFLM, target {a.target}@{a.version}"
        if self.fits:
            pct = 100.0 * self.margin / self.ram_bytes if self.ram_bytes else 0.0
            return (
                f"fits on {self.where()}: kTensorArenaSize {self.needed:,} bytes ({whose}) "
                f"leaves {self.margin:,} bytes ({pct:.1f} %)"
            )
        return (
            f"does not fit on {self.where()}: kTensorArenaSize {self.needed:,} bytes "
            f"({whose}) is {-self.margin:,} bytes over"
        )

    def lines(self) -> list[str]:
        """The text ``tflm-arena size --board/--max-bytes`` prints."""
        out = [
            self.summary(),
            f"  the arena: {self.consumers()}",
            "  counted: the tensor arena only; the application's other RAM use (stack, heap, "
            "globals, RTOS, buffers) is not counted",
        ]
        if self.board is not None:
            out.append(f"  RAM: {self.board.note} (source: {self.board.source})")
            if self.board.external_ram_bytes:
                out.append(
                    f"  not counted: {self.board.external_ram} "
                    f"({self.board.external_ram_bytes:,} bytes) on the board"
                )
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict[str, Any]:
        """``board`` (name or None), ``ram``, ``fits``, ``margin``,
        ``needed`` and the board's ``external_ram`` bytes (0 without a
        board)."""
        return {
            "board": None if self.board is None else self.board.name,
            "ram": self.ram_bytes,
            "fits": self.fits,
            "margin": self.margin,
            "needed": self.needed,
            "external_ram": 0 if self.board is None else self.board.external_ram_bytes,
        }


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
) -> Fit:
    """Whether stock TFLM's arena for ``model`` fits on ``board`` (its
    target; an explicit ``target`` must agree) or in ``max_bytes`` (on
    ``target``, default :data:`tflm_arena.DEFAULT_TARGET`). Give exactly one
    of ``board`` and ``max_bytes``.

    >>> import tflm_arena as ta
    >>> f = ta.fit("hello_world_int8.tflite", board="arduino-nano-33-ble-sense")
    >>> f.fits, f.arena.target
    (True, 'cortex-m4+cmsis-nn')
    """
    b, ram = _ram_limit(board, max_bytes)
    if b is not None:
        target = board_target(b, target)
    elif target is None:
        target = DEFAULT_TARGET
    check_target(target)
    return Fit(tflm_arena(model, target=target, recording=recording, planner=planner), ram, b)


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
