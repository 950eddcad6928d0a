"""Op-resolver generation: the operator lists, the C++ for
TFLM's MicroMutableOpResolver and for our runtime, the CLI, and a program
built with the generated resolver of our runtime that runs a model, then
fails clearly when one operator is left out."""

from __future__ import annotations

import doctest
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, model_params, require_tflite_micro

import tflm_arena as ta
from tflm_arena import cli, resolver
from tflm_arena.builder import ModelBuilder
from tflm_arena.schema_enums import BUILTIN_OPERATORS

# Every Add* method of tflite::MicroMutableOpResolver, with the operator it
# registers: builtins by their BuiltinOperator_ name, custom operators by the
# name they pass to AddCustom. Source: tensorflow/lite/micro/
# micro_mutable_op_resolver.h of tflite-micro at commit
# 90b983c2b3f1480642e040bbd2ddb37b998f3424 (2026-08-20), read with the fetch
# tool (AddBuiltin and AddCustom themselves take the operator as arguments).
TFLM_HEADER_BUILTIN_METHODS = {
    "AddAbs": "ABS",
    "AddAdd": "ADD",
    "AddAddN": "ADD_N",
    "AddArgMax": "ARG_MAX",
    "AddArgMin": "ARG_MIN",
    "AddAssignVariable": "ASSIGN_VARIABLE",
    "AddAveragePool2D": "AVERAGE_POOL_2D",
    "AddBatchMatMul": "BATCH_MATMUL",
    "AddBatchToSpaceNd": "BATCH_TO_SPACE_ND",
    "AddBroadcastArgs": "BROADCAST_ARGS",
    "AddBroadcastTo": "BROADCAST_TO",
    "AddCallOnce": "CALL_ONCE",
    "AddCast": "CAST",
    "AddCeil": "CEIL",
    "AddConcatenation": "CONCATENATION",
    "AddConv2D": "CONV_2D",
    "AddCos": "COS",
    "AddCumSum": "CUMSUM",
    "AddDepthToSpace": "DEPTH_TO_SPACE",
    "AddDepthwiseConv2D": "DEPTHWISE_CONV_2D",
    "AddDequantize": "DEQUANTIZE",
    "AddDiv": "DIV",
    "AddDynamicUpdateSlice": "DYNAMIC_UPDATE_SLICE",
    "AddEmbeddingLookup": "EMBEDDING_LOOKUP",
    "AddElu": "ELU",
    "AddEqual": "EQUAL",
    "AddExp": "EXP",
    "AddExpandDims": "EXPAND_DIMS",
    "AddFill": "FILL",
    "AddFloor": "FLOOR",
    "AddFloorDiv": "FLOOR_DIV",
    "AddFloorMod": "FLOOR_MOD",
    "AddFullyConnected": "FULLY_CONNECTED",
    "AddGather": "GATHER",
    "AddGatherNd": "GATHER_ND",
    "AddGreater": "GREATER",
    "AddGreaterEqual": "GREATER_EQUAL",
    "AddHardSwish": "HARD_SWISH",
    "AddIf": "IF",
    "AddL2Normalization": "L2_NORMALIZATION",
    "AddL2Pool2D": "L2_POOL_2D",
    "AddLeakyRelu": "LEAKY_RELU",
    "AddLess": "LESS",
    "AddLessEqual": "LESS_EQUAL",
    "AddLog": "LOG",
    "AddLogicalAnd": "LOGICAL_AND",
    "AddLogicalNot": "LOGICAL_NOT",
    "AddLogicalOr": "LOGICAL_OR",
    "AddLogistic": "LOGISTIC",
    "AddLogSoftmax": "LOG_SOFTMAX",
    "AddMaximum": "MAXIMUM",
    "AddMaxPool2D": "MAX_POOL_2D",
    "AddMirrorPad": "MIRROR_PAD",
    "AddMean": "MEAN",
    "AddMinimum": "MINIMUM",
    "AddMul": "MUL",
    "AddNeg": "NEG",
    "AddNotEqual": "NOT_EQUAL",
    "AddPack": "PACK",
    "AddPad": "PAD",
    "AddPadV2": "PADV2",
    "AddPrelu": "PRELU",
    "AddQuantize": "QUANTIZE",
    "AddReadVariable": "READ_VARIABLE",
    "AddReduceAll": "REDUCE_ALL",
    "AddReduceMax": "REDUCE_MAX",
    "AddReduceMin": "REDUCE_MIN",
    "AddRelu": "RELU",
    "AddRelu6": "RELU6",
    "AddReshape": "RESHAPE",
    "AddResizeBilinear": "RESIZE_BILINEAR",
    "AddResizeNearestNeighbor": "RESIZE_NEAREST_NEIGHBOR",
    "AddReverseV2": "REVERSE_V2",
    "AddRound": "ROUND",
    "AddRsqrt": "RSQRT",
    "AddSelectV2": "SELECT_V2",
    "AddShape": "SHAPE",
    "AddSin": "SIN",
    "AddSlice": "SLICE",
    "AddSoftmax": "SOFTMAX",
    "AddSpaceToBatchNd": "SPACE_TO_BATCH_ND",
    "AddSpaceToDepth": "SPACE_TO_DEPTH",
    "AddSplit": "SPLIT",
    "AddSplitV": "SPLIT_V",
    "AddSqueeze": "SQUEEZE",
    "AddSqrt": "SQRT",
    "AddSquare": "SQUARE",
    "AddSquaredDifference": "SQUARED_DIFFERENCE",
    "AddStridedSlice": "STRIDED_SLICE",
    "AddSub": "SUB",
    "AddSum": "SUM",
    "AddSvdf": "SVDF",
    "AddTanh": "TANH",
    "AddTransposeConv": "TRANSPOSE_CONV",
    "AddTranspose": "TRANSPOSE",
    "AddUnpack": "UNPACK",
    "AddUnidirectionalSequenceLSTM": "UNIDIRECTIONAL_SEQUENCE_LSTM",
    "AddVarHandle": "VAR_HANDLE",
    "AddWhile": "WHILE",
    "AddZerosLike": "ZEROS_LIKE",
}
TFLM_HEADER_CUSTOM_METHODS = {
    "AddCircularBuffer": "CIRCULAR_BUFFER",
    "AddDecode": "TFLM_DECODE",
    "AddDelay": "SignalDelay",
    "AddDetectionPostprocess": "TFLite_Detection_PostProcess",
    "AddEnergy": "SignalEnergy",
    "AddEthosU": "ethos-u",  # GetString_ETHOSU(), ethos_u/ethosu.cc
    "AddFftAutoScale": "SignalFftAutoScale",
    "AddFilterBank": "SignalFilterBank",
    "AddFilterBankLog": "SignalFilterBankLog",
    "AddFilterBankSquareRoot": "SignalFilterBankSquareRoot",
    "AddFilterBankSpectralSubtraction": "SignalFilterBankSpectralSubtraction",
    "AddFramer": "SignalFramer",
    "AddIrfft": "SignalIrfft",
    "AddOverlapAdd": "SignalOverlapAdd",
    "AddPCAN": "SignalPCAN",
    "AddRfft": "SignalRfft",
    "AddStacker": "SignalStacker",
    "AddWindow": "SignalWindow",
}

MODELS = Path(REPO.parent / "shared" / "models")


# --- tables -------------------------------------------------------------------


def test_tflm_method_table_matches_tflms_header():
    # Every generated method exists in TFLM and registers the operator it is
    # called for; every builtin method of the header is reachable.
    assert {op: m for m, op in TFLM_HEADER_BUILTIN_METHODS.items()} == resolver.TFLM_METHODS
    assert {c: m for m, c in TFLM_HEADER_CUSTOM_METHODS.items()} == resolver.TFLM_CUSTOM_METHODS
    # The names come from schema_enums: only these four are not the rule's.
    irregular = {
        op
        for op in resolver.TFLM_BUILTINS
        if resolver.TFLM_METHODS[op] != "Add" + resolver._camel(op)
    }
    assert irregular == {"BATCH_MATMUL", "CUMSUM", "PADV2", "UNIDIRECTIONAL_SEQUENCE_LSTM"}
    assert set(resolver.TFLM_BUILTINS) <= set(BUILTIN_OPERATORS)


def test_tflm_method_rule_and_unknown_names():
    assert resolver.tflm_method("DEPTHWISE_CONV_2D") == "AddDepthwiseConv2D"
    assert resolver.tflm_method("L2_POOL_2D") == "AddL2Pool2D"
    assert resolver.tflm_method("RELU6") == "AddRelu6"
    assert resolver.tflm_method("SPLIT_V") == "AddSplitV"
    with pytest.raises(ValueError, match="unknown builtin operator 'CONV2D'"):
        resolver.tflm_method("CONV2D")


def test_runtime_kernel_table_matches_kernel_list_h():
    kernels_dir = REPO / "cpp" / "tflm_arena" / "runtime" / "kernels"
    text = (kernels_dir / "kernel_list.h").read_text()
    builtin_part, custom_part = text.split("TFLM_ARENA_SHIPPED_CUSTOM_KERNELS(KERNEL)")
    listed = re.findall(r"^\s*KERNEL\((\w+)\)", builtin_part, re.M)
    custom = re.findall(r"^\s*KERNEL\((\w+)\)", custom_part, re.M)
    assert tuple(listed) == resolver.RUNTIME_KERNELS
    assert custom == list(resolver.RUNTIME_CUSTOM_KERNELS.values())
    # Every custom kernel is one of TFLM's Signal operators the sizing models.
    assert set(resolver.RUNTIME_CUSTOM_KERNELS) <= set(resolver.TFLM_CUSTOM_METHODS)
    defined = set()
    for cc in kernels_dir.glob("*.cc"):
        defined |= set(re.findall(r"KernelRegistration& Register_(\w+)\(\) \{", cc.read_text()))
    assert defined == set(listed) | set(custom)  # each Register_X() call has a definition


# --- operator lists -------------------------------------------------------------


def _builtin_names_via_tflite_micro(tflm, path: Path):
    """Builtin and custom operator names read with tflite_micro's own schema
    reader and enum (independent of our reader and schema_enums)."""
    m = tflm.runtime.convert_bytearray_to_object(bytearray(path.read_bytes()))
    enum = tflm.runtime.schema_fb.BuiltinOperator
    names = {v: k for k, v in vars(enum).items() if not k.startswith("_")}
    builtins, custom = set(), set()
    for sg in m.subgraphs:
        for op in sg.operators or []:
            code = m.operatorCodes[op.opcodeIndex]
            b = max(code.builtinCode, code.deprecatedBuiltinCode)
            if b == enum.CUSTOM:
                custom.add(code.customCode.decode())
            else:
                builtins.add(names[b])
    return sorted(builtins), sorted(custom)


@pytest.mark.parametrize("model_path", model_params(), indirect=True)
def test_ops_are_the_models_operator_set(model_path):
    m = ta.Model.load(model_path)
    every = [op for sg in m.subgraphs for op in sg.operators]
    expected = sorted({op.name for op in every if op.builtin_code != 32})
    assert ta.resolver_ops(model_path) == expected and expected
    assert ta.resolver_ops(m) == expected  # a Model works as well as a path
    assert ta.resolver_ops(model_path, custom=True) == sorted(
        {op.custom_code for op in every if op.builtin_code == 32}
    )
    tflm = require_tflite_micro()
    assert (
        ta.resolver_ops(model_path),
        ta.resolver_ops(model_path, custom=True),
    ) == _builtin_names_via_tflite_micro(tflm, model_path)


def test_ops_of_several_models_are_one_sorted_set(models_dir):
    a, b = models_dir / "person_detect.tflite", models_dir / "trained_lstm_int8.tflite"
    both = ta.resolver_ops(a, b)
    assert both == sorted(set(ta.resolver_ops(a)) | set(ta.resolver_ops(b)))
    assert both == ta.resolver_ops(b, a) == ta.resolver_ops(a, b, a)
    assert both == [
        "AVERAGE_POOL_2D",
        "CONV_2D",
        "DEPTHWISE_CONV_2D",
        "FULLY_CONNECTED",
        "RESHAPE",
        "SOFTMAX",
        "UNIDIRECTIONAL_SEQUENCE_LSTM",
    ]
    with pytest.raises(ValueError, match="no models given"):
        ta.resolver_ops()
    with pytest.raises(FileNotFoundError):
        ta.resolver_ops(models_dir / "missing.tflite")


def _unrunnable_model() -> ta.Model:
    """Custom operators (one used twice, one TFLM knows), a builtin our
    runtime lacks (FLOOR) and, in subgraph 1 only, one TFLM lacks too (TOPK_V2)."""
    mb = ModelBuilder()
    x = mb.add_tensor([1, 8], "float32", "x")
    a, b, c, d, y = (mb.add_tensor([1, 8], "float32", n) for n in "abcdy")
    mb.add_operator("CUSTOM", [x], [a], custom_code="MyFirstOp")
    mb.add_operator("FLOOR", [a], [b])
    mb.add_operator("CUSTOM", [b], [c], custom_code="ethos-u")
    mb.add_operator("CUSTOM", [c], [d], custom_code="MyFirstOp")
    mb.add_operator("ADD", [d, x], [y])
    mb.set_io([x], [y])
    s = mb.add_subgraph("second")
    p, q = (mb.add_tensor([4], "float32", n, subgraph=s) for n in "pq")
    mb.add_operator("TOPK_V2", [p], [q], subgraph=s)
    mb.set_io([p], [q], subgraph=s)
    return ta.Model.from_bytes(mb.build())


def test_ops_cover_every_subgraph_and_list_custom_ops_apart():
    m = _unrunnable_model()
    assert ta.resolver_ops(m) == ["ADD", "FLOOR", "TOPK_V2"]
    assert ta.resolver_ops(m, custom=True) == ["MyFirstOp", "ethos-u"]


# --- generated C++ ----------------------------------------------------------------


def test_tflm_cpp_for_person_detect(models_dir):
    text = ta.tflm_resolver_cpp(models_dir / "person_detect.tflite")
    assert text.startswith("// TFLM op resolver for: person_detect.tflite\n")
    assert '#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"' in text
    assert "constexpr unsigned int kAddModelOpsCount = 5;" in text
    assert (
        "inline TfLiteStatus AddModelOps(tflite::MicroMutableOpResolver<tOpCount>* resolver) {"
    ) in text
    assert re.findall(r"resolver->(\w+)\(\)", text) == [
        "AddAveragePool2D",
        "AddConv2D",
        "AddDepthwiseConv2D",
        "AddReshape",
        "AddSoftmax",
    ]
    assert text.count("!= kTfLiteOk) return kTfLiteError;") == 5
    assert text.endswith("  return kTfLiteOk;\n}\n")


def test_runtime_cpp_for_person_detect(models_dir):
    text = ta.runtime_resolver_cpp(models_dir / "person_detect.tflite", name="PersonOps")
    assert text.startswith("// tflm_arena runtime op resolver for: person_detect.tflite\n")
    for inc in (
        "tflm_arena/core/status.h",
        "tflm_arena/runtime/kernels/registrations.h",
        "tflm_arena/runtime/op_resolver.h",
    ):
        assert f'#include "{inc}"' in text
    assert "constexpr std::size_t kPersonOpsCount = 5;" in text
    assert (
        "inline tflm_arena::Status PersonOps(tflm_arena::runtime::OpResolver* resolver) {" in text
    )
    assert re.findall(r"AddBuiltin\(tflm_arena::runtime::Register_(\w+)\(\)\)\);", text) == [
        "AVERAGE_POOL_2D",
        "CONV_2D",
        "DEPTHWISE_CONV_2D",
        "RESHAPE",
        "SOFTMAX",
    ]
    assert text.count("TFLM_ARENA_RETURN_IF_ERROR(") == 5
    assert "AddModelOps" not in text


def test_exclude_leaves_operators_out_and_checks_its_names(models_dir):
    p = models_dir / "person_detect.tflite"
    text = ta.runtime_resolver_cpp(p, exclude=["SOFTMAX", "RESHAPE"])
    assert "kAddModelOpsCount = 3;" in text and "Register_SOFTMAX" not in text
    assert "Register_RESHAPE" not in text and "Register_CONV_2D" in text
    assert "AddSoftmax" not in ta.tflm_resolver_cpp(p, exclude=("SOFTMAX",))
    with pytest.raises(ValueError, match="do not use: ADD, SOFTMAXX"):
        ta.runtime_resolver_cpp(p, exclude=["SOFTMAXX", "ADD"])


@pytest.mark.parametrize("bad", ["", "2ops", "add-ops", "a b", "x;y"])
def test_name_must_be_an_identifier(models_dir, bad):
    for gen in (ta.tflm_resolver_cpp, ta.runtime_resolver_cpp):
        with pytest.raises(ValueError, match="name must be a C\\+\\+ identifier"):
            gen(models_dir / "hello_world_int8.tflite", name=bad)


def test_runtime_cpp_names_every_operator_without_a_kernel():
    m = _unrunnable_model()
    with pytest.raises(ValueError) as e:
        ta.runtime_resolver_cpp(m)
    assert str(e.value) == (
        "tflm_arena's runtime has no kernel for 4 operator(s): FLOOR, "
        "TOPK_V2, custom 'MyFirstOp', custom 'ethos-u'"
    )
    with pytest.raises(ValueError, match="for 2 operator\\(s\\): custom 'MyFirstOp', custom"):
        ta.runtime_resolver_cpp(m, exclude=["FLOOR", "TOPK_V2"])


def test_tflm_cpp_custom_operators_and_missing_builtins():
    m = _unrunnable_model()
    with pytest.raises(ValueError, match=r"no method for 1 operator\(s\): TOPK_V2$"):
        ta.tflm_resolver_cpp(m)
    text = ta.tflm_resolver_cpp(m, exclude=["TOPK_V2"], name="Ops")
    assert "constexpr unsigned int kOpsCount = 4;" in text  # ADD, FLOOR and two custom
    assert (
        "inline TfLiteStatus Ops(tflite::MicroMutableOpResolver<tOpCount>* resolver, "
        "const TFLMRegistration* custom_MyFirstOp) {"
    ) in text
    calls = re.findall(r"if \((resolver->.*\)) != kTfLiteOk\)", text)
    assert calls == [
        "resolver->AddAdd()",
        "resolver->AddFloor()",
        'resolver->AddCustom("MyFirstOp", custom_MyFirstOp)',
        "resolver->AddEthosU()",
    ]
    assert "// Custom operators (2): MyFirstOp, ethos-u" in text


def test_custom_codes_become_exact_literals_and_distinct_parameters():
    codes = ['my"op\\', "é-op", "é_op", "x\n1"]
    mb = ModelBuilder()
    x = mb.add_tensor([1], "float32", "x")
    for c in codes:
        mb.add_operator("CUSTOM", [x], [x], custom_code=c)
    mb.set_io([x], [x])
    text = ta.tflm_resolver_cpp(ta.Model.from_bytes(mb.build()))
    literals = re.findall(r'AddCustom\(("(?:[^"\\]|\\.)*"), (\w+)\)', text)
    assert len(literals) == 4
    # C++ and Python read these escapes (\\ \" \ooo) the same way.
    assert sorted(eval("b" + lit).decode() for lit, _ in literals) == sorted(codes)
    params = [p for _, p in literals]
    assert len(set(params)) == 4 and all(re.fullmatch(r"custom_\w+", p) for p in params)
    # Nothing of the codes escapes a literal or a comment: the comment lines
    # come first, then the code, all of it printable ASCII.
    head, code = text.split("#pragma once\n")
    assert all(line.startswith("// ") and not line.endswith("\\") for line in head.splitlines())
    assert '// Custom operators (4): my"op?, x?1, ?-op, ?_op\n' in head
    assert code.isascii() and "\n1" not in code and "ethos" not in code


def test_models_from_bytes_and_unknown_codes():
    mb = ModelBuilder()
    x = mb.add_tensor([1], "float32", "x")
    mb.add_operator(250, [x], [x])  # newer than our enum table
    mb.set_io([x], [x])
    m = ta.Model.from_bytes(mb.build())
    assert ta.resolver_ops(m) == ["BUILTIN_250"]
    with pytest.raises(ValueError, match="no method for 1 operator\\(s\\): BUILTIN_250"):
        ta.tflm_resolver_cpp(m)
    with pytest.raises(ValueError, match="no kernel for 1 operator\\(s\\): BUILTIN_250"):
        ta.runtime_resolver_cpp(m)
    text = ta.tflm_resolver_cpp(m, exclude=["BUILTIN_250"])
    assert text.startswith("// TFLM op resolver for: a model from bytes\n")
    assert "kAddModelOpsCount = 0;" in text


def test_module_examples_run(models_dir, monkeypatch):
    monkeypatch.chdir(models_dir)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    ran = 0
    for test in finder.find(resolver, globs=dict(vars(resolver))):
        runner.run(test)
        ran += len(test.examples)
    assert runner.summarize(verbose=False).failed == 0 and ran >= 7


# --- CLI ------------------------------------------------------------------------


def test_cli_prints_the_api_text(models_dir, capsys):
    p = str(models_dir / "person_detect.tflite")
    assert cli.main(["resolver", p]) == 0
    assert capsys.readouterr().out == ta.tflm_resolver_cpp(p)
    assert (
        cli.main(
            [
                "resolver",
                p,
                str(models_dir / "hello_world_int8.tflite"),
                "--runtime",
                "tflm_arena",
                "--name",
                "Ops",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == ta.runtime_resolver_cpp(
        p, models_dir / "hello_world_int8.tflite", name="Ops"
    )


def test_cli_json_lists_the_operators(models_dir, capsys):
    p = str(models_dir / "person_detect.tflite")
    assert cli.main(["resolver", p, "--json", "--runtime", "tflm_arena"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["operators"] == [
        "AVERAGE_POOL_2D",
        "CONV_2D",
        "DEPTHWISE_CONV_2D",
        "RESHAPE",
        "SOFTMAX",
    ]
    assert d["calls"] == ["Register_" + op for op in d["operators"]]
    assert (d["runtime"], d["name"], d["custom_operators"], d["models"]) == (
        "tflm_arena",
        "AddModelOps",
        [],
        [p],
    )
    assert d["cpp"] == ta.runtime_resolver_cpp(p)
    assert cli.main(["resolver", p, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calls"] == [
        "AddAveragePool2D",
        "AddConv2D",
        "AddDepthwiseConv2D",
        "AddReshape",
        "AddSoftmax",
    ]


def test_cli_writes_a_file_and_keeps_an_existing_one(models_dir, tmp_path, capsys):
    p, out = str(models_dir / "hello_world_int8.tflite"), tmp_path / "ops.h"
    assert cli.main(["resolver", p, "-o", str(out)]) == 0
    assert capsys.readouterr().out == (f"wrote {out}: AddModelOps() registers 1 operators (tflm)\n")
    assert out.read_text() == ta.tflm_resolver_cpp(p)
    assert cli.main(["resolver", p, "-o", str(out), "--runtime", "tflm_arena"]) == 1
    assert capsys.readouterr().err == (
        f"tflm-arena: error: {out} exists; pass --overwrite to replace it\n"
    )
    assert out.read_text() == ta.tflm_resolver_cpp(p)
    assert cli.main(["resolver", p, "-o", str(out), "--runtime", "tflm_arena", "--overwrite"]) == 0
    assert out.read_text() == ta.runtime_resolver_cpp(p)


def test_cli_errors(models_dir, tmp_path, capsys):
    m = tmp_path / "unrunnable.tflite"
    m.write_bytes(_unrunnable_model().data)
    assert cli.main(["resolver", str(m), "--runtime", "tflm_arena"]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith(
            "tflm-arena: error: tflm_arena's runtime has no kernel for 4 "
            "operator(s): FLOOR, TOPK_V2,"
        )
        and err.count("\n") == 1
    )
    assert cli.main(["resolver", str(m)]) == 1
    assert "no method for 1 operator(s): TOPK_V2" in capsys.readouterr().err
    assert cli.main(["resolver", str(models_dir / "hello_world_int8.tflite"), "--name", "1x"]) == 1
    assert "name must be a C++ identifier" in capsys.readouterr().err
    assert cli.main(["resolver", str(tmp_path / "missing.tflite")]) == 1
    assert "missing.tflite" in capsys.readouterr().err
    assert cli.main(["resolver", str(m), "--runtime", "stock"]) == 2
    assert "invalid choice: 'stock'" in capsys.readouterr().err
    assert cli.main(["resolver"]) == 2


# --- a program built with the generated resolver -----------------------------------

BUILD = REPO / "build" / "resolver_test"
PROJECT = Path(__file__).resolve().parent / "resolver_project"
RUN_MODELS = ("person_detect.tflite", "hello_world_int8.tflite")
LEFT_OUT = "DEPTHWISE_CONV_2D"  # person_detect uses it; hello_world does not


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{tool} is missing under CI: the generated-resolver test needs it")
        pytest.skip(f"{tool} not found")
    return path


def _plain_env() -> dict:
    # Compilers and the test program are not instrumented: they do not get the
    # ASan runtime the sanitizer pytest run preloads for the module.
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def _write_if_changed(path: Path, text: str) -> None:
    # An unchanged header keeps its time stamp, so a rerun rebuilds nothing.
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.fixture(scope="module")
def resolver_programs(models_dir):
    """Builds resolver_main.cc twice against the runtime libraries (built by
    CMake from this tree into build/resolver_test, reused between runs):
    with the generated resolver for RUN_MODELS ("full") and with LEFT_OUT
    excluded ("missing"). Returns ({variant: program}, seconds to build)."""
    cmake = _need("cmake")
    _need(os.environ.get("CXX", "c++"))
    models = [models_dir / n for n in RUN_MODELS]
    headers = BUILD / "headers"
    _write_if_changed(headers / "full" / "generated_resolver.h", ta.runtime_resolver_cpp(*models))
    _write_if_changed(
        headers / "missing" / "generated_resolver.h",
        ta.runtime_resolver_cpp(*models, exclude=[LEFT_OUT]),
    )
    build = BUILD / "cmake"
    start = time.monotonic()
    for cmd in (
        [
            cmake,
            "-S",
            str(PROJECT),
            "-B",
            str(build),
            f"-DTFLM_ARENA_REPO={REPO}",
            f"-DRESOLVER_HEADERS={headers}",
            "-DCMAKE_BUILD_TYPE=Release",
            # flatc from this interpreter's environment, activated or not
            f"-DPython3_EXECUTABLE={sys.executable}",
        ],
        [
            cmake,
            "--build",
            str(build),
            "-j2",
            "--target",
            "resolver_main_full",
            "resolver_main_missing",
        ],
    ):
        r = subprocess.run(cmd, capture_output=True, text=True, env=_plain_env())
        assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    seconds = time.monotonic() - start
    print(f"resolver programs configured and built in {seconds:.1f} s")
    return {v: build / f"resolver_main_{v}" for v in ("full", "missing")}, seconds


def _run(program: Path, models_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(program)] + [str(models_dir / n) for n in RUN_MODELS],
        capture_output=True,
        text=True,
        timeout=120,
        env=_plain_env(),
    )


@pytest.mark.no_asan  # a CMake build and its programs, run without the Python module
def test_generated_resolver_runs_the_models(resolver_programs, models_dir):
    programs, _ = resolver_programs
    r = _run(programs["full"], models_dir)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    for line, name in zip(lines, RUN_MODELS, strict=True):
        assert re.fullmatch(
            rf".*{re.escape(name)}: OK \(6 kernels registered, arena \d+ bytes\)", line
        ), line


@pytest.mark.no_asan  # a CMake build and its programs, run without the Python module
def test_generated_resolver_without_one_operator_fails_clearly(resolver_programs, models_dir):
    programs, _ = resolver_programs
    header = (BUILD / "headers" / "missing" / "generated_resolver.h").read_text()
    assert "kAddModelOpsCount = 5;" in header and f"Register_{LEFT_OUT}" not in header
    r = _run(programs["missing"], models_dir)
    assert r.returncode == 1, r.stdout + r.stderr  # a status, not a crash (signal < 0)
    person, hello = r.stdout.splitlines()
    # CheckKernelsFor's message, with where the operator first occurs.
    ops = list(ta.Model.load(models_dir / RUN_MODELS[0]).operators)
    uses = [op.index for op in ops if op.name == LEFT_OUT]
    assert person == (
        f"{models_dir / RUN_MODELS[0]}: FAILED UNIMPLEMENTED: no kernel for 1 "
        f"operator type: {LEFT_OUT} (operator {uses[0]} of subgraph 0, "
        f"{len(uses)} uses)"
    )
    assert re.fullmatch(r".*hello_world_int8\.tflite: OK \(5 kernels registered, .*", hello)
