"""DumpIndex: standard and flat trees, steps, duplicates, mapping.csv, odd and unreadable folders."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps import index as index_module
from autofuse_studio.core.dumps import walk as walk_module
from autofuse_studio.core.dumps.index import DumpIndex, Lookup
from autofuse_studio.core.dumps.npy import open_npy
from autofuse_studio.core.errors import Cancelled, InputError
from autofuse_studio.core.progress import CancelToken
from tests.conftest import samples_dir

TS = 1783906987170021


def _npy(
    folder: Path, op: str, kind: str = "output", index: int = 0, ts: int = TS, value: float = 0.0
) -> Path:
    """Write a tiny dump NPY named like msaccucmp does."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"AscBackend.{op}.3.44.{ts}.{kind}.{index}.npy"
    np.save(path, np.array([value], dtype=np.float32))
    return path


def _standard(root: Path, step: str, time: str = "20240101120000", model: str = "ge_default_1") -> Path:
    return root / time / "0" / model / "11" / step


def test_standard_five_level_tree(tmp_path: Path) -> None:
    folder = _standard(tmp_path, "0")
    out = _npy(folder, "autofuse_1_Add")
    inp = _npy(folder, "autofuse_1_Add", "input", 1)
    index = DumpIndex.build(tmp_path)
    assert index.root == tmp_path
    assert index.steps == ["0"]
    assert index.files_indexed == 2
    assert index.warnings == []
    assert index.lookup("autofuse_1_Add", "output", 0) == Lookup(out, [])
    assert index.lookup("autofuse_1_Add", "input", 1, step="0").path == inp
    assert index.lookup("autofuse_1_Add", "output", 1).path is None
    assert index.lookup("autofuse_1_Add", "output", 0, step="7") == Lookup(None, [])
    assert index.has_op("autofuse_1_Add")
    assert not index.has_op("other")


def test_flat_folder(tmp_path: Path) -> None:
    path = _npy(tmp_path, "op")
    index = DumpIndex.build(tmp_path)
    assert index.steps == [""]
    assert index.lookup("op", "output", 0).path == path
    assert index.lookup("op", "output", 0, step="").path == path


def test_steps_in_natural_order(tmp_path: Path) -> None:
    for step in ("0", "1", "2", "10"):
        _npy(_standard(tmp_path, step), "op", value=float(step))
    index = DumpIndex.build(tmp_path)
    assert index.steps == ["0", "1", "2", "10"]
    for step in index.steps:
        found = index.lookup("op", "output", 0, step=step).path
        assert found is not None
        np.testing.assert_array_equal(open_npy(found).materialize(), [float(step)])
    assert index.lookup("op", "output", 0).path == index.lookup("op", "output", 0, step="0").path


def test_numeric_folders_without_the_standard_tree_are_steps(tmp_path: Path) -> None:
    _npy(tmp_path / "0", "op")
    _npy(tmp_path / "1", "op")
    assert DumpIndex.build(tmp_path).steps == ["0", "1"]


def test_one_named_subfolder_is_not_a_step(tmp_path: Path) -> None:
    path = _npy(tmp_path / "af_open_data", "op")
    index = DumpIndex.build(tmp_path)
    assert index.steps == [""]
    assert index.lookup("op", "output", 0).path == path


def test_root_at_the_model_id_folder(tmp_path: Path) -> None:
    root = tmp_path / "11"
    _npy(root / "0", "op")
    assert DumpIndex.build(root).steps == ["0"]


def test_several_timestamps_newest_wins_with_one_warning_per_op(tmp_path: Path) -> None:
    old = _npy(tmp_path, "loop_op", ts=111)
    new = _npy(tmp_path, "loop_op", ts=333)
    mid = _npy(tmp_path, "loop_op", ts=222)
    _npy(tmp_path, "loop_op", "output", 1, ts=111)
    _npy(tmp_path, "loop_op", "output", 1, ts=222)
    index = DumpIndex.build(tmp_path)
    assert index.lookup("loop_op", "output", 0) == Lookup(new, [mid, old])
    assert len(index.warnings) == 1
    warning = index.warnings[0]
    assert "loop_op" in warning
    for path in (new, mid, old):
        assert path.name in warning


def test_several_time_folders_use_the_newest_run_only(tmp_path: Path) -> None:
    # Two {time} folders are two runs: never mix them (issue 11), say once which one is used.
    _npy(_standard(tmp_path, "0", time="20240101120000"), "op", ts=100)
    second = _npy(_standard(tmp_path, "0", time="20240101130000"), "op", ts=200)
    _npy(_standard(tmp_path, "0", time="20240101120000"), "early_op", ts=100)
    index = DumpIndex.build(tmp_path)
    assert index.steps == ["0"]
    assert index.lookup("op", "output", 0) == Lookup(second, [])
    assert index.lookup("early_op", "output", 0).path is None
    runs = [notice for notice in index.notices if notice.kind == "older_runs_ignored"]
    assert len(runs) == 1
    assert "20240101130000" in runs[0].message and "2 NPYs" in runs[0].message
    assert runs[0].items == [{"rank": "0", "used": "20240101130000", "ignored": ["20240101120000"],
                              "ignored_files": 2}]


def test_op_names_with_sanitised_characters(tmp_path: Path) -> None:
    path = _npy(tmp_path, "scope_layer_1_Add_a_b")
    index = DumpIndex.build(tmp_path)
    assert index.lookup("scope/layer.1/Add a\\b", "output", 0).path == path
    assert index.has_op("scope/layer.1/Add a\\b")


def test_long_names_resolved_through_mapping_csv(tmp_path: Path) -> None:
    long_op = "very_long_" * 30
    real_name = f"AscBackend.{long_op}.3.44.{TS}.output.0.npy"
    np.save(tmp_path / "0b1c2d3e4f.npy", np.zeros(2, dtype=np.float32))
    np.save(tmp_path / "1234567.npy", np.zeros(2, dtype=np.float32))
    (tmp_path / "mapping.csv").write_text(
        f"0b1c2d3e4f.npy,{real_name}\n1234567,/some/dir/AscBackend.other_op.3.44.{TS}.input.0\nbroken line\n",
        encoding="utf-8",
    )
    index = DumpIndex.build(tmp_path)
    assert index.lookup(long_op, "output", 0).path == tmp_path / "0b1c2d3e4f.npy"
    assert index.lookup("other_op", "input", 0).path == tmp_path / "1234567.npy"
    assert index.files_indexed == 2


def test_suffixed_and_non_dump_files(tmp_path: Path) -> None:
    np.save(tmp_path / f"Conv2D.conv1.3.44.{TS}.output.0.1x64x2x2.npy", np.zeros(4, dtype=np.float32))
    np.save(tmp_path / "m2_a.npy", np.zeros(1))
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    (tmp_path / f"Conv2D.conv1.3.44.{TS}").write_bytes(b"raw dump")
    index = DumpIndex.build(tmp_path)
    assert index.files_indexed == 1
    assert index.lookup("conv1", "output", 0).path is not None
    assert any("m2_a.npy" in warning for warning in index.warnings)


def test_chinese_and_brackets_in_folder_names(tmp_path: Path) -> None:
    root = tmp_path / "数据 [af*open]?"
    path = _npy(_standard(root, "0", model="模型[1]"), "op[0]")
    index = DumpIndex.build(root)
    assert index.lookup("op[0]", "output", 0).path == path


def test_empty_folder(tmp_path: Path) -> None:
    index = DumpIndex.build(tmp_path)
    assert index.steps == []
    assert index.files_indexed == 0
    assert index.lookup("op", "output", 0) == Lookup(None, [])
    assert not index.has_op("op")


def test_missing_folder_and_file_instead_of_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="does not exist") as info:
        DumpIndex.build(tmp_path / "absent")
    assert info.value.path == str(tmp_path / "absent")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="is not a folder"):
        DumpIndex.build(tmp_path / "file")


@pytest.mark.parametrize("native", [True, False], ids=["native listing", "os.scandir"])
def test_unreadable_folder_becomes_a_warning(native: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = _npy(tmp_path / "good", "op")
    _npy(tmp_path / "locked", "hidden_op")
    real_scandir, real_entries = os.scandir, walk_module.folder_entries

    def scandir(path: str | os.PathLike[str]) -> object:
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    def folder_entries(folder: str, size_hint: int = 0) -> object:
        if not native:
            return None  # the walk lists with os.scandir
        if Path(folder).name == "locked":
            raise PermissionError(13, "Permission denied", folder)
        return real_entries(folder, size_hint)

    # Root may read anything, so the permission failure is simulated.
    monkeypatch.setattr(index_module.os, "scandir", scandir)
    monkeypatch.setattr(walk_module, "folder_entries", folder_entries)
    index = DumpIndex.build(tmp_path)
    assert index.lookup("op", "output", 0).path == good
    assert not index.has_op("hidden_op")
    assert any("locked" in warning and "Permission denied" in warning for warning in index.warnings)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores permissions")
def test_really_unreadable_folder(tmp_path: Path) -> None:
    _npy(tmp_path / "locked", "hidden_op")
    (tmp_path / "locked").chmod(0)
    try:
        index = DumpIndex.build(tmp_path)
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert any("locked" in warning for warning in index.warnings)


def test_symlink_loops_are_scanned_once(tmp_path: Path) -> None:
    path = _npy(tmp_path / "a", "op")
    (tmp_path / "a" / "loop").symlink_to(tmp_path, target_is_directory=True)
    index = DumpIndex.build(tmp_path)
    assert index.lookup("op", "output", 0) == Lookup(path, [])


def test_lookups_never_touch_the_file_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _npy(tmp_path, "op")
    index = DumpIndex.build(tmp_path)

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("file system access during lookup")

    monkeypatch.setattr(index_module.os, "scandir", forbidden)
    monkeypatch.setattr(Path, "glob", forbidden)
    monkeypatch.setattr(Path, "iterdir", forbidden)
    assert index.lookup("op", "output", 0).path == path


def test_progress_and_cancel(tmp_path: Path) -> None:
    for step in ("0", "1"):
        _npy(_standard(tmp_path, step), "op")
    reports: list[tuple[int, int]] = []
    DumpIndex.build(tmp_path, progress=lambda done, total, message="": reports.append((done, total)))
    assert reports
    assert reports[-1][0] == reports[-1][1]
    assert all(done <= total for done, total in reports)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        DumpIndex.build(tmp_path, cancel=token)


def test_sample_data_indexes_and_loads() -> None:
    open_dir = samples_dir("nwa-small", "af_open_data")
    close_dir = samples_dir("nwa-small", "af_close_data")
    open_index = DumpIndex.build(open_dir)
    close_index = DumpIndex.build(close_dir)
    assert open_index.steps == [""]
    assert open_index.files_indexed == 17
    assert close_index.files_indexed == 14
    multi = open_index.lookup("autofuse_11_Multi", "output", 0)
    assert multi.path is not None
    assert multi.path.name.endswith(".222.output.0.npy")
    assert [path.name for path in multi.others] == ["AscBackend.autofuse_11_Multi.3.44.111.output.0.npy"]
    assert len(open_index.warnings) == 1
    add_in = open_index.lookup("scope/autofuse_1_Add_Mul", "input", 1).path
    assert add_in is not None
    assert open_npy(add_in).shape == (1,)
    square = close_index.lookup("Square_2", "output", 0).path
    assert square is not None
    np.testing.assert_array_equal(open_npy(square).materialize(), np.load(square))


@pytest.mark.parametrize("name", [
    "Add.add_1.17.2.1700000000000000.csv", "AscBackend.autofuse_845_Mul_Add.3032.44.1736172181524363.csv",
    "Add.add_1.17.2.1700000000000000", "Add.add_1.17.2.17.csv", "Add.a.b.17.2.1700000000000000.csv",
    "Add.add_1.x.2.1700000000000000.csv", "Add.add_1.17.2.1700000000000000.CSV", "Add..17.2.1700000000000000.csv",
    "Add.add_1.17.2.1700000000000000.csv.csv", "Add.add%2F1.17.2.1700000000000000.csv",
    "Add.add_1.12345678901.2.1700000000000000.csv", "Add.add_1.17.2.123456789012345678901.csv",
])
def test_the_usual_names_fast_paths_read_what_the_general_path_reads(name: str) -> None:
    """scan_tree's regexes for the usual raw dump and statistics CSV names agree with _dump_fields."""
    for pattern, kind in ((index_module._COMMON_STATS_NAME, index_module.STATS),
                          (index_module._COMMON_RAW_NAME, index_module.RAW)):
        match = pattern.fullmatch(name)
        if match is not None:
            assert index_module._dump_fields(name) == (match.group(1), kind, 0, int(match.group(2)))
