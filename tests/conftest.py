"""Root test configuration: headless Qt, fresh settings, paths to the shared samples."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the app does: we parallelise ourselves

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLES = (REPO_ROOT.parent / "shared" / "samples").resolve()


def samples_dir(*parts: str) -> Path:
    """A folder or file under ../shared/samples; the calling test is skipped when it is absent."""
    path = SAMPLES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared sample {path} is not available")
    return path


@pytest.fixture
def app_switch_interval() -> Iterator[None]:
    """The GIL switch interval the app sets (run_app): workers yield to the GUI thread as they do there; the
    interval before is given back."""
    import sys

    from autofuse_studio.ui.app import GUI_SWITCH_INTERVAL  # here: the core tests do not import Qt

    before = sys.getswitchinterval()
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)
    yield
    sys.setswitchinterval(before)


@pytest.fixture(autouse=True)
def _fresh_settings(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point QSettings (and anything using XDG paths) at a fresh temp folder for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("AUTOFUSE_STUDIO_TEST", "1")


@pytest.fixture(scope="session", autouse=True)
def _the_apps_gc_policy() -> Iterator[None]:
    """The suite runs the app's code paths: like the CLI entry and the GUI, it lets core freeze what lives long.

    Without it, cyclic garbage of the whole session (Qt wrappers included) stayed collectable and full
    collections ran on task-runner threads; a suite run stalled in one (a worker at a GC pause's end, the GUI
    thread waiting). Library behaviour is tested with the opt-in switched off (tests/api/test_gc_state.py).
    """
    from autofuse_studio.core.gc_pause import long_lived_freezing

    with long_lived_freezing():
        yield


@pytest.fixture
def sdk(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stub Ascend SDK the verify-tiling tests build against, as ASCEND_HOME_PATH."""
    from tests.stub_sdk import stub_sdk

    root = stub_sdk(tmp_path_factory)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(root))
    return root
