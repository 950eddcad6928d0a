#!/usr/bin/env python3
"""Write the seed corpora for the fuzz harnesses into OUT_DIR/<harness>/.

Seeds: every .tflite under the shared models folder (read at run time; the
repo never holds a copy) and small models from python/tflm_arena/builder.py
(some shared with the tests through python/tflm_arena/_sample_models.py)
covering every shipped kernel, control flow, variables and offline plans;
mutants of the shared models (an operator code out of the schema's range,
32-bit pokes); raw offline-plan words; and usage-record byte strings for the
planners.

Usage: make_seeds.py OUT_DIR [--models DIR]
Needs the tflm_arena package installed (its builder takes the schema's enum
tables from the compiled core) with numpy and flatbuffers.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import random
import struct
import sys

import numpy as np

REPO = pathlib.Path(__file__).resolve().parent.parent
HARNESSES = (
    "fuzz_model_load",
    "fuzz_offline_plan",
    "fuzz_lifetimes",
    "fuzz_planners",
    "fuzz_interpreter",
    "fuzz_tflm_arena",
    "fuzz_rewrite",
    "fuzz_model_writers",
)
# Harnesses whose input is a model (every model seed goes to each).
MODEL_HARNESSES = tuple(h for h in HARNESSES if h != "fuzz_planners")


def load_builder(module: str = "builder"):
    """tflm_arena.<module> (builder, _sample_models) from the installed
    package (the builder's schema enums come from the compiled extension;
    .ci/test.sh installs this checkout first)."""
    try:
        return importlib.import_module(f"tflm_arena.{module}")
    except ImportError as e:
        raise SystemExit(
            f"make_seeds.py needs the tflm_arena package installed (bash .ci/install.sh): {e}"
        ) from None


def builder_models(b, sm) -> dict[str, bytes]:
    """Small models: each shipped kernel at least once, int8 and float
    (b: tflm_arena.builder; sm: the models it shares with the tests,
    tflm_arena._sample_models)."""
    MB = b.ModelBuilder
    rng = np.random.default_rng(0)
    out: dict[str, bytes] = {}

    def q(mb, shape, name, scale=0.05, zp=0):
        return sm.quantized(mb, shape, name, scale, zp)

    # CONV_2D and DEPTHWISE_CONV_2D, int8 per channel.
    for op, filt, qdim, out_hw, opts in (
        (
            "CONV_2D",
            [4, 3, 3, 2],
            0,
            [3, 3],
            {"padding": "SAME", "stride_w": 2, "stride_h": 2, "fused_activation_function": "RELU6"},
        ),
        (
            "DEPTHWISE_CONV_2D",
            [1, 3, 3, 4],
            3,
            [4, 2],  # dilation 1 x 2
            {"padding": "VALID", "depth_multiplier": 2, "dilation_w_factor": 2},
        ),
    ):
        out_shape = [1, *out_hw, filt[qdim]]
        out[op.lower()] = sm.conv_int8(op, opts, [1, 6, 6, 2], filt, out_shape, qdim, rng, 500)

    # Float conv without bias.
    mb = MB()
    x = mb.add_tensor([1, 4, 4, 1], "float32", "x")
    w = mb.add_tensor([2, 2, 2, 1], "float32", "w", data=rng.standard_normal((2, 2, 2, 1)))
    y = mb.add_tensor([1, 4, 4, 2], "float32", "y")
    mb.add_operator("CONV_2D", [x, w, -1], [y], options={"padding": "SAME"})
    mb.set_io([x], [y])
    out["conv_float_nobias"] = mb.build()

    # Pooling, int8 and float.
    for op in ("MAX_POOL_2D", "AVERAGE_POOL_2D"):
        for dtype in ("int8", "float32"):
            out[f"{op.lower()}_{dtype}"] = sm.pool(
                op, dtype, [1, 5, 5, 2], [1, 3, 3, 2], activation="RELU"
            )

    # QUANTIZE -> FULLY_CONNECTED -> SOFTMAX -> DEQUANTIZE.
    out["quantize_fc_softmax_dequantize"] = sm.quantize_fc_softmax_dequantize(2, 8, 4, rng, 100)

    # Float FC + softmax.
    mb = MB()
    x = mb.add_tensor([1, 6], "float32", "x")
    w = mb.add_tensor([3, 6], "float32", "w", data=rng.standard_normal((3, 6)))
    f = mb.add_tensor([1, 3], "float32", "f")
    y = mb.add_tensor([1, 3], "float32", "y")
    mb.add_operator(
        "FULLY_CONNECTED", [x, w, -1], [f], options={"fused_activation_function": "RELU"}
    )
    mb.add_operator("SOFTMAX", [f], [y], options={"beta": 0.5})
    mb.set_io([x], [y])
    out["fc_softmax_float"] = mb.build()

    # ADD with broadcast, then RESHAPE (new_shape option), int8 and float.
    for dtype in ("int8", "float32"):
        mb = MB()
        if dtype == "int8":
            a, c = q(mb, [1, 3, 4], "a", 0.05, 3), q(mb, [1, 1, 4], "c", 0.02, -7)
            s, r = q(mb, [1, 3, 4], "s", 0.06), q(mb, [12], "r", 0.06)
        else:
            a, c = mb.add_tensor([1, 3, 4], dtype, "a"), mb.add_tensor([1, 1, 4], dtype, "c")
            s, r = mb.add_tensor([1, 3, 4], dtype, "s"), mb.add_tensor([12], dtype, "r")
        mb.add_operator("ADD", [a, c], [s], options={"fused_activation_function": "RELU"})
        mb.add_operator("RESHAPE", [s], [r], options={"new_shape": [12]})
        mb.set_io([a, c], [r])
        out[f"add_reshape_{dtype}"] = mb.build()

    # Variable tensor (state) consumed by ADD, with an offline plan.
    mb = MB()
    x = mb.add_tensor([1, 4], "float32", "x")
    v = mb.add_tensor([1, 4], "float32", "state", is_variable=True)
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("ADD", [x, v], [y])
    mb.set_io([x], [y])
    mb.add_metadata(b.OFFLINE_PLAN_METADATA_NAME, b.offline_plan_metadata([0, 16, 32]))
    out["variable_offline_plan"] = mb.build()

    # Offline plan with online (-1) entries on a chain of ADDs.
    mb = MB()
    t = [mb.add_tensor([1, 8], "float32", f"t{i}") for i in range(4)]
    mb.add_operator("ADD", [t[0], t[0]], [t[1]])
    mb.add_operator("ADD", [t[1], t[0]], [t[2]])
    mb.add_operator("ADD", [t[2], t[1]], [t[3]])
    mb.set_io([t[0]], [t[3]])
    mb.add_metadata(b.OFFLINE_PLAN_METADATA_NAME, b.offline_plan_metadata([0, -1, 64, -1]))
    out["add_chain_partial_offline_plan"] = mb.build()

    # Control flow (lifetimes only; no shipped kernel): IF, WHILE, CALL_ONCE.
    mb = MB()
    cond = mb.add_tensor([1], "bool", "cond")
    x = mb.add_tensor([1, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    then_sg, else_sg, body_sg, init_sg = (
        mb.add_subgraph(n) for n in ("then", "else", "body", "init")
    )
    for sg in (then_sg, else_sg, body_sg):
        a = mb.add_tensor([1, 4], "float32", "a", subgraph=sg)
        c = mb.add_tensor([1, 4], "float32", "c", subgraph=sg)
        mb.add_operator("ADD", [a, a], [c], subgraph=sg)
        mb.set_io([a], [c], subgraph=sg)
    mb.set_io([], [], subgraph=init_sg)
    z = mb.add_tensor([1, 4], "float32", "z")
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": init_sg})
    mb.add_operator(
        "IF",
        [cond, x],
        [z],
        options={"then_subgraph_index": then_sg, "else_subgraph_index": else_sg},
    )
    mb.add_operator(
        "WHILE", [z], [y], options={"cond_subgraph_index": then_sg, "body_subgraph_index": body_sg}
    )
    mb.set_io([cond, x], [y])
    out["control_flow"] = mb.build()

    # Custom operator and an intermediate (lifetimes / model walk).
    mb = MB()
    x = mb.add_tensor([2], "int8", "x")
    y = mb.add_tensor([2], "int8", "y")
    i = mb.add_tensor([0], "int8", "im")
    mb.add_operator("CUSTOM", [x], [y], custom_code="MyOp", intermediates=[i])
    mb.set_io([x], [y])
    out["custom_intermediate"] = mb.build()

    # TFLM's other custom kernels (custom_kernels.cc): CIRCULAR_BUFFER,
    # TFLite_Detection_PostProcess, TFLM_DECODE (LUT), ethos-u.
    mb = MB()
    x = mb.add_tensor([1, 1, 1, 8], "int8", "x", scale=[0.5], zero_point=[0])
    buf = mb.add_tensor([1, 5, 1, 8], "int8", "buf", is_variable=True, scale=[0.5], zero_point=[0])
    mb.add_operator(
        "CUSTOM", [x], [buf], custom_code="CIRCULAR_BUFFER", custom_options={"cycles_max": 1}
    )
    mb.set_io([x], [buf])
    out["circular_buffer"] = mb.build()

    mb = MB()
    enc = mb.add_tensor([1, 16, 4], "float32", "box_encodings")
    cls = mb.add_tensor([1, 16, 3], "float32", "class_predictions")
    anchors = mb.add_tensor([16, 4], "float32", "anchors", data=np.full((16, 4), 0.5, np.float32))
    outs = [
        mb.add_tensor(s, "float32", f"o{k}") for k, s in enumerate(([1, 4, 4], [1, 4], [1, 4], [1]))
    ]
    mb.add_operator(
        "CUSTOM",
        [enc, cls, anchors],
        outs,
        custom_code="TFLite_Detection_PostProcess",
        custom_options={
            "max_detections": 4,
            "num_classes": 2,
            "y_scale": 10.0,
            "x_scale": 10.0,
            "h_scale": 5.0,
            "w_scale": 5.0,
            "nms_score_threshold": 0.3,
            "nms_iou_threshold": 0.6,
            "max_classes_per_detection": 1,
        },
    )
    mb.set_io([enc, cls], outs)
    out["detection_postprocess"] = mb.build()

    mb = MB()
    x = mb.add_tensor([1, 8], "int8", "x", scale=[0.5], zero_point=[0])
    packed = mb.add_tensor([16], "uint8", "w_encoded", data=np.arange(16, dtype=np.uint8))
    header = bytes([0, 1, 0, 0, 1, 4, 16]) + bytes(9) + bytes(range(16))
    anc = mb.add_tensor([32], "uint8", "w_ancillary", data=np.frombuffer(header, np.uint8))
    w = mb.add_tensor([4, 8], "int8", "w", scale=[0.1], zero_point=[0])
    mb.add_operator("CUSTOM", [packed, anc], [w], custom_code="TFLM_DECODE")
    y = mb.add_tensor([1, 4], "int8", "y", scale=[0.25], zero_point=[0])
    mb.add_operator("FULLY_CONNECTED", [x, w], [y])
    mb.set_io([x], [y])
    out["decode_lut"] = mb.build()

    mb = MB()
    cms = mb.add_tensor([8], "uint8", "command_stream", data=np.zeros(8, np.uint8))
    ro = mb.add_tensor([8], "uint8", "read_only", data=np.zeros(8, np.uint8))
    scratch = mb.add_tensor([64], "uint8", "scratch")
    fast = mb.add_tensor([32], "uint8", "scratch_fast")
    x = mb.add_tensor([1, 4], "int8", "x")
    y = mb.add_tensor([1, 4], "int8", "y")
    mb.add_operator(
        "CUSTOM",
        [cms, ro, scratch, fast, x],
        [y],
        custom_code="ethos-u",
        custom_options=b"\x01\x04\x01",
    )
    mb.set_io([x], [y])
    out["ethos_u"] = mb.build()
    out["signal_front_end"] = signal_front_end(MB)
    return out


def signal_front_end(MB) -> bytes:
    """TFLM's audio front end (Signal operators, run by our interpreter too)
    at a small size: 16-point FFT, 4 channels."""
    mb = MB()

    def c(shape, dtype, data):
        return mb.add_tensor(shape, dtype, data=np.asarray(data))

    def t(shape, dtype):
        return mb.add_tensor(shape, dtype)

    def op(name, inputs, outputs, options):
        mb.add_operator(
            "CUSTOM", inputs, outputs, custom_code="Signal" + name, custom_options=options
        )

    audio, win, scaled, shift = t([16], "int16"), t([16], "int16"), t([16], "int16"), t([], "int32")
    spectrum, energy, fb = t([18], "int16"), t([9], "uint32"), t([4], "uint64")
    sqrt, ss, noise, pcan = (t([4], "uint32") for _ in range(4))
    log = t([4], "int16")
    op("Window", [audio, c([16], "int16", np.full(16, 3000))], [win], {"shift": 12})
    op("FftAutoScale", [win], [scaled, shift], {})
    op("Rfft", [scaled], [spectrum], {"T": 7, "fft_length": 16})
    op("Energy", [spectrum], [energy], {"end_index": 9, "start_index": 0})
    tables = [c([5], "int16", v) for v in ([0, 1, 3, 5, 7], [0, 1, 3, 5, 7], [1, 2, 2, 2, 2])]
    weights = [c([9], "int16", np.arange(9) * 400), c([9], "int16", 4096 - np.arange(9) * 400)]
    op("FilterBank", [energy, *weights, *tables], [fb], {"num_channels": 4})
    op("FilterBankSquareRoot", [fb, shift], [sqrt], {})
    options = {
        "alternate_one_minus_smoothing": 15401,
        "alternate_smoothing": 983,
        "clamping": False,
        "min_signal_remaining": 819,
        "num_channels": 4,
        "one_minus_smoothing": 15975,
        "smoothing": 409,
        "smoothing_bits": 10,
        "spectral_subtraction_bits": 14,
    }
    op("FilterBankSpectralSubtraction", [sqrt], [ss, noise], options)
    op("PCAN", [ss, noise, c([125], "int16", np.arange(125) * 50)], [pcan], {"snr_shift": 6})
    op("FilterBankLog", [pcan], [log], {"input_correction_bits": 3, "output_scale": 64})
    mb.set_io([audio], [log])
    return mb.build()


def opcode_offset(data: bytes) -> int | None:
    """Byte offset of operator_codes[0].builtin_code, or None when the model
    has no such field (the hostile sweep's walk of the flatbuffer tables)."""
    sys.path.insert(0, str(REPO / "tests_py"))
    import hostile_sweep

    fields = hostile_sweep.layout(data).fields
    return next((o for o, n in fields.items() if n == "operator_codes[0].builtin_code"), None)


def mutants(name: str, data: bytes) -> dict[str, bytes]:
    """Mutants of a real model the harnesses start from: its first operator
    code past the schema's enum (stock TFLM refuses it) and at CUSTOM, and
    three 32-bit pokes of boundary values at fixed-seed offsets."""
    out: dict[str, bytes] = {}
    off = opcode_offset(data)
    if off is not None:
        for tag, code in (("code_out_of_range", 65581), ("code_custom", 32)):
            b = bytearray(data)
            struct.pack_into("<i", b, off, code)
            out[f"{name}_{tag}"] = bytes(b)
    rng = random.Random(name)
    for k in range(3):
        b = bytearray(data)
        pos = rng.randrange(0, max(1, min(len(b), 4096) - 4)) & ~3
        struct.pack_into("<I", b, pos, rng.choice([0, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 1]))
        out[f"{name}_poke{k}"] = bytes(b)
    return out


def plan_words(words) -> bytes:
    return struct.pack(f"<{len(words)}i", *words)


def planner_seeds() -> dict[str, bytes]:
    """Byte strings the planner harness decodes into records (its first byte
    allows fixed offsets when odd); random ones are as good a start as any."""
    r = random.Random(7)
    seeds = {
        f"records_{i}": bytes(r.randrange(256) for _ in range(n))
        for i, n in enumerate((16, 64, 256, 1024, 4096))
    }
    seeds["empty"] = b""
    return seeds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", type=pathlib.Path)
    ap.add_argument("--models", type=pathlib.Path, default=REPO.parent / "shared" / "models")
    args = ap.parse_args()
    dirs = {h: args.out_dir / h for h in HARNESSES}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)

    models: dict[str, bytes] = {}
    if args.models.is_dir():
        for p in sorted(args.models.glob("*.tflite")):
            models["shared_" + p.stem] = p.read_bytes()
    else:
        print(f"make_seeds: no shared models at {args.models}", file=sys.stderr)
    for name, data in builder_models(load_builder(), load_builder("_sample_models")).items():
        models["builder_" + name] = data

    for name, data in list(models.items()):
        if name.startswith("shared_"):
            models.update(mutants(name, data))
    for h in MODEL_HARNESSES:
        for name, data in models.items():
            (dirs[h] / f"{name}.tflite").write_bytes(data)
    # Raw offline-plan words: valid, wrong version, short, negative offsets.
    for name, words in {
        "plan_valid": [0, 1, 3, 0, -1, 16],
        "plan_version1": [1, 1, 1, 0],
        "plan_header_only": [0, 1, 0],
        "plan_bad_offset": [0, 2, 2, -5, 7],
        "plan_short": [0, 1],
    }.items():
        (dirs["fuzz_offline_plan"] / name).write_bytes(plan_words(words))
    for name, data in planner_seeds().items():
        (dirs["fuzz_planners"] / name).write_bytes(data)
    counts = ", ".join(f"{h} {len(list(d.iterdir()))}" for h, d in dirs.items())
    print(f"make_seeds: {len(models)} models; seeds: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
