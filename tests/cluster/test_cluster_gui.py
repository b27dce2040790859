"""The case dock's "Run on a Dask cluster": the table fills with the local run's rows; progress in tasks; cancel."""

from __future__ import annotations

import time
from pathlib import Path

from pytestqt.qtbot import QtBot

from autofuse_studio.core.case import detect_roles
from autofuse_studio.core.cluster import submit
from autofuse_studio.core.phase import Phase, phase_of
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.ui.main_window import MainWindow
from tests.cluster.local_cluster import LocalCluster
from tests.cluster.test_cluster_rows import request_for, split_views  # noqa: F401  (fixture)
from tests.synth import CaseManifest

WAIT_MS = 60_000


def _window(qtbot: QtBot, root: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.case_panel.set_case(detect_roles([root]).case)
    return window


def test_the_progress_message_is_the_core_phase() -> None:
    assert phase_of(submit.CLUSTER_PROGRESS) is Phase.COMPARING_CLUSTER


def test_a_cluster_run_fills_the_table_with_the_local_rows(qtbot: QtBot, case: tuple[Path, CaseManifest],
                                                           cluster: LocalCluster, split_views: dict[str, Path],  # noqa: F811
                                                           tmp_path: Path) -> None:
    root, manifest = case
    map_file = tmp_path / "paths.txt"
    map_file.write_text("".join(f"{name}:{root}={view}\n" for name, view in split_views.items()), encoding="utf-8")
    window = _window(qtbot, root)
    window.case_panel.compare_input.setChecked(True)
    choice = window.case_panel.cluster_run
    assert not choice.isChecked() and not choice.address.isVisibleTo(choice)
    choice.use_cluster(cluster.address, str(map_file))
    assert choice.address.isVisibleTo(choice)
    texts: list[str] = []
    window.analysis.progressed.connect(lambda done, total, message: texts.append(window.case_panel.progress_label.text()))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        started = time.monotonic()
        window.analyse()
        assert time.monotonic() - started < 0.5  # connecting and comparing happen off the GUI thread
    local = run_mode1(request_for(root, manifest))
    result = window.workbench.result
    assert result is not None
    assert [repr(row) for row in result.rows] == [repr(row) for row in local.rows]
    assert any(text.startswith("Compared ") and text.endswith(" tasks on the cluster") for text in texts)
    assert window.analysis.running is False and window.case_panel.analyse_button.isEnabled()


def test_a_bad_address_is_shown_in_the_banner(qtbot: QtBot, case: tuple[Path, CaseManifest]) -> None:
    root, _ = case
    window = _window(qtbot, root)
    window.case_panel.cluster_run.use_cluster("node1:8786")
    window.analyse()
    assert not window.analysis.running
    assert "--scheduler takes a Dask scheduler address" in window.case_panel.banner.text()


def test_cancel_cancels_the_cluster_run(qtbot: QtBot, case: tuple[Path, CaseManifest],
                                        very_slow_cluster: LocalCluster) -> None:
    root, _ = case
    window = _window(qtbot, root)
    window.case_panel.cluster_run.use_cluster(very_slow_cluster.address)
    seen: list[str] = []
    window.analysis.progressed.connect(lambda done, total, message: seen.append(message))
    window.analyse()
    qtbot.waitUntil(lambda: submit.CLUSTER_PROGRESS in seen, timeout=WAIT_MS)
    with qtbot.waitSignal(window.analysis.cancelled, timeout=3000):
        window.case_panel.cancel_button.click()
    assert window.case_panel.analyse_button.isEnabled()


def test_dump_folders_that_exist_only_on_the_workers(qtbot: QtBot, case: tuple[Path, CaseManifest],
                                                     cluster: LocalCluster, tmp_path: Path) -> None:
    """The dock takes dump folders named as the nodes name them; only the graphs are read here."""
    from dataclasses import replace

    root, manifest = case
    remote = Path("/nodes-only/job42")  # no such folder on this machine
    map_file = tmp_path / "paths.txt"
    map_file.write_text(f"*:{remote}={root}\n", encoding="utf-8")
    window = _window(qtbot, root)
    case_files = replace(window.case_panel.case(), af_open_data=remote / manifest.data["af_open"],
                         af_close_data=remote / manifest.data["af_close"])
    window.case_panel.set_case(case_files)
    window.case_panel.cluster_run.use_cluster(cluster.address, str(map_file))
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        window.analyse()
    result = window.workbench.result
    local = run_mode1(request_for(root, manifest, compare_input=False))
    assert result is not None and len(result.rows) == len(local.rows)
    assert [(row.status, row.verdict) for row in result.rows] == [(row.status, row.verdict) for row in local.rows]
    assert all(str(row.fused_file).startswith(str(remote)) for row in result.rows if row.fused_file)
