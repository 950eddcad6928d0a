"""Usage records: the planner's input as one numpy structured array."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

#: One row per buffer. Lifetimes are inclusive steps (TFLM's allocation
#: scopes); ``fixed_offset`` is -1 for "let the planner choose".
RECORD_DTYPE = np.dtype(
    [("size", "<i8"), ("first", "<i4"), ("last", "<i4"), ("fixed_offset", "<i8")]
)

_FIELDS: tuple[str, ...] = RECORD_DTYPE.names or ()

ArrayLike = Sequence[int] | np.ndarray


def _int_column(values: Any, name: str, dtype: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.mod(arr, 1) == 0):
            arr = arr.astype(np.int64)
        else:
            raise ValueError(f"{name} must hold integers, got dtype {arr.dtype}")
    info = np.iinfo(dtype)
    if arr.size and (arr.min() < info.min or arr.max() > info.max):
        bad = int(np.flatnonzero((arr < info.min) | (arr > info.max))[0])
        raise ValueError(f"buffer {bad}: {name} value {arr[bad]} does not fit {dtype}")
    return arr.astype(dtype, copy=False)


def make_records(
    sizes: ArrayLike,
    first: ArrayLike,
    last: ArrayLike,
    fixed_offsets: ArrayLike | None = None,
) -> np.ndarray:
    """Builds a RECORD_DTYPE array from columns (sequences or numpy arrays).

    >>> import tflm_arena as ta
    >>> ta.make_records([10, 20], [0, 2], [1, 3])["size"].tolist()
    [10, 20]
    """
    s = _int_column(sizes, "size", "int64")
    f = _int_column(first, "first", "int32")
    l_ = _int_column(last, "last", "int32")
    if not (len(s) == len(f) == len(l_)):
        raise ValueError(
            f"sizes, first and last must have the same length (got {len(s)}, {len(f)}, {len(l_)})"
        )
    if fixed_offsets is None:
        o = np.full(len(s), -1, dtype=np.int64)
    else:
        o = _int_column(fixed_offsets, "fixed_offset", "int64")
        if len(o) != len(s):
            raise ValueError(f"offline_offsets has {len(o)} entries but there are {len(s)} buffers")
    rec = np.empty(len(s), dtype=RECORD_DTYPE)
    rec["size"], rec["first"], rec["last"], rec["fixed_offset"] = s, f, l_, o
    return rec


def as_records(records: Any) -> np.ndarray:
    """Accepts a structured array with fields size, first, last (and
    optionally fixed_offset). Returns a checked copy with RECORD_DTYPE's
    fields first; any extra fields (e.g. a model's tensor columns) are kept."""
    arr = np.asarray(records)
    if arr.dtype.names is None or not {"size", "first", "last"} <= set(arr.dtype.names):
        raise ValueError("records need the fields size, first, last (and optionally fixed_offset)")
    names = arr.dtype.names
    fixed = arr["fixed_offset"] if "fixed_offset" in names else None
    base = make_records(arr["size"], arr["first"], arr["last"], fixed)
    extra = [n for n in names if n not in _FIELDS]
    if not extra:
        return base
    out = np.empty(len(base), dtype=RECORD_DTYPE.descr + [(n, arr.dtype[n]) for n in extra])
    for n in _FIELDS:
        out[n] = base[n]
    for n in extra:
        out[n] = arr[n]
    return out


def records_from_args(
    sizes: Any,
    first: ArrayLike | None,
    last: ArrayLike | None,
    offline_offsets: ArrayLike | None = None,
) -> np.ndarray:
    """The records of ``plan``/``assign_objects`` style arguments: columns
    ``(sizes, first, last[, offline_offsets])``, one records array, or a
    Model (its usage records)."""
    if first is None and last is None:
        if hasattr(sizes, "usage_records"):  # a Model
            sizes = sizes.usage_records()
        return as_records(sizes)
    if first is None or last is None:
        raise ValueError("pass both first and last, or a single records array")
    return make_records(sizes, first, last, offline_offsets)


def columns(rec: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The four contiguous columns the C++ core takes."""
    return (
        np.ascontiguousarray(rec["size"]),
        np.ascontiguousarray(rec["first"]),
        np.ascontiguousarray(rec["last"]),
        np.ascontiguousarray(rec["fixed_offset"]),
    )
