"""The graph tab's details wait for the consumer index a worker builds: a pick never builds it on the GUI thread."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from pytestqt.qtbot import QtBot

from autofuse_studio.core.ge.fusion import build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.ui.graph import prepare, workbench
from autofuse_studio.ui.graph.details import DetailsPanel
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from tests.core.test_graphview_build import DEMO, demo_case

TIMEOUT = 20000


@pytest.fixture
def warming_gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Workers build consumer indexes only once the returned event is set (the demo's graphs build in no time)."""
    gate = threading.Event()
    original = prepare.warm_consumers

    def gated(model: Model, **kwargs: Any) -> None:
        assert gate.wait(TIMEOUT / 1000)
        original(model, **kwargs)

    for module in (prepare, workbench):
        monkeypatch.setattr(module, "warm_consumers", gated)
    yield gate
    gate.set()  # let any worker still waiting finish


@pytest.fixture
def index_builders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads that built a model's consumer index (as big models do: not inline)."""
    monkeypatch.setattr(prepare, "INLINE_CONSUMERS_OPS", 0)  # the demo's graphs are small: treat them as 100k ops
    builders: list[str] = []
    original = Model.consumers

    def consumers(self: Model, op_name: str) -> Any:
        if self._consumers is None:
            builders.append(threading.current_thread().name)
        return original(self, op_name)

    monkeypatch.setattr(Model, "consumers", consumers)
    return builders


@pytest.fixture
def bench(qtbot: QtBot, index_builders: list[str], warming_gate: threading.Event) -> Iterator[GraphWorkbench]:
    """A shown graph tab; no case yet."""
    widget = GraphWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1400, 800)
    widget.show()
    yield widget
    widget.shutdown()


def fresh_case(bench: GraphWorkbench) -> Model:
    """Give the tab fresh models of the demo case (their consumer indexes not built); the af-open model."""
    graphs = json.loads((DEMO / "manifest.json").read_text(encoding="utf-8"))["graphs"]
    af_open, af_close = load_model(DEMO / graphs["af_open"]), load_model(DEMO / graphs["af_close"])
    bench.set_case(af_open, af_close, build_fusion_mapping(af_open))
    return af_open


def test_a_pick_waits_for_the_index_then_describes_the_latest_pick(bench: GraphWorkbench, qtbot: QtBot,
                                                                   index_builders: list[str],
                                                                   warming_gate: threading.Event) -> None:
    _, _, _, result = demo_case()
    fused = [row.fused_op for row in result.rows]
    first, second = fused[0], next(name for name in fused if name != fused[0])
    af_open = fresh_case(bench)
    assert not prepare.consumers_ready(af_open)
    bench.select_row(next(row for row in result.rows if row.fused_op == first))
    bench.select_fused_op(second)  # a second pick before the index is ready: its details win
    pending = bench.details.toPlainText()
    assert first not in pending and "Fusion mapping" not in pending  # nothing stale while the index is built
    assert second in pending and bench.details.pending == second
    qtbot.wait(100)
    assert bench.details.toPlainText() == pending and not index_builders  # nor did the GUI thread build it
    warming_gate.set()
    qtbot.waitUntil(lambda: bench.details.pending is None, timeout=TIMEOUT)
    assert second in bench.details.toPlainText() and "Fusion mapping" in bench.details.toPlainText()
    assert index_builders and threading.main_thread().name not in index_builders
    qtbot.wait(50)
    assert second in bench.details.toPlainText()  # the first pick's details did not come after


def test_a_pick_on_a_warm_model_is_described_at_once(bench: GraphWorkbench, qtbot: QtBot,
                                                    warming_gate: threading.Event) -> None:
    _, _, _, result = demo_case()
    warming_gate.set()
    with qtbot.waitSignals([bench.open_pane.layoutReady, bench.close_pane.layoutReady], timeout=TIMEOUT):
        fresh_case(bench)
    name = result.rows[0].fused_op
    bench.select_fused_op(name)
    qtbot.waitUntil(lambda: name in bench.details.toPlainText(), timeout=TIMEOUT)
    other = next(row.fused_op for row in result.rows if row.fused_op != name)
    bench.select_fused_op(other)
    assert other in bench.details.toPlainText()  # the index is built: no wait


def test_a_language_change_keeps_the_pending_note(qtbot: QtBot) -> None:
    panel = DetailsPanel()
    qtbot.addWidget(panel)
    panel.show_pending("autofuse_3_Add")
    QCoreApplication.sendEvent(panel, QEvent(QEvent.Type.LanguageChange))
    assert panel.pending == "autofuse_3_Add" and "autofuse_3_Add" in panel.toPlainText()
    panel.show_sections([])
    QCoreApplication.sendEvent(panel, QEvent(QEvent.Type.LanguageChange))
    assert panel.pending is None and "autofuse_3_Add" not in panel.toPlainText()
