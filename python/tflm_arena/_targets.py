"""The stock-TFLM builds, and the questions about one model that need only
its C++ handle: the layer under :class:`~tflm_arena.Model`, planning and
sizing, so that none of them imports another to ask (the C++ core holds the
target table and the strategy registry; this module only names them).
"""

from __future__ import annotations

import warnings

from . import _core

#: The stock-TFLM builds :func:`tflm_arena` models, default first (one list,
#: kept in the C++ core).
TARGETS = tuple(t["name"] for t in _core.tflm_targets())
#: The target every function and command uses when none is given.
DEFAULT_TARGET = TARGETS[0]
#: The planners stock TFLM can be built with: the C++ strategy registry's
#: runtime planners (the same names as :data:`tflm_arena.RUNTIME_PLANNERS`).
#: ``"greedy"`` is the deprecated name of ``"tflm_greedy"``.
PLANNERS = tuple(s["name"] for s in _core.strategies() if s["kind"] == "runtime_planner")


def targets() -> dict[str, str]:
    """Each target's name and a one-line description of the build.

    >>> import tflm_arena as ta
    >>> list(ta.targets())[:4]
    ['cortex-m', 'x86-64', 'tflite-micro-wheel', 'cortex-m0+cmsis-nn']
    """
    return {t["name"]: t["description"] for t in _core.tflm_targets()}


def check_target(target: str) -> None:
    """ValueError naming the known targets (or, for ``"TARGET@VERSION"``, the
    target's known versions) when ``target`` is not one."""
    _core.tflm_resolve_target(target)


def target_name(target: str) -> str:
    """The build ``target`` resolves to (``"TARGET@VERSION"`` included), as
    a model written for it records it (``Model.chosen_for``)."""
    return str(_core.tflm_resolve_target(target)["name"])


class ChosenForAnotherTargetWarning(UserWarning):
    """A model :func:`optimize` or :func:`rewrite` chose for one stock-TFLM
    build is sized for another: the smallest model for one target can need
    more on another, so run the search again for that target.

    >>> import tflm_arena as ta
    >>> issubclass(ta.ChosenForAnotherTargetWarning, UserWarning)
    True
    """


def warn_if_chosen_for_another(chosen_for: str | None, target: str, stacklevel: int) -> None:
    """ChosenForAnotherTargetWarning when a model chosen for ``chosen_for``
    is sized for another build (``stacklevel`` as in ``warnings.warn``, from
    the caller's caller)."""
    if chosen_for is None:
        return
    name = target_name(target)
    if name != chosen_for:
        warnings.warn(
            ChosenForAnotherTargetWarning(
                f"this model was chosen for stock TFLM on {chosen_for}, and is sized here for "
                f"{name}: the smallest model for one target can need more on another; run "
                f"optimize/rewrite with target={target!r}"
            ),
            stacklevel=stacklevel + 1,
        )


def scratch_requests(handle: _core.ModelHandle, target: str) -> list[tuple[int, int, int]]:
    """Scratch buffers stock TFLM's kernels request (``[(bytes, operator,
    subgraph), ...]``, TFLM's order) for the model behind ``handle``."""
    check_target(target)
    return [(int(r[0]), int(r[1]), int(r[2])) for r in _core.tflm_scratch_requests(handle, target)]


def stock_head(handle: _core.ModelHandle, target: str) -> int:
    """Stock TFLM's head (its planned, non-persistent part) for the model
    behind ``handle`` on ``target``, with its own greedy planner and the
    target's usual allocator."""
    check_target(target)
    return int(_core.tflm_arena_size(handle, target, None, "tflm_greedy", -1, True)["head"])
