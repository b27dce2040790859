"""Dropping dump folders as the NPU writes them: raw dump files and statistics CSVs are dump folders (no Qt)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core import case as case_module
from autofuse_studio.core.att import sniff as att_sniff
from autofuse_studio.core.att.sniff import is_att_log_folder
from autofuse_studio.core.case import detect_roles, thresholds_from_dict
from autofuse_studio.core.dropped import sort_dropped
from autofuse_studio.core.dumps import sniff as dump_sniff
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.stats import StatsLimits, StatsThresholds
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from tests.core.npu_cases import npu_run_folder

KINDS = ("raw", "stats")


@pytest.fixture(scope="module", params=KINDS)
def npu_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """(kind, run folder) for raw dump files and for statistics CSVs (read-only)."""
    kind = str(request.param)
    return kind, npu_run_folder(tmp_path_factory.mktemp(kind), kind)


def _first_file(folder: Path) -> Path:
    return next(path for path in sorted(folder.rglob("*")) if path.is_file())


def test_a_run_folder_off_the_npu_gives_all_four_roles(npu_run: tuple[str, Path]) -> None:
    kind, run = npu_run
    files = [path.name for path in run.rglob("*") if path.is_file()]
    assert not [name for name in files if name.endswith(".npy")]  # no NPY anywhere
    assert _first_file(run / "af_open" / "dump").name.endswith(".csv") == (kind == "stats")
    dropped = sort_dropped([str(run)])
    assert dropped.att_logs == [] and dropped.detection is not None
    case = dropped.detection.case
    assert case.af_open_data == run / "af_open" / "dump" and case.af_close_data == run / "af_close" / "dump"
    assert case.af_open_graph is not None and case.af_open_graph.parent == run / "af_open"
    assert case.problems() == [] and dropped.detection.notes == []


def test_the_sides_are_told_apart_by_the_fused_ops_files_not_the_names(npu_run: tuple[str, Path]) -> None:
    _, run = npu_run
    open_dump, close_dump = run / "af_open" / "dump", run / "af_close" / "dump"
    # Dropped in the other order, the two dump folders alone: AscBackend files make af-open.
    found = detect_roles([close_dump, open_dump])
    assert (found.case.af_open_data, found.case.af_close_data) == (open_dump, close_dump)
    assert found.notes == []


def test_dump_folders_are_not_att_log_folders_even_with_a_log_inside(npu_run: tuple[str, Path],
                                                                    tmp_path: Path) -> None:
    _, run = npu_run
    dump = tmp_path / "dump"
    shutil.copytree(run / "af_open" / "dump", dump)
    (dump / "plog-123.log").write_text("[INFO] started\n", encoding="utf-8")
    assert not is_att_log_folder(dump)
    dropped = sort_dropped([str(dump)])
    assert dropped.att_logs == [] and dropped.detection is not None
    assert dropped.detection.case.af_open_data == dump


def test_files_only_named_like_dumps_are_not_dumps(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "Add.add_1.2.3.1736171853005882").write_text("just text, not a dump\n", encoding="utf-8")
    (folder / "Add.add_1.2.3.1736171853005882.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    found = detect_roles([folder])
    assert found.case.af_open_data is None and found.case.af_close_data is None
    assert found.notes == [f"Found no graphs or dump files in {folder}."]
    (folder / "run.log").write_text("x\n", encoding="utf-8")
    assert is_att_log_folder(folder)  # a log folder that happens to hold such files is still one


def test_a_folder_of_statistics_csvs_is_told_by_its_first_line(tmp_path: Path) -> None:
    folder = tmp_path / "stats"
    folder.mkdir()
    header = "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count\n"
    for number in range(5):
        name = f"AscBackend.autofuse_{number}_Mul.{number}.9.173617185300588{number}.csv"
        (folder / name).write_text(header + "Output,0,16,DT_FLOAT,ND,4,1,0,0.5,4\n", encoding="utf-8")
    found = detect_roles([folder])
    assert found.case.af_open_data == folder and found.notes == []
    assert not is_att_log_folder(folder)


def test_raw_dumps_are_confirmed_by_reading_a_few_files_per_folder(npu_run: tuple[str, Path], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    kind, run = npu_run
    sample = _first_file(run / "af_open" / "dump")
    folder = tmp_path / "big"
    folder.mkdir()
    suffix = ".csv" if kind == "stats" else ""
    for number in range(2000):
        target = folder / f"AscBackend.autofuse_{number}_Mul.{number}.9.17361718530{number:05d}{suffix}"
        if number < 2:
            shutil.copy(sample, target)
        else:
            target.touch()  # the rest are not read: their names say what they are
    reads: list[str] = []
    real_sniff = case_module.sniff_file

    def counting_sniff(path: Any) -> str:
        reads.append(str(path))
        return real_sniff(path)

    monkeypatch.setattr(case_module, "sniff_file", counting_sniff)
    tree = case_module._scan(folder, 0, [case_module._MAX_ENTRIES])
    assert tree.dumps == tree.asc_dumps == 2000
    assert len(reads) <= case_module._CONFIRM_FILES
    cut = case_module._scan(folder, 0, [500])  # the budget ends in this folder: the same answer, cut short
    assert cut.dumps == 500


def test_the_att_sniff_reads_only_a_few_files_named_like_dumps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "run.log").write_text("x\n", encoding="utf-8")
    for number in range(300):  # named like raw dumps, but text: looked at 16 times at most
        (folder / f"Add.add_{number}.2.3.17361718530{number:05d}").write_text("text\n", encoding="utf-8")
    reads: list[str] = []
    real_sniff = dump_sniff.sniff_file

    def counting_sniff(path: Any) -> str:
        reads.append(str(path))
        return real_sniff(path)

    monkeypatch.setattr(dump_sniff, "sniff_file", counting_sniff)
    assert is_att_log_folder(folder)
    assert len(reads) == att_sniff._MAX_DUMP_SNIFFS


def test_statistics_limits_survive_a_round_trip_through_settings_and_case_files() -> None:
    thresholds = Thresholds(Limits(cosine=0.98), {}, StatsThresholds(StatsLimits(0.05, 0.01, 2),
                                                                     {"float16": StatsLimits(0.02, 0.0, 0)}))
    assert thresholds_from_dict(thresholds.as_dict()) == thresholds
    assert thresholds_from_dict({"default": {"cosine": 0.9}}).stats == StatsThresholds()  # older files
    with pytest.raises(InputError, match="max_rel"):
        thresholds_from_dict({"stats": {"default": {"max_rel": -1}}})
