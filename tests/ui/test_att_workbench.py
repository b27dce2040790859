"""AttWorkbench: open and drop logs, background loading with cancel, evidence without overwrite, screenshots."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QImage
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.evidence import EVIDENCE_FILE, MANIFEST_FILE
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.ui.att.workbench import AttWorkbench
from tests.synth.att_log import SyntheticShape
from tests.synth.att_perf_log import write_synthetic_perf_log

TIMEOUT_MS = 20000


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "logs" / "run.log"
    path.parent.mkdir()
    write_synthetic_perf_log(path, SyntheticShape(operators=3, results=2, groups=2, cases=3))
    return path


@pytest.fixture
def bench(qtbot: QtBot) -> Iterator[AttWorkbench]:
    widget = AttWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1300, 850)
    yield widget
    widget.shutdown()


def _open(bench: AttWorkbench, qtbot: QtBot, *paths: Path) -> None:
    with qtbot.waitSignal(bench.loaded, timeout=TIMEOUT_MS):
        bench.open_paths(list(paths))


def _not_blank(image: QImage) -> bool:
    colours = {image.pixel(x, y) for x in range(0, image.width(), 17) for y in range(0, image.height(), 17)}
    return len(colours) > 5


def test_open_a_folder_feeds_every_panel(bench: AttWorkbench, qtbot: QtBot, log: Path) -> None:
    _open(bench, qtbot, log.parent)
    assert bench.workspace is not None and bench.workspace.logs == [log.resolve()]
    assert bench.perf.operators.rowCount() == 3 and bench.perf.current_operator == "Op0"
    assert bench.summary.model.rowCount() == 3 * 2
    assert bench.compare.paths[0].text() == str(log.parent)
    assert "3 operator(s) with [PERF] lines" in bench.title.text()
    assert not bench.strip.isVisible()


def test_drop_opens_the_dropped_log(bench: AttWorkbench, qtbot: QtBot, log: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(log))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(bench.loaded, timeout=TIMEOUT_MS) as blocker:
        bench.dropEvent(event)
    assert blocker.args[0].inputs == [log]


def test_cancelled_open_leaves_nothing_behind(bench: AttWorkbench, qtbot: QtBot, log: Path) -> None:
    handle = bench.open_paths([log])
    assert handle is not None and bench.strip.isVisibleTo(bench)
    # Whether the worker saw the cancel or had already queued its result, nothing may be shown.
    with qtbot.waitSignal(bench.jobs.busyChanged, timeout=TIMEOUT_MS, check_params_cb=lambda busy: not busy):
        bench.strip.cancel_button.click()
    assert bench.workspace is None and not bench.banner.isVisibleTo(bench)
    assert not bench.strip.isVisibleTo(bench)


def test_missing_input_shows_a_sentence(bench: AttWorkbench, qtbot: QtBot, tmp_path: Path) -> None:
    with qtbot.waitSignal(bench.jobs.failed, timeout=TIMEOUT_MS):
        bench.open_paths([tmp_path / "missing.log"])
    assert bench.banner.isVisibleTo(bench) and "not found" in bench.banner.text()


def test_evidence_export_never_overwrites(bench: AttWorkbench, qtbot: QtBot, log: Path, tmp_path: Path) -> None:
    _open(bench, qtbot, log)
    target = tmp_path / "evidence"
    with qtbot.waitSignal(bench.evidenceExported, timeout=TIMEOUT_MS) as first:
        bench.export_evidence(target)
    original = (target / EVIDENCE_FILE).read_bytes(), (target / MANIFEST_FILE).read_bytes()
    with qtbot.waitSignal(bench.evidenceExported, timeout=TIMEOUT_MS) as second:
        bench.export_evidence(target)
    assert first.args[0] == str(target) and second.args[0] == str(tmp_path / "evidence-2")
    assert first.args[1] == second.args[1] > 0
    assert ((target / EVIDENCE_FILE).read_bytes(), (target / MANIFEST_FILE).read_bytes()) == original
    manifest = json.loads((tmp_path / "evidence-2" / MANIFEST_FILE).read_text())
    assert manifest["command"][:3] == ["autofuse-studio", "att", "evidence"]
    assert manifest["record_count"] == first.args[1]


def test_summary_row_opens_its_case_on_the_canvas(bench: AttWorkbench, qtbot: QtBot, log: Path) -> None:
    _open(bench, qtbot, log)
    bench.tabs.setCurrentWidget(bench.summary)
    bench.summary.caseRequested.emit("Op1", CaseKey(0, 1, 1, 0))
    assert bench.tabs.currentWidget() is bench.perf and bench.perf.current_operator == "Op1"
    assert bench.perf.details is not None and bench.perf.details.key == CaseKey(0, 1, 1, 0)


def test_screenshots_of_every_tab(bench: AttWorkbench, qtbot: QtBot, log: Path, tmp_path: Path) -> None:
    bench.show()
    qtbot.waitExposed(bench)
    _open(bench, qtbot, log)
    for index in range(bench.tabs.count()):
        if bench.tabs.widget(index) is bench.split:
            with qtbot.waitSignal(bench.split.splitDone, timeout=TIMEOUT_MS):
                bench.tabs.setCurrentIndex(index)
            bench.split.select_path("Op0/runtime/graph0_result0/g0/case0.log")
        else:
            bench.tabs.setCurrentIndex(index)
        shot = bench.grab()
        path = tmp_path / f"att_tab{index}.png"
        assert shot.save(str(path))
        assert _not_blank(QImage(str(path))), bench.tabs.tabText(index)
