"""Footprint programs (benchmarks/code_size): the runtime links no hidden heap,
printf or exception machinery, on x86-64 and Cortex-M, in
the release (error strings stripped) and messages configurations; the x86-64
programs also run, so the stripped, trusted-load runtime is shown to work.

Builds the programs with benchmarks/code_size.py (an existing build is
reused and only brought up to date), then reads every program's symbols with
nm: no symbol of a forbidden family may be defined or referenced that the
baseline program (a bare main) does not have already. Under CI=true a
missing arm-none-eabi-g++ is a failure, not a skip.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("code_size", ROOT / "benchmarks" / "code_size.py")
code_size = importlib.util.module_from_spec(_spec)
sys.modules["code_size"] = code_size  # dataclasses look their module up
_spec.loader.exec_module(code_size)

pytestmark = [
    pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake"),
    # CMake builds and runs standalone programs; the Python module (the
    # build ASan instruments in .ci/test.sh's second pytest pass) is unused.
    pytest.mark.no_asan,
]

# Raw (mangled) symbol names, one pattern per family.
FORBIDDEN = {
    "heap": re.compile(
        r"^_*(malloc|free|calloc|realloc|reallocf|memalign|posix_memalign|aligned_alloc|"
        r"valloc|pvalloc|malloc_r|free_r|calloc_r|realloc_r|memalign_r)$"
    ),
    "operator new/delete": re.compile(r"^_Z(nw|na|dl|da)"),
    # C names only: a C++ method called Printf is mangled (_Z...).
    "printf family": re.compile(r"^(?!_Z).*printf"),
    "exceptions/unwind": re.compile(
        r"^(__cxa_|_Unwind_|__gxx_personality|__aeabi_unwind_cpp_pr|__cxa_pure_virtual)"
    ),
}


def forbidden_symbols(nm_tool: str, program: pathlib.Path) -> dict[str, set[str]]:
    """Every defined or undefined symbol of each forbidden family."""
    out = subprocess.run(
        [nm_tool, "--no-sort", str(program)],
        capture_output=True,
        text=True,
        check=True,
        env=code_size._env(),
    ).stdout
    found: dict[str, set[str]] = {family: set() for family in FORBIDDEN}
    for line in out.splitlines():
        name = line.split()[-1].split("@")[0]  # drop glibc's @VERSION
        for family, pattern in FORBIDDEN.items():
            if pattern.search(name):
                found[family].add(name)
    return found


@pytest.fixture(scope="module")
def builds():
    if code_size.cross_compiler() is None and os.environ.get("CI") == "true":
        pytest.fail(
            "arm-none-eabi-g++ missing under CI=true (.ci/install.sh installs "
            "gcc-arm-none-eabi and libnewlib-arm-none-eabi)"
        )
    return code_size.build_all(code_size.extra_cmake_args())


def test_families_catch_what_they_should():
    # The patterns themselves: they must match the symbols the old runtime
    # linked (vsnprintf, operator delete) and spare ordinary ones.
    assert FORBIDDEN["printf family"].search("vsnprintf")
    assert FORBIDDEN["printf family"].search("_svfprintf_r")
    assert FORBIDDEN["operator new/delete"].search("_ZdlPvm")
    assert FORBIDDEN["operator new/delete"].search("_Znwj")
    assert FORBIDDEN["heap"].search("_malloc_r")
    assert FORBIDDEN["exceptions/unwind"].search("__cxa_guard_acquire")
    assert not FORBIDDEN["printf family"].search(
        "_ZN10tflm_arena9plan_text10TextWriter6PrintfEPKcz"
    )
    assert not FORBIDDEN["heap"].search("freelist")


def test_every_kernel_of_the_list_has_a_program(builds):
    text = (ROOT / "cpp/tflm_arena/runtime/kernels/kernel_list.h").read_text()
    listed = re.findall(r"^\s*KERNEL\((\w+)\)", text, re.MULTILINE)
    assert len(listed) >= 10
    for arch in code_size.release(builds):
        assert arch.kernels == listed, arch.name


def test_no_heap_printf_or_exceptions_beyond_the_baseline(builds):
    for arch in builds:
        baseline = forbidden_symbols(arch.nm_tool, arch.program("footprint_baseline"))
        programs = code_size.FRAMEWORK_PROGRAMS[1:] + [
            f"footprint_kernel_{k}" for k in arch.kernels
        ]
        extra = {}
        for name in programs:
            found = forbidden_symbols(arch.nm_tool, arch.program(name))
            for family, symbols in found.items():
                if symbols - baseline[family]:
                    extra[(name, family)] = sorted(symbols - baseline[family])
        assert extra == {}, f"{arch.name}: {extra}"


def test_sizes_are_measured_and_reported(builds):
    for arch in code_size.release(builds):
        # The framework costs something, each kernel adds code on top of it.
        assert arch.framework > 1000, arch.name
        assert arch.verification > 1000, arch.name  # Verifier + semantic checks
        for k in arch.kernels:
            assert arch.kernel(k) > 0, (arch.name, k)
    x86, arm = code_size._pair(code_size.release(builds))
    mx86, marm = code_size._pair(code_size.messages(builds))
    # Message text and the formatter are what the release build drops.
    assert mx86.framework > x86.framework + 5000
    if arm:
        assert marm.framework > arm.framework + 5000
    # The footprint target: below TFLM's framework (seed 003) on both targets.
    # (Under CI=true the fixture already failed if Cortex-M could not build.)
    assert x86.framework < code_size.TFLM_FRAMEWORK_X86_64, x86.framework
    if arm:
        assert arm.framework < code_size.TFLM_FRAMEWORK_CORTEX_M, arm.framework
    line = code_size.summary(builds)
    assert line.startswith(f"framework x86-64 {x86.framework} bytes, cortex-m ")
    print(line)


def _exit_code(program: pathlib.Path) -> int:
    return subprocess.run([str(program)], env=code_size._env(), timeout=60).returncode


def test_x86_programs_run_in_both_configurations(builds):
    # interpreter.cc's exit codes: 0 = AllocateTensors and Invoke succeeded,
    # 3 = they failed (no kernel for the model's ADD), 1 = the model was
    # refused.
    for arch in builds:
        if arch.name != "x86_64":
            continue
        assert _exit_code(arch.program("footprint_framework")) == 3, arch.build_dir
        assert _exit_code(arch.program("footprint_framework_verified")) == 3, arch.build_dir
        if arch.strip:
            assert _exit_code(arch.program("footprint_kernel_ADD")) == 0
            assert _exit_code(arch.program("footprint_kernel_CONV_2D")) == 3


def test_release_programs_hold_no_message_text(builds):
    # A message of the model loader, the op resolver and the planner each:
    # in the messages build, absent from the release build.
    texts = [b"too short for a flatbuffer", b"no kernel for", b"Too many buffers"]
    for arch in builds:
        data = arch.program("footprint_framework").read_bytes()
        for text in texts:
            assert (text in data) == (not arch.strip), (arch.build_dir, text)


def test_release_programs_link_no_formatter(builds):
    # Message text is all the formatter is for: with it stripped, neither the
    # framework nor any kernel may link it.
    for arch in code_size.release(builds):
        for name in code_size.FRAMEWORK_PROGRAMS[1:] + [
            f"footprint_kernel_{k}" for k in arch.kernels
        ]:
            out = subprocess.run(
                [arch.nm_tool, str(arch.program(name))],
                capture_output=True,
                text=True,
                check=True,
                env=code_size._env(),
            ).stdout
            assert "FormatV" not in out, (arch.name, name)
