"""tflm_arena: tensor-arena planning and inspection for TensorFlow Lite Micro.

>>> import tflm_arena as ta
>>> p = ta.plan([10, 20], first=[0, 2], last=[1, 3])
>>> p.arena_bytes
20
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as _version

from . import _core
from ._core import ArenaTooSmallError
from ._objects import OBJECT_STRATEGIES, SharedObjects, assign_objects
from ._plan import BEST_STRATEGIES, STRATEGIES, Plan, plan
from ._records import RECORD_DTYPE, make_records
from .interpreter import PLAN_DTYPE, RUNTIME_PLANNERS, Interpreter
from .model import MODEL_RECORD_DTYPE, Model, Operator, Subgraph, Tensor
from .tflm_plan import TflmPlan, plan_for_tflm, tflm_scratch_requests
from .reorder import Reordering, remap_scratch, reorder
from .tflm_size import TflmArena, tflm_arena
from .optimize import Attempt, Optimization, optimize

try:
    __version__ = _version("tflm_arena")
except PackageNotFoundError:  # running from a source tree
    __version__ = _core.__version__

__all__ = [
    "ArenaTooSmallError",
    "Attempt",
    "BEST_STRATEGIES",
    "OBJECT_STRATEGIES",
    "SharedObjects",
    "assign_objects",
    "Interpreter",
    "PLAN_DTYPE",
    "RUNTIME_PLANNERS",
    "MODEL_RECORD_DTYPE",
    "Model",
    "Operator",
    "Optimization",
    "Subgraph",
    "Tensor",
    "TflmArena",
    "TflmPlan",
    "Plan",
    "RECORD_DTYPE",
    "STRATEGIES",
    "make_records",
    "optimize",
    "plan",
    "plan_for_tflm",
    "Reordering",
    "remap_scratch",
    "reorder",
    "tflm_arena",
    "tflm_scratch_requests",
]
