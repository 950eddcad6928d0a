"""``tflm-arena inspect``: a model's tensors, operators, lifetimes and peak
step, as tables or JSON."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..model import Model
from ._args import MODEL_HELP
from ._output import jsonable, write_json
from ._plan import Steps

SUMMARY = "tensors, operators, lifetimes and peak step of a model"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help=MODEL_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _tensor_kind(t: Any, r: Any) -> str:
    return (
        "const"
        if t.is_constant
        else "variable"
        if t.is_variable
        else "arena"
        if r is not None
        else "unplanned"
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    m = Model.load(args.model)
    rec = m.usage_records()
    steps = Steps(m, rec)
    live = {(int(r["subgraph"]), int(r["tensor"])): r for r in rec if r["tensor"] >= 0}
    aliases = m.offline_plan_aliases()
    if args.json:
        return write_json(
            jsonable(
                {
                    "model": str(args.model),
                    "bytes": len(m.data),
                    "schema_version": m.version,
                    "description": m.description,
                    "metadata": {name: len(data) for name, data in m.metadata.items()},
                    "offline_plan_aliases": aliases,
                    "peak": steps.peak_json(),
                    "subgraphs": [
                        {
                            "index": sg.index,
                            "name": sg.name,
                            "inputs": list(sg.inputs),
                            "outputs": list(sg.outputs),
                            "tensors": [
                                {
                                    "index": t.index,
                                    "name": t.name,
                                    "type": t.type,
                                    "shape": list(t.shape),
                                    "bytes": t.bytes,
                                    "kind": _tensor_kind(t, live.get((sg.index, t.index))),
                                    "first": (
                                        int(live[(sg.index, t.index)]["first"])
                                        if (sg.index, t.index) in live
                                        else None
                                    ),
                                    "last": (
                                        int(live[(sg.index, t.index)]["last"])
                                        if (sg.index, t.index) in live
                                        else None
                                    ),
                                }
                                for t in sg.tensors
                            ],
                            "operators": [
                                {
                                    "index": o.index,
                                    "name": o.name,
                                    "steps": steps.op_steps.get((sg.index, o.index), []),
                                    "inputs": list(o.inputs),
                                    "outputs": list(o.outputs),
                                }
                                for o in sg.operators
                            ],
                        }
                        for sg in m.subgraphs
                    ],
                }
            ),
            out,
        )
    out.write(
        f"{args.model}: {len(m.data)} bytes, schema version {m.version}, "
        f"{len(m.subgraphs)} subgraph(s)\n"
    )
    if m.description:
        out.write(f"description: {m.description}\n")
    for name, data in m.metadata.items():
        out.write(f"metadata {name!r}: {len(data)} bytes\n")
    for a in aliases:
        out.write(
            f"offline plan alias (deliberate, as NPU compilers write them): tensors "
            f"{a['tensors'][0]} {a['names'][0]!r} and {a['tensors'][1]} {a['names'][1]!r} "
            f"share bytes [{a['shared_bytes'][0]}, {a['shared_bytes'][1]}) at steps "
            f"{a['steps'][0]}..{a['steps'][1]}\n"
        )
    out.write(steps.peak_line())
    for sg in m.subgraphs:
        out.write(
            f"\nsubgraph {sg.index} {sg.name!r}: inputs {list(sg.inputs)}, "
            f"outputs {list(sg.outputs)}\n"
        )
        out.write(
            f"{'#':>4} {'type':<8} {'shape':<18} {'bytes':>8} {'kind':<9} "
            f"{'first':>5} {'last':>5}  name\n"
        )
        for t in sg.tensors:
            r = live.get((sg.index, t.index))
            first = f"{r['first']:>5} {r['last']:>5}" if r is not None else f"{'':>5} {'':>5}"
            out.write(
                f"{t.index:>4} {t.type:<8} {list(t.shape)!s:<18} "
                f"{t.bytes if t.bytes is not None else '-':>8} {_tensor_kind(t, r):<9} "
                f"{first}  {t.name}\n"
            )
        out.write(f"{'#':>4} {'step':>5} operator\n")
        for o in sg.operators:
            at = ",".join(str(s) for s in steps.op_steps.get((sg.index, o.index), [])) or "-"
            out.write(f"{o.index:>4} {at:>5} {o.name} {list(o.inputs)} -> {list(o.outputs)}\n")
    return 0
