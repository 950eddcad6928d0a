"""Op-resolver generation: C++ that registers exactly the operators some
models use, for stock TFLM (``tflite::MicroMutableOpResolver<N>``) or for
our runtime (``tflm_arena::runtime::MutableOpResolver<N>``).

The idea is TFLM's gen_micro_mutable_op_resolver tool; the output differs:

- Operators come from the operators of every subgraph (not from the
  operator-code table, which may list codes no operator uses), and are
  sorted by name over all models together, so the output does not depend on
  the order the models are given in.
- The generated function fills a resolver the caller owns and returns the
  first failing status (our resolvers cannot be copied, and a failed Add
  should not pass silently).
- CUMSUM and PADV2 get TFLM's real method names (``AddCumSum``,
  ``AddPadV2``); TFLM's own name rule would write ``AddCumsum``/``AddPadv2``.

>>> import tflm_arena as ta
>>> ta.resolver_ops("hello_world_int8.tflite")
['FULLY_CONNECTED']
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from typing import Union

from . import _core
from .model import Model
from .schema_enums import BUILTIN_OPERATORS

ModelLike = Union[str, "os.PathLike[str]", Model]

_OPERATOR_NAMES: dict[int, str] = {v: k for k, v in BUILTIN_OPERATORS.items()}
_CUSTOM_CODE = BUILTIN_OPERATORS["CUSTOM"]

#: Builtin operators TFLM's MicroMutableOpResolver has an ``Add*`` method for
#: (micro_mutable_op_resolver.h, tflite-micro commit 90b983c, 2026-08-20),
#: sorted; bound from the stock-TFLM model's list (tflm/registered_ops.h),
#: which sizes or refuses each of them.
TFLM_BUILTINS: tuple[str, ...] = tuple(_core.tflm_registered_ops()["builtins"])

#: Where TFLM's method name is not the CamelCase of the enum name.
_TFLM_IRREGULAR: dict[str, str] = {
    "BATCH_MATMUL": "AddBatchMatMul",
    "CUMSUM": "AddCumSum",
    "PADV2": "AddPadV2",
    "UNIDIRECTIONAL_SEQUENCE_LSTM": "AddUnidirectionalSequenceLSTM",
}

#: Custom operators TFLM registers with a method of their own (custom code ->
#: method), same header. Any other custom code needs ``AddCustom``.
TFLM_CUSTOM_METHODS: dict[str, str] = {
    "ethos-u": "AddEthosU",
    "TFLite_Detection_PostProcess": "AddDetectionPostprocess",
    "CIRCULAR_BUFFER": "AddCircularBuffer",
    "TFLM_DECODE": "AddDecode",
    "SignalDelay": "AddDelay",
    "SignalEnergy": "AddEnergy",
    "SignalFftAutoScale": "AddFftAutoScale",
    "SignalFilterBank": "AddFilterBank",
    "SignalFilterBankLog": "AddFilterBankLog",
    "SignalFilterBankSquareRoot": "AddFilterBankSquareRoot",
    "SignalFilterBankSpectralSubtraction": "AddFilterBankSpectralSubtraction",
    "SignalFramer": "AddFramer",
    "SignalIrfft": "AddIrfft",
    "SignalOverlapAdd": "AddOverlapAdd",
    "SignalPCAN": "AddPCAN",
    "SignalRfft": "AddRfft",
    "SignalStacker": "AddStacker",
    "SignalWindow": "AddWindow",
}

#: The operators our runtime ships kernels for, in the order of
#: cpp/tflm_arena/runtime/kernels/kernel_list.h (bound from that list). Each
#: has ``Register_<NAME>()``.
#:
#: >>> from tflm_arena import resolver
#: >>> resolver.RUNTIME_KERNELS[:3]
#: ('FULLY_CONNECTED', 'CONV_2D', 'DEPTHWISE_CONV_2D')
RUNTIME_KERNELS: tuple[str, ...] = tuple(_core.runtime_kernels())

#: The custom operators our runtime ships kernels for (TFLM's Signal library,
#: the audio front end), custom code -> ``NAME`` of ``Register_<NAME>()``,
#: bound from kernel_list.h's custom list.
#:
#: >>> resolver.RUNTIME_CUSTOM_KERNELS["SignalRfft"]
#: 'SIGNAL_RFFT'
RUNTIME_CUSTOM_KERNELS: dict[str, str] = dict(_core.runtime_custom_kernels())

#: The two resolvers ``--runtime`` chooses between.
RUNTIMES: tuple[str, ...] = ("tflm", "tflm_arena")


def _camel(op: str) -> str:
    # CONV_2D -> Conv2D: a word starting with a digit stays upper case.
    return "".join(w if w[:1].isdigit() else w[:1] + w[1:].lower() for w in op.split("_"))


def tflm_method(op: str) -> str:
    """The MicroMutableOpResolver method that registers builtin ``op``.

    >>> tflm_method("CONV_2D"), tflm_method("PADV2")
    ('AddConv2D', 'AddPadV2')
    """
    if op not in BUILTIN_OPERATORS:
        raise ValueError(f"unknown builtin operator {op!r}")
    return _TFLM_IRREGULAR.get(op, "Add" + _camel(op))


#: builtin name -> TFLM method, for every builtin TFLM supports.
TFLM_METHODS: dict[str, str] = {op: tflm_method(op) for op in TFLM_BUILTINS}


def _load(model: ModelLike) -> tuple[Model, str]:
    """The model and the name the generated comment shows for it."""
    if isinstance(model, Model):
        return model, (model.path.name if model.path is not None else "a model from bytes")
    m = Model.load(model)
    return m, os.path.basename(os.fspath(model))


def _collect(models: Sequence[ModelLike]) -> tuple[list[str], list[str], list[str]]:
    """(builtin names, custom codes, model names), names sorted, each once."""
    if not models:
        raise ValueError("no models given: pass one or more models")
    builtins, custom, names = set(), set(), []
    for model in models:
        m, name = _load(model)
        names.append(name)
        for sg in m.subgraphs:
            for op in sg.operators:
                if op.builtin_code == _CUSTOM_CODE:
                    custom.add(op.custom_code)
                else:  # codes newer than our enum table keep a visible name
                    builtins.add(_OPERATOR_NAMES.get(op.builtin_code, f"BUILTIN_{op.builtin_code}"))
    return sorted(builtins), sorted(custom), names


def resolver_ops(*models: ModelLike, custom: bool = False) -> list[str]:
    """The distinct builtin operators (enum names, sorted) used by any
    operator of any subgraph of the models; with ``custom=True`` the
    distinct custom-operator codes instead (TFLM and our runtime register
    those with ``AddCustom``). Models are paths or
    :class:`Model` objects.

    >>> resolver_ops("person_detect.tflite", "hello_world_int8.tflite")
    ['AVERAGE_POOL_2D', 'CONV_2D', 'DEPTHWISE_CONV_2D', 'FULLY_CONNECTED', 'RESHAPE', 'SOFTMAX']
    >>> resolver_ops("person_detect.tflite", custom=True)
    []
    """
    builtins, customs, _ = _collect(models)
    return customs if custom else builtins


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        raise ValueError(f"name must be a C++ identifier, got {name!r}")


def _apply_exclude(builtins: list[str], exclude: Iterable[str]) -> list[str]:
    drop = set(exclude)
    unused = sorted(drop - set(builtins))
    if unused:
        raise ValueError(f"exclude names operators the models do not use: {', '.join(unused)}")
    return [op for op in builtins if op not in drop]


def _comment_safe(text: str) -> str:
    # A newline would end the comment and a final backslash would splice the
    # next line into it: show printable ASCII only (file names and custom
    # codes are the model author's text).
    return "".join(c if " " <= c <= "~" and c != "\\" else "?" for c in text)


def _header(names: list[str], runtime: str, builtins: list[str], custom: list[str]) -> list[str]:
    lines = [
        f"// {runtime} op resolver for: {_comment_safe(', '.join(names))}",
        "// It registers exactly the operators these models use. Generated by",
        "// `tflm-arena resolver`; regenerate it when a model changes.",
        f"// Builtin operators ({len(builtins)}): {', '.join(builtins) or 'none'}",
    ]
    if custom:
        lines.append(f"// Custom operators ({len(custom)}): {_comment_safe(', '.join(custom))}")
    return lines + ["#pragma once", ""]


def _cpp_string(text: str) -> str:
    """A C++ string literal of ``text`` (UTF-8; octal escapes for anything
    but printable ASCII, which cannot run into a following digit)."""
    out = []
    for b in text.encode("utf-8"):
        c = chr(b)
        out.append("\\" + c if c in '"\\' else c if 32 <= b < 127 else f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def _custom_param(code: str, taken: set[str]) -> str:
    base = "custom_" + (re.sub(r"[^A-Za-z0-9_]", "_", code) or "op")
    name, i = base, 2
    while name in taken:
        name, i = f"{base}_{i}", i + 1
    taken.add(name)
    return name


def tflm_resolver_cpp(
    *models: ModelLike, name: str = "AddModelOps", exclude: Iterable[str] = ()
) -> str:
    """C++ (a header) defining ``name``: it fills a stock TFLM
    ``tflite::MicroMutableOpResolver<N>`` (N >= ``k<Name>Count``) with one
    ``Add*`` call per distinct operator the models use and returns the
    first failing ``TfLiteStatus``. Custom operators with a TFLM method of
    their own (``ethos-u``: ``AddEthosU``, ...) use it; any other custom
    code becomes a ``const TFLMRegistration*`` parameter passed to
    ``AddCustom``. ``exclude`` leaves out builtins (ones you register
    yourself). Raises ValueError naming every builtin TFLM has no method for.

    >>> print(tflm_resolver_cpp("hello_world_int8.tflite"))  # doctest: +ELLIPSIS
    // TFLM op resolver for: hello_world_int8.tflite
    ...
    constexpr unsigned int kAddModelOpsCount = 1;
    ...
      if (resolver->AddFullyConnected() != kTfLiteOk) return kTfLiteError;
    ...
    """
    _check_name(name)
    builtins, custom, names = _collect(models)
    builtins = _apply_exclude(builtins, exclude)
    missing = [op for op in builtins if op not in TFLM_METHODS]
    if missing:
        raise ValueError(
            f"TFLM's MicroMutableOpResolver has no method for {len(missing)} "
            f"operator(s): {', '.join(missing)}"
        )
    count = f"k{name[0].upper()}{name[1:]}Count"
    taken: set[str] = {"resolver"}
    params, calls = [], [f"resolver->{TFLM_METHODS[op]}()" for op in builtins]
    for code in custom:
        if code in TFLM_CUSTOM_METHODS:
            calls.append(f"resolver->{TFLM_CUSTOM_METHODS[code]}()")
        else:
            p = _custom_param(code, taken)
            params.append(f"const TFLMRegistration* {p}")
            calls.append(f"resolver->AddCustom({_cpp_string(code)}, {p})")
    n = len(builtins) + len(custom)
    sig = ", ".join(["tflite::MicroMutableOpResolver<tOpCount>* resolver"] + params)
    out = (
        _header(names, "TFLM", builtins, custom)
        + [
            '#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"',
            "",
            f"// Operators {name}() registers: the smallest resolver that holds them.",
            f"constexpr unsigned int {count} = {n};",
            "",
            "template <unsigned int tOpCount>",
            f"inline TfLiteStatus {name}({sig}) {{",
            f'  static_assert(tOpCount >= {count}, "the resolver needs room for {n} operators");',
        ]
        + [f"  if ({c} != kTfLiteOk) return kTfLiteError;" for c in calls]
        + [
            "  return kTfLiteOk;",
            "}",
        ]
    )
    return "\n".join(out) + "\n"


def runtime_resolver_cpp(
    *models: ModelLike, name: str = "AddModelOps", exclude: Iterable[str] = ()
) -> str:
    """C++ (a header) defining ``name``: it adds to a
    ``tflm_arena::runtime::OpResolver`` (a ``MutableOpResolver<N>`` with
    N >= ``k<Name>Count``) the kernel of every distinct operator the models
    use, ``AddBuiltin(Register_X())`` each (``AddCustom`` for a custom
    operator such as ``SignalRfft``), and returns the first failing
    ``tflm_arena::Status``. ``exclude`` leaves out builtins. Raises
    ValueError naming every operator (builtin or custom) the runtime ships
    no kernel for.

    >>> print(runtime_resolver_cpp("hello_world_int8.tflite"))  # doctest: +ELLIPSIS
    // tflm_arena runtime op resolver for: hello_world_int8.tflite
    ...
    constexpr std::size_t kAddModelOpsCount = 1;
    ...
      TFLM_ARENA_RETURN_IF_ERROR(
          resolver->AddBuiltin(tflm_arena::runtime::Register_FULLY_CONNECTED()));
    ...
    """
    _check_name(name)
    builtins, custom, names = _collect(models)
    builtins = _apply_exclude(builtins, exclude)
    missing = [op for op in builtins if op not in RUNTIME_KERNELS]
    missing += [f"custom {c!r}" for c in custom if c not in RUNTIME_CUSTOM_KERNELS]
    if missing:
        raise ValueError(
            f"tflm_arena's runtime has no kernel for {len(missing)} operator(s): "
            f"{', '.join(missing)}"
        )
    count = f"k{name[0].upper()}{name[1:]}Count"
    out = (
        _header(names, "tflm_arena runtime", builtins, custom)
        + [
            "#include <cstddef>",
            "",
            '#include "tflm_arena/core/status.h"',
            '#include "tflm_arena/runtime/kernels/registrations.h"',
            '#include "tflm_arena/runtime/op_resolver.h"',
            "",
            f"// Kernels {name}() adds: use a MutableOpResolver<{count}> (or larger).",
            f"constexpr std::size_t {count} = {len(builtins) + len(custom)};",
            "",
            f"inline tflm_arena::Status {name}(tflm_arena::runtime::OpResolver* resolver) {{",
        ]
        + [
            f"  TFLM_ARENA_RETURN_IF_ERROR(\n"
            f"      resolver->AddBuiltin(tflm_arena::runtime::Register_{op}()));"
            for op in builtins
        ]
        + [
            "  TFLM_ARENA_RETURN_IF_ERROR(\n"
            f"      resolver->AddCustom(tflm_arena::runtime::Register_{kernel}()));"
            for kernel in (RUNTIME_CUSTOM_KERNELS[c] for c in custom)
        ]
        + [
            "  return tflm_arena::Status::Ok();",
            "}",
        ]
    )
    return "\n".join(out) + "\n"
