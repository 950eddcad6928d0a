"""Write small, valid TFLite flatbuffer models (``.tflite`` bytes) from Python.

The builder exists so tests and examples can create exactly the graph they need
(tensor sizes, lifetimes, subgraphs, offline plans) without TensorFlow.  It
writes the flatbuffer by hand with the low-level :class:`flatbuffers.Builder`,
following the TFLite schema (``tensorflow/lite/schema/schema.fbs``, file
identifier ``TFL3``, schema version 3).

This module depends on ``numpy``, ``flatbuffers`` and, for the schema's enum
tables (:mod:`tflm_arena.schema_enums`), the compiled core.

Example
-------
>>> import numpy as np
>>> mb = ModelBuilder()
>>> a = mb.add_tensor([1, 4], "float32", "a")
>>> b = mb.add_tensor([1, 4], "float32", "b")
>>> y = mb.add_tensor([1, 4], "float32", "y")
>>> mb.add_operator("ADD", [a, b], [y])
0
>>> mb.set_io([a, b], [y])
>>> model = mb.build()
>>> model[4:8]
b'TFL3'

Schema facts used here (table field slots; a union field takes two slots, its
``_type`` byte first):

* ``Model``: version 0, operator_codes 1, subgraphs 2, description 3,
  buffers 4, metadata_buffer 5, metadata 6, signature_defs 7.
* ``OperatorCode``: deprecated_builtin_code:byte 0, custom_code 1,
  version:int 2 (default 1), builtin_code:int 3.  Readers take
  ``max(deprecated_builtin_code, builtin_code)``; the byte field saturates at
  127 (``PLACEHOLDER_FOR_GREATER_OP_CODES``).
* ``SubGraph``: tensors 0, inputs 1, outputs 2, operators 3, name 4.
* ``Tensor``: shape 0, type:byte 1, buffer:uint 2, name 3, quantization 4,
  is_variable 5, sparsity 6, shape_signature 7, has_rank 8.
* ``QuantizationParameters``: min 0, max 1, scale 2, zero_point:[long] 3,
  details_type 4, details 5, quantized_dimension 6.
* ``Operator``: opcode_index:uint 0, inputs 1, outputs 2,
  builtin_options_type:ubyte 3, builtin_options 4, custom_options 5,
  custom_options_format 6, mutating_variable_inputs 7, intermediates 8.
* ``Buffer``: data:[ubyte] (force_align 16) 0, offset 1, size 2.
* ``Metadata``: name 0, buffer:uint 1.
* ``SignatureDef``: inputs 0, outputs 1 (both ``[TensorMap]``),
  signature_key 2, deprecated_tag 3, subgraph_index:uint 4.
* ``TensorMap``: name 0, tensor_index:uint 1 (a tensor of the signature's
  subgraph).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flatbuffers
import numpy as np

from ._builder_options import (
    _SUBGRAPH_KEYS,
    DTypeLike,
    _as_int_list,
    _int32_vector,
    _norm_int,
    _normalize_options,
    _tensor_type,
    _write_options,
)
from .schema_enums import (
    _CUSTOM,
    _NUMPY_OF_TYPE,
    _PLACEHOLDER_FOR_GREATER_OP_CODES,
    ACTIVATION_FUNCTIONS,
    BUILTIN_OPERATORS,
    BUILTIN_OPTIONS_TYPES,
    TENSOR_TYPES,
)

__all__ = [
    "ACTIVATION_FUNCTIONS",
    "BUILTIN_OPERATORS",
    "BUILTIN_OPTIONS_TYPES",
    "OFFLINE_PLAN_METADATA_NAME",
    "SCHEMA_VERSION",
    "TENSOR_TYPES",
    "ModelBuilder",
    "offline_plan_metadata",
]

#: Value written to ``Model.version`` (TFLM rejects anything else).
SCHEMA_VERSION = 3
#: Flatbuffer file identifier of TFLite models.
FILE_IDENTIFIER = b"TFL3"
#: Metadata name TFLM scans for an offline memory plan.
OFFLINE_PLAN_METADATA_NAME = "OfflineMemoryAllocation"

# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------

BufferData = bytes | bytearray | memoryview | np.ndarray | None


def _payload(data: BufferData, np_dtype: np.dtype | None = None) -> bytes:
    """Little-endian raw bytes of ``data`` (optionally cast to ``np_dtype``)."""
    if data is None:
        return b""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    arr = np.asarray(data)
    if np_dtype is not None:
        arr = arr.astype(np_dtype, copy=False)
    if arr.dtype.byteorder == ">":
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    return np.ascontiguousarray(arr).tobytes()


def offline_plan_metadata(offsets: Sequence[int], num_subgraphs: int = 1) -> bytes:
    """Encode an ``OfflineMemoryAllocation`` metadata payload.

    The payload is little-endian int32 words ``[version=0, num_subgraphs, N,
    offsets...]``: one byte offset per tensor (all subgraphs concatenated in
    subgraph order, N = total tensor count) relative to the start of the
    arena head, or -1 to let TFLM plan that tensor online.  Entries for
    constant tensors are ignored by TFLM but must still be present.

    Attach it with ``builder.add_metadata(OFFLINE_PLAN_METADATA_NAME, payload)``.
    """
    offs = _as_int_list(offsets, "offsets")
    for o in offs:
        if not -(2**31) <= o < 2**31:
            raise ValueError(f"offset {o} does not fit in int32")
    if num_subgraphs < 0:
        raise ValueError("num_subgraphs must be >= 0")
    words = [0, int(num_subgraphs), len(offs), *offs]
    return struct.pack(f"<{len(words)}i", *words)


# --------------------------------------------------------------------------
# Flatbuffer vector helpers
# --------------------------------------------------------------------------


def _table_vector(b: flatbuffers.Builder, offsets: Sequence[int]) -> int:
    b.StartVector(4, len(offsets), 4)
    for off in reversed(offsets):
        b.PrependUOffsetTRelative(off)
    return int(b.EndVector())


def _aligned_bytes_vector(b: flatbuffers.Builder, data: bytes, alignment: int = 16) -> int:
    """A ``[ubyte]`` vector whose first data byte is ``alignment``-aligned in
    the finished file (the schema's ``force_align: 16`` on ``Buffer.data``)."""
    b.StartVector(1, len(data), alignment)
    b.head = b.head - len(data)
    b.Bytes[b.head : b.head + len(data)] = data
    return int(b.EndVector())


# --------------------------------------------------------------------------
# In-memory model description
# --------------------------------------------------------------------------


@dataclass
class _Tensor:
    shape: list[int]
    type: int
    buffer: int
    name: str
    scale: list[float] | None
    zero_point: list[int] | None
    quantized_dimension: int
    is_variable: bool
    shape_signature: list[int] | None


@dataclass
class _Operator:
    opcode_index: int
    builtin_code: int
    inputs: list[int]
    outputs: list[int]
    intermediates: list[int]
    options: dict[str, Any] | None
    custom_options: bytes | None = None


@dataclass
class _SubGraph:
    name: str
    tensors: list[_Tensor] = field(default_factory=list)
    operators: list[_Operator] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)


class ModelBuilder:
    """Incrementally describe a TFLite model, then :meth:`build` its bytes.

    Subgraph 0 (the main graph) exists from the start.  Buffer 0 is the empty
    sentinel buffer every converter writes; tensors without data point at it.
    Tensor and operator indices are local to their subgraph.
    """

    def __init__(self, description: str = "tflm_arena builder") -> None:
        """Start an empty model with one subgraph and the sentinel buffer."""
        self.description = description
        self._buffers: list[bytes] = [b""]
        self._subgraphs: list[_SubGraph] = [_SubGraph(name="")]
        self._opcodes: list[tuple[int, str | None, int]] = []
        self._metadata: list[tuple[str, int]] = []
        self._signatures: list[tuple[str, dict[str, int], dict[str, int], int]] = []

    # -- buffers / metadata -------------------------------------------------

    def add_buffer(self, data: BufferData = None) -> int:
        """Append a buffer and return its index.

        ``data`` may be raw bytes or a numpy array (written little-endian, C
        order); ``None`` appends an empty buffer.
        """
        self._buffers.append(_payload(data))
        return len(self._buffers) - 1

    def add_metadata(self, name: str, data: bytes) -> int:
        """Add a ``Model.metadata`` entry ``name`` pointing at a new buffer
        holding ``data``; returns that buffer's index."""
        if not isinstance(name, str) or not name:
            raise ValueError("metadata name must be a non-empty string")
        index = self.add_buffer(data)
        self._metadata.append((name, index))
        return index

    def add_signature(
        self, key: str, inputs: Mapping[str, int], outputs: Mapping[str, int], subgraph: int = 0
    ) -> int:
        """Add a SignatureDef ``key`` naming tensors of ``subgraph``:
        ``inputs`` and ``outputs`` map names to tensor indices (checked when
        the model is built). Returns the signature's index.

        >>> mb = ModelBuilder()
        >>> x = mb.add_tensor([1, 4], "float32", "x")
        >>> y = mb.add_tensor([1, 4], "float32", "y")
        >>> mb.add_operator("RELU", [x], [y])
        0
        >>> mb.set_io([x], [y])
        >>> mb.add_signature("serving_default", {"x": x}, {"y": y})
        0
        """
        if not isinstance(key, str):
            raise ValueError(f"signature key must be a string, got {type(key).__name__}")
        if any(k == key for k, _, _, _ in self._signatures):
            raise ValueError(f"signature key {key!r} is already used")
        self._sg(subgraph)
        maps = []
        for what, names in (("inputs", inputs), ("outputs", outputs)):
            m = {}
            for name, tensor in dict(names).items():
                if not isinstance(name, str):
                    raise ValueError(f"signature {key!r} {what}: names must be strings")
                m[name] = _norm_int(tensor)
            maps.append(m)
        self._signatures.append((key, maps[0], maps[1], int(subgraph)))
        return len(self._signatures) - 1

    def _check_signatures(self) -> None:
        for key, inputs, outputs, subgraph in self._signatures:
            n = len(self._subgraphs[subgraph].tensors)
            for name, t in [*inputs.items(), *outputs.items()]:
                if not 0 <= t < n:
                    raise ValueError(
                        f"signature {key!r}: {name!r} refers to tensor {t}, but "
                        f"subgraph {subgraph} has {n} tensors"
                    )

    def _write_signatures(self, b: flatbuffers.Builder) -> int | None:
        """Writes ``Model.signature_defs``; None when there are none."""
        if not self._signatures:
            return None
        self._check_signatures()
        sig_offsets = []
        for key, inputs, outputs, subgraph in self._signatures:
            vecs = []
            for names in (inputs, outputs):
                map_offsets = []
                for name, tensor in names.items():
                    name_off = b.CreateString(name)
                    b.StartObject(2)
                    b.PrependUOffsetTRelativeSlot(0, name_off, 0)
                    b.PrependUint32Slot(1, tensor, 0)
                    map_offsets.append(b.EndObject())
                vecs.append(_table_vector(b, map_offsets))
            key_off = b.CreateString(key)
            b.StartObject(5)
            b.PrependUOffsetTRelativeSlot(0, vecs[0], 0)
            b.PrependUOffsetTRelativeSlot(1, vecs[1], 0)
            b.PrependUOffsetTRelativeSlot(2, key_off, 0)
            b.PrependUint32Slot(4, subgraph, 0)
            sig_offsets.append(b.EndObject())
        return _table_vector(b, sig_offsets)

    # -- subgraphs / tensors ---------------------------------------------------

    def add_subgraph(self, name: str = "") -> int:
        """Append an empty subgraph (for IF / WHILE / CALL_ONCE bodies) and
        return its index."""
        self._subgraphs.append(_SubGraph(name=name))
        return len(self._subgraphs) - 1

    @property
    def num_subgraphs(self) -> int:
        """Number of subgraphs so far (at least 1)."""
        return len(self._subgraphs)

    def tensor_count(self, subgraph: int | None = None) -> int:
        """Tensors in ``subgraph``, or over all subgraphs when ``None`` (the N
        an offline plan must carry)."""
        if subgraph is None:
            return sum(len(sg.tensors) for sg in self._subgraphs)
        return len(self._sg(subgraph).tensors)

    def add_tensor(
        self,
        shape: Sequence[int],
        dtype: DTypeLike,
        name: str = "",
        data: BufferData | Sequence[Any] = None,
        *,
        scale: float | Sequence[float] | None = None,
        zero_point: int | Sequence[int] | None = None,
        quantized_dimension: int = 0,
        is_variable: bool = False,
        shape_signature: Sequence[int] | None = None,
        subgraph: int = 0,
    ) -> int:
        """Add a tensor to ``subgraph`` and return its index there.

        Args:
            shape: dimensions (``[]`` for a scalar).
            dtype: numpy dtype / type, a TFLite type name ("int8", "FLOAT32")
                or a ``TensorType`` code.
            name: tensor name.
            data: constant contents.  Array-likes are cast to ``dtype``
                (integer values must fit the type; floats are cast as numpy
                ``astype`` does) and must have ``prod(shape)`` elements when
                the shape is fully known; raw bytes are stored as
                given (needed for types numpy lacks, e.g. INT4).  A new buffer
                is created; without data the tensor uses buffer 0.
            scale, zero_point: affine quantization (scalars or per-channel
                sequences; ``zero_point`` defaults to zeros).
            quantized_dimension: axis of per-channel quantization.
            is_variable: mark as a variable (state) tensor.
            shape_signature: optional shape with -1 for unknown dimensions.
            subgraph: owning subgraph index.
        """
        sg = self._sg(subgraph)
        dims = _as_int_list(shape, "shape")
        ttype = _tensor_type(dtype)

        buffer = 0
        if data is not None:
            if isinstance(data, (bytes, bytearray, memoryview)):
                payload = bytes(data)
            else:
                np_dtype = _NUMPY_OF_TYPE.get(ttype)
                if np_dtype is None:
                    raise TypeError(f"data for type {ttype} must be given as raw bytes")
                arr = np.asarray(data)
                if arr.dtype.kind in "iub" and np_dtype.kind in "iu" and arr.size:
                    info = np.iinfo(np_dtype)
                    lo, hi = int(arr.min()), int(arr.max())
                    if lo < info.min or hi > info.max:
                        raise ValueError(f"data values [{lo}, {hi}] do not fit {np_dtype.name}")
                if all(d >= 0 for d in dims) and arr.size != int(np.prod(dims, dtype=np.int64)):
                    raise ValueError(
                        f"data has {arr.size} elements but shape {dims} needs "
                        f"{int(np.prod(dims, dtype=np.int64))}"
                    )
                payload = _payload(arr, np_dtype)
            buffer = self.add_buffer(payload)

        scales: list[float] | None = None
        zps: list[int] | None = None
        if scale is not None:
            scales = [float(s) for s in np.atleast_1d(np.asarray(scale, dtype=np.float64))]
            if zero_point is None:
                zps = [0] * len(scales)
            else:
                zps = _as_int_list(np.atleast_1d(np.asarray(zero_point)), "zero_point")
                if len(zps) == 1 and len(scales) > 1:
                    zps = zps * len(scales)
                if len(zps) != len(scales):
                    raise ValueError("scale and zero_point lengths differ")
            if len(scales) > 1 and not 0 <= quantized_dimension < max(len(dims), 1):
                raise ValueError("quantized_dimension out of range for the shape")
        elif zero_point is not None:
            raise ValueError("zero_point given without scale")

        sg.tensors.append(
            _Tensor(
                shape=dims,
                type=ttype,
                buffer=buffer,
                name=str(name),
                scale=scales,
                zero_point=zps,
                quantized_dimension=int(quantized_dimension),
                is_variable=bool(is_variable),
                shape_signature=None
                if shape_signature is None
                else _as_int_list(shape_signature, "shape_signature"),
            )
        )
        return len(sg.tensors) - 1

    # -- operators --------------------------------------------------------------

    def add_operator(
        self,
        op: str | int,
        inputs: Sequence[int],
        outputs: Sequence[int],
        *,
        intermediates: Sequence[int] = (),
        options: Mapping[str, Any] | None = None,
        version: int = 1,
        custom_code: str | None = None,
        custom_options: Mapping[str, Any] | bytes | None = None,
        subgraph: int = 0,
    ) -> int:
        """Append an operator to ``subgraph`` (execution order) and return its
        index there.

        Args:
            op: builtin operator name ("ADD", "FULLY_CONNECTED", ...) or its
                ``BuiltinOperator`` code; "CUSTOM" (or any op with
                ``custom_code``) makes a custom operator.
            inputs: tensor indices; -1 marks an omitted optional input.
            outputs: tensor indices.
            intermediates: tensor indices of op-internal tensors.
            options: builtin options (see module docs for supported ops):
                ADD ``fused_activation_function``, ``pot_scale_int16``;
                FULLY_CONNECTED ``fused_activation_function``,
                ``weights_format``, ``keep_num_dims``,
                ``asymmetric_quantize_inputs``, ``quantized_bias_type``;
                RESHAPE ``new_shape``; SOFTMAX ``beta`` (default 1.0);
                IF ``then_subgraph_index``, ``else_subgraph_index``;
                WHILE ``cond_subgraph_index``, ``body_subgraph_index``;
                CALL_ONCE ``init_subgraph_index``.  These ops always get an
                options table (as converters write); other ops get none.
            version: operator version recorded in the OperatorCode.
            custom_code: custom operator name.
            custom_options: a custom operator's options: a mapping, written
                as a flexbuffer map (what TFLM's custom kernels such as its
                Signal operators read; ints, floats, bools, strings), or raw
                bytes written as given. Only with ``custom_code``.
            subgraph: owning subgraph index.

        >>> mb = ModelBuilder()
        >>> x = mb.add_tensor([1, 480], "int16")
        >>> w = mb.add_tensor([480], "int16", data=[1] * 480)
        >>> y = mb.add_tensor([1, 480], "int16")
        >>> mb.add_operator("CUSTOM", [x, w], [y], custom_code="SignalWindow",
        ...                 custom_options={"shift": 12})
        0
        """
        sg = self._sg(subgraph)
        if isinstance(op, str):
            key = op.strip().upper()
            if key not in BUILTIN_OPERATORS:
                raise ValueError(f"unknown builtin operator {op!r}")
            code = BUILTIN_OPERATORS[key]
        else:
            code = _norm_int(op)
            if code < 0:
                raise ValueError(f"invalid builtin operator code {code}")
        if custom_code is not None:
            if code != _CUSTOM:
                raise ValueError("custom_code is only valid with op='CUSTOM'")
        elif code == _CUSTOM:
            raise ValueError("a CUSTOM operator needs custom_code")
        custom_bytes: bytes | None = None
        if custom_options is not None:
            if custom_code is None:
                raise ValueError("custom_options are only valid with custom_code")
            if isinstance(custom_options, (bytes, bytearray, memoryview)):
                custom_bytes = bytes(custom_options)
            elif isinstance(custom_options, Mapping):
                from flatbuffers import flexbuffers

                if not all(isinstance(k, str) for k in custom_options):
                    raise ValueError("custom_options keys must be strings")
                custom_bytes = bytes(flexbuffers.Dumps(dict(custom_options)))
            else:
                raise TypeError("custom_options must be a mapping or bytes")
        version = _norm_int(version)
        if version < 1:
            raise ValueError("operator version must be >= 1")

        opts = _normalize_options(code, options)
        key3 = (code, custom_code, version)
        if key3 in self._opcodes:
            opcode_index = self._opcodes.index(key3)
        else:
            self._opcodes.append(key3)
            opcode_index = len(self._opcodes) - 1

        sg.operators.append(
            _Operator(
                opcode_index=opcode_index,
                builtin_code=code,
                inputs=_as_int_list(inputs, "inputs"),
                outputs=_as_int_list(outputs, "outputs"),
                intermediates=_as_int_list(intermediates, "intermediates"),
                options=opts,
                custom_options=custom_bytes,
            )
        )
        return len(sg.operators) - 1

    def set_io(self, inputs: Sequence[int], outputs: Sequence[int], subgraph: int = 0) -> None:
        """Set the input and output tensor indices of ``subgraph``."""
        sg = self._sg(subgraph)
        sg.inputs = _as_int_list(inputs, "inputs")
        sg.outputs = _as_int_list(outputs, "outputs")

    # -- build --------------------------------------------------------------------

    def build(self) -> bytes:
        """Validate the description and return the ``.tflite`` bytes."""
        self._validate()
        b = flatbuffers.Builder(1024)

        # Buffers first: their data then sits at the end of the file.
        buffer_offsets = []
        for data in self._buffers:
            data_vec = _aligned_bytes_vector(b, data) if data else None
            b.StartObject(3)
            if data_vec is not None:
                b.PrependUOffsetTRelativeSlot(0, data_vec, 0)
            buffer_offsets.append(b.EndObject())
        buffers_vec = _table_vector(b, buffer_offsets)

        subgraph_offsets = [self._write_subgraph(b, sg) for sg in self._subgraphs]
        subgraphs_vec = _table_vector(b, subgraph_offsets)

        opcode_offsets = []
        for code, custom, version in self._opcodes:
            custom_off = b.CreateString(custom) if custom is not None else None
            b.StartObject(4)
            b.PrependInt8Slot(0, min(code, _PLACEHOLDER_FOR_GREATER_OP_CODES), 0)
            if custom_off is not None:
                b.PrependUOffsetTRelativeSlot(1, custom_off, 0)
            b.PrependInt32Slot(2, version, 1)
            b.PrependInt32Slot(3, code, 0)
            opcode_offsets.append(b.EndObject())
        opcodes_vec = _table_vector(b, opcode_offsets)

        metadata_vec = None
        if self._metadata:
            md_offsets = []
            for name, buf in self._metadata:
                name_off = b.CreateString(name)
                b.StartObject(2)
                b.PrependUOffsetTRelativeSlot(0, name_off, 0)
                b.PrependUint32Slot(1, buf, 0)
                md_offsets.append(b.EndObject())
            metadata_vec = _table_vector(b, md_offsets)

        signatures_vec = self._write_signatures(b)
        desc_off = b.CreateString(self.description) if self.description is not None else None

        b.StartObject(8)
        b.PrependUint32Slot(0, SCHEMA_VERSION, 0)
        b.PrependUOffsetTRelativeSlot(1, opcodes_vec, 0)
        b.PrependUOffsetTRelativeSlot(2, subgraphs_vec, 0)
        if desc_off is not None:
            b.PrependUOffsetTRelativeSlot(3, desc_off, 0)
        b.PrependUOffsetTRelativeSlot(4, buffers_vec, 0)
        if metadata_vec is not None:
            b.PrependUOffsetTRelativeSlot(6, metadata_vec, 0)
        if signatures_vec is not None:
            b.PrependUOffsetTRelativeSlot(7, signatures_vec, 0)
        model = b.EndObject()
        b.Finish(model, file_identifier=FILE_IDENTIFIER)
        return bytes(b.Output())

    # -- internals ------------------------------------------------------------------

    def _sg(self, index: int) -> _SubGraph:
        if not isinstance(index, (int, np.integer)) or not 0 <= index < len(self._subgraphs):
            raise IndexError(f"no subgraph {index!r} (have {len(self._subgraphs)})")
        return self._subgraphs[int(index)]

    def _validate(self) -> None:
        nsg = len(self._subgraphs)
        for si, sg in enumerate(self._subgraphs):
            n = len(sg.tensors)

            def check(
                indices: Sequence[int],
                what: str,
                allow_absent: bool = False,
                si: int = si,
                n: int = n,
            ) -> None:
                for t in indices:
                    if allow_absent and t == -1:
                        continue
                    if not 0 <= t < n:
                        raise ValueError(
                            f"subgraph {si}: {what} refers to tensor {t}, "
                            f"but the subgraph has {n} tensors"
                        )

            check(sg.inputs, "inputs")
            check(sg.outputs, "outputs")
            for oi, op in enumerate(sg.operators):
                check(op.inputs, f"operator {oi} inputs", allow_absent=True)
                check(op.outputs, f"operator {oi} outputs", allow_absent=True)
                check(op.intermediates, f"operator {oi} intermediates")
                for key in _SUBGRAPH_KEYS:
                    if op.options and key in op.options and not 0 <= op.options[key] < nsg:
                        raise ValueError(
                            f"subgraph {si} operator {oi}: {key}={op.options[key]} "
                            f"but the model has {nsg} subgraphs"
                        )
            for t in sg.tensors:
                if not 0 <= t.buffer < len(self._buffers):
                    raise ValueError(f"tensor {t.name!r} refers to missing buffer {t.buffer}")

    def _write_tensor(self, b: flatbuffers.Builder, t: _Tensor) -> int:
        shape_vec = _int32_vector(b, t.shape)
        sig_vec = _int32_vector(b, t.shape_signature) if t.shape_signature is not None else None
        name_off = b.CreateString(t.name)
        quant_off = None
        if t.scale is not None:
            scale_vec = b.CreateNumpyVector(np.asarray(t.scale, dtype="<f4"))
            zp_vec = b.CreateNumpyVector(np.asarray(t.zero_point, dtype="<i8"))
            b.StartObject(7)
            b.PrependUOffsetTRelativeSlot(2, scale_vec, 0)
            b.PrependUOffsetTRelativeSlot(3, zp_vec, 0)
            b.PrependInt32Slot(6, t.quantized_dimension, 0)
            quant_off = b.EndObject()
        b.StartObject(9)
        b.PrependUOffsetTRelativeSlot(0, shape_vec, 0)
        b.PrependInt8Slot(1, t.type, 0)
        b.PrependUint32Slot(2, t.buffer, 0)
        b.PrependUOffsetTRelativeSlot(3, name_off, 0)
        if quant_off is not None:
            b.PrependUOffsetTRelativeSlot(4, quant_off, 0)
        b.PrependBoolSlot(5, t.is_variable, False)
        if sig_vec is not None:
            b.PrependUOffsetTRelativeSlot(7, sig_vec, 0)
        b.PrependBoolSlot(8, True, False)  # has_rank: shapes here are always ranked
        return int(b.EndObject())

    def _write_operator(self, b: flatbuffers.Builder, op: _Operator) -> int:
        inputs_vec = _int32_vector(b, op.inputs)
        outputs_vec = _int32_vector(b, op.outputs)
        inter_vec = _int32_vector(b, op.intermediates) if op.intermediates else None
        custom_vec = (
            b.CreateByteVector(op.custom_options) if op.custom_options is not None else None
        )
        opt_type, opt_off = 0, None
        if op.options is not None:
            opt_type, opt_off = _write_options(b, op.builtin_code, op.options)
        b.StartObject(9)
        b.PrependUint32Slot(0, op.opcode_index, 0)
        b.PrependUOffsetTRelativeSlot(1, inputs_vec, 0)
        b.PrependUOffsetTRelativeSlot(2, outputs_vec, 0)
        if opt_off is not None:
            b.PrependUint8Slot(3, opt_type, 0)
            b.PrependUOffsetTRelativeSlot(4, opt_off, 0)
        if custom_vec is not None:
            b.PrependUOffsetTRelativeSlot(5, custom_vec, 0)  # custom_options_format 0: FLEXBUFFERS
        if inter_vec is not None:
            b.PrependUOffsetTRelativeSlot(8, inter_vec, 0)
        return int(b.EndObject())

    def _write_subgraph(self, b: flatbuffers.Builder, sg: _SubGraph) -> int:
        tensors_vec = _table_vector(b, [self._write_tensor(b, t) for t in sg.tensors])
        inputs_vec = _int32_vector(b, sg.inputs)
        outputs_vec = _int32_vector(b, sg.outputs)
        ops_vec = _table_vector(b, [self._write_operator(b, op) for op in sg.operators])
        name_off = b.CreateString(sg.name) if sg.name else None
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(0, tensors_vec, 0)
        b.PrependUOffsetTRelativeSlot(1, inputs_vec, 0)
        b.PrependUOffsetTRelativeSlot(2, outputs_vec, 0)
        b.PrependUOffsetTRelativeSlot(3, ops_vec, 0)
        if name_off is not None:
            b.PrependUOffsetTRelativeSlot(4, name_off, 0)
        return int(b.EndObject())
