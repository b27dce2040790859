"""The run layer: RunSpec and its JSON form, RunHandle events and cancel, the local runner, case files with ranks."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.api import compare_npys
from autofuse_studio.api.precision import demo_case
from autofuse_studio.cli import main
from autofuse_studio.core.case import CaseFiles, load_case_file, save_case
from autofuse_studio.core.errors import AppError, Cancelled, InputError
from autofuse_studio.core.phase import Phase
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.progress import CancelToken
from autofuse_studio.core.run.events import (
    CaseLoaded,
    Event,
    Failed,
    Finished,
    Indexed,
    Progressed,
    RowsDone,
    RunOutcome,
    Started,
)
from autofuse_studio.core.run.handle import RunHandle
from autofuse_studio.core.run.runners import ClusterRunner, HostRunner, LocalRunner, check_where, runner_for, start
from autofuse_studio.core.run.spec import (
    LOCAL,
    OnCluster,
    OnHost,
    RunSpec,
    mode1_spec,
    mode2_spec,
    spec_from_record,
    spec_to_record,
)

SPECS = [
    mode1_spec(["/g1", "/g2", "/d1", "/d2"]),
    mode1_spec(["a.json", "b.json", "d 1", "路径"], compare_input=True, step="3", ranks=["0", "2"], jobs=3,
               thresholds=Thresholds(Limits(0.1 + 0.2, 1e-3, None), {"float16": Limits(0.995, None, None)}),
               where=OnHost("gpu1", "~/bin/autofuse-studio", 7)),
    mode1_spec(["/g1", "/g2", "/d1", "/d2"], where=OnCluster("tls://node1:8786", ("*:/a=/b",), "map.txt", "ca.pem",
                                                            "me.pem", None)),
    mode2_spec("a.npy", "b", Thresholds(Limits(0.9, None, None)), "output:0", "input:1"),
]


@pytest.mark.parametrize("spec", SPECS)
def test_a_spec_survives_its_json_form_exactly(spec: RunSpec) -> None:
    text = json.dumps(spec_to_record(spec))
    assert spec_from_record(json.loads(text)) == spec


@pytest.mark.parametrize(("change", "named"), [
    ({"mode": 3}, "'mode'"), ({"mode": True}, "'mode'"), ({"ranks": ["0", "x"]}, "'ranks'"),
    ({"ranks": "0,1"}, "'ranks'"), ({"jobs": 0}, "'jobs'"), ({"jobs": True}, "'jobs'"),
    ({"compare_input": 1}, "'compare_input'"), ({"af_open_graph": 3}, "'af_open_graph'"),
    ({"af_open_graph": "a" * 5000}, "'af_open_graph'"), ({"step": "a\x00b"}, "'step'"),
    ({"where": {"kind": "moon"}}, "'where'"), ({"where": {"kind": "host", "host": "h"}}, "'connect_timeout' must be a whole number"),
    ({"where": {"kind": "host", "host": "h", "remote_command": "x", "connect_timeout": 10**9}}, "connect_timeout"),
    ({"thresholds": {"default": {"cosine": 2}}}, "thresholds"), ({"format": "other/1"}, "not an"),
    ({"where": []}, "'where'"),
])
def test_a_hostile_spec_is_one_sentence_naming_the_field(change: dict[str, object], named: str) -> None:
    record = {**spec_to_record(SPECS[0]), **change}
    with pytest.raises(InputError, match=named):
        spec_from_record(record, "the spec")


def test_a_spec_is_frozen_and_keeps_ranks_as_a_tuple() -> None:
    spec = mode1_spec(["a", "b", "c", "d"], ranks=["1", "3"])
    assert spec.ranks == ("1", "3")
    with pytest.raises(AttributeError):
        spec.step = "2"  # type: ignore[misc]


def test_each_where_has_its_runner_and_mode_2_runs_here_only() -> None:
    assert isinstance(runner_for(SPECS[0]), LocalRunner)
    assert isinstance(runner_for(SPECS[1]), HostRunner)
    assert isinstance(runner_for(SPECS[2]), ClusterRunner)
    with pytest.raises(InputError, match="Mode 2 compares two NPY files on this machine"):
        runner_for(SPECS[3].with_where(OnHost("h")))


def test_an_unknown_host_is_refused_before_any_work() -> None:
    with pytest.raises(AppError, match="No host profile named 'gpu1'"):
        check_where(SPECS[1])


def _events_of(work: object) -> list[Event]:
    handle = RunHandle(work)  # type: ignore[arg-type]
    return list(handle.events())


def test_a_handle_ends_with_finished_or_failed_and_wait_raises_the_error() -> None:
    outcome = RunOutcome(result=None)  # type: ignore[arg-type]
    seen = _events_of(lambda emit, _cancel: (emit(Started()), emit(Progressed(1, 2, "comparing")), outcome)[-1])
    assert [type(event) for event in seen] == [Started, Progressed, Finished]
    assert seen[1].phase is Phase.COMPARING  # type: ignore[union-attr]

    def broken(_emit: object, _cancel: object) -> RunOutcome:
        raise InputError("The af-open dump folder /x does not exist.")

    failed = _events_of(broken)
    assert isinstance(failed[-1], Failed) and "does not exist" in str(failed[-1].error)
    with pytest.raises(InputError, match="does not exist"):
        RunHandle(broken).wait()


def test_cancel_reaches_the_run_from_another_thread_and_from_a_callers_token() -> None:
    started = threading.Event()

    def waits(_emit: object, cancel: CancelToken) -> RunOutcome:
        started.set()
        while True:
            cancel.check()
            threading.Event().wait(0.01)

    handle = RunHandle(waits)
    started.wait(5)
    handle.cancel()
    with pytest.raises(Cancelled):
        handle.wait()
    token = CancelToken()
    started.clear()
    other = RunHandle(waits, cancel=token)
    started.wait(5)
    token.cancel()
    assert isinstance(list(other.events())[-1].error, Cancelled)  # type: ignore[union-attr]


def _read_raising(handle: RunHandle) -> None:
    """Read a run as the GUI's analysis does: a Failed event's error raised from inside the loop."""
    for event in handle.events():
        if isinstance(event, Failed):
            raise event.error


def _read_interrupted(handle: RunHandle) -> None:
    """Stop reading a run at its first event, as Ctrl-C would."""
    for _event in handle.events():
        raise KeyboardInterrupt


def test_a_reader_that_raises_a_failed_runs_error_leaves_the_callers_token_alone() -> None:
    def broken(_emit: object, _cancel: object) -> RunOutcome:
        raise InputError("The af-open dump folder /x does not exist.")

    token = CancelToken()
    with pytest.raises(InputError):
        _read_raising(RunHandle(broken, cancel=token))
    assert not token.cancelled  # the next run given the same token (NEVER_CANCELLED, say) still runs
    outcome = RunOutcome(result=None)  # type: ignore[arg-type]
    assert RunHandle(lambda _emit, _cancel: outcome, cancel=token).wait() is outcome

    def waits(emit: Callable[[Event], None], cancel: CancelToken) -> RunOutcome:
        emit(Started())
        while True:
            cancel.check()
            threading.Event().wait(0.01)

    running = RunHandle(waits, cancel=token)  # type: ignore[arg-type]
    with pytest.raises(KeyboardInterrupt):  # a reader stopped mid-run (Ctrl-C) still cancels it
        _read_interrupted(running)
    assert token.cancelled


def test_the_local_runner_streams_what_the_gui_and_a_host_need() -> None:
    spec = mode1_spec(list(demo_case()), compare_input=True, jobs=2)
    seen = list(LocalRunner().start(spec, live=True).events())
    kinds = [type(event) for event in seen]
    assert kinds[0] is Started and kinds[-1] is Finished
    assert kinds.index(CaseLoaded) < kinds.index(Indexed) < kinds.index(RowsDone)
    outcome = seen[-1].outcome  # type: ignore[union-attr]
    streamed = [row for event in seen if isinstance(event, RowsDone) for row in event.rows]
    assert sorted(map(id, streamed)) == sorted(map(id, outcome.result.rows))  # each row once, the same objects
    assert outcome.case is not None and outcome.files_indexed > 0
    assert [repr(row) for row in outcome.result.rows] == [repr(row) for row in run_mode1(spec).rows]
    quiet = [type(event) for event in start(spec).events()]  # not live: no rows, no summary on the way
    assert RowsDone not in quiet and Indexed not in quiet


def _failing_pair(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(3)
    a, b = folder / "a.npy", folder / "b.npy"
    np.save(a, rng.standard_normal(4096).astype(np.float32))
    np.save(b, rng.standard_normal(4096).astype(np.float32))
    return a, b


def test_mode_2_names_its_first_divergence_in_the_api_and_in_json(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _failing_pair(tmp_path)
    compared = compare_npys(a, b)
    assert compared.row.verdict == "CULPRIT"
    assert compared.to_dict()["first_divergence"] is not None
    assert compared.row.signature is not None  # the failing pair is signed, as in mode 1
    out = tmp_path / "mode2.json"
    assert main(["nwa", "--mode", "2", "--npy-a", str(a), "--npy-b", str(b), "--output", str(out)]) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["first_divergence"]["fused_op"] == str(a)
    assert "签名/signature:" in capsys.readouterr().out


def test_mode_2_is_refused_on_a_host_or_a_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nwa", "--mode", "2", "--npy-a", "a", "--npy-b", "b", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "--scheduler runs mode 1" in capsys.readouterr().out


def test_a_case_file_keeps_ranks_and_step_and_builds_the_spec(tmp_path: Path) -> None:
    graphs = [tmp_path / "open.json", tmp_path / "close.json"]
    for path in graphs:
        path.write_text("{}")
    for folder in ("o", "c"):
        (tmp_path / folder).mkdir()
    case = CaseFiles(*graphs, tmp_path / "o", tmp_path / "c", step="4", ranks=["0", "3"])
    loaded = load_case_file(save_case(case, tmp_path / "run.afcase"))
    assert (loaded.step, loaded.ranks) == ("4", ["0", "3"])
    spec = loaded.spec(jobs=2)
    assert (spec.step, spec.ranks, spec.jobs, spec.where) == ("4", ("0", "3"), 2, LOCAL)
    assert loaded.spec(where=OnHost("gpu1")).af_open_data == str(tmp_path / "o")  # host paths as text


@pytest.mark.parametrize(("ranks", "why"), [("x", "device ids"), ([True], "device ids"), ({"a": 1}, "'ranks' must"),
                                             (["1"] * 5000, "at most")])
def test_a_case_files_ranks_are_checked(tmp_path: Path, ranks: object, why: str) -> None:
    document = {"format": "autofuse-studio-case/1", "ranks": ranks}
    path = tmp_path / "bad.afcase"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputError, match=why):
        load_case_file(path)
