"""Enum tables of the TFLite flatbuffer schema (facts, used by the builder
and by inspection code), read from the compiled core: the C++ tables
(``model/schema_enums.h``: the schema subset through flatc, and the
BuiltinOperator and BuiltinOptions lists) are the one source, so Python
holds no copy of a name or a value.

Example
-------
>>> from tflm_arena.schema_enums import BUILTIN_OPERATORS, TENSOR_TYPES
>>> BUILTIN_OPERATORS["CONV_2D"], TENSOR_TYPES["INT8"]
(3, 9)
"""

from __future__ import annotations

import numpy as np

from . import _core

_ENUMS: dict[str, dict[str, int]] = _core.schema_enums()

#: ``TensorType`` enum (byte), e.g. ``TENSOR_TYPES["INT8"] == 9``.
TENSOR_TYPES: dict[str, int] = _ENUMS["TensorType"]

#: ``ActivationFunctionType`` enum (byte), e.g. ``ACTIVATION_FUNCTIONS["RELU6"] == 3``.
ACTIVATION_FUNCTIONS: dict[str, int] = _ENUMS["ActivationFunctionType"]

#: ``Padding`` enum (byte): ``{"SAME": 0, "VALID": 1}``.
PADDINGS: dict[str, int] = _ENUMS["Padding"]

#: ``FullyConnectedOptionsWeightsFormat`` enum (byte).
_FC_WEIGHTS_FORMATS: dict[str, int] = _ENUMS["FullyConnectedOptionsWeightsFormat"]

#: ``BuiltinOperator`` enum (int32), every code of the format up to
#: STABLEHLO_CASE, e.g. ``BUILTIN_OPERATORS["CONV_2D"] == 3``.
BUILTIN_OPERATORS: dict[str, int] = _ENUMS["BuiltinOperator"]
_OPERATOR_NAMES: dict[int, str] = {v: k for k, v in BUILTIN_OPERATORS.items()}

#: Largest value the legacy byte field ``deprecated_builtin_code`` holds.
_PLACEHOLDER_FOR_GREATER_OP_CODES = BUILTIN_OPERATORS["PLACEHOLDER_FOR_GREATER_OP_CODES"]
_CUSTOM = BUILTIN_OPERATORS["CUSTOM"]

#: ``BuiltinOptions`` union type numbers (every member of the format's
#: union; ``"NONE"`` is 0), e.g. ``BUILTIN_OPTIONS_TYPES["Conv2DOptions"] == 1``.
BUILTIN_OPTIONS_TYPES: dict[str, int] = _ENUMS["BuiltinOptions"]

#: TensorType code -> numpy dtype (little-endian, as the format stores
#: data) for the types numpy represents directly: the type's schema name,
#: lower-cased, is numpy's own name for it (``INT8`` -> ``int8``). STRING has
#: no fixed-size dtype and is left out.
_NUMPY_OF_TYPE: dict[int, np.dtype] = {}
for _name, _code in TENSOR_TYPES.items():
    if _name == "STRING":
        continue
    try:
        _dtype = np.dtype(_name.lower())
    except TypeError:  # INT4, BFLOAT16, RESOURCE, ...: numpy has no such type
        continue
    if _dtype.isbuiltin == 1:  # not a type another package registered
        _NUMPY_OF_TYPE[_code] = _dtype.newbyteorder("<")
del _name, _code, _dtype
