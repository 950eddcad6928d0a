"""Model: a verified, read-only view of a .tflite file."""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from . import _core
from ._atomic_write import write_atomic
from ._core import TflmRefusesModelError
from ._records import RECORD_DTYPE, columns
from ._targets import DEFAULT_TARGET, stock_head, warn_if_chosen_for_another

if TYPE_CHECKING:  # _plan imports tflm_size, which imports this module
    from ._plan import Plan

#: Usage records of a model: the planner columns plus where each buffer
#: comes from (``tensor`` is the subgraph-local index, -1 for scratch
#: buffers; ``global_tensor`` indexes all subgraphs' tensors concatenated,
#: as TFLM's offline plan does).
MODEL_RECORD_DTYPE = np.dtype(
    RECORD_DTYPE.descr
    + [("subgraph", "<i4"), ("tensor", "<i4"), ("global_tensor", "<i4"), ("scratch", "<i4")]
)

PathLike = Union[str, "os.PathLike[str]"]

#: Largest file Model.load reads by default (TFLite flatbuffers address
#: their tables within 2 GiB).
MAX_MODEL_BYTES = 2**31


class _LargerHeadError(ValueError):
    """with_offline_plan's refusal: stock TFLM's head would grow (``before``
    and ``after`` in bytes, on ``target``), so the CLI can word it."""

    def __init__(self, message: str, before: int, after: int, target: str) -> None:
        super().__init__(message)
        self.before, self.after, self.target = before, after, target


class ModelNotFoundError(FileNotFoundError, ValueError):
    """Model.load's error for a missing file: a FileNotFoundError, and
    still a ValueError as every other unreadable model (older callers).
    Its text is one plain sentence (no "[Errno 2]" prefix); ``errno`` and
    ``filename`` are set as on any FileNotFoundError.

    >>> try:
    ...     Model.load("no_such_model.tflite")
    ... except ModelNotFoundError as e:
    ...     print(e)
    cannot read model no_such_model.tflite: no such file
    """

    def __str__(self) -> str:
        return str(self.strerror)


def _frozen_array(values: Any, dtype: Any) -> np.ndarray:
    """A read-only copy (the caller's array stays writable)."""
    a = np.array(values, dtype=dtype)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Tensor:
    """One tensor of a :class:`Model` (immutable: compares and hashes by
    value; ``scale`` and ``zero_point`` are read-only arrays).

    >>> t = Model.load("hello_world_int8.tflite").tensors[0]
    >>> t.type, t.shape
    ('INT8', (1, 1))
    """

    subgraph: int
    index: int
    name: str
    type: str
    shape: tuple[int, ...]
    shape_signature: tuple[int, ...] | None
    buffer: int
    is_variable: bool
    is_constant: bool
    bytes: int | None  # None for types without an element size (e.g. STRING)
    scale: np.ndarray
    zero_point: np.ndarray
    quantized_dimension: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "scale", _frozen_array(self.scale, np.float32))
        object.__setattr__(self, "zero_point", _frozen_array(self.zero_point, np.int64))

    def _key(self) -> tuple[Any, ...]:
        return tuple(
            tuple(v.tolist()) if isinstance(v, np.ndarray) else v
            for v in (getattr(self, f.name) for f in fields(self))
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


@dataclass(frozen=True)
class Operator:
    """One operator of a :class:`Model` (immutable, compares and hashes).

    >>> op = Model.load("hello_world_int8.tflite").operators[0]
    >>> op.name, op.inputs
    ('FULLY_CONNECTED', (0, 6, 5))
    """

    subgraph: int
    index: int
    name: str  # builtin name (e.g. "CONV_2D") or the custom code
    builtin_code: int
    custom_code: str
    version: int
    inputs: tuple[int, ...]  # -1 = omitted optional input
    outputs: tuple[int, ...]
    intermediates: tuple[int, ...]
    called_subgraphs: tuple[int, ...]


@dataclass(frozen=True)
class Subgraph:
    """One subgraph: its tensors and operators (immutable, compares and
    hashes; its repr is one line, not every tensor).

    >>> Model.load("hello_world_int8.tflite").subgraphs
    (Subgraph(index=0, name='main', inputs=(0,), outputs=(9,), 10 tensors, 3 operators),)
    """

    index: int
    name: str
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    tensors: tuple[Tensor, ...]
    operators: tuple[Operator, ...]

    def __repr__(self) -> str:
        return (
            f"Subgraph(index={self.index}, name={self.name!r}, inputs={self.inputs}, "
            f"outputs={self.outputs}, {len(self.tensors)} tensors, "
            f"{len(self.operators)} operators)"
        )


def _tensor(s: int, d: dict[str, Any]) -> Tensor:
    sig = d["shape_signature"]
    return Tensor(
        subgraph=s,
        index=d["index"],
        name=d["name"],
        type=d["type"],
        shape=tuple(d["shape"]),
        shape_signature=None if sig is None else tuple(sig),
        buffer=d["buffer"],
        is_variable=d["is_variable"],
        is_constant=d["is_constant"],
        bytes=d["bytes"],
        scale=d["scale"],
        zero_point=d["zero_point"],
        quantized_dimension=d["quantized_dimension"],
    )


def _operator(s: int, d: dict[str, Any]) -> Operator:
    return Operator(
        subgraph=s,
        index=d["index"],
        name=d["name"],
        builtin_code=d["builtin_code"],
        custom_code=d["custom_code"],
        version=d["version"],
        inputs=tuple(d["inputs"]),
        outputs=tuple(d["outputs"]),
        intermediates=tuple(d["intermediates"]),
        called_subgraphs=tuple(d["called_subgraphs"]),
    )


class Model:
    """A .tflite model, verified on load; never modified in place.

    ``Model.load(path)`` / ``Model.from_bytes(data)`` raise ``ValueError``
    naming what is wrong for malformed input.

    >>> import tflm_arena as ta
    >>> m = ta.Model.load("hello_world_int8.tflite")
    >>> len(m.tensors), m.inputs, m.outputs
    (10, (0,), (9,))
    """

    def __init__(self, data: bytes, *, path: Path | None = None) -> None:
        self._data = bytes(data)
        self._handle = _core.ModelHandle(self._data)
        self.path = path
        self._subgraphs: tuple[Subgraph, ...] | None = None
        self._chosen_for: str | None = None

    @property
    def chosen_for(self) -> str | None:
        """The stock-TFLM build (``TARGET@VERSION``) :func:`tflm_arena.optimize`
        or :func:`tflm_arena.rewrite` chose this model for, None for any other
        model. Sizing it for another build warns
        (:class:`tflm_arena.ChosenForAnotherTargetWarning`). Kept in this
        object only, not in the saved file.

        >>> import tflm_arena as ta
        >>> ta.Model.load("hello_world_int8.tflite").chosen_for is None
        True
        """
        return self._chosen_for

    # --- construction -------------------------------------------------
    @classmethod
    def load(cls, path: PathLike, *, max_bytes: int = MAX_MODEL_BYTES) -> Model:
        """Reads and verifies a .tflite file. Only regular files of at most
        ``max_bytes`` are read (a device such as /dev/zero, a pipe or a
        larger file raises ValueError instead of filling memory). A missing
        file raises FileNotFoundError (a :class:`ModelNotFoundError`, which
        is also a ValueError).

        >>> m = Model.load("hello_world_int8.tflite")
        """
        p = Path(path)
        try:
            with open(p, "rb") as f:
                st = os.fstat(f.fileno())
                if not stat.S_ISREG(st.st_mode):
                    raise ValueError(f"cannot read model {p}: not a regular file")
                if st.st_size > max_bytes:
                    raise ValueError(
                        f"cannot read model {p}: {st.st_size} bytes is more than "
                        f"the limit of {max_bytes} bytes (max_bytes=)"
                    )
                data = f.read(max_bytes + 1)
        except FileNotFoundError as e:
            raise ModelNotFoundError(
                e.errno, f"cannot read model {p}: no such file", str(p)
            ) from None
        except OSError as e:
            raise ValueError(f"cannot read model {p}: {e.strerror}") from e
        if len(data) > max_bytes:  # grew while we read it
            raise ValueError(f"cannot read model {p}: more than {max_bytes} bytes")
        return cls(data, path=p)

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> Model:
        return cls(bytes(data))

    # --- contents -----------------------------------------------------
    @property
    def data(self) -> bytes:
        """The model's bytes (immutable)."""
        return self._data

    @property
    def description(self) -> str:
        return self._handle.description

    @property
    def version(self) -> int:
        return self._handle.version

    @property
    def subgraphs(self) -> tuple[Subgraph, ...]:
        if self._subgraphs is None:
            h = self._handle
            out = []
            for s in range(h.num_subgraphs):
                info = h.subgraph(s)
                out.append(
                    Subgraph(
                        index=s,
                        name=info["name"],
                        inputs=tuple(info["inputs"]),
                        outputs=tuple(info["outputs"]),
                        tensors=tuple(_tensor(s, h.tensor(s, t)) for t in range(h.num_tensors(s))),
                        operators=tuple(
                            _operator(s, h.operator(s, o)) for o in range(h.num_operators(s))
                        ),
                    )
                )
            self._subgraphs = tuple(out)
        return self._subgraphs

    @property
    def tensors(self) -> tuple[Tensor, ...]:
        """Tensors of subgraph 0."""
        return self.subgraphs[0].tensors

    @property
    def operators(self) -> tuple[Operator, ...]:
        """Operators of subgraph 0, in execution order."""
        return self.subgraphs[0].operators

    @property
    def inputs(self) -> tuple[int, ...]:
        return self.subgraphs[0].inputs

    @property
    def outputs(self) -> tuple[int, ...]:
        return self.subgraphs[0].outputs

    @property
    def metadata(self) -> dict[str, bytes]:
        """Metadata entries by name (the first entry wins on duplicate names)."""
        out: dict[str, bytes] = {}
        for name, _buffer, data in self._handle.metadata():
            out.setdefault(name, data)
        return out

    @property
    def signatures(self) -> dict[str, dict[str, Any]]:
        """The model's SignatureDefs in file order: signature key ->
        ``{"subgraph": int, "inputs": {name: tensor index},
        "outputs": {name: tensor index}}`` (tensor indices of that subgraph;
        the shape of ``tf.lite``'s full signature list). ``{}`` when the
        model has none. Load checked every index; a repeated key, or a name
        repeated within one signature's inputs or outputs, raises ValueError
        here.

        >>> Model.load("hello_world_int8.tflite").signatures
        {'serving_default': {'subgraph': 0, 'inputs': {'dense_input': 0}, 'outputs': {'dense_2': 9}}}
        """  # noqa: E501 (a doctest's expected output is one line)
        out: dict[str, dict[str, Any]] = {}
        for sig in self._handle.signatures():
            key = sig["key"]
            if key in out:
                raise ValueError(f"model has two SignatureDefs with the key {key!r}")
            entry: dict[str, Any] = {"subgraph": sig["subgraph"]}
            for side in ("inputs", "outputs"):
                names: dict[str, int] = {}
                for name, tensor in sig[side]:
                    if name in names:
                        raise ValueError(f"SignatureDef {key!r} names two {side} {name!r}")
                    names[name] = tensor
                entry[side] = names
            out[key] = entry
        return out

    @property
    def total_tensors(self) -> int:
        return self._handle.total_tensors

    # --- memory -------------------------------------------------------
    def usage_records(self, scratch: Sequence[tuple[int, int, int]] = ()) -> np.ndarray:
        """TFLM's planner input for this model (MODEL_RECORD_DTYPE).

        One record per buffer TFLM plans, in TFLM's order: tensors that need
        arena memory across all subgraphs, then ``scratch`` requests given as
        ``(bytes, operator_index, subgraph)``. Sizes are aligned up to 16;
        lifetimes follow TFLM's allocation scopes; ``fixed_offset`` comes from
        the model's own offline plan (-1 = planned online).
        """
        cols = self._handle.usage_records([(int(s[0]), int(s[1]), int(s[2])) for s in scratch])
        rec = np.empty(len(cols["size"]), dtype=MODEL_RECORD_DTYPE)
        for name in MODEL_RECORD_DTYPE.names or ():
            rec[name] = cols[name]
        return rec

    def offline_plan(self) -> np.ndarray | None:
        """Offsets of the model's OfflineMemoryAllocation metadata, one per
        tensor of all subgraphs (-1 = planned online), or None if absent.

        Stricter than TFLM (which checks only the count): raises ValueError
        for a wrong version, subgraph count or tensor count, and offsets that
        are negative (other than -1) or not multiples of 16. Tensors that
        share bytes while live are deliberate aliases (NPU compilers such as
        Vela write them): they are accepted here and listed by
        :meth:`offline_plan_aliases`; the :class:`Interpreter` refuses to run
        kernels on them.
        """
        offsets = self._handle.offline_plan()
        if offsets is not None:
            rec = self.usage_records()
            try:
                _core.validate_records(*columns(rec), 16)
            except ValueError as e:
                raise ValueError(
                    f"OfflineMemoryAllocation metadata: {self._name_buffers(e, rec)}"
                ) from None
        return offsets

    def offline_plan_aliases(self) -> list[dict[str, Any]]:
        """Pairs of offline-planned tensors that share arena bytes while both
        are live, one dict each: ``subgraphs``, ``tensors``, ``names``,
        ``offsets``, ``shared_bytes`` [begin, end) and ``steps`` (first, last
        common step). Empty without an offline plan or aliases."""
        out: list[dict[str, Any]] = []
        for d in self._handle.offline_plan_aliases():
            (sa, sb), (ta, tb) = d["subgraphs"], d["tensors"]
            d["names"] = (self.subgraphs[sa].tensors[ta].name, self.subgraphs[sb].tensors[tb].name)
            out.append(d)
        return out

    def _name_buffers(self, err: Exception, rec: np.ndarray) -> str:
        """Appends which tensors the planner buffers named in ``err`` are."""
        msg = str(err)
        ids = sorted(
            {
                int(n)
                for pair in re.findall(r"buffers? (\d+)(?: and (\d+))?", msg)
                for n in pair
                if n
            }
        )
        names = []
        for i in ids:
            if i < len(rec) and rec["tensor"][i] >= 0:
                sg, t = int(rec["subgraph"][i]), int(rec["tensor"][i])
                names.append(
                    f"buffer {i} = tensor {t} '{self.subgraphs[sg].tensors[t].name}'"
                    + (f" of subgraph {sg}" if sg else "")
                )
        return msg + (f" ({'; '.join(names)})" if names else "")

    def plan(self, strategy: str = "tflm_greedy", **kwargs: Any) -> Plan:
        """Plans this model (see :func:`tflm_arena.plan`; keywords such as
        ``target``, ``scratch`` and ``time_limit`` are passed on). By default
        the records include the scratch buffers stock TFLM's kernels request
        on the default target, so the ``tflm_greedy`` arena is TFLM's head;
        ``scratch=False`` gives a tensors-only plan.

        >>> m = Model.load("hello_world_int8.tflite")
        >>> m.plan().arena_bytes, m.plan(target="x86-64").scratch_target
        (32, 'x86-64')
        """
        from ._plan import plan as _plan

        return _plan(self, strategy=strategy, **kwargs)

    def with_offline_plan(
        self, plan: Plan, *, target: str | None = None, allow_larger_head: bool = False
    ) -> Model:
        """A new Model whose OfflineMemoryAllocation metadata holds ``plan``.

        ``plan`` must be a :class:`Plan` made from this model's usage records,
        with or without scratch requests (``ta.plan(model)``, ``model.plan()``,
        ``usage_records(scratch=...)``). Only tensor offsets are written:
        TFLM always places kernel scratch buffers online, around the written
        tensors. Tensors the plan does not place (constants, variables
        planned in the tail) get -1. The new bytes are verified and their
        plan re-read before returning.

        Stock TFLM's head is never enlarged silently: it is computed with
        :func:`tflm_arena.tflm_arena` on ``target`` (default: the plan's
        ``scratch_target``, else the default target) for this model and for
        the new one; when the new head is larger, ValueError gives both
        (:func:`tflm_arena.plan_for_tflm` and :func:`tflm_arena.optimize`
        make plans that TFLM keeps), unless ``allow_larger_head=True``, which
        writes it and warns with both numbers. When TFLM's head cannot be
        predicted (an operator whose memory behaviour is not modelled, or a
        model stock TFLM refuses) the plan is written with a warning that the
        head was not checked.
        Anything but a Plan raises TypeError.

        >>> import tflm_arena as ta
        >>> m = ta.Model.load("hello_world_int8.tflite")
        >>> m.with_offline_plan(m.plan()).offline_plan().tolist()
        [16, -1, -1, -1, -1, -1, -1, 0, 16, 0]
        >>> m.with_offline_plan([0, 16])
        Traceback (most recent call last):
        ...
        TypeError: with_offline_plan takes a Plan made from this model (ta.plan(model) or model.plan()), not list
        """  # noqa: E501 (a doctest's expected output is one line)
        new = self._with_offline_plan(plan)
        target = target or plan.scratch_target or DEFAULT_TARGET
        try:
            warn_if_chosen_for_another(self.chosen_for, target, stacklevel=2)
            before = stock_head(self._handle, target)
            after = stock_head(new._handle, target)
        except (NotImplementedError, TflmRefusesModelError) as e:
            warnings.warn(
                f"stock TFLM's head with this plan was not checked ({target}): "
                f"{str(e).splitlines()[0] if str(e) else 'not modelled'}",
                UserWarning,
                stacklevel=2,
            )
            return new
        if after > before:
            what = (
                f"writing this {plan.strategy} plan makes stock TFLM's head larger "
                f"({target}): {before} -> {after} bytes, because TFLM places its kernels' "
                f"scratch buffers online around the written tensors"
            )
            if not allow_larger_head:
                raise _LargerHeadError(
                    f"{what}; ta.plan_for_tflm(model) or ta.optimize(model) make plans TFLM "
                    f"keeps (allow_larger_head=True writes it anyway)",
                    before,
                    after,
                    target,
                )
            warnings.warn(what, UserWarning, stacklevel=2)
        return new

    def _with_offline_plan(self, plan: Plan) -> Model:
        """with_offline_plan without the TFLM head check, for callers that
        judge the head themselves (plan_for_tflm, optimize)."""
        from ._plan import Plan

        if not isinstance(plan, Plan):
            raise TypeError(
                "with_offline_plan takes a Plan made from this model (ta.plan(model) "
                f"or model.plan()), not {type(plan).__name__}"
            )
        rec = plan.records
        if rec.dtype.names is None or "global_tensor" not in rec.dtype.names:
            raise ValueError("plan was not made from a model's usage records")
        mine = self.usage_records()
        is_tensor = rec["scratch"] < 0
        n = len(mine)
        # Tensor rows come first, in this model's order; scratch rows follow.
        if (
            len(rec) < n
            or not np.all(is_tensor[:n])
            or np.any(is_tensor[n:])
            or not all(
                np.array_equal(mine[f], rec[f][:n])
                for f in ("size", "first", "last", "global_tensor")
            )
        ):
            raise ValueError("plan was made from another model's usage records")
        offsets = np.full(self.total_tensors, -1, dtype=np.int64)
        offsets[rec["global_tensor"][:n]] = plan.offsets[:n]
        new = Model(self._handle.with_offline_plan(offsets))
        reread = new.offline_plan()
        if reread is None or not np.array_equal(reread, offsets):
            raise RuntimeError("internal error: written offline plan does not read back")
        return new

    def save(self, path: PathLike, *, overwrite: bool = False) -> Path:
        """Writes the model atomically: a temp file in the destination's
        folder, fsynced, then linked or renamed into place, so a reader sees
        the old file or the whole new one. Without ``overwrite`` an existing
        destination (even a dangling symlink) is never replaced, and the
        check cannot race (the final step is an exclusive link). A new file
        gets the usual mode (0666 less the umask); an overwritten file keeps
        its mode."""
        return write_atomic(Path(path), self._data, overwrite)

    def _repr_html_(self) -> str:
        """Notebook display: key figures, inputs/outputs, operator counts."""
        from . import viz

        return viz.model_html(self)

    def __repr__(self) -> str:
        where = f" {self.path}" if self.path else ""
        return (
            f"<Model{where}: {self._handle.num_subgraphs} subgraph(s), "
            f"{self._handle.total_tensors} tensors, {len(self._data)} bytes>"
        )
