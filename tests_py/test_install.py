"""`pip install` from the sdist into a fresh virtual environment, with no
`flatc` anywhere on PATH: the build takes flatc and the flatbuffers headers
from the `flatc` build requirement (cpp/tflm_arena/model/find_flatbuffers.cmake).
Also: the sdist and the wheel carry LICENSE, the installed package plans a
model, and the `tflm-arena` script runs.

A full build (minutes): runs under CI=true or with TFLM_ARENA_INSTALL_TEST=1,
otherwise skips saying so. Marked `install` so the ASan pass deselects it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import venv
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.install

_WANTED = (
    os.environ.get("CI", "").lower() == "true" or os.environ.get("TFLM_ARENA_INSTALL_TEST") == "1"
)


def _path_without_flatc(shadow_root: Path) -> str:
    """PATH where every folder holding a `flatc` (/usr/bin, pyenv shims, the
    outer venv) is replaced by a folder of links to all its other entries, so
    the compiler and the rest stay reachable."""
    out = []
    for i, d in enumerate(os.environ.get("PATH", "").split(os.pathsep)):
        if not d or not Path(d).is_dir():
            continue
        if not (Path(d) / "flatc").exists():
            out.append(d)
            continue
        shadow = shadow_root / f"path{i}"
        shadow.mkdir(parents=True)
        for entry in Path(d).iterdir():
            if entry.name != "flatc":
                (shadow / entry.name).symlink_to(entry)
        out.append(str(shadow))
    return os.pathsep.join(out)


def _clean_env(venv_dir: Path) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            (
                "PYTHON",
                "VIRTUAL_ENV",
                "CMAKE",
                "SKBUILD",
                "LD_PRELOAD",
                "ASAN",
                "UBSAN",
                "TFLM_ARENA_FLAT",
            )
        )
    }
    env["PATH"] = os.pathsep.join(
        [str(venv_dir / "bin"), _path_without_flatc(venv_dir.parent / "path_without_flatc")]
    )
    env["VIRTUAL_ENV"] = str(venv_dir)
    return env


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    if not _WANTED:
        pytest.skip(
            "fresh-venv install test runs under CI=true or TFLM_ARENA_INSTALL_TEST=1 (a full build)"
        )
    out = tmp_path_factory.mktemp("sdist")
    # The build backend itself, as `python -m build --sdist` would call it.
    code = "import sys, scikit_build_core.build as b; print(b.build_sdist(sys.argv[1]))"
    r = subprocess.run(
        [sys.executable, "-c", code, str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return out / r.stdout.strip().splitlines()[-1]


def test_sdist_is_complete_and_licensed(sdist):
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    top = names[0].split("/")[0]
    rel = {n[len(top) + 1 :] for n in names if "/" in n}
    for needed in (
        "LICENSE",
        "pyproject.toml",
        "CMakeLists.txt",
        "README.md",
        "cpp/tflm_arena/model/tflite_subset.fbs",
        "cpp/tflm_arena/model/find_flatbuffers.cmake",
        "python/tflm_arena/__init__.py",
    ):
        assert needed in rel, f"sdist lacks {needed}"
    # Nothing built or local leaks in.
    assert not [n for n in rel if n.startswith(("build/", ".venv/", ".git/"))]
    assert not [n for n in rel if n.endswith(".so")]


def test_pip_install_in_fresh_venv_without_flatc(sdist, tmp_path):
    venv_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(venv_dir)
    env = _clean_env(venv_dir)
    assert shutil.which("flatc", path=env["PATH"]) is None, "flatc still reachable"
    py = str(venv_dir / "bin" / "python")
    # -v: CMake's configure output, which names where flatc came from.
    r = subprocess.run(
        [py, "-m", "pip", "install", "-v", str(sdist)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=1500,
    )
    log = r.stdout + r.stderr
    (tmp_path / "pip.log").write_text(log)
    assert r.returncode == 0, log[-5000:]
    assert "(python package)" in log and "flatc/include" in log, (
        "flatc/headers not taken from the flatc build requirement"
    )

    # Installed: imports, plans, has its license and its script.
    probe = (
        "import tflm_arena as ta, tflm_arena.examples, importlib.metadata as md; "
        "m = ta.Model.from_bytes(ta.examples.branchy_model_bytes()); "
        "p = ta.plan(m, strategy='best'); p.validate(); "
        "d = md.distribution('tflm_arena'); "
        "print(p.arena_bytes, p.lower_bound, md.metadata('tflm_arena')['License-Expression'], "
        "any(str(f).endswith('LICENSE') for f in d.files))"
    )
    r = subprocess.run(
        [py, "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    arena, lower, lic, has_license = r.stdout.split()
    assert int(arena) >= int(lower) > 0
    assert lic == "Apache-2.0" and has_license == "True"
    r = subprocess.run(
        [str(venv_dir / "bin" / "tflm-arena"), "--version"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and "0.1.0" in r.stdout + r.stderr
