"""A plain, obviously-correct transcription of TFLM's greedy planner rules
(TFLM's greedy_memory_planner.cc: offline buffers first in index order,
online ones by size descending, ties to the higher index; each placed at
the lowest offset that fits beside the buffers alive at the same time;
the arena is the largest end offset), written for cross-checking only: quadratic, no
cleverness."""

from __future__ import annotations

from collections.abc import Sequence


def reference_greedy(
    sizes: Sequence[int], first: Sequence[int], last: Sequence[int], fixed: Sequence[int]
) -> tuple[list[int], int]:
    n = len(sizes)
    offline = [i for i in range(n) if fixed[i] != -1]  # index order, unsorted
    online = [i for i in reversed(range(n)) if fixed[i] == -1]  # descending index
    # Stable sort by size, largest first: ties keep the descending-index order.
    online.sort(key=lambda i: -sizes[i])
    order = offline + online

    offsets = [-1] * n
    placed: list[int] = []  # ids kept sorted by offset; equal offsets: newer after
    for b in order:
        if fixed[b] != -1:
            off = fixed[b]
        else:
            cand = 0
            off = None
            for e in placed:
                if first[e] > last[b] or first[b] > last[e]:
                    continue  # not live together
                if offsets[e] - cand >= sizes[b]:
                    off = cand
                    break
                cand = max(cand, offsets[e] + sizes[e])
            if off is None:
                off = cand
        offsets[b] = off
        pos = 0
        while pos < len(placed) and offsets[placed[pos]] <= off:
            pos += 1
        placed.insert(pos, b)
    arena = max((offsets[i] + sizes[i] for i in range(n)), default=0)
    return offsets, arena
