# Type stubs for the C++ extension tflm_arena._core (kept in step by tests_py/test_stubs.py).
from typing import Tuple

import numpy as np
import numpy.typing as npt

__version__: str

class ArenaTooSmallError(MemoryError):
    needed_bytes: int

def validate_records(
    sizes: npt.ArrayLike, first: npt.ArrayLike, last: npt.ArrayLike, fixed: npt.ArrayLike,
    alignment: int,
) -> None: ...
def plan(
    sizes: npt.ArrayLike, first: npt.ArrayLike, last: npt.ArrayLike, fixed: npt.ArrayLike,
    strategy: str,
) -> Tuple[npt.NDArray[np.int64], int]: ...
def lower_bound(
    sizes: npt.ArrayLike, first: npt.ArrayLike, last: npt.ArrayLike, fixed: npt.ArrayLike,
) -> int: ...
def validate_plan(
    sizes: npt.ArrayLike, first: npt.ArrayLike, last: npt.ArrayLike, fixed: npt.ArrayLike,
    offsets: npt.ArrayLike, arena_bytes: int,
) -> None: ...
def render_ascii(
    sizes: npt.ArrayLike, first: npt.ArrayLike, last: npt.ArrayLike, fixed: npt.ArrayLike,
    offsets: npt.ArrayLike,
) -> str: ...
