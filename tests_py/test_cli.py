from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import tflm_arena as ta
from tflm_arena.builder import ModelBuilder
from tflm_arena.cli import EXIT_CLOSED_PIPE, _parser, main


def run(argv):
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue()


def test_demo_builds_plans_and_draws_its_own_model():
    code, text = run(["demo"])
    assert code == 0
    assert "tflm_arena demo: residual MLP: 7 operators" in text
    assert "arena 1152 bytes, lower bound 1152 bytes" in text
    assert "   0: 00000000" in text  # TFLM-style picture


def test_inspect_lists_tensors_operators_and_lifetimes(models_dir):
    code, text = run(["inspect", str(models_dir / "hello_world_int8.tflite")])
    assert code == 0
    assert "FULLY_CONNECTED [0, 6, 5] -> [7]" in text
    lines = [ln for ln in text.splitlines() if ln.strip().startswith("9 INT8")]
    assert lines and "arena" in lines[0] and "3     3" in lines[0]


def test_plan_json_matches_api(models_dir):
    path = models_dir / "person_detect.tflite"
    code, text = run(["plan", str(path), "--json"])
    assert code == 0
    data = json.loads(text)
    p = ta.Model.load(path).plan()
    assert data["arena_bytes"] == p.arena_bytes == 55296
    assert [b["offset"] for b in data["buffers"]] == p.offsets.tolist()


def test_plan_ascii(models_dir):
    code, text = run(["plan", str(models_dir / "hello_world_int8.tflite"), "--ascii"])
    assert code == 0 and "(id=0)" in text and "first_used" in text


def test_write_plan_then_replan(models_dir, tmp_path):
    out = tmp_path / "planned.tflite"
    code, text = run(
        ["write-plan", str(models_dir / "micro_speech_quantized.tflite"), "-o", str(out)]
    )
    assert code == 0 and "arena 5968 bytes" in text
    assert ta.Model.load(out).offline_plan() is not None
    # Writing onto the source needs --overwrite.
    code, _ = run(["write-plan", str(out), "-o", str(out)])
    assert code == 1
    code, _ = run(["write-plan", str(out), "-o", str(out), "--overwrite"])
    assert code == 0


def test_errors_are_one_line_and_nonzero(tmp_path, capsys):
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"\x00" * 64)
    assert main(["inspect", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tflm-arena: error: ") and err.count("\n") == 1
    assert main(["plan", str(tmp_path / "missing.tflite")]) == 1
    assert main(["frobnicate"]) != 0


def test_write_errors_name_the_file_and_cause_without_errno(models_dir, tmp_path, capsys):
    hello = str(models_dir / "hello_world_int8.tflite")
    dest = tmp_path / "missing_dir" / "x.tflite"
    assert main(["optimize", hello, "-o", str(dest)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"tflm-arena: error: cannot write {dest}: No such file or directory"
    assert not dest.parent.exists()
    # An OSError raised by Python itself (here: a folder given as the model).
    assert main(["inspect", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("tflm-arena: error: ") and "[Errno" not in err


# --- names, peak step, fixed buffers ---------------------------------------

HELLO_FC = "sequential/dense/MatMul;sequential/dense/Relu;sequential/dense/BiasAdd"


def test_plan_text_names_tensors_operators_model_and_peak(models_dir):
    path = models_dir / "hello_world_int8.tflite"
    code, text = run(["plan", str(path)])
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == f"model: {path}"
    # Buffer 1 is tensor 7, named, planned online at offset 0.
    row = next(ln for ln in lines if ln.split()[:1] == ["1"])
    assert row.split()[1:6] == ["16", "1", "2", "0", "-"] and row.endswith(f"0:7 {HELLO_FC}")
    assert "fixed (offline-planned) buffers: none" in lines
    # One row per step with the operator that runs then; the peak marked.
    assert "    0       16       1  model inputs" in lines
    assert "    1       32       2  operator 0 FULLY_CONNECTED  <- peak" in lines
    assert "    3       32       2  operator 2 FULLY_CONNECTED" in lines
    assert "peak: step 1 (operator 0 FULLY_CONNECTED), 32 bytes live in 2 buffers" in lines


def test_plan_json_has_model_names_peak_steps_and_fixed(models_dir):
    path = models_dir / "person_detect.tflite"
    code, text = run(["plan", str(path), "--json"])
    assert code == 0
    data = json.loads(text)
    m = ta.Model.load(path)
    assert data["model"] == str(path)
    assert [b["name"] for b in data["buffers"]] == [
        m.subgraphs[0].tensors[t].name for t in m.usage_records()["tensor"]
    ]
    assert data["fixed_buffers"] == [] and not any(b["fixed"] for b in data["buffers"])
    # The peak is the step with most live bytes; it equals the lower bound.
    peak = data["peak"]
    assert peak["live_bytes"] == data["lower_bound"] == 55296
    assert peak["step"] == 3 and peak["operator"] == {
        "subgraph": 0,
        "index": 2,
        "name": m.subgraphs[0].operators[2].name,
    }
    assert max(s["live_bytes"] for s in data["steps"]) == 55296
    assert [s["step"] for s in data["steps"]] == list(range(len(m.operators) + 1))
    assert data["steps"][0]["operator"] is None
    assert [s["operator"]["name"] for s in data["steps"][1:]] == [o.name for o in m.operators]
    assert "ascii" not in data


def test_plan_shows_offline_planned_buffers_as_fixed(models_dir, tmp_path):
    out = tmp_path / "planned.tflite"
    assert (
        run(["write-plan", str(models_dir / "micro_speech_quantized.tflite"), "-o", str(out)])[0]
        == 0
    )
    code, text = run(["plan", str(out)])
    rec = ta.Model.load(out).usage_records()
    n = len(rec)
    assert code == 0 and f"fixed (offline-planned) buffers: {n} of {n}" in text
    data = json.loads(run(["plan", str(out), "--json"])[1])
    assert data["fixed_buffers"] == list(range(n))
    assert all(b["fixed"] for b in data["buffers"])
    assert [b["offset"] for b in data["buffers"]] == rec["fixed_offset"].tolist()


def test_plan_ascii_with_json_is_a_field_not_dropped(models_dir):
    path = models_dir / "hello_world_int8.tflite"
    code, text = run(["plan", str(path), "--json", "--ascii"])
    assert code == 0
    data = json.loads(text)
    assert data["ascii"] == ta.Model.load(path).plan().ascii()
    assert "(id=0)" in data["ascii"]


def test_inspect_text_shows_steps_and_peak(models_dir):
    code, text = run(["inspect", str(models_dir / "hello_world_int8.tflite")])
    assert code == 0
    assert "peak: step 1 (operator 0 FULLY_CONNECTED), 32 bytes live in 2 buffers" in text
    assert "   2     3 FULLY_CONNECTED [8, 2, 1] -> [9]" in text.splitlines()


def test_inspect_json(models_dir):
    path = models_dir / "hello_world_int8.tflite"
    code, text = run(["inspect", "--json", str(path)])
    assert code == 0
    data = json.loads(text)
    assert data["model"] == str(path) and data["bytes"] == path.stat().st_size
    assert data["schema_version"] == 3 and data["metadata"]["min_runtime_version"] == 16
    assert data["peak"]["step"] == 1 and data["peak"]["live_bytes"] == 32
    sg = data["subgraphs"][0]
    assert sg["inputs"] == [0] and sg["outputs"] == [9]
    t7 = sg["tensors"][7]
    assert t7 == {
        "index": 7,
        "name": HELLO_FC,
        "type": "INT8",
        "shape": [1, 16],
        "bytes": 16,
        "kind": "arena",
        "first": 1,
        "last": 2,
    }
    assert sg["tensors"][6]["kind"] == "const" and sg["tensors"][6]["first"] is None
    assert sg["operators"][2] == {
        "index": 2,
        "name": "FULLY_CONNECTED",
        "steps": [3],
        "inputs": [8, 2, 1],
        "outputs": [9],
    }


def _if_model() -> bytes:
    """IF(cond): then -> a + b, else -> a + a (two called subgraphs)."""
    mb = ModelBuilder()
    c = mb.add_tensor([1], "bool", "cond")
    a = mb.add_tensor([1, 2], "float32", "a")
    b = mb.add_tensor([1, 2], "float32", "b")
    o = mb.add_tensor([1, 2], "float32", "out")
    branches = (mb.add_subgraph("then"), mb.add_subgraph("else"))
    for sg in branches:
        ta_ = mb.add_tensor([1, 2], "float32", "a", subgraph=sg)
        tb = mb.add_tensor([1, 2], "float32", "b", subgraph=sg)
        to = mb.add_tensor([1, 2], "float32", f"sum{sg}", subgraph=sg)
        mb.add_operator("ADD", [ta_, tb], [to], subgraph=sg)
        mb.set_io([ta_, tb], [to], subgraph=sg)
    mb.add_operator(
        "IF",
        [c, a, b],
        [o],
        options={"then_subgraph_index": branches[0], "else_subgraph_index": branches[1]},
    )
    mb.set_io([c, a, b], [o])
    return mb.build()


def test_steps_follow_tflm_scopes_through_called_subgraphs(tmp_path):
    path = tmp_path / "if.tflite"
    path.write_bytes(_if_model())
    data = json.loads(run(["inspect", "--json", str(path)])[1])
    # IF runs at step 1; each branch gets a step for its inputs, then its ADD.
    assert data["subgraphs"][0]["operators"][0]["steps"] == [1]
    assert data["subgraphs"][1]["operators"][0]["steps"] == [3]
    assert data["subgraphs"][2]["operators"][0]["steps"] == [5]
    # The planner's lifetimes agree: each ADD's output is created at its step.
    assert data["subgraphs"][1]["tensors"][2]["first"] == 3
    assert data["subgraphs"][2]["tensors"][2]["first"] == 5
    # IF is modelled: the scratch-inclusive plan is TFLM's head (IF and ADD
    # request no scratch, so it equals the tensors-only one); the
    # tensors-only plan says what it is.
    full = json.loads(run(["plan", "--json", str(path)])[1])
    assert full["scratch_target"] == "cortex-m" and full["tensors_only"] is False
    plan = json.loads(run(["plan", "--json", "--tensors-only", str(path)])[1])
    assert plan["tensors_only"] is True and plan["scratch_target"] is None
    ops = {s["step"]: s["operator"] for s in plan["steps"]}
    assert ops[1] == {"subgraph": 0, "index": 0, "name": "IF"}
    assert ops[2]["name"] == "IF"  # the then-branch's inputs are set while IF runs
    assert ops[3] == {"subgraph": 1, "index": 0, "name": "ADD"}
    assert ops[5] == {"subgraph": 2, "index": 0, "name": "ADD"}
    names = {b["name"] for b in plan["buffers"]}
    assert {"sum1", "sum2", "out"} <= names
    _code, text = run(["plan", "--tensors-only", str(path)])
    assert "operator 0 ADD of subgraph 2" in text
    assert "contents: tensors only: stock TFLM's kernel scratch buffers are not included" in text


# --- version, help, errors, closed pipe ----------------------------------


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"tflm-arena {ta.__version__}\n"


def _subparsers():
    ap = _parser()
    action = next(a for a in ap._actions if isinstance(a, __import__("argparse")._SubParsersAction))
    return ap, action


def test_every_option_and_command_has_help_without_rest(capsys):
    ap, sub = _subparsers()
    assert set(sub.choices) == {
        "demo",
        "inspect",
        "plan",
        "size",
        "write-plan",
        "optimize",
        "report",
        "resolver",
        "strategies",
        "compare",
        "versions",
    }
    helped = {a.dest: a.help for a in sub._choices_actions}
    assert all(helped.get(name) for name in sub.choices)
    for parser in [ap, *sub.choices.values()]:
        for a in parser._actions:
            assert a.help, f"{parser.prog} {a.option_strings or a.dest} has no help"
    for argv in [["--help"]] + [[name, "--help"] for name in sub.choices]:
        assert main(argv) == 0
        text = capsys.readouterr().out
        for rest in ("``", ":func:", ":class:", ":meth:", ":data:", ":attr:"):
            assert rest not in text, (argv, rest)
    top = ap.format_help()
    assert "exit status:" in top and "141" in top and "usage error" in top


def test_usage_errors_exit_2(capsys, models_dir):
    assert main(["frobnicate"]) == 2
    assert main([]) == 2
    hello = str(models_dir / "hello_world_int8.tflite")
    assert main(["plan", hello, "--strategy", "nope"]) == 2
    assert main(["plan", hello, "--time-limit", "-1"]) == 2
    assert main(["plan", hello, "--time-limit", "nan"]) == 2
    err = capsys.readouterr().err
    assert "usage: tflm-arena" in err
    assert "tflm-arena plan: error: argument --time-limit: seconds must be finite" in err


def _child_env():
    # The child imports the same tflm_arena as this process (PYTHONPATH), so it
    # keeps the sanitizer preload too: an ASan build of the module cannot load
    # without it (unlike the tflite-micro children, which drop it).
    return dict(os.environ)


def test_closed_pipe_exits_quietly(models_dir):
    # The reader closes before the child writes anything, so the child's
    # writes always meet a closed pipe.
    cmd = [sys.executable, "-m", "tflm_arena", "inspect", str(models_dir / "vww_96_int8.tflite")]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_child_env())
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == EXIT_CLOSED_PIPE == 141
    assert err == b""


def test_piped_into_head_is_quiet(models_dir):
    # `python -m tflm_arena inspect MODEL | head -1`: whether the child meets
    # the closed pipe depends on timing; either way no traceback, status 0 or 141.
    model = models_dir / "vww_96_int8.tflite"
    p = subprocess.Popen(
        [sys.executable, "-m", "tflm_arena", "inspect", str(model)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_child_env(),
    )
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) in (0, EXIT_CLOSED_PIPE)
    assert first.decode().startswith(f"{model}: ") and err == b""


def test_broken_pipe_in_main_returns_141(models_dir, capsys):
    class Closed(io.StringIO):
        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

    assert main(["inspect", str(models_dir / "hello_world_int8.tflite")], out=Closed()) == 141
    assert capsys.readouterr().err == ""


def test_ctrl_c_exits_130_without_traceback(models_dir, monkeypatch, capsys):
    import tflm_arena.cli as cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_inspect", interrupted)
    assert main(["inspect", str(models_dir / "hello_world_int8.tflite")]) == 130
    assert capsys.readouterr().err == "tflm-arena: interrupted\n"


def test_real_sigint_exits_130(models_dir):
    # A real Ctrl-C: SIGINT to a child busy inside a command.
    import signal

    child = (
        "import sys, time\n"
        "import tflm_arena.cli as c\n"
        "def busy(args, out):\n"
        "    print('busy', flush=True)\n"
        "    time.sleep(60)\n"
        "c._cmd_inspect = busy\n"
        "sys.exit(c.main(sys.argv[1:]))\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", child, "inspect", str(models_dir / "hello_world_int8.tflite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_child_env(),
    )
    assert p.stdout.readline() == b"busy\n"
    p.send_signal(signal.SIGINT)
    err = p.stderr.read()
    assert p.wait(timeout=60) == 130
    assert err == b"tflm-arena: interrupted\n"


def test_closed_stderr_keeps_the_exit_status(tmp_path):
    # An error with stderr closed: status 1, no traceback (nowhere to print one).
    p = subprocess.Popen(
        [sys.executable, "-m", "tflm_arena", "inspect", str(tmp_path / "missing.tflite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_child_env(),
    )
    p.stderr.close()
    p.stdout.read()
    assert p.wait(timeout=120) == 1


def test_help_into_closed_pipe_is_quiet():
    # argparse ignores OSError when it prints help, so this exits 0; a guard.
    p = subprocess.Popen(
        [sys.executable, "-m", "tflm_arena", "--help"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_child_env(),
    )
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) in (0, EXIT_CLOSED_PIPE) and err == b""


def test_step_minus_one_for_tensors_no_operator_produces(tmp_path):
    # A tensor read but never produced keeps TFLM's unset first step, -1, and
    # is still planned (TFLM's micro_allocation_info.cc, kUninitializedLifetime).
    mb = ModelBuilder()
    a = mb.add_tensor([1, 4], "float32", "a")
    orphan = mb.add_tensor([1, 4], "float32", "orphan")
    o = mb.add_tensor([1, 4], "float32", "out")
    mb.add_operator("ADD", [a, orphan], [o])
    mb.set_io([a], [o])
    path = tmp_path / "orphan.tflite"
    path.write_bytes(mb.build())
    code, text = run(["plan", str(path)])
    assert code == 0
    assert "   -1       16       1  before the model runs" in text.splitlines()
    assert "    1       48       3  operator 0 ADD  <- peak" in text.splitlines()


# --- what a plan holds: TFLM's kernel scratch, or tensors only ---------------


def test_plan_includes_the_targets_kernel_scratch_or_says_tensors_only(models_dir):
    path = str(models_dir / "keyword_scrambled.tflite")  # SVDF requests scratch
    head = ta.tflm_arena(path, target="x86-64", recording=True).head
    for target in ("cortex-m", "x86-64"):
        data = json.loads(run(["plan", path, "--json", "--target", target])[1])
        assert data["scratch_target"] == target and data["tensors_only"] is False
        assert data["arena_bytes"] == head == 672
        n = len(ta.tflm_scratch_requests(path, target))
        assert sum(b["scratch"] for b in data["buffers"]) == n > 0
    code, text = run(["plan", path])
    assert code == 0
    assert (
        "contents: tensors and the kernel scratch buffers stock TFLM requests on "
        "cortex-m (14)" in text
    )
    assert "strategy tflm_greedy: arena 672 bytes, lower bound 672 bytes (0.0 % above)" in text
    assert "scratch (operator 1 SVDF)" in text
    only = json.loads(run(["plan", path, "--json", "--tensors-only"])[1])
    assert only["tensors_only"] is True and only["scratch_target"] is None
    assert only["arena_bytes"] == 288 < head
    assert not any(b["scratch"] for b in only["buffers"])
    code, text = run(["plan", path, "--tensors-only", "--strategy", "optimal"])
    assert code == 0
    assert "arena 288 bytes (tensors only)" in text and "proven optimal (tensors only)" in text
    assert all("tensors only" in line for line in text.splitlines() if "optimal" in line)
    assert "head also holds its kernels' scratch buffers" in text


def test_write_plan_refuses_a_plan_that_grows_tflms_head(models_dir, tmp_path, capsys):
    src = str(models_dir / "keyword_scrambled.tflite")
    out = tmp_path / "planned.tflite"
    assert main(["write-plan", src, "-o", str(out), "--tensors-only"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "672 -> 800 bytes" in err and "--allow-larger-head" in err
    assert not out.exists()
    code, text = run(["write-plan", src, "-o", str(out), "--tensors-only", "--allow-larger-head"])
    assert code == 0 and "warning: " in text and "672 -> 800 bytes" in text
    assert "tensors only" in text
    assert ta.tflm_arena(str(out), target="cortex-m").head == 800
    # The default plan holds the scratch requests: written, TFLM keeps 672.
    code, text = run(["write-plan", src, "-o", str(out), "--overwrite"])
    assert code == 0 and "warning" not in text and "arena 672 bytes" in text
    assert ta.tflm_arena(str(out), target="cortex-m").head == 672
