"""The wheel and sdist: built offline (`python -m build`), installed into a fresh venv, both scripts run from it.

The fresh venv gets only the wheel; its dependencies come from this interpreter's site-packages through a
.pth file, so the test needs no network. `.ci/run` repeats the install with every dependency from PyPI
(packaging/check_dist.py).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from autofuse_studio import __version__

from .conftest import REPO_ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("build") is None,
                                reason="the `build` package (dev extra) is not installed")
TIMEOUT = 300


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dist/ holding the sdist and the wheel built from it (no isolated env: offline)."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(REPO_ROOT)],
                          capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (without its dependencies, which a .pth file borrows)."""
    root = tmp_path_factory.mktemp("venv") / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=TIMEOUT)
    python = root / "bin" / "python"
    wheel = next(dist.glob("*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, timeout=TIMEOUT)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # A path line, not a site dir: the editable install's own .pth files there are not run.
    Path(site, "borrowed_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return root


def run(venv: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a program of the venv from a folder outside the checkout, headless."""
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AUTOFUSE_STUDIO_FAIL_FAST": "1", **(env or {})}
    environment.pop("PYTHONPATH", None)
    return subprocess.run([str(venv / "bin" / argv[0]), *argv[1:]], capture_output=True, text=True,
                          cwd=venv, env=environment, timeout=TIMEOUT, check=False)


def test_the_wheel_carries_the_package_and_its_resources(dist: Path) -> None:
    wheel = next(dist.glob(f"autofuse_studio-{__version__}-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("autofuse_studio/resources/demo/manifest.json", "autofuse_studio/resources/icons/autofuse-studio.svg",
                   "autofuse_studio/resources/icons/autofuse-studio-512.png",
                   "autofuse_studio/resources/desktop/autofuse-studio.desktop",
                   "autofuse_studio/resources/translations/autofuse_studio_zh_CN.qm", "autofuse_studio/py.typed",
                   "autofuse_studio/core/tiling/runner_script.py"):
        assert needed in names
    assert not [name for name in names if name.startswith("tests/") or name.endswith((".ts", ".pyc"))]
    # The test-data generators and the demo regenerator live in tests/synth (dev only), never in the product.
    assert not [name for name in names if "synth" in name or name.endswith("core/demo.py")]
    sdist = next(dist.glob(f"autofuse_studio-{__version__}.tar.gz"))
    with tarfile.open(sdist) as packed:
        members = packed.getnames()
    assert not [name for name in members if name.endswith(".so")]
    assert any(name.endswith("core/precision/_kernel.c") for name in members)
    # The vendored Ryu that _rowjoin.c includes travels in the sdist: the wheel built from it has the joiner.
    assert any(name.endswith("core/reports/ryu/d2s_full_table.h") for name in members)
    assert any(name.endswith("core/reports/ryu/LICENSE-Boost") for name in members)
    assert any(name.startswith("autofuse_studio/core/reports/_rowjoin.") for name in names)


def test_the_console_script_runs(venv: Path) -> None:
    done = run(venv, "autofuse-studio", "--version")
    assert done.returncode == 0, done.stderr
    assert __version__ in done.stdout
    assert "desktop:" in run(venv, "autofuse-studio", "--help").stdout


def test_the_gui_script_starts_with_the_wheels_resources(venv: Path) -> None:
    where = run(venv, "python", "-c", "from autofuse_studio.core.resources import resources_dir; print(resources_dir())")
    assert Path(where.stdout.strip()).is_relative_to(venv)  # not the checkout's resources/
    done = run(venv, "autofuse-studio-gui", "--self-check")  # fails without the icons in the wheel
    assert done.returncode == 0, done.stderr
    assert "self-check: ok" in done.stdout


def test_the_api_runs_on_the_demo_case_from_the_wheel(venv: Path) -> None:
    script = "from autofuse_studio import api; print(api.compare_case(*api.demo_case()).first_divergence.fused_op)"
    done = run(venv, "python", "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "autofuse_3_Mul_Add"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG desktops are Linux only")
def test_the_desktop_entry_of_a_pip_install_runs_its_gui_script(venv: Path, tmp_path: Path) -> None:
    done = run(venv, "autofuse-studio", "desktop", "install", env={"XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    entry = (tmp_path / "applications" / "autofuse-studio.desktop").read_text(encoding="utf-8")
    assert f"Exec={venv / 'bin' / 'autofuse-studio-gui'} %F" in entry.splitlines()
