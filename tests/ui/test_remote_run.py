"""The case dock's Run on: a host profile: rows stream into the table over a real sshd, cancel stops the host."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.remote.profiles import save_profiles
from autofuse_studio.core.run.spec import OnHost, RunSpec, mode1_spec
from autofuse_studio.ui.main_window import MainWindow
from autofuse_studio.ui.precision.remote_run import RemoteAnalysisController
from autofuse_studio.ui.precision.table_model import PrecisionTableModel
from tests.stub_sdk.remote_nwa import processes_with, remote_command, stalling_remote_command
from tests.stub_sdk.sshd import LocalSshd, start_sshd
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec

WAIT_MS = 90_000
Case = tuple[Path, CaseManifest]


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> Case:
    root = tmp_path_factory.mktemp("ranks") / "case"
    return root, generate_case(root, multi_rank_spec(runs=2, missing_ranks=(("af_close", 3),)))


@pytest.fixture(scope="module")
def command(tmp_path_factory: pytest.TempPathFactory) -> str:
    return remote_command(tmp_path_factory.mktemp("remote-bin"))


def _paths(root: Path, manifest: CaseManifest) -> dict[str, str]:
    return {f"{side}_graph": str(root / manifest.graphs[side]) for side in ("af_open", "af_close")} | \
        {f"{side}_data": str(root / manifest.data[side]) for side in ("af_open", "af_close")}


def _spec(paths: dict[str, str], command: str, compare_input: bool = False) -> RunSpec:
    """The host run of these (host) paths."""
    return mode1_spec(list(paths.values()), compare_input=compare_input, where=OnHost("testhost", command))


def test_remote_rows_fill_the_model_as_they_arrive(qtbot: QtBot, qtmodeltester: object, sshd: LocalSshd,
                                                    case: Case, command: str) -> None:
    save_profiles([sshd.profile()])
    root, manifest = case
    controller = RemoteAnalysisController()
    model = PrecisionTableModel()
    batches: list[int] = []
    streamed: list[tuple[str, str | None]] = []
    controller.rowsArrived.connect(lambda rows: (batches.append(len(rows)), model.append_rows(rows),
                                                 streamed.extend((row.fused_op, row.origin_op) for row in rows)))
    progress: list[str] = []
    controller.progressed.connect(lambda _done, _total, message: progress.append(message))
    with qtbot.waitSignal(controller.finished, timeout=WAIT_MS) as finished:
        controller.start(_spec(_paths(root, manifest), command, compare_input=True))
        assert controller.running
    analysis = finished.args[0]
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    local = run_mode1(RunSpec(*map(Path, _paths(root, manifest).values()), compare_input=True))
    assert [repr(row) for row in analysis.result.rows] == [repr(row) for row in local.rows]
    # Streamed rows show the run's progress; rows still waiting when it is done come with the result.
    assert model.rowCount() == sum(batches) <= len(local.rows)
    assert set(streamed) <= {(row.fused_op, row.origin_op) for row in local.rows}
    assert analysis.producers and analysis.files_indexed > 0
    assert any("compar" in message for message in progress)


def test_failure_is_one_sentence(qtbot: QtBot, sshd: LocalSshd, case: Case) -> None:
    save_profiles([sshd.profile()])
    root, manifest = case
    controller = RemoteAnalysisController()
    with qtbot.waitSignal(controller.failed, timeout=WAIT_MS) as failed:
        controller.start(_spec(_paths(root, manifest), "/nonexistent/autofuse-studio"))
    assert "'/nonexistent/autofuse-studio' was not found on host 'testhost'" in str(failed.args[0])


def test_window_runs_on_the_chosen_host_without_checking_local_paths(qtbot: QtBot, sshd: LocalSshd, case: Case,
                                                                      command: str) -> None:
    save_profiles([sshd.profile()])
    root, manifest = case
    window = MainWindow()
    qtbot.addWidget(window)
    panel = window.case_panel
    panel.edits["af_open_graph"].setText("/only/on/the/host.json")
    assert panel.edits["af_open_graph"].problem  # local: there is no such file here
    panel.run_on.set_host("testhost")
    assert panel.host() == "testhost" and panel.run_on.command_edit.isVisibleTo(panel)
    assert panel.edits["af_open_graph"].problem == ""  # a host path is the host's business
    panel.edits["af_open_graph"].setText("-x")
    assert "starts with '-'" in panel.edits["af_open_graph"].problem
    for role, path in _paths(root, manifest).items():
        panel.edits[role].setText(path)
    panel.run_on.command_edit.setText(command)
    with qtbot.waitSignal(window.resultShown, timeout=WAIT_MS):
        panel.analyse_button.click()
        assert not panel.analyse_button.isEnabled()
    assert window.workbench.model.rowCount() > 0
    assert window.workbench.result is not None and window.workbench.result.first_divergence is not None
    assert panel.analyse_button.isEnabled()
    if window.workbench.has_tensor_panel:  # the first divergence's NPYs are copied from the host and shown
        panel = window.workbench.tensor_panel
        with qtbot.waitSignal(panel.viewReady, timeout=WAIT_MS) as shown:  # type: ignore[attr-defined]
            window.workbench.go_to_first_divergence()
        first = window.workbench.result.first_divergence
        assert shown.args[0] is not None and panel.title.text().startswith(first.fused_op)  # type: ignore[attr-defined]
        copies = sorted(path.name for path in window.remote_tensors.folder.iterdir())
        assert len(copies) == 2 and all(name.endswith(".npy") for name in copies)


def test_cancel_stops_the_host_process(qtbot: QtBot, sshd: LocalSshd, case: Case, tmp_path: Path) -> None:
    slow = stalling_remote_command(tmp_path)
    save_profiles([sshd.profile()])
    root, manifest = case
    paths = _paths(root, manifest)
    token = str(tmp_path / "gui-token")
    Path(token).symlink_to(paths["af_open_data"])
    paths["af_open_data"] = token
    controller = RemoteAnalysisController()
    controller.start(_spec(paths, slow))
    qtbot.waitUntil(lambda: any("-m autofuse_studio nwa --emit-jsonl" in p for p in processes_with(token)),
                    timeout=WAIT_MS)
    with qtbot.waitSignal(controller.cancelled, timeout=WAIT_MS):
        controller.cancel()
    end = time.monotonic() + 15
    while processes_with(token):
        assert time.monotonic() < end, processes_with(token)
        qtbot.wait(100)
