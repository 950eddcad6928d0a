"""Interpreter: runs a model inside one arena, the way TFLM does on a
microcontroller, and reports where every byte went."""

from __future__ import annotations

import operator
import os
import warnings
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from . import _core
from ._plan import STRATEGY_TABLE, Plan
from ._records import RECORD_DTYPE
from ._stock_tflm import StockTflm
from .model import Model, PathLike
from .schema_enums import _NUMPY_OF_TYPE, TENSOR_TYPES
from .signature_runner import SignatureRunner
from .tflm_size import DEFAULT_TARGET

#: Largest arena an Interpreter allocates (TFLM's planner offsets are int32).
MAX_ARENA_BYTES = 2**31 - 1

#: Planners the runtime can use (what TFLM offers on the device), read from
#: the C++ strategy registry (kind "runtime_planner").
RUNTIME_PLANNERS = tuple(s["name"] for s in STRATEGY_TABLE if s["kind"] == "runtime_planner")

#: The ``strategy`` argument's type, made from :data:`RUNTIME_PLANNERS`
#: (one list of names; ``Literal[("a", "b")]`` is ``Literal["a", "b"]``).
RuntimeStrategy = Literal[RUNTIME_PLANNERS]  # type: ignore[valid-type]

# numpy types of the model's tensor types, as tf.lite reports them (from the
# schema's one table; numpy has no INT4, BFLOAT16, RESOURCE, ...).
_NUMPY_TYPES = {
    name: _NUMPY_OF_TYPE[code].type for name, code in TENSOR_TYPES.items() if code in _NUMPY_OF_TYPE
}
_NUMPY_TYPES["STRING"] = np.bytes_


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
    return raw[start : start + array.nbytes].view(array.dtype).reshape(array.shape)


PLAN_DTYPE = np.dtype(
    [
        ("tensor", "<i4"),
        ("offset", "<i8"),
        ("size", "<i8"),
        ("first", "<i4"),
        ("last", "<i4"),
        ("subgraph", "<i4"),
        ("scratch", "<i4"),
    ]
)


class Interpreter:
    """Runs ``model`` with every byte in one arena (head | temp | tail).

    ``arena_size=None`` computes the exact size this model needs (head + tail
    + the temp high-water mark during allocation) instead of guessing; with a
    given size that is too small, :meth:`allocate_tensors` raises
    :class:`ArenaTooSmallError` whose ``needed_bytes`` is that exact size.

    Numpy policy: :meth:`input`, :meth:`output` and :meth:`tensor_view`
    return VIEWS into the arena (writable; their ``base`` keeps the arena
    alive even after the interpreter is deleted); :meth:`tensor` returns, as
    ``tf.lite.Interpreter.tensor`` does, a function that gives such a view.
    :meth:`get_output` and :meth:`get_tensor` return copies.

    TFLite compatibility: code written for ``tf.lite.Interpreter`` runs
    unchanged (its constructor keywords, details, ``get_tensor`` /
    ``set_tensor`` / ``tensor``, ``invoke``, signature runners,
    ``resize_tensor_input`` to the model's own shapes); see the constructor
    for which keywords are honoured and which are ignored.
    Views show the tensor's bytes at the moment you read them: activations
    share memory, so read an output before the next :meth:`invoke`.

    >>> import numpy as np, tflm_arena as ta
    >>> it = ta.Interpreter(model_path="hello_world_int8.tflite")
    >>> it.set_tensor(it.get_input_details()[0]["index"], np.array([[17]], np.int8))
    >>> it.invoke()
    >>> it.get_tensor(it.get_output_details()[0]["index"])
    array([[-43]], dtype=int8)
    """

    def __init__(
        self,
        model: Model | PathLike | bytes | None = None,
        arena_size: int | None = None,
        strategy: RuntimeStrategy | None = None,
        *,
        keep_plan: bool = False,
        model_path: PathLike | None = None,
        model_content: bytes | None = None,
        planner: str | None = None,
        experimental_delegates: Any = None,
        num_threads: int | None = None,
        experimental_op_resolver_type: Any = None,
        experimental_preserve_all_tensors: bool = False,
        experimental_disable_delegate_clustering: bool = False,
        experimental_default_delegate_latest_features: bool = False,
    ) -> None:
        """``model`` is a :class:`Model`, a path or the model's bytes; as in
        ``tf.lite.Interpreter``, ``model_path=`` or ``model_content=`` may be
        given instead (``Interpreter(None, content)``, TFLite's positional
        form, works too). ``strategy`` is the runtime planner (one of
        :data:`RUNTIME_PLANNERS`; default ``"tflm_greedy"``; ``planner=`` is
        its deprecated old name).

        ``tf.lite.Interpreter``'s other keywords are accepted:

        - ``experimental_preserve_all_tensors=True`` is honoured: every
          tensor keeps its own arena bytes (the ``"linear"`` planner, as the
          ``tflite-micro`` wheel's kPreserveAllTensors configuration), so
          intermediate tensors can be read after :meth:`invoke`. It needs
          ``strategy`` ``"linear"`` or unset.
        - ``num_threads`` is checked as TFLite checks it (an int, >= 1 or
          -1) and otherwise ignored: TFLM, and this runtime, run one
          operator at a time on one thread (:meth:`invoke` releases the GIL,
          so separate Interpreters run in parallel).
        - ``experimental_delegates`` is ignored: TFLM has no delegates; a
          non-empty list gives a ``UserWarning`` saying it is not used.
        - ``experimental_op_resolver_type``,
          ``experimental_disable_delegate_clustering`` and
          ``experimental_default_delegate_latest_features`` are ignored: the
          kernels are always this runtime's (bit-exact with TFLM's reference
          kernels) and there are no delegates.

        >>> Interpreter(model_path="hello_world_int8.tflite").strategy
        'tflm_greedy'
        >>> Interpreter(model_path="hello_world_int8.tflite", num_threads=4,
        ...             experimental_preserve_all_tensors=True).strategy
        'linear'
        """
        if (
            model is None
            and model_content is None
            and isinstance(arena_size, (bytes, bytearray, memoryview))
        ):
            # TFLite's positional (path, content) form, outside the annotation.
            model_content, arena_size = bytes(arena_size), None  # type: ignore[unreachable]
        model = _one_model(model, model_path, model_content)
        if planner is not None:
            warnings.warn(
                "Interpreter(planner=...) is deprecated; use strategy=...",
                DeprecationWarning,
                stacklevel=2,
            )
            if strategy is None:
                strategy = planner
        if experimental_preserve_all_tensors:
            if strategy not in (None, "linear"):
                raise ValueError(
                    f"experimental_preserve_all_tensors=True keeps every tensor in its own "
                    f"memory, which needs strategy='linear' (got {strategy!r})"
                )
            strategy = "linear"
        if strategy is None:
            strategy = "tflm_greedy"
        if strategy not in RUNTIME_PLANNERS:
            raise ValueError(
                f"unknown strategy {strategy!r}; choose one of {', '.join(RUNTIME_PLANNERS)}"
            )
        if arena_size is not None and (
            not isinstance(arena_size, (int, float, np.integer))
            or int(arena_size) != arena_size
            or arena_size < 0
        ):
            raise ValueError(
                f"arena_size must be a non-negative integer or None, got {arena_size!r}"
            )
        if arena_size is not None and arena_size > MAX_ARENA_BYTES:
            raise ValueError(
                f"arena_size {arena_size} is larger than the limit of "
                f"{MAX_ARENA_BYTES} bytes (TFLM plans offsets as int32)"
            )
        _check_num_threads(num_threads)
        _warn_if_delegates(experimental_delegates)
        self.model = model
        self._planner = strategy
        self._keep_plan = keep_plan
        self._pre: list[tuple[int, np.ndarray]] = []
        self._stock = StockTflm(model, strategy)  # stock TFLM's figures, made when asked
        self._h = _core.InterpreterHandle(model._handle, arena_size, strategy, keep_plan)

    @classmethod
    def from_file(cls, path: PathLike, **kwargs: Any) -> Interpreter:
        """Loads the .tflite file at ``path`` (keywords as for the constructor).

        >>> Interpreter.from_file("hello_world_int8.tflite").model.inputs
        (0,)
        """
        return cls(Model.load(path), **kwargs)

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview, **kwargs: Any) -> Interpreter:
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

    def _check_shared_memory(self, tensor_index: int, array: np.ndarray) -> None:
        """One application buffer may serve two tensors only if they are
        never live at the same step; the C++ core checks
        (runtime/preallocation_sharing.h)."""
        if array.dtype.kind not in "biufc":  # the binding says why
            return

        def buffer(index: int, a: np.ndarray) -> tuple[int, int, int]:
            return (index, a.__array_interface__["data"][0], a.nbytes)

        _core.check_preallocation_sharing(
            self.model._handle, [buffer(i, a) for i, a in self._pre], buffer(tensor_index, array)
        )

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
        :meth:`allocate_tensors` was not called yet (as TFLM does). The GIL
        is released while the kernels run, so other Python threads (and other
        Interpreters) proceed in parallel; one
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

    def tensor(self, tensor_index: int, subgraph: int = 0) -> Callable[[], np.ndarray]:
        """As ``tf.lite.Interpreter.tensor``: a function that returns a numpy
        VIEW of the tensor's current bytes in the arena (call it again after
        each :meth:`invoke`; activations share memory). The index is checked
        now (IndexError). :meth:`tensor_view` gives the view directly.

        >>> import numpy as np
        >>> it = Interpreter(model_path="hello_world_int8.tflite")
        >>> it.set_tensor(0, np.array([[17]], np.int8))
        >>> it.invoke()
        >>> output = it.tensor(it.get_output_details()[0]["index"])
        >>> output()
        array([[-43]], dtype=int8)
        """
        subgraph = _index(subgraph, len(self.model.subgraphs), "subgraph")
        tensor_index = _index(tensor_index, len(self.model.subgraphs[subgraph].tensors), "tensor")
        return lambda: self._h.tensor_view(subgraph, tensor_index)

    def tensor_view(self, tensor_index: int, subgraph: int = 0) -> np.ndarray:
        """View of any tensor in the arena (what :meth:`tensor`'s function
        returns; activations are overwritten as the arena is reused).

        >>> it = Interpreter(model_path="hello_world_int8.tflite")
        >>> it.tensor_view(0).shape
        (1, 1)
        """
        subgraph = _index(subgraph, len(self.model.subgraphs), "subgraph")
        tensor_index = _index(tensor_index, len(self.model.subgraphs[subgraph].tensors), "tensor")
        return self._h.tensor_view(subgraph, tensor_index)

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
        out: np.ndarray = self.output(i).copy()
        return out

    def _details(self, tensor_index: int) -> dict[str, Any]:
        """One tensor's dict with the keys and types tf.lite uses."""
        t = self.model.tensors[tensor_index]
        scales = np.array(t.scale, dtype=np.float32)
        zero_points = np.array(t.zero_point, dtype=np.int32)
        # tf.lite's legacy pair is set only for per-tensor quantization.
        legacy = (float(scales[0]), int(zero_points[0])) if len(scales) == 1 else (0.0, 0)
        shape = np.array(t.shape, dtype=np.int32)
        sig = shape if t.shape_signature is None else np.array(t.shape_signature, dtype=np.int32)
        return {
            "name": t.name,
            "index": tensor_index,
            "shape": shape,
            "shape_signature": sig,
            # Types numpy lacks (INT4, RESOURCE, ...) show as raw bytes.
            "dtype": _NUMPY_TYPES.get(t.type, np.uint8),
            "quantization": legacy,
            "quantization_parameters": {
                "scales": scales,
                "zero_points": zero_points,
                "quantized_dimension": int(t.quantized_dimension),
            },
            "sparsity_parameters": {},
        }

    def get_input_details(self, i: int | None = None) -> list[dict[str, Any]] | dict[str, Any]:
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

    def get_output_details(self, i: int | None = None) -> list[dict[str, Any]] | dict[str, Any]:
        """As :meth:`get_input_details`, for the outputs."""
        n = len(self.model.outputs)
        if i is None:
            return [self._details(self.model.outputs[k]) for k in range(n)]
        return self._details(self.model.outputs[_index(i, n, "output")])

    def get_tensor_details(self) -> list[dict[str, Any]]:
        """Details (the keys of :meth:`get_input_details`) of every tensor of
        subgraph 0, in index order, as ``tf.lite`` lists them."""
        return [self._details(k) for k in range(len(self.model.tensors))]

    def get_tensor(self, tensor_index: int, subgraph_index: int = 0) -> np.ndarray:
        """A copy of tensor ``tensor_index`` (as ``tf.lite``;
        :meth:`tensor_view` gives a view)."""
        out: np.ndarray = self.tensor_view(tensor_index, subgraph_index).copy()
        return out

    def set_tensor(self, tensor_index: int, value: Any) -> None:
        """Copies ``value`` into tensor ``tensor_index`` of subgraph 0; its
        dtype and shape must match (ValueError otherwise, as ``tf.lite``)."""
        view = self.tensor_view(tensor_index)
        name = self.model.tensors[tensor_index].name
        arr = np.asarray(value)
        if arr.dtype != view.dtype:
            raise ValueError(
                f"cannot set tensor {tensor_index} ({name}): got {arr.dtype}, expected {view.dtype}"
            )
        if arr.shape != view.shape:
            raise ValueError(
                f"cannot set tensor {tensor_index} ({name}): got shape "
                f"{arr.shape}, expected shape {view.shape}"
            )
        if not view.flags.writeable:
            raise ValueError(
                f"cannot set tensor {tensor_index} ({name}): it is a constant of the model"
            )
        view[...] = arr

    def resize_tensor_input(self, input_index: int, tensor_size: Any, strict: bool = False) -> None:
        """``tf.lite``'s resize, for TFLM's fixed shapes: TFLM runs the shapes
        stored in the model (its MicroInterpreter cannot resize a tensor), so
        the tensor's own shape is accepted as a no-op and any other shape
        raises ValueError. ``strict`` is accepted and changes nothing.

        >>> it = Interpreter(model_path="hello_world_int8.tflite")
        >>> it.resize_tensor_input(0, [1, 1])   # the model's shape: no-op
        >>> it.resize_tensor_input(0, [4, 1])
        Traceback (most recent call last):
        ...
        ValueError: cannot resize tensor 0 ...
        """
        i = _index(input_index, len(self.model.tensors), "tensor")
        t = self.model.tensors[i]
        try:
            want = np.asarray(tensor_size)
            new = tuple(int(d) for d in want.reshape(-1))
            ok = want.ndim == 1 and all(d == v for d, v in zip(new, want.reshape(-1), strict=True))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError(f"tensor_size must be a list of integers, got {tensor_size!r}")
        if new == tuple(t.shape):
            return
        raise ValueError(
            f"cannot resize tensor {i} ({t.name}) from {list(t.shape)} to {list(new)}: TFLM "
            "runs the shapes stored in the model and cannot resize tensors; convert the "
            "model again with the shape you need (e.g. a fixed input shape in the "
            "converter's input signature)"
        )

    # --- signatures -----------------------------------------------------
    def get_signature_list(self) -> dict[str, dict[str, list[str]]]:
        """The model's SignatureDefs as ``tf.lite`` lists them: key ->
        ``{"inputs": [names], "outputs": [names]}`` (names sorted, as
        TFLite's); ``{}`` for a model without SignatureDefs.

        >>> Interpreter(model_path="hello_world_int8.tflite").get_signature_list()
        {'serving_default': {'inputs': ['dense_input'], 'outputs': ['dense_2']}}
        """
        return {
            key: {"inputs": sorted(sig["inputs"]), "outputs": sorted(sig["outputs"])}
            for key, sig in self.model.signatures.items()
        }

    def get_signature_runner(self, signature_key: str | None = None) -> SignatureRunner:
        """A :class:`SignatureRunner` for ``signature_key`` (``None``: the
        model's only signature), as ``tf.lite``'s: call it with keyword
        arguments named as the signature's inputs; it returns a dict of
        output names -> arrays. ValueError for an unknown key, for ``None``
        when the model has not exactly one signature, and for a signature of
        another subgraph than 0 (TFLM runs subgraph 0 only).

        >>> import numpy as np
        >>> it = Interpreter(model_path="hello_world_int8.tflite")
        >>> run = it.get_signature_runner()
        >>> run(dense_input=np.array([[17]], np.int8))
        {'dense_2': array([[-43]], dtype=int8)}
        """
        sigs = self.model.signatures
        if signature_key is None:
            if len(sigs) != 1:
                raise ValueError(
                    f"SignatureDef signature_key is None and model has {len(sigs)} Signatures. "
                    "None is only allowed when the model has 1 SignatureDef"
                )
            signature_key = next(iter(sigs))
        if signature_key not in sigs:
            raise ValueError(
                f"Invalid signature_key provided: {signature_key!r} (the model's "
                f"signatures: {list(sigs)})"
            )
        sig = sigs[signature_key]
        if sig["subgraph"] != 0:
            raise ValueError(
                f"signature {signature_key!r} runs subgraph {sig['subgraph']}; TFLM (and this "
                "interpreter) run subgraph 0 only"
            )
        return SignatureRunner(self, signature_key, sig["inputs"], sig["outputs"])

    # --- operators --------------------------------------------------------
    def _get_op_details(self, op_index: int) -> dict[str, Any]:
        """``tf.lite``'s operator dict: ``index``, ``op_name`` (the builtin
        name, or the custom code), ``inputs`` and ``outputs`` (int32 arrays
        of tensor indices; -1 = omitted optional input), subgraph 0.

        >>> Interpreter(model_path="hello_world_int8.tflite")._get_op_details(0)["op_name"]
        'FULLY_CONNECTED'
        """
        op = self.model.operators[_index(op_index, len(self.model.operators), "operator")]
        return {
            "index": op.index,
            "op_name": op.name,
            "inputs": np.array(op.inputs, dtype=np.int32),
            "outputs": np.array(op.outputs, dtype=np.int32),
        }

    def _get_ops_details(self) -> list[dict[str, Any]]:
        """:meth:`_get_op_details` of every operator of subgraph 0, in
        execution order.

        >>> len(Interpreter(model_path="hello_world_int8.tflite")._get_ops_details())
        3
        """
        return [self._get_op_details(k) for k in range(len(self.model.operators))]

    # --- memory ---------------------------------------------------------
    def allocations(
        self, target: str = DEFAULT_TARGET, recording: bool | None = None
    ) -> dict[str, Any]:
        """Where THIS RUNTIME's arena went (tflm_arena's runtime, not stock
        TFLM), next to stock TFLM's need for the same model.

        ``runtime`` is ``"tflm_arena"``; ``total``/``head``/``tail`` are the
        bytes our runtime used, ``arena_bytes`` the arena given,
        ``required_bytes`` its exact need, and ``categories`` our tail by
        category (named as TFLM's RecordingMicroAllocator names them) ->
        {requested_bytes, used_bytes, count}. Our tail is smaller than stock
        TFLM's (the allocator objects live outside the arena and no
        TfLiteTensor copies are made), so do not size TFLM firmware from it.

        ``stock_tflm`` is stock TFLM's arena for the same model on
        ``target`` (default :data:`~tflm_arena.tflm_size.DEFAULT_TARGET`),
        from :func:`tflm_arena.tflm_arena` with ``recording`` and the planner
        matching this interpreter's strategy (``"tflm_greedy"``: greedy,
        ``"linear"``: linear): its ``as_dict()`` (``min_arena_bytes``,
        ``head``, ``tail``, ``categories``, ...) plus ``kTensorArenaSize``
        (the firmware line) and ``error`` (None). When TFLM's need cannot be
        predicted (an operator that is not modelled, or a model TFLM
        refuses) the entry has ``min_arena_bytes`` None and ``error`` says
        why; nothing is raised for that.

        >>> it = Interpreter(model_path="hello_world_int8.tflite")
        >>> a = it.allocations(target="x86-64")
        >>> a["runtime"], a["head"], a["stock_tflm"]["min_arena_bytes"]
        ('tflm_arena', 32, 1704)
        """
        ours = self._h.allocations()
        return {
            "runtime": "tflm_arena",
            **ours,
            "stock_tflm": self._stock.figures(target, recording),
        }

    def print_allocations(self, target: str = DEFAULT_TARGET, recording: bool | None = None) -> str:
        """Prints (and returns) this runtime's allocations, then stock TFLM's
        arena for the same model (:meth:`allocations`' two parts). The first
        line names the tflm_arena runtime; no line is TFLM's own
        ``[RecordingMicroAllocator]`` text, because the figures are not
        TFLM's. Size firmware from the ``kTensorArenaSize`` line.

        >>> text = Interpreter(model_path="hello_world_int8.tflite").print_allocations("x86-64")
        tflm_arena runtime: arena ... bytes used (head 32, tail ...); not stock TFLM's figures
        ...
        stock TFLM (x86-64, MicroAllocator, greedy planner), same model:
          minimum arena 1,704 bytes (head 32, tail ...)
          constexpr int kTensorArenaSize = 1712;
        """
        text = self._h.print_allocations() + self._stock.text(target, recording)
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
        for name in PLAN_DTYPE.names or ():
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
        rec = np.empty(
            len(mp),
            dtype=RECORD_DTYPE.descr + [("subgraph", "<i4"), ("tensor", "<i4"), ("scratch", "<i4")],
        )
        rec["size"], rec["first"], rec["last"] = mp["size"], mp["first"], mp["last"]
        rec["fixed_offset"] = -1
        rec["subgraph"], rec["tensor"], rec["scratch"] = mp["subgraph"], mp["tensor"], mp["scratch"]
        top = int((mp["offset"] + mp["size"]).max()) if len(mp) else 0
        return Plan(
            records=rec,
            offsets=mp["offset"],
            arena_bytes=top,
            strategy=f"interpreter head ({self._planner})",
        )


def _check_num_threads(num_threads: Any) -> None:
    """tf.lite.Interpreter's check of ``num_threads`` (the value is unused)."""
    if num_threads is None:
        return
    if not isinstance(num_threads, int) or isinstance(num_threads, bool):
        raise ValueError("type of num_threads should be int")
    if num_threads < 1 and num_threads != -1:
        raise ValueError("num_threads should >= 1 or just -1")


def _warn_if_delegates(delegates: Any) -> None:
    """A non-empty delegate list is accepted and not used (TFLM has none)."""
    if delegates is None:
        return
    try:
        n = len(delegates)
    except TypeError:
        n = 1  # a single delegate object
    if n:
        warnings.warn(
            f"experimental_delegates ({n} given) are not used: TFLM has no "
            "delegates; every operator runs on tflm_arena's kernels",
            UserWarning,
            stacklevel=3,
        )


def _one_model(model: Any, model_path: PathLike | None, model_content: bytes | None) -> Model:
    """The Model named by exactly one of the three ways to give it."""
    given = [v for v in (model, model_path, model_content) if v is not None]
    if len(given) != 1:
        raise ValueError(
            f"give exactly one of model, model_path= or model_content= ({len(given)} given)"
        )
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
    raise ValueError(
        f"model must be a tflm_arena.Model, a path or bytes, got {type(model).__name__}"
    )
