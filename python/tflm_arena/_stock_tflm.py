"""Stock TFLM's arena for the model an :class:`~tflm_arena.Interpreter`
runs: the ``stock_tflm`` part of ``Interpreter.allocations()`` and the
"stock TFLM" block of ``Interpreter.print_allocations()``, beside our
runtime's own figures."""

from __future__ import annotations

from typing import Any

from .model import Model
from .tflm_size import _planner_words, check_target, tflm_arena


class StockTflm:
    """Stock TFLM's figures for ``model`` with the planner of the same name
    as the interpreter's strategy (``tflm_size.PLANNERS``), cached per
    target and recording choice.

    >>> from tflm_arena import Model
    >>> stock = StockTflm(Model.load("hello_world_int8.tflite"), "tflm_greedy")
    >>> stock.figures("x86-64", None)["min_arena_bytes"]
    1704
    """

    def __init__(self, model: Model, planner: str) -> None:
        """Nothing is computed until :meth:`figures` asks.

        >>> from tflm_arena import Model
        >>> StockTflm(Model.load("hello_world_int8.tflite"), "linear").planner
        'linear'
        """
        self.model = model
        self.planner = planner
        self._cache: dict[tuple[str, bool | None], dict[str, Any]] = {}

    def figures(self, target: str, recording: bool | None) -> dict[str, Any]:
        """``tflm_arena(...).as_dict()`` plus ``kTensorArenaSize`` (the
        firmware line) and ``error`` (None); when TFLM's need cannot be
        predicted, ``min_arena_bytes`` and ``kTensorArenaSize`` are None and
        ``error`` says why (nothing is raised for that). A new dict each
        call.

        >>> from tflm_arena import Model
        >>> stock = StockTflm(Model.load("hello_world_int8.tflite"), "tflm_greedy")
        >>> stock.figures("x86-64", None)["kTensorArenaSize"]
        'constexpr int kTensorArenaSize = 1712;'
        """
        check_target(target)
        key = (target, recording)
        if key not in self._cache:
            kw = {} if recording is None else {"recording": bool(recording)}
            try:
                r = tflm_arena(self.model, target=target, planner=self.planner, **kw)
            except (NotImplementedError, ValueError, RuntimeError) as e:
                self._cache[key] = {
                    "target": target,
                    "recording": recording,
                    "planner": self.planner,
                    "min_arena_bytes": None,
                    "kTensorArenaSize": None,
                    "error": f"stock TFLM's arena cannot be predicted: {e}",
                }
            else:
                self._cache[key] = {
                    **r.as_dict(),
                    "kTensorArenaSize": r.firmware_line(),
                    "error": None,
                }
        return dict(self._cache[key])

    def text(self, target: str, recording: bool | None) -> str:
        """The "stock TFLM (<target>)" block that ``print_allocations``
        prints after our runtime's lines.

        >>> from tflm_arena import Model
        >>> stock = StockTflm(Model.load("hello_world_int8.tflite"), "tflm_greedy")
        >>> print(stock.text("x86-64", None), end="")
        stock TFLM (x86-64, MicroAllocator, greedy planner), same model:
          minimum arena 1,704 bytes (head 32, tail 1,240)
          constexpr int kTensorArenaSize = 1712;
        """
        stock = self.figures(target, recording)
        if stock["error"] is not None:
            return f"stock TFLM ({stock['target']}), same model:\n  {stock['error']}\n"
        alloc = "RecordingMicroAllocator" if stock["recording"] else "MicroAllocator"
        planner = _planner_words(stock["planner"])
        return (
            f"stock TFLM ({stock['target']}, {alloc}, {planner}), same model:\n"
            f"  minimum arena {stock['min_arena_bytes']:,} bytes (head {stock['head']:,}, "
            f"tail {stock['tail']:,})\n"
            f"  {stock['kTensorArenaSize']}\n"
        )
