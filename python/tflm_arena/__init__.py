"""tflm_arena: tensor-arena planning and inspection for TensorFlow Lite Micro.

>>> import tflm_arena as ta
>>> p = ta.plan([10, 20], first=[0, 2], last=[1, 3])
>>> p.arena_bytes
20

Constants (tuples of names and numpy record layouts):

- ``STRATEGIES``: every strategy :func:`plan` accepts;
  ``BEST_STRATEGIES``: what ``strategy="best"`` tries;
  ``OBJECT_STRATEGIES``: what :func:`assign_objects` accepts;
  ``RUNTIME_PLANNERS``: the planners an :class:`Interpreter` runs with.

>>> "tflm_greedy" in ta.STRATEGIES and "best" in ta.STRATEGIES
True
>>> set(ta.BEST_STRATEGIES) <= set(ta.STRATEGIES), ta.RUNTIME_PLANNERS
(True, ('tflm_greedy', 'linear'))
>>> ta.OBJECT_STRATEGIES[:2]
('naive', 'equality')

- ``TARGETS``: the stock-TFLM builds :func:`tflm_arena` sizes, default
  (``DEFAULT_TARGET``) first; :func:`targets` describes each.

>>> ta.TARGETS[0] == ta.DEFAULT_TARGET
True

- ``BOARDS``: common development boards (:func:`boards` describes each,
  :func:`fit` / :func:`assert_fits` check a model against one).

>>> "raspberry-pi-pico" in ta.BOARDS
True

- ``PLACEMENTS``: where a :func:`fit` may put the arena on a board (internal
  RAM, external RAM, or two buffers split between them), in the order tried.

>>> ta.PLACEMENTS[0]
'internal'

- ``RECORD_DTYPE``: planner input rows (:func:`make_records`);
  ``MODEL_RECORD_DTYPE``: a model's rows (:meth:`Model.usage_records`);
  ``PLAN_DTYPE``: an interpreter's head plan (:meth:`Interpreter.memory_plan`).

>>> ta.RECORD_DTYPE.names
('size', 'first', 'last', 'fixed_offset')
>>> ta.MODEL_RECORD_DTYPE.names[4:]
('subgraph', 'tensor', 'global_tensor', 'scratch')
>>> ta.PLAN_DTYPE.names
('tensor', 'offset', 'size', 'first', 'last', 'subgraph', 'scratch')
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from . import _core
from . import viz as viz  # pictures; matplotlib is imported only when drawing
from ._core import ArenaTooSmallError, TflmRefusesModelError
from ._objects import OBJECT_STRATEGIES, SharedObjects, assign_objects
from ._plan import (
    BEST_STRATEGIES,
    STRATEGIES,
    OfflinePlanAliasWarning,
    Plan,
    plan,
    strategies,
)
from ._records import RECORD_DTYPE, make_records
from .boards import (
    BOARDS,
    PLACEMENTS,
    Board,
    Fit,
    Placement,
    assert_fits,
    board,
    board_target,
    board_targets,
    boards,
    fit,
)
from .interpreter import PLAN_DTYPE, RUNTIME_PLANNERS, Interpreter
from .model import MODEL_RECORD_DTYPE, Model, Operator, Subgraph, Tensor
from .optimize import Attempt, Optimization, optimize
from .reorder import Reordering, remap_scratch, reorder
from .report import report_html, write_report
from .resolver import resolver_ops, runtime_resolver_cpp, tflm_resolver_cpp
from .rewrite import Rewrite, TilingChoice, rewrite
from .stack_versions import OperatorChange, StackComparison, compare_stacks, versions
from .tflm_plan import TflmPlan, plan_for_tflm, tflm_scratch_requests
from .tflm_size import (
    DEFAULT_TARGET,
    TARGETS,
    ChosenForAnotherTargetWarning,
    TflmArena,
    TflmSharedArena,
    TflmSplitArena,
    targets,
    tflm_arena,
    tflm_shared_arena,
    tflm_split_arena,
)

ArenaTooSmallError.__doc__ = """An arena too small for the model; ``needed_bytes`` is the
exact size it needs (a MemoryError).

>>> import tflm_arena as ta
>>> try:
...     ta.Interpreter(model_path="hello_world_int8.tflite", arena_size=100).allocate_tensors()
... except ta.ArenaTooSmallError as e:
...     print(e.needed_bytes)
1376
"""

try:
    __version__ = _version("tflm_arena")
except PackageNotFoundError:  # running from a source tree
    __version__ = _core.__version__

__all__ = [
    "BEST_STRATEGIES",
    "BOARDS",
    "DEFAULT_TARGET",
    "MODEL_RECORD_DTYPE",
    "OBJECT_STRATEGIES",
    "PLACEMENTS",
    "PLAN_DTYPE",
    "RECORD_DTYPE",
    "RUNTIME_PLANNERS",
    "STRATEGIES",
    "TARGETS",
    "ArenaTooSmallError",
    "Attempt",
    "Board",
    "ChosenForAnotherTargetWarning",
    "Fit",
    "Interpreter",
    "Model",
    "OfflinePlanAliasWarning",
    "Operator",
    "OperatorChange",
    "Optimization",
    "Placement",
    "Plan",
    "Reordering",
    "Rewrite",
    "SharedObjects",
    "StackComparison",
    "Subgraph",
    "Tensor",
    "TflmArena",
    "TflmPlan",
    "TflmRefusesModelError",
    "TflmSharedArena",
    "TflmSplitArena",
    "TilingChoice",
    "assert_fits",
    "assign_objects",
    "board",
    "board_target",
    "board_targets",
    "boards",
    "compare_stacks",
    "fit",
    "make_records",
    "optimize",
    "plan",
    "plan_for_tflm",
    "remap_scratch",
    "reorder",
    "report_html",
    "resolver_ops",
    "rewrite",
    "runtime_resolver_cpp",
    "strategies",
    "targets",
    "tflm_arena",
    "tflm_resolver_cpp",
    "tflm_scratch_requests",
    "tflm_shared_arena",
    "tflm_split_arena",
    "versions",
    "write_report",
]
