"""Interpreter: runs a model inside one arena, the way TFLM does on a
microcontroller, and reports where every byte went."""
from __future__ import annotations

import operator
import os
import warnings
from typing import Any, Dict, List, Literal, Optional, Tuple, Union

import numpy as np

from . import _core
from ._plan import Plan
from ._records import RECORD_DTYPE
from .model import Model, PathLike

#: Largest arena an Interpreter allocates (TFLM's planner offsets are int32).
MAX_ARENA_BYTES = 2**31 - 1

#: Planners the runtime can use (what TFLM offers on the device).
RUNTIME_PLANNERS = ("tflm_greedy", "linear")

#: The ``strategy`` argument's type, made from :data:`RUNTIME_PLANNERS`
#: (one list of names; ``Literal[("a", "b")]`` is ``Literal["a", "b"]``).
RuntimeStrategy = Literal[RUNTIME_PLANNERS]  # type: ignore[valid-type]

# numpy types of the model's tensor types, as tf.lite reports them.
_NUMPY_TYPES = {
    "FLOAT32": np.float32, "FLOAT16": np.float16, "FLOAT64": np.float64, "INT8": np.int8,
    "UINT8": np.uint8, "INT16": np.int16, "UINT16": np.uint16, "INT32": np.int32,
    "UINT32": np.uint32, "INT64": np.int64, "UINT64": np.uint64, "BOOL": np.bool_,
    "COMPLEX64": np.complex64, "COMPLEX128": np.complex128, "STRING": np.bytes_,
}


def _index(value: Any, count: int, what: str) -> int:
    """``value`` as an index in [0, count), else IndexError naming ``what``
    (TypeError for a non-integer, as Python's own sequences do)."""
    try:
        i = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} index must be an integer, got {type(value).__name__}") from None
    if not 0 <= i < count:
        raise IndexError(f"{what} index {i} out of range (the model has {count})")
    return i

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

    >>> import numpy as np, tflm_arena as ta
    >>> it = ta.Interpreter(model_path="hello_world_int8.tflite")
    >>> it.set_tensor(it.get_input_details()[0]["index"], np.array([[17]], np.int8))
    >>> it.invoke()
    >>> it.get_tensor(it.get_output_details()[0]["index"])
    array([[-43]], dtype=int8)
    """

    def __init__(self, model: Union[Model, PathLike, bytes, None] = None,
                 arena_size: Optional[int] = None, strategy: RuntimeStrategy = "tflm_greedy",
                 *, keep_plan: bool = False, model_path: Optional[PathLike] = None,
                 model_content: Optional[bytes] = None, planner: Optional[str] = None) -> None:
        """``model`` is a :class:`Model`, a path or the model's bytes; as in
        ``tf.lite.Interpreter``, ``model_path=`` or ``model_content=`` may be
        given instead. ``strategy`` is the runtime planner (one of
        :data:`RUNTIME_PLANNERS`; ``planner=`` is its deprecated old name).

        >>> Interpreter(model_path="hello_world_int8.tflite").strategy
        'tflm_greedy'
        """
        model = _one_model(model, model_path, model_content)
        if planner is not None:
            warnings.warn("Interpreter(planner=...) is deprecated; use strategy=...",
                          DeprecationWarning, stacklevel=2)
            strategy = planner  # type: ignore[assignment]
        if strategy not in RUNTIME_PLANNERS:
            raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(RUNTIME_PLANNERS)}")
        if arena_size is not None and (int(arena_size) != arena_size or arena_size < 0):
            raise ValueError(f"arena_size must be a non-negative integer or None, got {arena_size!r}")
        if arena_size is not None and arena_size > MAX_ARENA_BYTES:
            raise ValueError(f"arena_size {arena_size} is larger than the limit of "
                             f"{MAX_ARENA_BYTES} bytes (TFLM plans offsets as int32)")
        self.model = model
        self._planner = strategy
        self._keep_plan = keep_plan
        self._pre: List[Tuple[int, np.ndarray]] = []
        self._h = _core.InterpreterHandle(model._handle, arena_size, strategy, keep_plan)

    @classmethod
    def from_file(cls, path: PathLike, **kwargs: Any) -> "Interpreter":
        """Loads the .tflite file at ``path`` (keywords as for the constructor).

        >>> Interpreter.from_file("hello_world_int8.tflite").model.inputs
        (0,)
        """
        return cls(Model.load(path), **kwargs)

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview], **kwargs: Any) -> "Interpreter":
        """Runs the model held in ``data`` (keywords as for the constructor).

        >>> from pathlib import Path
        >>> Interpreter.from_bytes(Path("hello_world_int8.tflite").read_bytes()).model.outputs
        (9,)
        """
        return cls(Model.from_bytes(data), **kwargs)

    @property
    def strategy(self) -> str:
        """The runtime planner in use (one of :data:`RUNTIME_PLANNERS`)."""
        return self._planner

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
        """Plans and places every tensor in the arena. Optional: as in TFLM,
        :meth:`invoke` (and every tensor accessor) allocates first if needed."""
        self._h.allocate_tensors()

    @property
    def arena_size(self) -> int:
        """Bytes of the arena in use (0 before allocation)."""
        return self._h.arena_bytes

    # --- running --------------------------------------------------------
    def invoke(self) -> None:
        """Runs the model, allocating the tensors first if
        :meth:`allocate_tensors` was not called yet (as TFLM does). The GIL is released while the kernels run, so other
        Python threads (and other Interpreters) proceed in parallel; one
        Interpreter runs one invoke at a time (a concurrent call from another
        thread raises RuntimeError). Do not touch this interpreter's tensor
        views from another thread while it invokes."""
        self._h.invoke()

    def reset(self) -> None:
        """Resets variable tensors (to 0, or the int8 zero point)."""
        self._h.reset()

    def reset_all_variables(self) -> None:
        """TFLite's name for :meth:`reset`."""
        self.reset()

    def input(self, i: int = 0) -> np.ndarray:
        """View of input ``i`` in the arena (write into it: ``it.input(0)[:] = x``)."""
        i = _index(i, len(self.model.inputs), "input")
        return self._h.tensor_view(0, self._h.input_index(i))

    def output(self, i: int = 0) -> np.ndarray:
        """View of output ``i`` in the arena."""
        i = _index(i, len(self.model.outputs), "output")
        return self._h.tensor_view(0, self._h.output_index(i))

    def tensor(self, index: int, subgraph: int = 0) -> np.ndarray:
        """View of any tensor (activations are overwritten as the arena is reused)."""
        subgraph = _index(subgraph, len(self.model.subgraphs), "subgraph")
        index = _index(index, len(self.model.subgraphs[subgraph].tensors), "tensor")
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
        """One tensor's dict with the keys and types tf.lite uses."""
        t = self.model.tensors[tensor_index]
        scales = np.array(t.scale, dtype=np.float32)
        zero_points = np.array(t.zero_point, dtype=np.int32)
        # tf.lite's legacy pair is set only for per-tensor quantization.
        legacy = ((float(scales[0]), int(zero_points[0])) if len(scales) == 1
                  else (0.0, 0))
        shape = np.array(t.shape, dtype=np.int32)
        sig = shape if t.shape_signature is None else np.array(t.shape_signature, dtype=np.int32)
        return {
            "name": t.name, "index": tensor_index, "shape": shape, "shape_signature": sig,
            # Types numpy lacks (INT4, RESOURCE, ...) show as raw bytes.
            "dtype": _NUMPY_TYPES.get(t.type, np.uint8), "quantization": legacy,
            "quantization_parameters": {
                "scales": scales, "zero_points": zero_points,
                "quantized_dimension": int(t.quantized_dimension),
            },
            "sparsity_parameters": {},
        }

    def get_input_details(self, i: Optional[int] = None) -> Union[List[Dict[str, Any]], Dict[str, Any]]:
        """TFLite's input details: with no argument the list of dicts
        ``tf.lite.Interpreter.get_input_details()`` returns (keys ``name``,
        ``index``, ``shape``, ``shape_signature``, ``dtype``,
        ``quantization``, ``quantization_parameters``,
        ``sparsity_parameters``); ``get_input_details(i)`` is input ``i``'s
        dict alone (as the tflite_micro wheel does).

        >>> it = Interpreter(model_path="hello_world_int8.tflite")
        >>> [(d["index"], d["dtype"].__name__) for d in it.get_input_details()]
        [(0, 'int8')]
        """
        n = len(self.model.inputs)
        if i is None:
            return [self._details(self.model.inputs[k]) for k in range(n)]
        return self._details(self.model.inputs[_index(i, n, "input")])

    def get_output_details(self, i: Optional[int] = None) -> Union[List[Dict[str, Any]], Dict[str, Any]]:
        """As :meth:`get_input_details`, for the outputs."""
        n = len(self.model.outputs)
        if i is None:
            return [self._details(self.model.outputs[k]) for k in range(n)]
        return self._details(self.model.outputs[_index(i, n, "output")])

    def get_tensor_details(self) -> List[Dict[str, Any]]:
        """Details (the keys of :meth:`get_input_details`) of every tensor of
        subgraph 0, in index order, as ``tf.lite`` lists them."""
        return [self._details(k) for k in range(len(self.model.tensors))]

    def get_tensor(self, tensor_index: int, subgraph_index: int = 0) -> np.ndarray:
        """A copy of tensor ``tensor_index`` (as ``tf.lite``; :meth:`tensor`
        gives a view)."""
        return self.tensor(tensor_index, subgraph_index).copy()

    def set_tensor(self, tensor_index: int, value: Any) -> None:
        """Copies ``value`` into tensor ``tensor_index`` of subgraph 0; its
        dtype and shape must match (ValueError otherwise, as ``tf.lite``)."""
        view = self.tensor(tensor_index)
        name = self.model.tensors[tensor_index].name
        arr = np.asarray(value)
        if arr.dtype != view.dtype:
            raise ValueError(f"cannot set tensor {tensor_index} ({name}): got {arr.dtype}, "
                             f"expected {view.dtype}")
        if arr.shape != view.shape:
            raise ValueError(f"cannot set tensor {tensor_index} ({name}): got shape "
                             f"{arr.shape}, expected shape {view.shape}")
        if not view.flags.writeable:
            raise ValueError(f"cannot set tensor {tensor_index} ({name}): it is a constant "
                             "of the model")
        view[...] = arr

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

    def plot_memory(self, ax: Any = None, **kw: Any) -> Any:
        """Draws the head plan of :meth:`memory_plan` (allocating first if
        needed) with :func:`tflm_arena.viz.plot_plan`, tensor names from the
        model; returns the matplotlib Axes (needs matplotlib). Keywords
        ``names`` and ``title`` are passed on.

        >>> it = Interpreter(model_path="hello_world_int8.tflite")
        >>> ax = it.plot_memory()
        >>> len(ax.patches) == len(it.memory_plan())
        True
        """
        from . import viz

        kw.setdefault("model", self.model)
        return viz.plot_plan(self._head_plan(), ax, **kw)

    def _head_plan(self) -> Plan:
        """The head plan as a :class:`Plan` (records keep subgraph, tensor
        and scratch columns so the picture can name the buffers)."""
        mp = self.memory_plan()
        rec = np.empty(len(mp), dtype=RECORD_DTYPE.descr + [
            ("subgraph", "<i4"), ("tensor", "<i4"), ("scratch", "<i4")])
        rec["size"], rec["first"], rec["last"] = mp["size"], mp["first"], mp["last"]
        rec["fixed_offset"] = -1
        rec["subgraph"], rec["tensor"], rec["scratch"] = mp["subgraph"], mp["tensor"], mp["scratch"]
        top = int((mp["offset"] + mp["size"]).max()) if len(mp) else 0
        return Plan(records=rec, offsets=mp["offset"], arena_bytes=top,
                    strategy=f"interpreter head ({self._planner})")


def _one_model(model: Any, model_path: Optional[PathLike], model_content: Optional[bytes]) -> Model:
    """The Model named by exactly one of the three ways to give it."""
    given = [v for v in (model, model_path, model_content) if v is not None]
    if len(given) != 1:
        raise ValueError("give exactly one of model, model_path= or model_content= "
                         f"({len(given)} given)")
    if model_path is not None:
        return Model.load(model_path)
    if model_content is not None:
        return Model.from_bytes(model_content)
    if isinstance(model, Model):
        return model
    if isinstance(model, (str, os.PathLike)):
        return Model.load(model)
    if isinstance(model, (bytes, bytearray, memoryview)):
        return Model.from_bytes(model)
    raise ValueError(f"model must be a tflm_arena.Model, a path or bytes, got {type(model).__name__}")
