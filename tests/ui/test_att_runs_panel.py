"""The ATT tab's Runs view: open and drop a run root, changed operators first, pictures, evidence, export, archive."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QImage
from pytestqt.qtbot import QtBot

from autofuse_studio.core.att.runs.archive import MANIFEST
from autofuse_studio.ui.att import dialogs
from autofuse_studio.ui.att.runs_panel import RunsPanel
from autofuse_studio.ui.att.workbench import AttWorkbench
from autofuse_studio.ui.main_window import MainWindow
from tests.core.runroots import read_line, standard_run_root, tree_state

TIMEOUT_MS = 20000


@pytest.fixture
def run_root(tmp_path: Path) -> Path:
    return standard_run_root(tmp_path / "field-run")


@pytest.fixture
def bench(qtbot: QtBot) -> Iterator[AttWorkbench]:
    widget = AttWorkbench()
    qtbot.addWidget(widget)
    widget.resize(1400, 860)
    yield widget
    widget.shutdown()


def _open(qtbot: QtBot, panel: RunsPanel, root: Path) -> None:
    with qtbot.waitSignal(panel.loaded, timeout=TIMEOUT_MS):
        panel.open_run_root(root)


def test_models_pass_the_model_tester(bench: AttWorkbench, qtbot: QtBot, qtmodeltester: object,
                                      run_root: Path) -> None:
    _open(qtbot, bench.runs, run_root)
    bench.runs.select_operator("Op1")
    for model in (bench.runs.files, bench.runs.operators, bench.runs.evidence):
        qtmodeltester.check(model)  # type: ignore[attr-defined]


def test_open_shows_both_sides_and_changed_operators_first(bench: AttWorkbench, qtbot: QtBot, run_root: Path) -> None:
    before = tree_state(run_root)
    with qtbot.waitSignal(bench.runs.loaded, timeout=TIMEOUT_MS):
        bench.open_run_root(run_root)
    assert bench.tabs.currentWidget() is bench.runs
    files = bench.runs.files.rows
    assert [(r.side, r.path) for r in files if r.kind == "log"] == [
        ("default", "default/logs/att.log"), ("default", "default/logs/device1/plog/plog-1_2024.log"),
        ("candidate", "pgo/att.log.gz"), ("candidate", "pgo/profiling/run/a/b/c/slog.txt")]
    assert ("default", "default/kernel_meta/") in [(r.side, r.path) for r in files if r.kind == "folder"]
    names = [d.name for d in bench.runs.operators.diffs]
    assert names[:5] == ["Op3", "Op2", "Op1", "Op5", "Op8"]
    model = bench.runs.operators
    assert model.data(model.index(0, 0)) == "changed" and model.data(model.index(0, 2)) == "+25.00%"
    assert "result performance 1004 → 1255" in model.data(model.index(0, 5))
    assert bench.runs.current_diff() is not None and bench.runs.current_diff().name == "Op3"  # type: ignore[union-attr]
    assert bench.runs.title.text() == "field-run: default/ ↔ pgo/, 9 operator(s), 3 changed"
    assert tree_state(run_root) == before


def test_clicking_an_operator_shows_both_pictures_and_its_evidence(bench: AttWorkbench, qtbot: QtBot,
                                                                  run_root: Path) -> None:
    _open(qtbot, bench.runs, run_root)
    assert bench.runs.select_operator("Op1")
    pictures = bench.runs.pictures
    for role in ("default", "candidate"):
        texts = [item.text for item in pictures.canvases[role].drawn_items() if item.text]
        assert "Op1" in texts, role
    default_selected = [i.text for i in pictures.canvases["default"].drawn_items() if (i.text or "").startswith("Selected")]
    candidate_selected = [i.text for i in pictures.canvases["candidate"].drawn_items()
                          if (i.text or "").startswith("Selected")]
    assert default_selected == ["Selected: graph0_result1_g0_case0"]
    assert candidate_selected == ["Selected: graph0_result1_g0_case2"]
    assert "group 0: tiling case 0 → 2" in bench.runs.causes.text()
    evidence = bench.runs.evidence
    assert evidence.rowCount() > 4
    for side, location, text in evidence.rows:
        path, line = location.rsplit(":", 1)
        assert read_line(run_root / path, int(line)) == text
        assert path.startswith("default/" if side == "default" else "pgo/")


def test_an_operator_without_perf_lines_on_one_side(bench: AttWorkbench, qtbot: QtBot, run_root: Path) -> None:
    _open(qtbot, bench.runs, run_root)
    bench.runs.select_operator("Op8")  # only in the candidate run
    assert bench.runs.pictures.canvases["default"].message == "No [PERF] lines for Op8 in this run."
    assert bench.runs.pictures.canvases["candidate"].drawn_items()


def test_drop_opens_the_run_root(bench: AttWorkbench, qtbot: QtBot, run_root: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(run_root))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(bench.runs.loaded, timeout=TIMEOUT_MS) as blocker:
        bench.runs.dropEvent(event)
    assert blocker.args[0].analysis.sides.run_root == run_root.resolve()


def test_a_missing_side_is_a_sentence_on_the_banner(bench: AttWorkbench, qtbot: QtBot, tmp_path: Path) -> None:
    (tmp_path / "root" / "default").mkdir(parents=True)
    with qtbot.waitSignal(bench.jobs.failed, timeout=TIMEOUT_MS):
        bench.runs.open_run_root(tmp_path / "root")
    assert "No candidate run in the run root" in bench.banner.text()
    assert bench.runs.session is None and not bench.runs.export_button.isEnabled()


def test_export_writes_the_cli_files_and_refuses_a_full_folder(bench: AttWorkbench, qtbot: QtBot, run_root: Path,
                                                              tmp_path: Path) -> None:
    _open(qtbot, bench.runs, run_root)
    target = tmp_path / "report"
    with qtbot.waitSignal(bench.runs.exported, timeout=TIMEOUT_MS) as blocker:
        bench.runs.export(target)
    assert sorted(Path(p).name for p in blocker.args[0]) == ["report.md", "root-cause.jsonl", "summary.csv",
                                                             "summary.xlsx"]
    first = json.loads((target / "root-cause.jsonl").read_text().splitlines()[0])
    assert first["operator"] == "Op3" and first["status"] == "changed"
    with qtbot.waitSignal(bench.jobs.failed, timeout=TIMEOUT_MS):
        bench.runs.export(target)
    assert "is not empty" in bench.banner.text()
    with qtbot.waitSignal(bench.runs.exported, timeout=TIMEOUT_MS):
        bench.runs.export(target, force=True)


def test_archive_twice_never_overwrites(bench: AttWorkbench, qtbot: QtBot, run_root: Path, tmp_path: Path) -> None:
    _open(qtbot, bench.runs, run_root)
    results = []
    for _ in range(2):
        with qtbot.waitSignal(bench.runs.archived, timeout=TIMEOUT_MS) as blocker:
            bench.runs.archive(tmp_path / "archive")
        results.append(blocker.args[0])
    assert [r.name for r in results] == ["field-run", "field-run-2"]
    manifest = json.loads((results[1].evidence / MANIFEST).read_text())
    assert manifest["command"][:4] == ["autofuse-studio", "att", "analyze", "--run-root"]
    assert {f["path"] for f in manifest["files"]} >= {"pgo/att.log.gz", "default/logs/att.log"}


def _not_blank(image: QImage) -> bool:
    colours = {image.pixel(x, y) for x in range(0, image.width(), 17) for y in range(0, image.height(), 17)}
    return len(colours) > 5


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    widget = MainWindow()
    qtbot.addWidget(widget)
    widget.resize(1500, 900)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    widget.set_language("en")


def test_file_menu_opens_a_run_root(window: MainWindow, qtbot: QtBot, run_root: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialogs, "folder", lambda *_args: run_root)
    assert window.open_run_root_action in window.file_menu.actions()
    with qtbot.waitSignal(window.att.runs.loaded, timeout=TIMEOUT_MS):
        window.open_run_root_action.trigger()
    assert window.tabs.currentWidget().findChild(AttWorkbench) is window.att
    assert window.att.tabs.currentWidget() is window.att.runs


def test_english_and_chinese_with_screenshots(window: MainWindow, qtbot: QtBot, run_root: Path,
                                              tmp_path: Path) -> None:
    runs = window.att.runs
    with qtbot.waitSignal(runs.loaded, timeout=TIMEOUT_MS):
        window.att.open_run_root(run_root)
    window.tabs.setCurrentIndex(2)
    runs.select_operator("Op1")
    english = window.grab()
    assert english.save(str(tmp_path / "runs_en.png")) and _not_blank(QImage(str(tmp_path / "runs_en.png")))
    window.set_language("zh_CN")
    qtbot.waitUntil(lambda: runs.open_button.text() == "打开运行目录…", timeout=2000)
    assert window.att.tabs.tabText(window.att.tabs.indexOf(runs)) == "运行对比"
    assert runs.operators.headerData(0, Qt.Orientation.Horizontal) == "状态"
    assert runs.operators.data(runs.operators.index(0, 0)) == "有变化"
    assert "group 0 选中的 tiling case 0 → 2" in runs.causes.text()
    assert runs.title.text() == "field-run：default/ ↔ pgo/，9 个算子，3 个有变化"
    assert runs.pictures.titles["candidate"].text() == "candidate：pgo/"
    assert window.open_run_root_action.text().startswith("打开运行目录")
    chinese = window.grab()
    assert chinese.save(str(tmp_path / "runs_zh.png")) and _not_blank(QImage(str(tmp_path / "runs_zh.png")))
