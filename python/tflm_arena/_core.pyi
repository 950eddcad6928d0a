# Type stubs for the C++ extension tflm_arena._core (kept in step by tests_py/test_stubs.py).
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__version__: str

class ArenaTooSmallError(MemoryError):
    needed_bytes: int

class TflmRefusesModelError(ValueError):
    reason: str
    source: str
    operator: Any  # types.SimpleNamespace(index=int, name=str, subgraph=int)

def strategies() -> list[dict[str, Any]]: ...
def runtime_kernels() -> list[str]: ...
def validate_records(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
    alignment: int,
) -> None: ...
def live_steps(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    from_step: int | None = None,
    to_step: int | None = None,
) -> dict[str, Any]: ...  # first_step, bytes, buffers (int64 arrays), peak (int or None)
def step_operators(model: ModelHandle) -> npt.NDArray[np.int64]: ...  # (steps, 3)
def check_preallocation_sharing(
    model: ModelHandle,
    registered: list[tuple[int, int, int]],
    candidate: tuple[int, int, int],
) -> None: ...
def fixed_aliases(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
) -> list[tuple[int, int]]: ...
def plan(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
    strategy: str,
) -> tuple[npt.NDArray[np.int64], int]: ...
def plan_optimal(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
    alignment: int,
    time_limit: float,
    progress: Callable[[int, int, float], None] | None = None,
    capacity: int = 0,
) -> tuple[npt.NDArray[np.int64], int, dict[str, Any]]: ...
def plan_best(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
    alignment: int,
    time_limit: float,
    progress: Callable[[int, int, float], None] | None = None,
    threads: int = 0,
) -> tuple[npt.NDArray[np.int64], int, dict[str, Any]]: ...
def assign_objects(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
    strategy: str,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], int]: ...
def positional_max_lower_bound(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
) -> int: ...
def lower_bound(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
) -> int: ...
def validate_plan(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
    offsets: npt.ArrayLike,
    arena_bytes: int,
) -> None: ...
def render_ascii(
    sizes: npt.ArrayLike,
    first: npt.ArrayLike,
    last: npt.ArrayLike,
    fixed: npt.ArrayLike,
    offsets: npt.ArrayLike,
) -> str: ...
def schema_enums() -> dict[str, dict[str, int]]: ...

class ModelHandle:
    def __init__(self, data: bytes) -> None: ...
    @property
    def size(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def description(self) -> str: ...
    @property
    def num_subgraphs(self) -> int: ...
    @property
    def num_buffers(self) -> int: ...
    @property
    def total_tensors(self) -> int: ...
    def subgraph(self, subgraph: int) -> dict[str, Any]: ...
    def tensor(self, subgraph: int, tensor: int) -> dict[str, Any]: ...
    def operator(self, subgraph: int, op: int) -> dict[str, Any]: ...
    def num_tensors(self, subgraph: int) -> int: ...
    def num_operators(self, subgraph: int) -> int: ...
    def metadata(self) -> list[tuple[str, int, bytes]]: ...
    def signatures(self) -> list[dict[str, Any]]: ...
    def usage_records(
        self, scratch: list[tuple[int, int, int]] = ...
    ) -> dict[str, npt.NDArray[Any]]: ...
    def offline_plan(self) -> npt.NDArray[np.int64] | None: ...
    def offline_plan_aliases(self) -> list[dict[str, Any]]: ...
    def with_offline_plan(self, offsets: npt.ArrayLike) -> bytes: ...

class InterpreterHandle:
    def __init__(
        self, model: ModelHandle, arena_size: int | None, planner: str, keep_plan: bool
    ) -> None: ...
    def register_preallocated(self, tensor: int, array: npt.NDArray[Any]) -> None: ...
    def required_bytes(self) -> int: ...
    def allocate_tensors(self) -> None: ...
    def invoke(self) -> None: ...
    def reset(self) -> None: ...
    @property
    def allocated(self) -> bool: ...
    @property
    def arena_bytes(self) -> int: ...
    def input_index(self, i: int) -> int: ...
    def output_index(self, i: int) -> int: ...
    def tensor_view(self, subgraph: int, index: int) -> npt.NDArray[Any]: ...
    def allocations(self) -> dict[str, Any]: ...
    def print_allocations(self) -> str: ...
    def memory_plan(self) -> dict[str, npt.NDArray[Any]]: ...

def tflm_arena_size(
    model: ModelHandle,
    target: str,
    recording: bool | None,
    planner: str,
    resource_variables: int = -1,
    resource_variables_in_arena: bool = True,
) -> dict[str, Any]: ...
def tflm_split_arena(
    model: ModelHandle, target: str, recording: bool | None, planner: str
) -> dict[str, Any]: ...
def tflm_shared_arena(
    models: list[ModelHandle], target: str, recording: bool | None, planner: str
) -> dict[str, Any]: ...
def tflm_scratch_requests(model: ModelHandle, target: str) -> list[tuple[int, int, int]]: ...
def tflm_targets() -> list[dict[str, str]]: ...
def recording_categories() -> list[dict[str, str]]: ...
def boards() -> list[dict[str, Any]]: ...
def reorder_operators(
    model: ModelHandle,
    scratch: list[tuple[int, int, int]],
    time_limit: float,
    max_states: int,
    max_expansions: int,
) -> dict[str, Any]: ...
def operator_order_peak(model: ModelHandle, order: npt.ArrayLike) -> int: ...
def write_operator_order(
    model: ModelHandle, order: npt.ArrayLike, drop_offline_plan: bool
) -> bytes: ...
def rewrite_search(
    model: ModelHandle, target: str, shapes: list[tuple[int, int]], length: int
) -> dict[str, Any]: ...  # input, ops, cuts, end_reason, original, candidates, best
def rewrite_write(
    model: ModelHandle,
    length: int,
    rows: int,
    cols: int,
    length2: int = 0,
    rows2: int = 1,
    cols2: int = 1,
) -> bytes: ...
