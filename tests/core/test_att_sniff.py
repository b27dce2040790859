"""Telling ATT logs from precision inputs among dropped paths (core/att/sniff.py)."""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.att.sniff import is_att_log_file, is_att_log_folder, split_att_logs


def test_log_files_by_name_and_by_content(tmp_path: Path) -> None:
    named = tmp_path / "a.log"
    named.write_text("anything\n", encoding="utf-8")
    packed = tmp_path / "b.log.gz"
    packed.write_bytes(gzip.compress(b"x\n"))
    renamed = tmp_path / "plog.txt"
    renamed.write_text("[Add] noise\n[PERF] Load_0[Load]: AIV_MTE2 = 1\n", encoding="utf-8")
    plain = tmp_path / "notes.txt"
    plain.write_text("no markers here\n", encoding="utf-8")
    graph = tmp_path / "graph.json"
    graph.write_text('{"graph": [], "x": "[PERF]"}', encoding="utf-8")
    assert [is_att_log_file(path) for path in (named, packed, renamed, plain, graph, tmp_path / "gone.log")] == [
        True, True, True, False, False, False]


def test_log_folders_hold_logs_and_no_case_files(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    (logs / "sub").mkdir(parents=True)
    (logs / "sub" / "run.log").write_text("x\n", encoding="utf-8")
    run = tmp_path / "run"
    (run / "dump").mkdir(parents=True)
    (run / "plog.log").write_text("x\n", encoding="utf-8")
    (run / "dump" / "Add.a.1.1.1.output.0.npy").write_bytes(b"")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert [is_att_log_folder(path) for path in (logs, run, empty, logs / "sub" / "run.log")] == [
        True, False, False, False]
    att, rest = split_att_logs([str(run), str(logs / "sub" / "run.log"), str(logs)])
    assert att == [str(logs / "sub" / "run.log"), str(logs)] and rest == [str(run)]


def test_a_dump_folder_answers_at_its_first_case_file_and_links_are_not_followed(tmp_path: Path) -> None:
    dump = tmp_path / "dump" / "0" / "1"
    dump.mkdir(parents=True)
    for number in range(6000):  # more than the 5000 entries looked at: the NPYs still decide
        (dump / f"Add.add_{number}.1.1.1.output.0.npy").write_bytes(b"")
    (tmp_path / "dump" / "plog.log").write_text("x\n", encoding="utf-8")
    assert not is_att_log_folder(tmp_path / "dump")
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "run.log").write_text("x\n", encoding="utf-8")
    (logs / "linked").symlink_to(tmp_path / "dump", target_is_directory=True)  # NPYs behind a link
    assert is_att_log_folder(logs)
    only_link = tmp_path / "only_link"
    only_link.mkdir()
    (only_link / "elsewhere").symlink_to(logs, target_is_directory=True)
    assert not is_att_log_folder(only_link)  # the logs behind the link do not count either


def test_a_tree_of_folders_is_looked_at_only_so_far(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = tmp_path / "tree"
    for number in range(5100):  # more folders than the 5000 entries looked at
        (tree / f"empty_{number:05d}").mkdir(parents=True)
    listed: list[str] = []
    real_scandir = os.scandir

    def counting_scandir(path: str) -> Any:
        listed.append(path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", counting_scandir)
    assert not is_att_log_folder(tree)
    assert len(listed) == 1  # the limit is reached in the top folder: none of the 5100 below is listed
