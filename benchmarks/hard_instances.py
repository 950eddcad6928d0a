"""Seeded hard planning instances whose optimum is known.

A time x capacity rectangle (``steps`` x ``capacity`` bytes) is cut
recursively into smaller rectangles; each rectangle is one buffer (size = its
height, lifetime = its columns, inclusive). The rectangles tile the whole
area, so at every step the live sizes add up to exactly ``capacity``: the
lower bound (max live bytes) is ``capacity`` and the tiling itself is a plan
of that size, so the optimum equals ``capacity``.

The default shape follows the "challenging" benchmark suite published with
MiniMalloc: capacity 1,048,576, 1,024 time steps, sizes
multiples of 1,024 bytes (so of 16), 200-450 buffers. Greedy planners land
far above the bound on these (``python benchmarks/hard_instances.py``).
``fine=True`` gives a harder variant: sizes multiples of 16 and only about
buffers / 2 steps, so many more buffers share each step.

Importable by tests and benchmarks::

    from hard_instances import hard_instance
    inst = hard_instance(seed=3)            # dict: sizes, first, last, capacity, offsets
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

CAPACITY = 1_048_576
STEPS = 1024
GRAIN = 1024
FINE_GRAIN = 16


def hard_instance(
    seed: int, buffers: int = 0, steps: int = 0, capacity: int = CAPACITY, fine: bool = False
) -> dict[str, object]:
    """One instance: ``sizes``, ``first``, ``last`` (numpy arrays), the
    ``capacity`` (= lower bound = optimum) and ``offsets`` of the tiling
    (a plan of exactly ``capacity`` bytes). ``buffers`` 0 picks 200..450 from
    the seed; ``steps`` 0 picks 1,024 (``fine``: about buffers / 2)."""
    rng = random.Random(seed)
    n = buffers or rng.randint(200, 450)
    grain = FINE_GRAIN if fine else GRAIN
    t = steps or (max(8, n // 2 + rng.randint(-n // 8, n // 8)) if fine else STEPS)
    if capacity % grain or capacity < grain * 2:
        raise ValueError(f"capacity must be a multiple of {grain} and >= {2 * grain}")
    # rectangles: [t0, t1) x [y0, y1), half-open; cut the largest ones first,
    # with a random direction and a random cut point, so shapes vary from
    # wide-and-flat to tall-and-short.
    rects: list[list[int]] = [[0, t, 0, capacity]]
    while len(rects) < n:
        weights = [(r[1] - r[0]) * (r[3] - r[2]) for r in rects]
        i = rng.choices(range(len(rects)), weights=weights)[0]
        t0, t1, y0, y1 = rects[i]
        can_time = t1 - t0 >= 2
        can_space = (y1 - y0) >= 2 * grain
        if not (can_time or can_space):
            continue
        # favour cutting the longer side (in relative terms), not always
        rel_t = (t1 - t0) / t
        rel_y = (y1 - y0) / capacity
        cut_time = can_time and (not can_space or rng.random() < rel_t / (rel_t + rel_y))
        if cut_time:
            c = rng.randint(t0 + 1, t1 - 1)
            rects[i] = [t0, c, y0, y1]
            rects.append([c, t1, y0, y1])
        else:
            cells = (y1 - y0) // grain
            c = y0 + grain * rng.randint(1, cells - 1)
            rects[i] = [t0, t1, y0, c]
            rects.append([t0, t1, c, y1])
    rng.shuffle(rects)
    sizes = np.array([r[3] - r[2] for r in rects], dtype=np.int64)
    first = np.array([r[0] for r in rects], dtype=np.int32)
    last = np.array([r[1] - 1 for r in rects], dtype=np.int32)
    offsets = np.array([r[2] for r in rects], dtype=np.int64)
    return {
        "seed": seed,
        "sizes": sizes,
        "first": first,
        "last": last,
        "capacity": capacity,
        "offsets": offsets,
    }


def hard_instances(
    count: int = 10, first_seed: int = 1, fine: bool = False
) -> list[dict[str, object]]:
    """``count`` instances with seeds first_seed, first_seed + 1, ..."""
    return [hard_instance(s, fine=fine) for s in range(first_seed, first_seed + count)]


def _main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--fine", action="store_true", help="the harder fine-grained variant")
    args = ap.parse_args(argv)
    import tflm_arena as ta

    print(
        f"{'seed':>4} {'buffers':>7} {'steps':>5} {'bound':>9} {'tflm_greedy':>12} "
        f"{'gap':>7} {'greedy_by_size':>14} {'gap':>7}"
    )
    gaps = []
    for inst in hard_instances(args.count, args.first_seed, args.fine):
        cols = (inst["sizes"], inst["first"], inst["last"])
        lb = ta.plan(*cols, strategy="tflm_greedy").lower_bound
        assert lb == inst["capacity"]
        g = ta.plan(*cols, strategy="tflm_greedy").arena_bytes
        s = ta.plan(*cols, strategy="greedy_by_size").arena_bytes
        gaps.append(g / lb - 1)
        print(
            f"{inst['seed']:>4} {len(inst['sizes']):>7} {int(inst['last'].max()) + 1:>5} "
            f"{lb:>9} {g:>12} {100 * (g / lb - 1):>6.1f}% {s:>14} {100 * (s / lb - 1):>6.1f}%"
        )
    print(f"median tflm_greedy gap {100 * float(np.median(gaps)):.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
