"""Library calls leave the caller's GC as they found it; the CLI and the GUI opt in to freezing long-lived objects."""

from __future__ import annotations

import gc
import sys
import types
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio import api
from autofuse_studio.cli import main as cli_main
from autofuse_studio.core.att.runs.session import open_run
from autofuse_studio.core.att.workspace import load_workspace
from autofuse_studio.core.gc_pause import freezing_allowed, long_lived_freezing
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.graphview.around import plain_facts
from autofuse_studio.core.graphview.build import build_display_graph
from tests.core.runroots import standard_run_root
from tests.synth.att_log import SyntheticShape, write_synthetic_log


class _Node:
    """A container that can point at itself."""

    me: object = None


@pytest.fixture(autouse=True)
def _as_a_library(automatic_gc: None) -> Iterator[None]:
    """A script importing autofuse_studio: no opt-in, the GC enabled as Python starts it."""
    with long_lived_freezing(False):
        yield


def _old_cyclic_garbage() -> weakref.ref[_Node]:
    """A cycle the caller dropped, already in the oldest generation: only a full collection (or a freeze) moves it."""
    node = _Node()
    node.me = node
    gc.collect()  # still referenced here: it survives into the oldest generation
    return weakref.ref(node)


def _assert_leaves_gc_alone(call: Callable[[], object]) -> None:
    garbage = _old_cyclic_garbage()
    assert garbage() is not None
    enabled, threshold, frozen = gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()
    kept = call()  # the result stays alive: a freeze would have kept the caller's garbage with it
    assert (gc.isenabled(), gc.get_threshold()) == (enabled, threshold)
    # Nothing was frozen (a freeze moves every tracked object: thousands); objects frozen before the call (by
    # an earlier CLI run in this process) may have been freed during it, so the count can only shrink.
    assert gc.get_freeze_count() <= frozen
    gc.collect()
    assert garbage() is None, "the caller's cyclic garbage was frozen by a library call"
    del kept


def _att_log(folder: Path) -> Path:
    folder.mkdir()
    write_synthetic_log(folder / "run.log", SyntheticShape(operators=3, results=2, groups=2, cases=2))
    return folder


def test_compare_case_leaves_the_callers_gc_alone() -> None:
    _assert_leaves_gc_alone(lambda: api.compare_case(*api.demo_case(), jobs=2))


def test_compare_npys_leaves_the_callers_gc_alone(tmp_path: Path) -> None:
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.linspace(-1, 1, 64, dtype=np.float32))
    np.save(b, np.linspace(-1, 1, 64, dtype=np.float32) + np.float32(1e-3))
    _assert_leaves_gc_alone(lambda: api.compare_npys(a, b))


def test_att_calls_leave_the_callers_gc_alone(tmp_path: Path) -> None:
    logs = _att_log(tmp_path / "logs")
    _assert_leaves_gc_alone(lambda: api.summarize_att(logs))
    _assert_leaves_gc_alone(lambda: load_workspace([logs]))
    root = standard_run_root(tmp_path / "run")
    _assert_leaves_gc_alone(lambda: open_run(root))


def test_a_graph_load_and_its_display_graph_leave_the_callers_gc_alone() -> None:
    graph = api.demo_case().af_open_graph
    _assert_leaves_gc_alone(lambda: load_model(graph))
    model = load_model(graph)
    _assert_leaves_gc_alone(lambda: build_display_graph(model))
    _assert_leaves_gc_alone(lambda: plain_facts(model))


def test_a_disabled_gc_stays_disabled_through_a_run() -> None:
    gc.disable()
    api.compare_case(*api.demo_case(), jobs=2)
    assert not gc.isenabled()


def test_the_applications_opt_in_freezes_what_a_run_keeps() -> None:
    # The CLI and the GUI keep today's performance: there the run's models and result are frozen.
    before = gc.get_freeze_count()
    with long_lived_freezing():
        comparison = api.compare_case(*api.demo_case(), jobs=2)
    assert gc.get_freeze_count() > before
    assert not freezing_allowed()
    del comparison


def test_the_cli_entry_opts_in_for_its_subcommand_only(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    fake = types.ModuleType("autofuse_studio.cli.dump")
    fake.main = lambda argv: seen.append(freezing_allowed()) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "autofuse_studio.cli.dump", fake)
    assert cli_main(["dump", "--help"]) == 0
    assert seen == [True]
    assert not freezing_allowed()  # an in-process caller of main() gets its policy back


def test_the_gui_entry_opts_in_for_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.ui import app

    seen: list[tuple[bool, bool]] = []
    monkeypatch.setattr(app, "_run_app", lambda *args: seen.append((freezing_allowed(), gc.isenabled())) or 0)
    assert app.run_app() == 0
    assert seen == [(True, False)]  # and its cyclic garbage is collected by the GUI thread's timer (ui.gui_gc)
    assert not freezing_allowed() and gc.isenabled()
