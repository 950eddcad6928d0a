"""Builtin option tables for the model builder: which keys each operator
takes, their normalisation, and how they are written into the flatbuffer."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flatbuffers
import numpy as np

from .schema_enums import (
    _FC_WEIGHTS_FORMATS,
    _NUMPY_OF_TYPE,
    _OPERATOR_NAMES,
    ACTIVATION_FUNCTIONS,
    BUILTIN_OPERATORS,
    BUILTIN_OPTIONS_TYPES,
    TENSOR_TYPES,
)

DTypeLike = str | int | np.dtype | type

_TYPE_OF_NUMPY: dict[np.dtype, int] = {
    dt.newbyteorder("="): code for code, dt in _NUMPY_OF_TYPE.items()
}


# --------------------------------------------------------------------------
# Builtin options: validation (at add time) and encoding (at build time)
# --------------------------------------------------------------------------


def _int32_vector(b: flatbuffers.Builder, values: Sequence[int]) -> int:
    return int(b.CreateNumpyVector(np.asarray(list(values), dtype="<i4").reshape(-1)))


def _tensor_type(dtype: DTypeLike) -> int:
    """Map a numpy dtype, a TFLite type name ("int8", "FLOAT32") or a
    ``TensorType`` code to the ``TensorType`` code."""
    if isinstance(dtype, (bool, np.bool_)):
        raise TypeError(f"not a tensor type: {dtype!r}")
    if isinstance(dtype, (int, np.integer)):
        code = int(dtype)
        if code not in TENSOR_TYPES.values():
            raise ValueError(f"unknown TensorType code {code}")
        return code
    if isinstance(dtype, str):
        key = dtype.strip().upper()
        if key in TENSOR_TYPES:
            return TENSOR_TYPES[key]
    try:
        npdt = np.dtype(dtype)
    except TypeError as exc:
        raise ValueError(f"unknown tensor type {dtype!r}") from exc
    found = _TYPE_OF_NUMPY.get(npdt.newbyteorder("="))
    if found is None:
        raise ValueError(f"numpy dtype {npdt} has no TFLite TensorType")
    return found


def _as_int_list(values: Iterable[Any], what: str) -> list[int]:
    out: list[int] = []
    for v in np.asarray(list(values) if not isinstance(values, np.ndarray) else values).reshape(-1):
        if isinstance(v, (bool, np.bool_)) or not float(v).is_integer():
            raise TypeError(f"{what}: expected integers, got {v!r}")
        out.append(int(v))
    return out


def _enum_value(value: Any, table: Mapping[str, int], what: str) -> int:
    if isinstance(value, str):
        try:
            return table[value.upper() if value.upper() in table else value]
        except KeyError:
            raise ValueError(f"{what}: unknown value {value!r}; known: {sorted(table)}") from None
    code = int(value)
    if code not in table.values():
        raise ValueError(f"{what}: unknown value {code}")
    return code


def _norm_activation(v: Any) -> int:
    return _enum_value(v, ACTIVATION_FUNCTIONS, "fused_activation_function")


def _norm_bool(v: Any) -> bool:
    return bool(v)


def _norm_int(v: Any) -> int:
    if isinstance(v, (bool, np.bool_)) or not float(v).is_integer():
        raise TypeError(f"expected an integer, got {v!r}")
    return int(v)


def _norm_int_list(v: Any) -> list[int]:
    return _as_int_list(v, "new_shape")


@dataclass(frozen=True)
class _OptionsSpec:
    """How one op's options table is validated and written."""

    table: str  # BuiltinOptions union member name
    # option name -> (field slot, normalizer, kind); kind in {"i8","u8","bool","i32","f32","ivec"}
    fields: dict[str, tuple[int, Callable[[Any], Any], str]]
    defaults: dict[str, Any] = field(default_factory=dict)
    required: tuple[str, ...] = ()


_PADDINGS: dict[str, int] = {"SAME": 0, "VALID": 1}


def _norm_padding(v: Any) -> int:
    return _enum_value(v, _PADDINGS, "padding")


def _pool_spec() -> _OptionsSpec:
    return _OptionsSpec(
        "Pool2DOptions",
        {
            "padding": (0, _norm_padding, "i8"),
            "stride_w": (1, _norm_int, "i32"),
            "stride_h": (2, _norm_int, "i32"),
            "filter_width": (3, _norm_int, "i32"),
            "filter_height": (4, _norm_int, "i32"),
            "fused_activation_function": (5, _norm_activation, "i8"),
        },
        defaults={"stride_w": 1, "stride_h": 1},
        required=("filter_width", "filter_height"),
    )


_OPTIONS: dict[int, _OptionsSpec] = {
    BUILTIN_OPERATORS["CONV_2D"]: _OptionsSpec(
        "Conv2DOptions",
        {
            "padding": (0, _norm_padding, "i8"),
            "stride_w": (1, _norm_int, "i32"),
            "stride_h": (2, _norm_int, "i32"),
            "fused_activation_function": (3, _norm_activation, "i8"),
            "dilation_w_factor": (4, _norm_int, "i32"),  # absent = 1
            "dilation_h_factor": (5, _norm_int, "i32"),
            "quantized_bias_type": (6, _tensor_type, "i8"),
        },
        defaults={"stride_w": 1, "stride_h": 1},
    ),
    BUILTIN_OPERATORS["DEPTHWISE_CONV_2D"]: _OptionsSpec(
        "DepthwiseConv2DOptions",
        {
            "padding": (0, _norm_padding, "i8"),
            "stride_w": (1, _norm_int, "i32"),
            "stride_h": (2, _norm_int, "i32"),
            "depth_multiplier": (3, _norm_int, "i32"),
            "fused_activation_function": (4, _norm_activation, "i8"),
            "dilation_w_factor": (5, _norm_int, "i32"),
            "dilation_h_factor": (6, _norm_int, "i32"),
        },
        defaults={"stride_w": 1, "stride_h": 1, "depth_multiplier": 1},
    ),
    BUILTIN_OPERATORS["AVERAGE_POOL_2D"]: _pool_spec(),
    BUILTIN_OPERATORS["MAX_POOL_2D"]: _pool_spec(),
    BUILTIN_OPERATORS["ADD"]: _OptionsSpec(
        "AddOptions",
        {
            "fused_activation_function": (0, _norm_activation, "i8"),
            "pot_scale_int16": (1, _norm_bool, "bool_true"),
        },
    ),
    BUILTIN_OPERATORS["FULLY_CONNECTED"]: _OptionsSpec(
        "FullyConnectedOptions",
        {
            "fused_activation_function": (0, _norm_activation, "i8"),
            "weights_format": (
                1,
                lambda v: _enum_value(v, _FC_WEIGHTS_FORMATS, "weights_format"),
                "i8",
            ),
            "keep_num_dims": (2, _norm_bool, "bool"),
            "asymmetric_quantize_inputs": (3, _norm_bool, "bool"),
            "quantized_bias_type": (4, _tensor_type, "i8"),
        },
    ),
    BUILTIN_OPERATORS["SVDF"]: _OptionsSpec(
        "SVDFOptions",
        {
            "rank": (0, _norm_int, "i32"),
            "fused_activation_function": (1, _norm_activation, "i8"),
            "asymmetric_quantize_inputs": (2, _norm_bool, "bool"),
        },
    ),
    BUILTIN_OPERATORS["TRANSPOSE_CONV"]: _OptionsSpec(
        "TransposeConvOptions",
        {
            "padding": (0, _norm_padding, "i8"),
            "stride_w": (1, _norm_int, "i32"),
            "stride_h": (2, _norm_int, "i32"),
            "fused_activation_function": (3, _norm_activation, "i8"),
            "quantized_bias_type": (4, _tensor_type, "i8"),
        },
        defaults={"stride_w": 1, "stride_h": 1},
    ),
    BUILTIN_OPERATORS["UNIDIRECTIONAL_SEQUENCE_LSTM"]: _OptionsSpec(
        "UnidirectionalSequenceLSTMOptions",
        {
            "fused_activation_function": (0, _norm_activation, "i8"),
            "cell_clip": (1, float, "f32"),
            "proj_clip": (2, float, "f32"),
            "time_major": (3, _norm_bool, "bool"),
            "asymmetric_quantize_inputs": (4, _norm_bool, "bool"),
            "diagonal_recurrent_tensors": (5, _norm_bool, "bool"),
        },
    ),
    BUILTIN_OPERATORS["BATCH_MATMUL"]: _OptionsSpec(
        "BatchMatMulOptions",
        {
            "adj_x": (0, _norm_bool, "bool"),
            "adj_y": (1, _norm_bool, "bool"),
            "asymmetric_quantize_inputs": (2, _norm_bool, "bool"),
        },
    ),
    BUILTIN_OPERATORS["CONCATENATION"]: _OptionsSpec(
        "ConcatenationOptions",
        {
            "axis": (0, _norm_int, "i32"),
            "fused_activation_function": (1, _norm_activation, "i8"),
        },
    ),
    BUILTIN_OPERATORS["GATHER"]: _OptionsSpec(
        "GatherOptions",
        {"axis": (0, _norm_int, "i32"), "batch_dims": (1, _norm_int, "i32")},
    ),
    BUILTIN_OPERATORS["MEAN"]: _OptionsSpec(
        "ReducerOptions", {"keep_dims": (0, _norm_bool, "bool")}
    ),
    BUILTIN_OPERATORS["PACK"]: _OptionsSpec(
        "PackOptions",
        {"values_count": (0, _norm_int, "i32"), "axis": (1, _norm_int, "i32")},
    ),
    BUILTIN_OPERATORS["SPLIT"]: _OptionsSpec("SplitOptions", {"num_splits": (0, _norm_int, "i32")}),
    BUILTIN_OPERATORS["SQUEEZE"]: _OptionsSpec(
        "SqueezeOptions", {"squeeze_dims": (0, _norm_int_list, "ivec")}
    ),
    BUILTIN_OPERATORS["STRIDED_SLICE"]: _OptionsSpec(
        "StridedSliceOptions",
        {
            "begin_mask": (0, _norm_int, "i32"),
            "end_mask": (1, _norm_int, "i32"),
            "ellipsis_mask": (2, _norm_int, "i32"),
            "new_axis_mask": (3, _norm_int, "i32"),
            "shrink_axis_mask": (4, _norm_int, "i32"),
            "offset": (5, _norm_bool, "bool"),
        },
    ),
    BUILTIN_OPERATORS["UNPACK"]: _OptionsSpec(
        "UnpackOptions",
        {"num": (0, _norm_int, "i32"), "axis": (1, _norm_int, "i32")},
    ),
    BUILTIN_OPERATORS["RESHAPE"]: _OptionsSpec(
        "ReshapeOptions", {"new_shape": (0, _norm_int_list, "ivec")}
    ),
    BUILTIN_OPERATORS["MUL"]: _OptionsSpec(
        "MulOptions", {"fused_activation_function": (0, _norm_activation, "i8")}
    ),
    BUILTIN_OPERATORS["SUB"]: _OptionsSpec(
        "SubOptions",
        {
            "fused_activation_function": (0, _norm_activation, "i8"),
            "pot_scale_int16": (1, _norm_bool, "bool_true"),
        },
    ),
    BUILTIN_OPERATORS["DIV"]: _OptionsSpec(
        "DivOptions", {"fused_activation_function": (0, _norm_activation, "i8")}
    ),
    BUILTIN_OPERATORS["CAST"]: _OptionsSpec(
        "CastOptions",
        {"in_data_type": (0, _tensor_type, "i8"), "out_data_type": (1, _tensor_type, "i8")},
    ),
    BUILTIN_OPERATORS["LEAKY_RELU"]: _OptionsSpec("LeakyReluOptions", {"alpha": (0, float, "f32")}),
    BUILTIN_OPERATORS["SOFTMAX"]: _OptionsSpec(
        "SoftmaxOptions", {"beta": (0, float, "f32")}, defaults={"beta": 1.0}
    ),
    BUILTIN_OPERATORS["IF"]: _OptionsSpec(
        "IfOptions",
        {
            "then_subgraph_index": (0, _norm_int, "i32"),
            "else_subgraph_index": (1, _norm_int, "i32"),
        },
        required=("then_subgraph_index", "else_subgraph_index"),
    ),
    BUILTIN_OPERATORS["WHILE"]: _OptionsSpec(
        "WhileOptions",
        {
            "cond_subgraph_index": (0, _norm_int, "i32"),
            "body_subgraph_index": (1, _norm_int, "i32"),
        },
        required=("cond_subgraph_index", "body_subgraph_index"),
    ),
    BUILTIN_OPERATORS["CALL_ONCE"]: _OptionsSpec(
        "CallOnceOptions",
        {"init_subgraph_index": (0, _norm_int, "i32")},
        required=("init_subgraph_index",),
    ),
}

# Option keys that name a subgraph (checked against the subgraph count at build).
_SUBGRAPH_KEYS = (
    "then_subgraph_index",
    "else_subgraph_index",
    "cond_subgraph_index",
    "body_subgraph_index",
    "init_subgraph_index",
)


def _normalize_options(code: int, options: Mapping[str, Any] | None) -> dict[str, Any] | None:
    spec = _OPTIONS.get(code)
    if spec is None:
        if options:
            name = _OPERATOR_NAMES.get(code, str(code))
            raise ValueError(
                f"builtin options for {name} are not supported by this builder "
                f"(supported: {sorted(_OPERATOR_NAMES[c] for c in _OPTIONS)})"
            )
        return None
    given = dict(options or {})
    unknown = set(given) - set(spec.fields)
    if unknown:
        raise ValueError(
            f"unknown {spec.table} field(s) {sorted(unknown)}; known: {sorted(spec.fields)}"
        )
    missing = [k for k in spec.required if k not in given]
    if missing:
        raise ValueError(f"{spec.table} needs {missing}")
    out = dict(spec.defaults)
    for key, value in given.items():
        out[key] = spec.fields[key][1](value)
    return out


def _write_options(b: flatbuffers.Builder, code: int, opts: dict[str, Any]) -> tuple[int, int]:
    """Write one options table; returns (union type, table offset)."""
    spec = _OPTIONS[code]
    vectors = {
        key: _int32_vector(b, value) for key, value in opts.items() if spec.fields[key][2] == "ivec"
    }
    b.StartObject(max(slot for slot, _, _ in spec.fields.values()) + 1)
    for key, value in opts.items():
        slot, _, kind = spec.fields[key]
        if kind == "i8":
            b.PrependInt8Slot(slot, value, 0)
        elif kind == "bool":
            b.PrependBoolSlot(slot, value, False)
        elif kind == "bool_true":
            b.PrependBoolSlot(slot, value, True)
        elif kind == "i32":
            b.PrependInt32Slot(slot, value, 0)
        elif kind == "f32":
            b.PrependFloat32Slot(slot, value, 0.0)
        elif kind == "ivec":
            b.PrependUOffsetTRelativeSlot(slot, vectors[key], 0)
        else:  # pragma: no cover - table above is static
            raise AssertionError(kind)
    return BUILTIN_OPTIONS_TYPES[spec.table], b.EndObject()
