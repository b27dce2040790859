"""The frozen PyInstaller bundle starts: --version, --help, an offscreen --self-check, and subcommands."""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import msgspec
import numpy as np
import pytest

from autofuse_studio import __version__
from autofuse_studio.cli import COMPARE_WORKER_FLAG
from autofuse_studio.core.cluster.wire import TaskFailed, decode_compare
from autofuse_studio.core.precision.compare_process import ENV as HELPER_ENV
from autofuse_studio.core.precision.packed_sides import pack
from autofuse_studio.core.precision.pair import PairSide
from tests.stub_sdk import needs_build, write_tf_source
from tests.synth import generate_case
from tests.synth.spec import full_coverage_spec

from .conftest import REPO_ROOT

BUNDLE_DIR = REPO_ROOT / "dist" / "autofuse-studio"
EXECUTABLE = BUNDLE_DIR / ("autofuse-studio.exe" if os.name == "nt" else "autofuse-studio")
SUBCOMMANDS = ("nwa", "att")

pytestmark = pytest.mark.skipif(
    not EXECUTABLE.is_file(), reason=f"no bundle at {EXECUTABLE}; build it with `make bundle`"
)


def built_at() -> float:
    """When the bundle's build began (build-info.json), else the executable's mtime."""
    info = BUNDLE_DIR / "build-info.json"
    if info.is_file():
        return float(json.loads(info.read_text(encoding="utf-8"))["started_at"])
    return EXECUTABLE.stat().st_mtime


def run_bundle(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the frozen executable headless; generous timeout for the first cold start."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AUTOFUSE_STUDIO_FAIL_FAST": "1"}
    return subprocess.run(
        [str(EXECUTABLE), *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )


def test_bundle_version() -> None:
    done = run_bundle("--version")
    assert done.returncode == 0, done.stderr
    assert __version__ in done.stdout


def test_bundle_self_check_starts_the_gui_offscreen() -> None:
    done = run_bundle("--self-check")
    assert done.returncode == 0, done.stderr
    assert "self-check: ok" in done.stdout


def test_bundle_carries_the_resources_folder() -> None:
    # ui.app.resources_dir() looks under sys._MEIPASS/resources, and _MEIPASS is the _internal/ folder.
    source = REPO_ROOT / "resources"
    built_before = built_at()
    files = [path.relative_to(source) for path in source.rglob("*") if path.is_file()]
    if not files:
        pytest.skip("resources/ holds no files yet")
    bundled = BUNDLE_DIR / "_internal" / "resources"
    missing = [
        str(rel)
        for rel in files
        if not (bundled / rel).is_file() and (source / rel).stat().st_mtime < built_before
    ]
    assert missing == []


def test_bundle_help_lists_the_subcommands() -> None:
    done = run_bundle("--help")
    assert done.returncode == 0, done.stderr
    for name in SUBCOMMANDS:
        assert name in done.stdout


def _source_module(name: str) -> Path | None:
    spec = importlib.util.find_spec(f"autofuse_studio.cli.{name}")
    return Path(spec.origin) if spec is not None and spec.origin else None


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_bundle_subcommand_help(name: str) -> None:
    source = _source_module(name)
    if source is None:
        pytest.skip(f"autofuse_studio.cli.{name} is not written yet")
    if source.stat().st_mtime > built_at():
        pytest.skip(f"the bundle is older than {source.name}; rebuild it with `make bundle`")
    done = run_bundle(name, "--help")
    assert done.returncode == 0, done.stderr
    assert "usage" in done.stdout.lower()


@needs_build
def test_bundle_runs_verify_tiling_end_to_end(sdk: Path, tmp_path: Path) -> None:
    # The build runner is shipped to the build folder as source files: the bundle must carry them.
    source = write_tf_source(tmp_path / "src")
    done = run_bundle("att", "verify-tiling", str(source), "--aiv-num", "3", "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads((tmp_path / "out" / "result.json").read_text())["fields"]["block_dim"] == 4


def test_bundle_compares_through_its_helper_process_as_the_venv_does(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The helper process is the bundle's executable again (--compare-worker): forced on for a small case, its
    # rows must read as a run without it.
    root = tmp_path / "case"
    manifest = generate_case(root, full_coverage_spec())
    argv = ["nwa", "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), "--jobs", "2"]
    monkeypatch.setenv(HELPER_ENV, "1")
    through = run_bundle(*argv, "--output", str(tmp_path / "through.json"))
    assert through.returncode == 0, through.stderr
    without = subprocess.run([sys.executable, "-m", "autofuse_studio", *argv, "--output",
                              str(tmp_path / "without.json")], capture_output=True, text=True, timeout=300,
                             check=False, env={**os.environ, HELPER_ENV: "0"})
    assert without.returncode == 0, without.stderr
    assert through.stdout.replace("through.json", "") == without.stdout.replace("without.json", "")
    # The helper itself answers a frame (a fallback would have hidden a helper that cannot start).
    npy = tmp_path / "same.npy"
    np.save(npy, np.arange(12, dtype=np.float32))
    side = PairSide(npy, None, "same")
    request = msgspec.msgpack.encode([pack((side, side))])
    done = subprocess.run([str(EXECUTABLE), COMPARE_WORKER_FLAG], input=struct.pack("<I", len(request)) + request,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    (size,) = struct.unpack("<I", done.stdout[:4])
    results = decode_compare(done.stdout[4:4 + size], 1)
    assert not isinstance(results, TaskFailed) and results[0].status == "OK"


def test_bundle_ships_the_icon_and_desktop_files() -> None:
    resources = BUNDLE_DIR / "_internal" / "resources"
    if built_at() < (REPO_ROOT / "resources" / "desktop").stat().st_mtime:
        pytest.skip("the bundle is older than resources/desktop; rebuild it with `make bundle`")
    assert (resources / "icons" / "autofuse-studio-256.png").is_file()
    assert (resources / "desktop" / "autofuse-studio.desktop").is_file()


def test_bundle_desktop_entry_runs_the_bundle(tmp_path: Path) -> None:
    source = _source_module("desktop")
    if source is None or source.stat().st_mtime > built_at():
        pytest.skip("the bundle is older than the desktop subcommand; rebuild it with `make bundle`")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([str(EXECUTABLE), "desktop", "install"], capture_output=True, text=True, timeout=120,
                          env=env, check=False)
    assert done.returncode == 0, done.stderr
    entry = (tmp_path / "applications" / "autofuse-studio.desktop").read_text(encoding="utf-8")
    assert f"Exec={EXECUTABLE.resolve()} %F" in entry.splitlines()


def test_bundle_registers_its_cjk_font_where_none_is_installed(tmp_path: Path) -> None:
    from tests.no_cjk import chinese_settings, no_cjk_environment

    shipped = sorted((BUNDLE_DIR / "_internal" / "resources" / "fonts").glob("*"))
    if not shipped:
        pytest.skip("this bundle ships no CJK font (fonts-noto-cjk was not installed on the build machine)")
    env = {**no_cjk_environment(tmp_path / "fontconfig"), **chinese_settings(tmp_path / "config"),
           "AUTOFUSE_STUDIO_FAIL_FAST": "1"}
    done = subprocess.run([str(EXECUTABLE), "--self-check"], capture_output=True, text=True, timeout=120, env=env,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "(shipped in the bundle)" in done.stdout, done.stdout
