"""Code size measured TFLM's way (seed 003; tflm_facts C-1): `size` text of
footprint programs, differences against a baseline program.

    python benchmarks/code_size.py            # build + table (~1 min each arch)
    python benchmarks/code_size.py --no-build # table from an existing build

Builds the footprint programs (benchmarks/code_size/) with the top-level
CMake into build/code_size/x86_64 (host g++) and, when arm-none-eabi-g++ is
found, build/code_size/cortex_m (Cortex-M3, newlib-nano; built, never run):

    framework  = text(footprint_framework) - text(footprint_baseline)
    kernel X   = text(footprint_kernel_X)  - text(footprint_framework)

The last line reads `framework x86-64 N bytes, cortex-m M bytes` (M is `n/a`
when the cross compiler is missing). Extra CMake arguments:
--cmake-arg=-DNAME=VALUE (repeatable) or TFLM_ARENA_FOOTPRINT_CMAKE_ARGS.
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
from typing import Optional

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_DIR = ROOT / "benchmarks" / "code_size"
TOOLCHAIN = SOURCE_DIR / "arm-none-eabi.cmake"

# Seed 003 (TFLM Code Size FAQ): TFLM's framework, x86-64 and bluepill.
TFLM_FRAMEWORK_X86_64 = 20411
TFLM_FRAMEWORK_CORTEX_M = 9732


@dataclass
class ArchBuild:
    name: str  # "x86_64" / "cortex_m"
    build_dir: pathlib.Path
    size_tool: str
    nm_tool: str
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

    def kernel(self, name: str) -> int:
        return self.text[f"footprint_kernel_{name}"] - self.text["footprint_framework"]


def cross_compiler() -> Optional[str]:
    return shutil.which("arm-none-eabi-g++")


def extra_cmake_args(cli: Optional[list[str]] = None) -> list[str]:
    return shlex.split(os.environ.get("TFLM_ARENA_FOOTPRINT_CMAKE_ARGS", "")) + list(cli or [])


def _cache_value(build_dir: pathlib.Path, name: str) -> Optional[str]:
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


def configure_and_build(arch: ArchBuild, cmake_args: list[str], jobs: int = 2,
                        quiet: bool = True) -> None:
    args = [
        "cmake", "-S", str(ROOT), "-B", str(arch.build_dir),
        "-DTFLM_ARENA_BUILD_FOOTPRINT=ON", "-DCMAKE_BUILD_TYPE=MinSizeRel",
        # The device default of core/status.h (the host suites use 1024).
        "-DTFLM_ARENA_STATUS_MESSAGE_BYTES=240",
    ]
    if arch.name == "cortex_m":
        args.append(f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN}")
        # Header-only flatbuffers from the host, but never the host's whole
        # /usr/include (glibc's headers would shadow newlib's): a folder
        # holding just flatbuffers/.
        host_include = _cache_value(ROOT / "build" / "code_size" / "x86_64",
                                    "TFLM_ARENA_FLATBUFFERS_INCLUDE")
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
    _run(["cmake", "--build", str(arch.build_dir), "-j", str(jobs), "--target", "footprint"],
         quiet)


def measure(arch: ArchBuild) -> None:
    kernels_file = arch.programs_dir / "kernels.txt"
    arch.kernels = kernels_file.read_text().split()
    names = ["footprint_baseline", "footprint_framework"] + [
        f"footprint_kernel_{k}" for k in arch.kernels]
    out = subprocess.run([arch.size_tool] + [str(arch.program(n)) for n in names],
                         capture_output=True, text=True, check=True, env=_env()).stdout
    for line in out.splitlines()[1:]:
        cols = line.split()
        arch.text[pathlib.Path(cols[5]).name] = int(cols[0])


def arch_builds() -> list[ArchBuild]:
    base = ROOT / "build" / "code_size"
    builds = [ArchBuild("x86_64", base / "x86_64", "size", "nm")]
    if cross_compiler():
        builds.append(ArchBuild("cortex_m", base / "cortex_m", "arm-none-eabi-size",
                                "arm-none-eabi-nm"))
    return builds


def build_all(cmake_args: list[str], build: bool = True, quiet: bool = True) -> list[ArchBuild]:
    builds = arch_builds()
    for arch in builds:
        if build:
            configure_and_build(arch, cmake_args, quiet=quiet)
        measure(arch)
    return builds


def _n(v: Optional[int]) -> str:
    return "n/a" if v is None else f"{v:,}"


def table(builds: list[ArchBuild]) -> str:
    x86 = builds[0]
    arm = builds[1] if len(builds) > 1 else None
    rows = [("baseline program (text)", x86.text["footprint_baseline"],
             arm.text["footprint_baseline"] if arm else None, None, None),
            ("framework", x86.framework, arm.framework if arm else None,
             TFLM_FRAMEWORK_X86_64, TFLM_FRAMEWORK_CORTEX_M)]
    for k in x86.kernels:
        rows.append((f"kernel {k}", x86.kernel(k), arm.kernel(k) if arm else None, None, None))
    lines = ["| bytes of text (`size`) | x86-64 | Cortex-M3 | TFLM x86-64 | TFLM Cortex-M3 |",
             "|---|---:|---:|---:|---:|"]
    for name, a, b, c, d in rows:
        lines.append(f"| {name} | {_n(a)} | {_n(b)} | {'' if c is None else _n(c)} "
                     f"| {'' if d is None else _n(d)} |")
    return "\n".join(lines)


def summary(builds: list[ArchBuild]) -> str:
    arm = builds[1].framework if len(builds) > 1 else None
    return f"framework x86-64 {builds[0].framework} bytes, cortex-m " + (
        "n/a" if arm is None else f"{arm} bytes")


def main(argv: Optional[list[str]] = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--no-build", action="store_true", help="measure an existing build")
    p.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                   help="extra argument for both configure steps (repeatable)")
    p.add_argument("-v", "--verbose", action="store_true", help="echo the build commands")
    a = p.parse_args(argv)
    builds = build_all(extra_cmake_args(a.cmake_arg), build=not a.no_build, quiet=not a.verbose)
    if len(builds) == 1:
        print("(arm-none-eabi-g++ not found: no Cortex-M build)")
    print(table(builds))
    print("TFLM figures: seed 003 (framework only; TFLM publishes no per-kernel sizes).")
    print(summary(builds))


if __name__ == "__main__":
    main()
