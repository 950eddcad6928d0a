"""Streaming state in our Interpreter, as TFLM's wake-word models keep it:
CALL_ONCE runs an init subgraph once, VAR_HANDLE / READ_VARIABLE /
ASSIGN_VARIABLE keep resource variables between invocations, SPLIT_V cuts
by the outputs' extents. Outputs bit-identical with the real TFLM
(tflite_micro wheel) run after run and after reset(), heads equal; what
TFLM would crash on is a clear error."""

from __future__ import annotations

import numpy as np
import pytest
import tflm_reference as ref
from conftest import require_tflite_micro

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder

Q = {"scale": [0.05], "zero_point": [3]}


def streaming(frames: int = 3, channels: int = 4, two_states: bool = True) -> bytes:
    """microWakeWord's streaming pattern: each Invoke appends the new frame
    to the state, convolves over the window, keeps the last frames as the
    next state. The init subgraph assigns the initial state."""
    mb = ModelBuilder()
    init = mb.add_subgraph("init")
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": init})
    x = mb.add_tensor([1, 1, 1, channels], "int8", "frame", **Q)
    names = ["stream_0", "stream_1"] if two_states else ["stream_0"]
    handles = [mb.add_tensor([], "resource", n) for n in names]
    for h, n in zip(handles, names, strict=True):
        mb.add_operator("VAR_HANDLE", [], [h], options={"container": "", "shared_name": n})
    states = [
        mb.add_tensor([1, frames - 1, 1, channels], "int8", f"read_{k}", **Q)
        for k in range(len(names))
    ]
    for h, s in zip(handles, states, strict=True):
        mb.add_operator("READ_VARIABLE", [h], [s])
    window = mb.add_tensor([1, frames, 1, channels], "int8", "window", **Q)
    mb.add_operator("CONCATENATION", [states[0], x], [window], options={"axis": 1})
    begin = mb.add_tensor([4], "int32", data=np.array([0, 1, 0, 0], np.int32))
    end = mb.add_tensor([4], "int32", data=np.array([1, frames, 1, channels], np.int32))
    ones = mb.add_tensor([4], "int32", data=np.ones(4, np.int32))
    nxt = mb.add_tensor([1, frames - 1, 1, channels], "int8", "next", **Q)
    mb.add_operator("STRIDED_SLICE", [window, begin, end, ones], [nxt])
    mb.add_operator("ASSIGN_VARIABLE", [handles[0], nxt], [])
    out = window
    if two_states:
        # The second state keeps the first channel split off with SPLIT_V.
        size_splits = mb.add_tensor([2], "int32", data=np.array([1, channels - 1], np.int32))
        axis = mb.add_tensor([], "int32", data=np.array(3, np.int32))
        a = mb.add_tensor([1, frames, 1, 1], "int8", "a", **Q)
        b = mb.add_tensor([1, frames, 1, channels - 1], "int8", "b", **Q)
        mb.add_operator("SPLIT_V", [window, size_splits, axis], [a, b], options={"num_splits": 2})
        both = mb.add_tensor([1, frames, 1, channels], "int8", "both", **Q)
        mb.add_operator("CONCATENATION", [b, a], [both], options={"axis": 3})
        nxt2 = mb.add_tensor([1, frames - 1, 1, channels], "int8", "next2", **Q)
        mb.add_operator("STRIDED_SLICE", [both, begin, end, ones], [nxt2])
        mb.add_operator("ASSIGN_VARIABLE", [handles[1], nxt2], [])
        merged = mb.add_tensor([1, 2 * (frames - 1), 1, channels], "int8", "merged", **Q)
        mb.add_operator("CONCATENATION", [states[1], nxt2], [merged], options={"axis": 1})
        out = merged
    # Init: assign the initial states (constants) once.
    for k, n in enumerate(names):
        h = mb.add_tensor([], "resource", n, subgraph=init)
        mb.add_operator(
            "VAR_HANDLE", [], [h], options={"container": "", "shared_name": n}, subgraph=init
        )
        start = np.full((1, frames - 1, 1, channels), 3 + k, np.int8)
        c = mb.add_tensor(start.shape, "int8", f"init_{n}", data=start, subgraph=init, **Q)
        mb.add_operator("ASSIGN_VARIABLE", [h, c], [], subgraph=init)
    mb.set_io([], [], subgraph=init)
    mb.set_io([x], [out])
    return mb.build()


@pytest.mark.parametrize("two_states", [False, True])
def test_streaming_state_is_bit_exact_run_after_run(two_states):
    require_tflite_micro()
    data = streaming(two_states=two_states)
    ours, theirs = ref.compare_runs(data, n_runs=8, seed=1)
    # After reset both start from the variables' defaults (the zero point),
    # and CALL_ONCE does not run again (TFLM's kernel has no reset).
    ours.reset()
    theirs.reset()
    rng = np.random.default_rng(4)
    for _ in range(3):
        x = rng.integers(-128, 128, size=(1, 1, 1, 4)).astype(np.int8)
        want = ref.run(theirs, [x], 1)[0]
        ours.set_input(x)
        ours.invoke()
        np.testing.assert_array_equal(ours.get_output(0), want)


def test_streaming_head_equals_tflm():
    require_tflite_micro()
    data = streaming()
    ours = ta.Interpreter(ta.Model.from_bytes(data))
    ours.allocate_tensors()
    theirs = ref.allocations(ref.interpreter(data))
    assert ours.allocations()["head"] == theirs["head"]


def test_the_init_subgraph_sets_the_first_state():
    """Before any frame the state is the init subgraph's constants (3 and
    4 as int8), not the default zero point."""
    it = ta.Interpreter(ta.Model.from_bytes(streaming(frames=3, two_states=False)))
    it.set_input(np.zeros((1, 1, 1, 4), np.int8))
    it.invoke()
    assert it.get_output(0)[0, :2].ravel().tolist() == [3] * 8
    it.invoke()  # the state moved on: the first frame is now the old second
    assert it.get_output(0)[0, 1].ravel().tolist() == [0] * 4


def _refused(mb: ModelBuilder) -> str:
    it = ta.Interpreter(ta.Model.from_bytes(mb.build()))
    with pytest.raises(ValueError) as e:
        it.allocate_tensors()
    return str(e.value)


def test_a_call_once_of_its_own_subgraph_is_refused():
    mb = ModelBuilder()
    x = mb.add_tensor([2], "int8", "x")
    y = mb.add_tensor([2], "int8", "y")
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": 0})
    mb.add_operator("RESHAPE", [x], [y], options={"new_shape": [2]})
    mb.set_io([x], [y])
    assert "init subgraph 0 is not another of the model's 1 subgraphs" in _refused(mb)


def test_reading_a_variable_of_another_size_is_refused():
    mb = ModelBuilder()
    x = mb.add_tensor([4], "int8", "x")
    h = mb.add_tensor([], "resource", "h")
    mb.add_operator("VAR_HANDLE", [], [h], options={"container": "", "shared_name": "v"})
    mb.add_operator("ASSIGN_VARIABLE", [h, x], [])
    y = mb.add_tensor([8], "int8", "y")
    mb.add_operator("READ_VARIABLE", [h], [y])
    mb.set_io([x], [y])
    it = ta.Interpreter(ta.Model.from_bytes(mb.build()))
    it.set_input(np.zeros(4, np.int8))
    with pytest.raises(ValueError, match="an output of 8 bytes for a variable of 4"):
        it.invoke()


@pytest.mark.parametrize("splits", [[1, 3], [2, 2], [1, 1, 2]])
def test_split_v_is_bit_exact(splits):
    require_tflite_micro()
    mb = ModelBuilder()
    x = mb.add_tensor([2, 4, 3], "int16", "x")
    sizes = mb.add_tensor([len(splits)], "int32", data=np.array(splits, np.int32))
    axis = mb.add_tensor([], "int32", data=np.array(-2, np.int32))
    outs = [mb.add_tensor([2, s, 3], "int16", f"y{k}") for k, s in enumerate(splits)]
    mb.add_operator("SPLIT_V", [x, sizes, axis], outs, options={"num_splits": len(splits)})
    mb.set_io([x], outs)
    ref.compare_runs(mb.build(), n_runs=3, seed=2)


def test_split_v_extents_that_do_not_add_up_are_refused():
    mb = ModelBuilder()
    x = mb.add_tensor([4, 3], "float32", "x")
    sizes = mb.add_tensor([2], "int32", data=np.array([1, 2], np.int32))
    axis = mb.add_tensor([], "int32", data=np.array(0, np.int32))
    outs = [mb.add_tensor([1, 3], "float32", "a"), mb.add_tensor([2, 3], "float32", "b")]
    mb.add_operator("SPLIT_V", [x, sizes, axis], outs, options={"num_splits": 2})
    mb.set_io([x], outs)
    assert "axis extents add up to 3, the input's is 4" in _refused(mb)


def test_call_once_cycles_stop_with_an_error():
    """Subgraph 1 calls 2, which calls 1 again: TFLM would recurse until the
    stack overflows; ours refuses the model when it allocates (the
    interpreter also stops any nesting deeper than 8)."""
    mb = ModelBuilder()
    one, two = mb.add_subgraph("one"), mb.add_subgraph("two")
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": one})
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": two}, subgraph=one)
    mb.add_operator("CALL_ONCE", [], [], options={"init_subgraph_index": one}, subgraph=two)
    for sg in (one, two):
        mb.set_io([], [], subgraph=sg)
    x = mb.add_tensor([2], "int8", "x")
    y = mb.add_tensor([2], "int8", "y")
    mb.add_operator("RESHAPE", [x], [y], options={"new_shape": [2]})
    mb.set_io([x], [y])
    it = ta.Interpreter(ta.Model.from_bytes(mb.build()))
    with pytest.raises(
        ValueError, match=r"control-flow cycle: subgraph 2 operator 0 \(CALL_ONCE\)"
    ):
        it.allocate_tensors()
