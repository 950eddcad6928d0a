"""Built-in example inputs (facts from TFLM's own planner tests)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from ._records import make_records

# (size, first, last) of the 30 activation buffers of TFLM's 250 KB MobileNet
# person-detection model, as used by TFLM's greedy planner unit test.
_PERSON_DETECTION = [
    (9216, 0, 29),
    (3, 28, 29),
    (256, 27, 28),
    (2304, 26, 27),
    (2304, 25, 26),
    (2304, 24, 25),
    (1152, 23, 24),
    (4608, 22, 23),
    (4608, 21, 22),
    (4608, 20, 21),
    (4608, 19, 20),
    (4608, 18, 19),
    (4608, 17, 18),
    (4608, 16, 17),
    (4608, 15, 16),
    (4608, 14, 15),
    (4608, 13, 14),
    (4608, 12, 13),
    (2304, 11, 12),
    (9216, 10, 11),
    (9216, 9, 10),
    (9216, 8, 9),
    (4608, 7, 8),
    (18432, 6, 7),
    (18432, 5, 6),
    (18432, 4, 5),
    (9216, 3, 4),
    (36864, 2, 3),
    (18432, 1, 2),
    (18432, 0, 1),
]


def person_detection_records() -> np.ndarray:
    """The 30 buffers of TFLM's TestPersonDetectionModel as usage records."""
    s, f, l_ = zip(*_PERSON_DETECTION, strict=True)
    return make_records(s, f, l_)


def demo_model_bytes(seed: int = 0) -> bytes:
    """A small float model built with our own builder: an MLP with two
    residual branches, so tensors live for different spans and planning has
    something to reuse. Runs in TFLM (FULLY_CONNECTED and ADD only)."""
    from .builder import ModelBuilder

    rng = np.random.default_rng(seed)
    mb = ModelBuilder(description="tflm_arena demo: residual MLP")
    width = [32, 96, 96, 64, 64, 10]
    x = mb.add_tensor([1, width[0]], "float32", "input")
    inp = x
    skip = None
    for i, (n_in, n_out) in enumerate(itertools.pairwise(width)):
        w = mb.add_tensor(
            [n_out, n_in],
            "float32",
            f"fc{i}/weights",
            data=(rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)).astype(np.float32),
        )
        b = mb.add_tensor(
            [n_out],
            "float32",
            f"fc{i}/bias",
            data=rng.standard_normal(n_out).astype(np.float32) * 0.1,
        )
        y = mb.add_tensor([1, n_out], "float32", f"fc{i}/out")
        mb.add_operator(
            "FULLY_CONNECTED", [x, w, b], [y], options={"fused_activation_function": "RELU"}
        )
        if skip is not None and n_in == n_out:  # residual connection
            s = mb.add_tensor([1, n_out], "float32", f"res{i}/out")
            mb.add_operator("ADD", [y, skip], [s])
            y = s
        skip = y
        x = y
    mb.set_io([inp], [x])
    return mb.build()


def branchy_model_bytes(offline_plan: Sequence[int] | None = None) -> bytes:
    """Two FULLY_CONNECTED branches with 1 KB intermediates joined by ADD,
    written with both big tensors made first (x -> A1 -> A2, x -> B1 -> B2,
    A2 + B2 -> y; operators A1, B1, A2, B2, ADD): running one branch to its
    end first lowers the peak (2,112 -> 1,152 bytes), the case
    :func:`tflm_arena.reorder` exists for. ``offline_plan`` (offsets per
    tensor, -1 = online) is written as OfflineMemoryAllocation metadata."""
    from .builder import ModelBuilder, offline_plan_metadata

    rng = np.random.default_rng(7)
    mb = ModelBuilder(description="tflm_arena example: two branches")
    x = mb.add_tensor([1, 16], "float32", "x")

    def fc(n_in: int, n_out: int, name: str) -> tuple[int, int]:
        w = mb.add_tensor(
            [n_out, n_in],
            "float32",
            name + "_w",
            data=rng.standard_normal((n_out, n_in)).astype(np.float32),
        )
        return w, mb.add_tensor([1, n_out], "float32", name)

    wa1, a1 = fc(16, 256, "a1")
    wb1, b1 = fc(16, 256, "b1")
    wa2, a2 = fc(256, 16, "a2")
    wb2, b2 = fc(256, 16, "b2")
    y = mb.add_tensor([1, 16], "float32", "y")
    mb.add_operator("FULLY_CONNECTED", [x, wa1, -1], [a1])
    mb.add_operator("FULLY_CONNECTED", [x, wb1, -1], [b1])
    mb.add_operator("FULLY_CONNECTED", [a1, wa2, -1], [a2])
    mb.add_operator("FULLY_CONNECTED", [b1, wb2, -1], [b2])
    mb.add_operator("ADD", [a2, b2], [y])
    mb.set_io([x], [y])
    if offline_plan is not None:
        mb.add_metadata("OfflineMemoryAllocation", offline_plan_metadata(offline_plan))
    return mb.build()
