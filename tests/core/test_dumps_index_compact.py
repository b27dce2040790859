"""The compact DumpIndex tables (issue 29): bare file names under a (rank, step) held by one folder, full paths
otherwise, one file per key kept without a tuple; every look-up answers the paths as before."""

from __future__ import annotations

import os
from pathlib import Path

from autofuse_studio.core.dumps.index import DumpIndex
from tests.core.test_dumps_index import TS, _npy, _standard


def test_one_folder_per_step_stores_bare_names(tmp_path: Path) -> None:
    first = _npy(_standard(tmp_path, "0"), "model_blocks_1_Add")
    second = _npy(_standard(tmp_path, "1"), "model_blocks_1_Add", "input", 2)
    index = DumpIndex.build(tmp_path)
    stored = list(index._table.values())
    assert stored and all(isinstance(files, str) and os.sep not in files for files in stored)
    assert index.paths("model/blocks.1/Add", "output", 0, "0", index.ranks[0]) == [str(first)]
    assert index.paths("model/blocks.1/Add", "input", 2, "1", index.ranks[0]) == [str(second)]
    assert index.occurrences("model/blocks.1/Add", "input", 2, step="1") == [second]
    ops = {key[2] for key in index._table}
    assert ops == {"model_blocks_1_Add"}
    assert len({id(key[2]) for key in index._table}) == 1  # one str per op name across its keys


def test_duplicates_stay_newest_first_with_their_paths(tmp_path: Path) -> None:
    folder = _standard(tmp_path, "0")
    older = _npy(folder, "op", ts=TS)
    newer = _npy(folder, "op", ts=TS + 5)
    index = DumpIndex.build(tmp_path)
    assert index.paths("op", "output", 0, "0", index.ranks[0]) == [str(newer), str(older)]
    lookup = index.lookup("op", "output", 0)
    assert lookup.path == newer and lookup.others == [older]
    assert any("dumped several times" in line and "ignoring" in line for line in index.warnings)


def test_a_step_in_several_folders_keeps_full_paths(tmp_path: Path) -> None:
    one = _npy(_standard(tmp_path, "0", model="ge_default_1"), "a")
    two = _npy(_standard(tmp_path, "0", model="ge_default_2"), "b")
    index = DumpIndex.build(tmp_path)
    found = {op: index.lookup(op, "output", 0).path for op in ("a", "b")}
    assert found == {"a": one, "b": two}
    assert all(os.sep in files for files in index._table.values() if isinstance(files, str))
