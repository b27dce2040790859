"""Root test configuration: headless Qt, fresh settings, paths to the shared samples."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from autofuse_studio.core.gc_pause import OwnerThreadCollection

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


@pytest.fixture(scope="session", autouse=True)
def _collections_on_the_main_thread() -> Iterator[OwnerThreadCollection]:
    """Cyclic garbage is collected on the main thread only, as the GUI does (ui.gui_gc): automatic collection off.

    A collection frees garbage on the thread that triggered it: a task-runner thread freeing a widget an earlier
    test left in a cycle ran its C++ destructor there, which deadlocked with the GUI thread (a suite run hung).
    """
    collection = OwnerThreadCollection()
    collection.start()
    yield collection
    collection.stop()


@pytest.fixture(autouse=True)
def _collect_after_each_test(
    request: pytest.FixtureRequest, _collections_on_the_main_thread: OwnerThreadCollection
) -> Iterator[None]:
    """What is due is collected on the main thread after each test, a Qt test's closed widgets deleted by Qt first.

    Not on a timer during a Qt test as the app does: a test's parentless widgets (its own, or a fixture's) stay
    alive, in reference cycles, until pytest-qt closes and deleteLater()s them after the test; a collection
    before that destroyed a live TensorPanel through its wrapper, which crashed in Qt (automatic collection did
    the same when it happened to run there, but its young collections rarely found such a widget still young).
    """
    yield
    if {"qtbot", "qapp"} & set(request.fixturenames):
        from PySide6.QtCore import QCoreApplication, QEvent  # here: the core tests do not import Qt

        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    _collections_on_the_main_thread.collect_due()


@pytest.fixture
def automatic_gc() -> Iterator[None]:
    """Automatic collection on for the test, as a script importing autofuse_studio has it; the suite's state after."""
    enabled = gc.isenabled()
    gc.enable()
    yield
    if not enabled:
        gc.disable()


@pytest.fixture
def sdk(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stub Ascend SDK the verify-tiling tests build against, as ASCEND_HOME_PATH."""
    from tests.stub_sdk import stub_sdk

    root = stub_sdk(tmp_path_factory)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(root))
    return root
