"""File > Export table writes on the task runner's worker: the GUI thread returns at once, the file is whole after."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.reports.precision_files import write_precision
from autofuse_studio.core.reports.precision_json import result_json
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision import export
from autofuse_studio.ui.tasks import TaskRunner
from tests.core.test_result_files_identity import xlsx_contents
from tests.synth.result_rows import synthetic_result

WAIT_MS = 30_000


@pytest.fixture
def runner() -> Iterator[TaskRunner]:
    """A task runner, shut down after the test."""
    made = TaskRunner()
    yield made
    made.shutdown()


class Gate:
    """export_table held at a gate on the worker: which threads wrote, and the event that lets them go on."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.writers: list[threading.Thread] = []


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    """Every export_table call waits until `gate.open` is set, after noting its thread."""
    held = Gate()
    original = export.export_table

    def gated(result: object, path: Path) -> Path:
        held.writers.append(threading.current_thread())
        assert held.open.wait(WAIT_MS / 1000)
        return original(result, path)  # type: ignore[arg-type]

    monkeypatch.setattr(export, "export_table", gated)
    return held


def test_export_returns_before_the_worker_writes(qtbot: QtBot, runner: TaskRunner, tmp_path: Path,
                                                 gate: Gate) -> None:
    result = synthetic_result(2000, hostile=True)
    target = tmp_path / "rows.json"
    handle = export.start_table_export(runner, result, target)
    assert not target.exists()  # returned while the worker waits at the gate
    result.rows.append(result.rows[0])  # rows streaming in after the click are not in the file
    with qtbot.waitSignal(handle.finished, timeout=WAIT_MS) as finished:
        gate.open.set()
    assert finished.args == [target]
    assert gate.writers and gate.writers[0] is not threading.main_thread()
    result.rows.pop()
    assert target.read_bytes() == result_json(result)


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_csv_and_xlsx_are_written_on_the_worker_too(qtbot: QtBot, runner: TaskRunner, tmp_path: Path,
                                                     gate: Gate, suffix: str) -> None:
    result = synthetic_result(700, hostile=True)
    target = tmp_path / f"rows{suffix}"
    handle = export.start_table_export(runner, result, target)
    assert not target.exists()
    with qtbot.waitSignal(handle.finished, timeout=WAIT_MS):
        gate.open.set()
    assert gate.writers and gate.writers[0] is not threading.main_thread()
    direct = write_precision(result, tmp_path / f"direct{suffix}")
    if suffix == ".xlsx":
        assert xlsx_contents(target) == xlsx_contents(direct)
    else:
        assert target.read_bytes() == direct.read_bytes()


def test_export_without_a_result_says_so(runner: TaskRunner, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no finished analysis"):
        export.start_table_export(runner, None, tmp_path / "x.csv")
    assert not runner.active()


def test_the_file_menu_exports_on_the_runner(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    result = synthetic_result(300)
    window.workbench.result = result
    target = tmp_path / "menu.csv"
    monkeypatch.setattr("autofuse_studio.ui.file_menu.QFileDialog.getSaveFileName",
                        lambda *args, **kwargs: (str(tmp_path / "menu"), "CSV (*.csv)"))
    gui_writes: list[Path] = []
    original = export.export_table
    monkeypatch.setattr(export, "export_table", lambda result, path: (
        gui_writes.append(path) if threading.current_thread() is threading.main_thread() else None,
        original(result, path))[1])
    window._on_export_table_triggered()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == str(target), timeout=WAIT_MS)
    assert not gui_writes
    assert target.read_text(encoding="utf-8-sig").count("\n") == len(result.rows) + 1
