"""Shared-object assignment: the TFLite GPU delegate's strategy family.

Buffers that share an object never live at a common step; an object is as
large as its largest member. ``ta.plan(..., strategy="<name>_objects")`` lays
the objects end to end as an arena plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _core
from ._plan import STRATEGY_TABLE
from ._records import ArrayLike, columns, records_from_args

#: What :func:`assign_objects` accepts, read from the C++ strategy registry:
#: ``plan(..., strategy=name + "_objects")`` lays the same objects end to end.
OBJECT_STRATEGIES = tuple(
    s["objects_name"] for s in STRATEGY_TABLE if s["kind"] == "shared_objects"
)


@dataclass(frozen=True)
class SharedObjects:
    """``object_ids[i]`` is record i's object; ``total`` = sum of ``object_sizes``.

    >>> import tflm_arena as ta
    >>> ta.assign_objects([16, 32, 16], first=[0, 1, 2], last=[0, 1, 2]).total
    32
    """

    records: np.ndarray
    object_ids: np.ndarray
    object_sizes: np.ndarray
    total: int
    strategy: str
    lower_bound: int = field(init=False)

    def __post_init__(self) -> None:
        for name in ("object_ids", "object_sizes"):
            arr = np.array(getattr(self, name))
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        # Positional maximums: no shared-object assignment has a smaller total.
        object.__setattr__(
            self, "lower_bound", int(_core.positional_max_lower_bound(*columns(self.records)))
        )

    def offsets(self) -> np.ndarray:
        """Offsets with the objects laid end to end in id order."""
        starts = np.concatenate(([0], np.cumsum(self.object_sizes)[:-1])).astype(np.int64)
        return starts[self.object_ids] if len(self.object_ids) else np.zeros(0, np.int64)

    def __len__(self) -> int:
        return len(self.object_ids)


def assign_objects(
    sizes: Any,
    first: ArrayLike | None = None,
    last: ArrayLike | None = None,
    *,
    strategy: str = "greedy_best",
) -> SharedObjects:
    """Assigns records to shared objects.

    ``sizes`` is a sizes array (with ``first`` and ``last``), a records array
    or a Model, as for :func:`tflm_arena.plan`. Records with fixed (offline)
    offsets are rejected with ValueError.

    >>> import tflm_arena as ta
    >>> objs = ta.assign_objects([16, 32, 16], first=[0, 1, 2], last=[0, 1, 2])
    >>> objs.object_ids.tolist(), objs.object_sizes.tolist()
    ([0, 0, 0], [32])
    """
    if strategy not in OBJECT_STRATEGIES:
        raise ValueError(
            f"unknown strategy {strategy!r}; choose one of {', '.join(OBJECT_STRATEGIES)}"
        )
    rec = records_from_args(sizes, first, last)
    ids, object_sizes, total = _core.assign_objects(*columns(rec), strategy)
    return SharedObjects(
        records=rec, object_ids=ids, object_sizes=object_sizes, total=int(total), strategy=strategy
    )
