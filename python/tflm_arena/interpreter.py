"""Interpreter: runs a model inside one arena, the way TFLM does on a
microcontroller, and reports where every byte went."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _core
from .model import Model

#: Largest arena an Interpreter allocates (TFLM's planner offsets are int32).
MAX_ARENA_BYTES = 2**31 - 1

#: Planners the runtime can use (what TFLM offers on the device).
RUNTIME_PLANNERS = ("tflm_greedy", "linear")

def _aligned_like(array: np.ndarray) -> np.ndarray:
    """A zeroed, 16-byte aligned array with the same dtype and shape."""
    raw = np.zeros(array.nbytes + 16, dtype=np.uint8)
    start = (-raw.ctypes.data) % 16
    return raw[start:start + array.nbytes].view(array.dtype).reshape(array.shape)


PLAN_DTYPE = np.dtype([
    ("tensor", "<i4"), ("offset", "<i8"), ("size", "<i8"), ("first", "<i4"), ("last", "<i4"),
    ("subgraph", "<i4"), ("scratch", "<i4"),
])


class Interpreter:
    """Runs ``model`` with every byte in one arena (head | temp | tail).

    ``arena_size=None`` computes the exact size this model needs (head + tail
    + the temp high-water mark during allocation) instead of guessing; with a
    given size that is too small, :meth:`allocate_tensors` raises
    :class:`ArenaTooSmallError` whose ``needed_bytes`` is that exact size.

    Numpy policy: :meth:`input`, :meth:`output` and :meth:`tensor` return
    VIEWS into the arena (writable; their ``base`` keeps the arena alive even
    after the interpreter is deleted). :meth:`get_output` returns a copy.
    Views show the tensor's bytes at the moment you read them: activations
    share memory, so read an output before the next :meth:`invoke`.
    """

    def __init__(self, model: Model, arena_size: Optional[int] = None,
                 planner: str = "tflm_greedy", *, keep_plan: bool = False) -> None:
        if not isinstance(model, Model):
            raise ValueError(f"model must be a tflm_arena.Model, got {type(model).__name__}")
        if planner not in RUNTIME_PLANNERS:
            raise ValueError(f"unknown planner {planner!r}; choose one of {', '.join(RUNTIME_PLANNERS)}")
        if arena_size is not None and (int(arena_size) != arena_size or arena_size < 0):
            raise ValueError(f"arena_size must be a non-negative integer or None, got {arena_size!r}")
        if arena_size is not None and arena_size > MAX_ARENA_BYTES:
            raise ValueError(f"arena_size {arena_size} is larger than the limit of "
                             f"{MAX_ARENA_BYTES} bytes (TFLM plans offsets as int32)")
        self.model = model
        self._planner = planner
        self._keep_plan = keep_plan
        self._pre: List[Tuple[int, np.ndarray]] = []
        self._h = _core.InterpreterHandle(model._handle, arena_size, planner, keep_plan)

    # --- set-up ---------------------------------------------------------
    def register_preallocated(self, tensor_index: int, array: np.ndarray) -> None:
        """Gives tensor ``tensor_index`` (subgraph 0) the application's own
        buffer, before :meth:`allocate_tensors`; the tensor then takes no
        arena bytes. The array must be C-contiguous, writable, 16-byte
        aligned and at least the tensor's size; offline-planned and constant
        tensors cannot be preallocated. Errors raise ValueError at
        :meth:`allocate_tensors` (or here for the array checks)."""
        if not isinstance(array, np.ndarray):
            raise ValueError("preallocated buffer must be a numpy array")
        self._check_shared_memory(int(tensor_index), array)
        self._h.register_preallocated(int(tensor_index), array)
        self._pre.append((int(tensor_index), array))

    def _lifetime(self, tensor_index: int) -> Optional[Tuple[int, int]]:
        rec = self.model.usage_records()
        hit = rec[(rec["subgraph"] == 0) & (rec["tensor"] == tensor_index)]
        return (int(hit["first"][0]), int(hit["last"][0])) if len(hit) else None

    def _check_shared_memory(self, tensor_index: int, array: np.ndarray) -> None:
        """One application buffer may serve two tensors only if they are
        never live at the same step (as the planner would reuse memory)."""
        if array.dtype.kind not in "biufc":  # the binding says why
            return
        lo = array.__array_interface__["data"][0]
        hi = lo + array.nbytes
        for other_index, other in self._pre:
            olo = other.__array_interface__["data"][0]
            if not (lo < olo + other.nbytes and olo < hi) or other_index == tensor_index:
                continue
            a, b = self._lifetime(tensor_index), self._lifetime(other_index)
            if a is None or b is None or (a[0] <= b[1] and b[0] <= a[1]):
                raise ValueError(
                    f"preallocated buffers of tensors {other_index} and {tensor_index} share "
                    f"memory while both tensors are live (steps {b} and {a}); give each its "
                    "own array")

    def required_arena_size(self) -> int:
        """The exact arena bytes this model needs (16-aligned arena start)."""
        return self._h.required_bytes()

    def allocate_tensors(self) -> None:
        self._h.allocate_tensors()

    @property
    def arena_size(self) -> int:
        """Bytes of the arena in use (0 before allocation)."""
        return self._h.arena_bytes

    # --- running --------------------------------------------------------
    def invoke(self) -> None:
        """Runs the model. The GIL is released while the kernels run, so other
        Python threads (and other Interpreters) proceed in parallel; one
        Interpreter runs one invoke at a time (a concurrent call from another
        thread raises RuntimeError). Do not touch this interpreter's tensor
        views from another thread while it invokes."""
        self._h.invoke()

    def reset(self) -> None:
        """Resets variable tensors (to 0, or the int8 zero point)."""
        self._h.reset()

    def input(self, i: int = 0) -> np.ndarray:
        """View of input ``i`` in the arena (write into it: ``it.input(0)[:] = x``)."""
        return self._h.tensor_view(0, self._h.input_index(i))

    def output(self, i: int = 0) -> np.ndarray:
        """View of output ``i`` in the arena."""
        return self._h.tensor_view(0, self._h.output_index(i))

    def tensor(self, index: int, subgraph: int = 0) -> np.ndarray:
        """View of any tensor (activations are overwritten as the arena is reused)."""
        return self._h.tensor_view(subgraph, index)

    def set_input(self, value: Any, i: int = 0) -> None:
        """Copies ``value`` into input ``i``; dtype and shape must match."""
        view = self.input(i)
        arr = np.asarray(value)
        if arr.dtype != view.dtype:
            raise ValueError(f"input {i} is {view.dtype}, got {arr.dtype}")
        if arr.shape != view.shape:
            raise ValueError(f"input {i} has shape {view.shape}, got {arr.shape}")
        view[...] = arr

    def get_output(self, i: int = 0) -> np.ndarray:
        """A copy of output ``i``."""
        return self.output(i).copy()

    def _details(self, tensor_index: int) -> Dict[str, Any]:
        t = self.model.tensors[tensor_index]
        return {
            "name": t.name, "index": tensor_index, "shape": np.array(t.shape, dtype=np.int32),
            "dtype": self.tensor(tensor_index).dtype.type,
            "quantization_parameters": {
                "scales": t.scale.astype(np.float32), "zero_points": t.zero_point.astype(np.int32),
                "quantized_dimension": t.quantized_dimension,
            },
        }

    def get_input_details(self, i: int = 0) -> Dict[str, Any]:
        """TFLite-style dict: name, index, shape, dtype, quantization_parameters."""
        return self._details(self._h.input_index(i))

    def get_output_details(self, i: int = 0) -> Dict[str, Any]:
        return self._details(self._h.output_index(i))

    # --- memory ---------------------------------------------------------
    def allocations(self) -> Dict[str, Any]:
        """Where the arena went, as TFLM's recording allocator reports it:
        ``total``/``head``/``tail`` bytes, ``arena_bytes`` given,
        ``required_bytes`` (exact need), and ``categories``: TFLM's category
        names -> {requested_bytes, used_bytes, count}."""
        return self._h.allocations()

    def print_allocations(self) -> str:
        """TFLM's PrintAllocations text (also returned, not only printed)."""
        text = self._h.print_allocations()
        print(text, end="")
        return text

    def memory_plan(self) -> np.ndarray:
        """The head plan (PLAN_DTYPE): tensor (-1 for kernel scratch buffers),
        offset from the head start, size, first and last step.

        With ``keep_plan=True`` the interpreter keeps these records in its
        arena tail (28 bytes per buffer); by default it does not, and this
        method replays the same allocation in a separate, identical
        interpreter to read the plan (allocation is deterministic)."""
        self._h.allocate_tensors()
        h = self._h
        if not self._keep_plan:
            h = _core.InterpreterHandle(self.model._handle, None, self._planner, True)
            for index, array in self._pre:  # same sizes, not the same memory
                h.register_preallocated(index, _aligned_like(array))
        cols = h.memory_plan()
        out = np.empty(len(cols["offset"]), dtype=PLAN_DTYPE)
        for name in PLAN_DTYPE.names:
            out[name] = cols[name]
        return out
