"""The schema's enum tables: Python reads the C++ ones (one source), they
equal the TFLite schema as the real TFLM package ships it, and no kernel
names a BuiltinOptions member by a literal ordinal."""

from __future__ import annotations

import re

import numpy as np
from conftest import REPO, require_tflite_micro

from tflm_arena import _core, builder, schema_enums


def _wheel_enum(name: str) -> dict[str, int]:
    tflm = require_tflite_micro()
    del tflm
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    return {k: v for k, v in vars(getattr(fb, name)).items() if not k.startswith("_")}


def test_python_tables_are_the_cpp_tables():
    cpp = _core.schema_enums()
    assert set(cpp) == {
        "TensorType",
        "Padding",
        "ActivationFunctionType",
        "FullyConnectedOptionsWeightsFormat",
        "BuiltinOperator",
        "BuiltinOptions",
    }
    assert cpp["TensorType"] == schema_enums.TENSOR_TYPES
    assert cpp["Padding"] == schema_enums.PADDINGS
    assert cpp["ActivationFunctionType"] == schema_enums.ACTIVATION_FUNCTIONS
    assert cpp["FullyConnectedOptionsWeightsFormat"] == schema_enums._FC_WEIGHTS_FORMATS
    assert cpp["BuiltinOperator"] == schema_enums.BUILTIN_OPERATORS
    assert cpp["BuiltinOptions"] == schema_enums.BUILTIN_OPTIONS_TYPES
    # The builder re-exports the same objects.
    assert builder.BUILTIN_OPERATORS is schema_enums.BUILTIN_OPERATORS
    assert builder.TENSOR_TYPES is schema_enums.TENSOR_TYPES


def test_tables_are_dense_and_ordered():
    for name, table in _core.schema_enums().items():
        assert list(table.values()) == list(range(len(table))), name


def test_tables_equal_the_tflite_schema():
    for ours, theirs in [
        (schema_enums.TENSOR_TYPES, "TensorType"),
        (schema_enums.PADDINGS, "Padding"),
        (schema_enums.ACTIVATION_FUNCTIONS, "ActivationFunctionType"),
        (schema_enums._FC_WEIGHTS_FORMATS, "FullyConnectedOptionsWeightsFormat"),
        (schema_enums.BUILTIN_OPERATORS, "BuiltinOperator"),
        (schema_enums.BUILTIN_OPTIONS_TYPES, "BuiltinOptions"),
    ]:
        assert ours == _wheel_enum(theirs), theirs


def test_known_values():
    assert schema_enums.BUILTIN_OPERATORS["CONV_2D"] == 3
    assert schema_enums.BUILTIN_OPERATORS["STABLEHLO_CASE"] == 209
    assert schema_enums._PLACEHOLDER_FOR_GREATER_OP_CODES == 127
    assert schema_enums._CUSTOM == 32
    assert schema_enums.BUILTIN_OPTIONS_TYPES["NONE"] == 0
    assert schema_enums.BUILTIN_OPTIONS_TYPES["Pool2DOptions"] == 5
    assert schema_enums.BUILTIN_OPTIONS_TYPES["LeakyReluOptions"] == 75
    assert schema_enums.BUILTIN_OPTIONS_TYPES["RightShiftOptions"] == 126
    assert schema_enums.TENSOR_TYPES["INT4"] == 17
    assert schema_enums.ACTIVATION_FUNCTIONS["RELU6"] == 3


def test_numpy_types_of_tensor_types():
    n = schema_enums._NUMPY_OF_TYPE
    t = schema_enums.TENSOR_TYPES
    assert n[t["FLOAT32"]] == np.dtype("<f4")
    assert n[t["INT8"]] == np.dtype("i1")
    assert n[t["BOOL"]] == np.dtype("?")
    assert n[t["COMPLEX128"]] == np.dtype("<c16")
    assert n[t["UINT16"]] == np.dtype("<u2")
    for absent in (
        "STRING",
        "INT4",
        "BFLOAT16",
        "RESOURCE",
        "VARIANT",
        "INT2",
        "UINT4",
        "FLOAT8_E4M3FN",
        "FLOAT8_E5M2",
    ):
        assert t[absent] not in n, absent
    assert len(n) == 14


def test_kernels_name_option_tables_not_ordinals():
    """A literal BuiltinOptions ordinal in a kernel (or the validator's
    operator/table pairs) fails here; builtin_options.h has the constants."""
    literal = re.compile(
        r"(?:MakeOptionsParser<\w+>|OptionsReader<\w+,\s*\w+>)\(\s*\d|OptionsTypeName\(\s*\d"
    )
    pair = re.compile(r"\{\s*\d+\s*,\s*fb::BuiltinOptions::")
    offenders = []
    sources = sorted((REPO / "cpp" / "tflm_arena" / "runtime").rglob("*.cc")) + sorted(
        (REPO / "cpp" / "tflm_arena" / "model").glob("*.cc")
    )
    assert len(sources) > 30
    for path in sources:
        text = path.read_text()
        for m in list(literal.finditer(text)) + list(pair.finditer(text)):
            offenders.append(f"{path.relative_to(REPO)}: {m.group(0)}")
    assert offenders == []
    # The check sees the calls it guards.
    conv = (REPO / "cpp/tflm_arena/runtime/kernels/conv.cc").read_text()
    assert "OptionsReader<ConvOptions, ReadConv>(model::kConv2DOptions" in conv
    assert literal.search("OptionsReader<ConvOptions, ReadConv>(3)")
