"""Untrusted input through the Python API: a .tflite file and the
arguments a user passes are untrusted. Each test names the defect it pins
down; each failed (crash, silent corruption or a bare exception) before the
fix."""

from __future__ import annotations

import os
import stat
import threading
import time

import numpy as np
import pytest

import tflm_arena as ta
from tflm_arena import _sample_models as sm
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli import main as cli


def _fc_model(weight_bytes=None) -> bytes:
    """x[1,4] -> FULLY_CONNECTED(w[2,4], b[2]) -> y[1,2], float32."""
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    w_data = (
        weight_bytes if weight_bytes is not None else np.arange(8, dtype=np.float32).reshape(2, 4)
    )
    w = mb.add_tensor([2, 4], "float32", "w", data=w_data)
    b = mb.add_tensor([2], "float32", "b", data=np.array([0.5, -1], np.float32))
    y = mb.add_tensor([1, 2], "float32", "y")
    mb.add_operator("FULLY_CONNECTED", [x, w, b], [y])
    mb.set_io([x], [y])
    return mb.build()


# --- defect 2: constant buffer shorter than its tensor's shape ----------------
def test_constant_buffer_shorter_than_its_shape_is_refused_at_load():
    with pytest.raises(
        ValueError,
        match=r"tensor 1 \('w'\): constant buffer \d+ holds 16 bytes "
        r"but the tensor's shape needs 32",
    ):
        ta.Model.from_bytes(_fc_model(weight_bytes=bytes(16)))


# --- defect 3: builtin options of another operator ----------------------------
def test_options_of_another_operator_are_refused_at_load():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4, 4, 1], "float32", "x")
    w = mb.add_tensor([1, 1, 1, 1], "float32", "w", data=np.ones((1, 1, 1, 1), np.float32))
    y = mb.add_tensor([1, 4, 4, 1], "float32", "y")
    mb.add_operator("SOFTMAX", [x, w], [y], options={"beta": 1.0})
    mb._opcodes[0] = (3, None, 1)  # now CONV_2D, still carrying SoftmaxOptions
    mb.set_io([x], [y])
    with pytest.raises(
        ValueError,
        match=r"operator 0: CONV_2D carries builtin options of type 9 "
        r"\(SoftmaxOptions\); it takes Conv2DOptions",
    ):
        ta.Model.from_bytes(mb.build())


# --- defect 5: constants are read-only views of the model ---------------------
def test_constant_views_are_read_only_and_model_bytes_never_change():
    m = ta.Model.from_bytes(_fc_model())
    before = bytes(m.data)
    it = ta.Interpreter(m)
    it.allocate_tensors()
    w = it.tensor_view(1)
    assert not w.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        w[...] = 99
    it.set_input(np.ones((1, 4), np.float32))
    it.invoke()
    it2 = ta.Interpreter(m)
    it2.set_input(np.ones((1, 4), np.float32))
    it2.invoke()
    np.testing.assert_array_equal(it2.get_output(), [[6.5, 21.0]])
    assert m.data == before
    assert it.input(0).flags.writeable  # activations stay writable


# --- defect 6: absurd arena sizes ---------------------------------------------
@pytest.mark.parametrize("size", [2**64 - 1, 2**40, 2**31])
def test_absurd_arena_size_is_a_clear_error(size):
    m = ta.Model.from_bytes(_fc_model())
    with pytest.raises(ValueError, match="larger than the limit of 2147483647 bytes"):
        ta.Interpreter(m, arena_size=size)


# --- defect 7: preallocated buffers ------------------------------------------
def test_object_dtype_preallocation_is_refused():
    m = ta.Model.from_bytes(_fc_model())
    it = ta.Interpreter(m)
    with pytest.raises(ValueError, match="plain numeric or bool dtype"):
        it.register_preallocated(0, np.empty(8, dtype=object))


def test_one_array_for_two_live_tensors_is_refused():
    m = ta.Model.from_bytes(sm.add_constant_twice())  # x + c -> t, t + c -> y
    buf = np.zeros(32, np.float32)
    raw = np.zeros(64 + 16, np.uint8)
    start = (-raw.ctypes.data) % 16
    buf = raw[start : start + 64].view(np.float32)
    it = ta.Interpreter(m)
    it.register_preallocated(0, buf)  # x: steps 0..1
    with pytest.raises(ValueError, match="share memory while both tensors are live"):
        it.register_preallocated(2, buf)  # t: steps 1..2, live with x at 1
    # y (steps 2..) never meets x: sharing is allowed and outputs are right.
    it.register_preallocated(3, buf)
    it.set_input(np.full((1, 16), 2.0, np.float32))
    it.invoke()
    np.testing.assert_array_equal(it.get_output(), np.full((1, 16), 4.0, np.float32))


# --- defect 8: outputs that would read uninitialized arena memory -------------
def test_output_no_operator_writes_is_refused():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    ghost = mb.add_tensor([1, 4], "float32", "ghost")
    mb.add_operator("RESHAPE", [x], [y], options={"new_shape": [1, 4]})
    mb.set_io([x], [y, ghost])
    with pytest.raises(
        ValueError,
        match=r"output 1 of subgraph 0 \(tensor 2, 'ghost'\) is "
        r"written by no operator",
    ):
        ta.Interpreter(ta.Model.from_bytes(mb.build())).allocate_tensors()


# --- defect 10: names that are not UTF-8 --------------------------------------
def _bad_name_model() -> bytes:
    """A tensor name patched in place (same length) to invalid UTF-8."""
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "input_UNIQUE_NAME")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("LSH_PROJECTION", [x], [y])  # no kernel: errors quote names
    mb.set_io([x], [y])
    data = mb.build()
    bad = b"input_\xff\xfe_NAME\xc3(xx"
    assert len(bad) == len(b"input_UNIQUE_NAME")
    return data.replace(b"input_UNIQUE_NAME", bad)


def test_non_utf8_names_are_decoded_with_replacement(tmp_path, capsys):
    m = ta.Model.from_bytes(_bad_name_model())
    name = m.tensors[0].name
    assert name.startswith("input_") and "\ufffd" in name
    path = tmp_path / "bad.tflite"
    path.write_bytes(m.data)
    assert cli(["inspect", str(path)]) == 0
    assert "input_\ufffd" in capsys.readouterr().out
    # An error message quoting the name keeps its real cause.
    with pytest.raises(NotImplementedError, match="no kernel for 1 operator type: LSH_PROJECTION"):
        ta.Interpreter(m)


# --- defect 11: whole error chain, every missing operator ---------------------
def test_missing_kernels_raise_not_implemented_naming_each():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    a = mb.add_tensor([1, 4], "float32", "a")
    b = mb.add_tensor([1, 4], "float32", "b")
    y = mb.add_tensor([1, 4], "float32", "y")
    mb.add_operator("LSH_PROJECTION", [x], [a])
    mb.add_operator("FLOOR", [a], [b])
    mb.add_operator("LSH_PROJECTION", [b], [y])
    mb.set_io([x], [y])
    m = ta.Model.from_bytes(mb.build())
    with pytest.raises(NotImplementedError) as e:
        ta.Interpreter(m)
    assert str(e.value) == (
        "no kernel for 2 operator types: LSH_PROJECTION (operator 0 of subgraph 0, "
        "2 uses), FLOOR (operator 1 of subgraph 0)"
    )


def test_arena_too_small_message_is_whole(models_dir):
    m = ta.Model.load(models_dir / "person_detect.tflite")
    need = ta.Interpreter(m).required_arena_size()
    with pytest.raises(ta.ArenaTooSmallError) as e:
        ta.Interpreter(m, arena_size=need - 4096).allocate_tensors()
    msg = str(e.value)
    assert msg.startswith(
        f"arena of {need - 4096} bytes is too small for this model: it needs {need} bytes ("
    )
    assert msg.endswith(")") and "missing" in msg  # the allocator's root cause, not cut


# --- defect 12: Vela-compiled models ------------------------------------------
def vela_like_model() -> bytes:
    """The layout of person_detect_vela.tflite: one custom ethos-u operator
    whose output, scratch, fast scratch and input all sit at offset 0."""
    mb = ModelBuilder()
    out = mb.add_tensor([1, 2], "int8", "output", scale=0.5, zero_point=0)
    cmd = mb.add_tensor([8168], "uint8", "_split_1_command_stream", data=bytes(8168))
    flash = mb.add_tensor([260480], "uint8", "_split_1_flash", data=bytes(260480))
    scratch = mb.add_tensor([74464], "uint8", "_split_1_scratch")
    fast = mb.add_tensor([74464], "uint8", "_split_1_scratch_fast")
    inp = mb.add_tensor([1, 96, 96, 1], "int8", "input", scale=0.5, zero_point=0)
    mb.add_operator("CUSTOM", [cmd, flash, scratch, fast, inp], [out], custom_code="ethos-u")
    mb.set_io([inp], [out])
    words = np.array([0, 1, 6, 0, -1, -1, 0, 0, 0], "<i4").tobytes()
    mb.add_metadata("OfflineMemoryAllocation", words)
    return mb.build()


def test_vela_model_loads_inspects_plans_and_rewrites(tmp_path, capsys):
    m = ta.Model.from_bytes(vela_like_model())
    assert m.offline_plan().tolist() == [0, -1, -1, 0, 0, 0]
    pairs = {a["tensors"] for a in m.offline_plan_aliases()}
    assert pairs == {(0, 3), (0, 4), (0, 5), (3, 4), (3, 5), (4, 5)}
    # The default target's TFLM has no Ethos-U kernel: stock TFLM refuses
    # the model, so no scratch-inclusive plan; the error says how to plan
    # tensors only.
    with pytest.raises(ta.TflmRefusesModelError, match=r"ethos-u.*scratch=False"):
        m.plan()
    with pytest.warns(
        ta.OfflinePlanAliasWarning,
        match="tensor 0 'output' and tensor 3 "
        "'_split_1_scratch' share bytes \\[0, 16\\) at steps 1..1",
    ):
        p = m.plan(scratch=False)
    assert p.tensors_only and p.arena_bytes == 74464 and set(p.offsets.tolist()) == {0}
    # All four share offset 0: the bound counts the union (74464), not the sum.
    assert p.lower_bound == 74464 and p.optimal and len(p.aliases) == 6
    with pytest.raises(ValueError, match="'_split_1_scratch_fast'"):
        p.validate()
    p.validate(allow_aliases=True)
    src = tmp_path / "vela.tflite"
    src.write_bytes(m.data)
    assert cli(["inspect", str(src)]) == 0
    assert "offline plan alias (deliberate" in capsys.readouterr().out
    out = tmp_path / "vela_planned.tflite"
    assert cli(["write-plan", str(src), "-o", str(out)]) == 1
    assert "--tensors-only" in capsys.readouterr().err
    assert cli(["write-plan", str(src), "-o", str(out), "--tensors-only"]) == 0
    text = capsys.readouterr().out
    assert "warning: stock TFLM's head with this plan was not checked" in text
    assert "offline plan alias kept: tensor 0 'output' and tensor 3" in text
    again = ta.Model.load(out)
    assert again.offline_plan().tolist() == [0, -1, -1, 0, 0, 0]
    assert src.read_bytes() == m.data
    with pytest.raises(NotImplementedError, match="custom 'ethos-u'"):
        ta.Interpreter(m)


# --- defect 13: files --------------------------------------------------------
def test_save_respects_umask_and_keeps_an_overwritten_files_mode(tmp_path):
    m = ta.Model.from_bytes(_fc_model())
    old = os.umask(0o022)
    try:
        new = m.save(tmp_path / "new.tflite")
        assert stat.S_IMODE(os.stat(new).st_mode) == 0o644
        kept = tmp_path / "kept.tflite"
        kept.write_bytes(b"x")
        os.chmod(kept, 0o640)
        m.save(kept, overwrite=True)
        assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640 and kept.read_bytes() == m.data
    finally:
        os.umask(old)


def test_save_never_replaces_a_dangling_symlink_and_names_the_destination(tmp_path, capsys):
    m = ta.Model.from_bytes(_fc_model())
    link = tmp_path / "link.tflite"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError, match=str(link)):
        m.save(link)
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()
    src = tmp_path / "src.tflite"
    src.write_bytes(m.data)
    assert cli(["write-plan", str(src), "-o", str(link)]) == 1
    assert "pass --overwrite" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.tflite", "src.tflite"]


def test_load_refuses_devices_and_huge_files(tmp_path):
    with pytest.raises(ValueError, match="not a regular file"):
        ta.Model.load("/dev/zero")
    big = tmp_path / "big.tflite"
    big.write_bytes(bytes(1000))
    with pytest.raises(ValueError, match="1000 bytes is more than the limit of 999 bytes"):
        ta.Model.load(big, max_bytes=999)


# --- defect 15: invoke releases the GIL -----------------------------------------
def test_invoke_releases_the_gil(models_dir):
    m = ta.Model.load(models_dir / "person_detect.tflite")
    it = ta.Interpreter(m)
    it.allocate_tensors()
    it.invoke()  # warm up
    count = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.05)
        gained = []
        for _ in range(5):
            start = time.perf_counter()
            before = count[0]
            it.invoke()  # tens of milliseconds inside C++
            gained.append((count[0] - before) / (time.perf_counter() - start))
    finally:
        stop.set()
        t.join()
    # With the GIL held the spinning thread could not run at all during an
    # invoke; released, it keeps counting (hundreds of thousands per second).
    assert max(gained) > 10000, gained


def test_concurrent_invoke_of_one_interpreter_is_an_error_not_a_race(models_dir):
    m = ta.Model.load(models_dir / "person_detect.tflite")
    it = ta.Interpreter(m)
    it.allocate_tensors()
    errors = []

    def run():
        for _ in range(20):
            try:
                it.invoke()
            except RuntimeError as e:
                errors.append(str(e))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert all("already invoking in another thread" in e for e in errors)


def test_error_quoting_a_non_utf8_name_keeps_its_cause():
    mb = ModelBuilder()
    x = mb.add_tensor([1, 4], "float32", "x")
    y = mb.add_tensor([1, 4], "float32", "y")
    ghost = mb.add_tensor([1, 4], "float32", "ghost_UNIQUE_NAME")
    mb.add_operator("RESHAPE", [x], [y], options={"new_shape": [1, 4]})
    mb.set_io([x], [y, ghost])
    data = mb.build().replace(b"ghost_UNIQUE_NAME", b"ghost_\xff\xfe_NAME\xc3(xx")
    with pytest.raises(ValueError, match="written by no operator") as e:
        ta.Interpreter(ta.Model.from_bytes(data)).allocate_tensors()
    assert "'ghost_\ufffd" in str(e.value)
