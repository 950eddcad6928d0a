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


# How each option field is normalised and stored; a field name means the same
# in every options table that has it (TFLite's schema.fbs). Not listed: an
# integer (_norm_int, "i32").
_FIELD_KINDS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "padding": (_norm_padding, "i8"),
    "fused_activation_function": (_norm_activation, "i8"),
    "weights_format": (lambda v: _enum_value(v, _FC_WEIGHTS_FORMATS, "weights_format"), "i8"),
    "quantized_bias_type": (_tensor_type, "i8"),
    "in_data_type": (_tensor_type, "i8"),
    "out_data_type": (_tensor_type, "i8"),
    "pot_scale_int16": (_norm_bool, "bool_true"),  # absent = true
    **dict.fromkeys(
        [
            "keep_num_dims",
            "asymmetric_quantize_inputs",
            "time_major",
            "diagonal_recurrent_tensors",
            "adj_x",
            "adj_y",
            "keep_dims",
            "offset",
            "exclusive",
            "reverse",
        ],
        (_norm_bool, "bool"),
    ),
    **dict.fromkeys(["cell_clip", "proj_clip", "alpha", "beta"], (float, "f32")),
    "squeeze_dims": (_norm_int_list, "ivec"),
    "new_shape": (_norm_int_list, "ivec"),
    **dict.fromkeys(["container", "shared_name"], (str, "str")),
}

_STRIDES = {"stride_w": 1, "stride_h": 1}
_POOL = "padding stride_w stride_h filter_width filter_height fused_activation_function"
_ACTIVATION_POT = "fused_activation_function pot_scale_int16"

# Operator: (options table, its fields in slot order, defaults, required
# fields). Dilation factors absent = 1.
_TABLES: dict[str, tuple[str, str, dict[str, Any], tuple[str, ...]]] = {
    "CONV_2D": (
        "Conv2DOptions",
        "padding stride_w stride_h fused_activation_function dilation_w_factor "
        "dilation_h_factor quantized_bias_type",
        _STRIDES,
        (),
    ),
    "DEPTHWISE_CONV_2D": (
        "DepthwiseConv2DOptions",
        "padding stride_w stride_h depth_multiplier fused_activation_function "
        "dilation_w_factor dilation_h_factor",
        {**_STRIDES, "depth_multiplier": 1},
        (),
    ),
    "AVERAGE_POOL_2D": ("Pool2DOptions", _POOL, _STRIDES, ("filter_width", "filter_height")),
    "MAX_POOL_2D": ("Pool2DOptions", _POOL, _STRIDES, ("filter_width", "filter_height")),
    "ADD": ("AddOptions", _ACTIVATION_POT, {}, ()),
    "FULLY_CONNECTED": (
        "FullyConnectedOptions",
        "fused_activation_function weights_format keep_num_dims asymmetric_quantize_inputs "
        "quantized_bias_type",
        {},
        (),
    ),
    "SVDF": ("SVDFOptions", "rank fused_activation_function asymmetric_quantize_inputs", {}, ()),
    "TRANSPOSE_CONV": (
        "TransposeConvOptions",
        "padding stride_w stride_h fused_activation_function quantized_bias_type",
        _STRIDES,
        (),
    ),
    "UNIDIRECTIONAL_SEQUENCE_LSTM": (
        "UnidirectionalSequenceLSTMOptions",
        "fused_activation_function cell_clip proj_clip time_major asymmetric_quantize_inputs "
        "diagonal_recurrent_tensors",
        {},
        (),
    ),
    "BATCH_MATMUL": ("BatchMatMulOptions", "adj_x adj_y asymmetric_quantize_inputs", {}, ()),
    "CONCATENATION": ("ConcatenationOptions", "axis fused_activation_function", {}, ()),
    "GATHER": ("GatherOptions", "axis batch_dims", {}, ()),
    "MEAN": ("ReducerOptions", "keep_dims", {}, ()),
    "REDUCE_ALL": ("ReducerOptions", "keep_dims", {}, ()),
    "L2_POOL_2D": ("Pool2DOptions", _POOL, _STRIDES, ("filter_width", "filter_height")),
    "CUMSUM": ("CumsumOptions", "exclusive reverse", {}, ()),
    "DEPTH_TO_SPACE": ("DepthToSpaceOptions", "block_size", {}, ("block_size",)),
    "SPACE_TO_DEPTH": ("SpaceToDepthOptions", "block_size", {}, ("block_size",)),
    "PACK": ("PackOptions", "values_count axis", {}, ()),
    "SPLIT": ("SplitOptions", "num_splits", {}, ()),
    "SQUEEZE": ("SqueezeOptions", "squeeze_dims", {}, ()),
    "STRIDED_SLICE": (
        "StridedSliceOptions",
        "begin_mask end_mask ellipsis_mask new_axis_mask shrink_axis_mask offset",
        {},
        (),
    ),
    "UNPACK": ("UnpackOptions", "num axis", {}, ()),
    "RESHAPE": ("ReshapeOptions", "new_shape", {}, ()),
    "MUL": ("MulOptions", "fused_activation_function", {}, ()),
    "SUB": ("SubOptions", _ACTIVATION_POT, {}, ()),
    "DIV": ("DivOptions", "fused_activation_function", {}, ()),
    "CAST": ("CastOptions", "in_data_type out_data_type", {}, ()),
    "LEAKY_RELU": ("LeakyReluOptions", "alpha", {}, ()),
    "SOFTMAX": ("SoftmaxOptions", "beta", {"beta": 1.0}, ()),
    "IF": (
        "IfOptions",
        "then_subgraph_index else_subgraph_index",
        {},
        ("then_subgraph_index", "else_subgraph_index"),
    ),
    "WHILE": (
        "WhileOptions",
        "cond_subgraph_index body_subgraph_index",
        {},
        ("cond_subgraph_index", "body_subgraph_index"),
    ),
    "CALL_ONCE": ("CallOnceOptions", "init_subgraph_index", {}, ("init_subgraph_index",)),
    "VAR_HANDLE": ("VarHandleOptions", "container shared_name", {}, ("shared_name",)),
    "SPLIT_V": ("SplitVOptions", "num_splits", {}, ()),
}


def _spec(
    table: str, fields: str, defaults: dict[str, Any], required: tuple[str, ...]
) -> _OptionsSpec:
    """The spec of one row of _TABLES: field i of ``fields`` is slot i."""
    return _OptionsSpec(
        table,
        {
            name: (slot, *_FIELD_KINDS.get(name, (_norm_int, "i32")))
            for slot, name in enumerate(fields.split())
        },
        defaults=dict(defaults),
        required=required,
    )


_OPTIONS: dict[int, _OptionsSpec] = {
    BUILTIN_OPERATORS[op]: _spec(*row) for op, row in _TABLES.items()
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
    strings = {
        key: b.CreateString(value) for key, value in opts.items() if spec.fields[key][2] == "str"
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
        elif kind == "str":
            b.PrependUOffsetTRelativeSlot(slot, strings[key], 0)
        else:  # pragma: no cover - table above is static
            raise AssertionError(kind)
    return BUILTIN_OPTIONS_TYPES[spec.table], b.EndObject()
