"""Files that are not what they mention (issue 28, item 11): documents, pictures, missing paths, empty folders."""

from __future__ import annotations

from pathlib import Path

from autofuse_studio.core.att.sniff import is_att_log_file, split_att_logs
from autofuse_studio.core.case import detect_roles, recent_entry_usable
from autofuse_studio.core.dropped import sort_dropped

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 32


def test_a_readme_quoting_perf_is_not_an_att_log(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Tool\n\n| a loop that tests each line for `[PROF]`/`[PERF]` | 1x |\n[PERF] at a line start\n",
                      encoding="utf-8")
    notes = tmp_path / "notes.txt"
    notes.write_text("We grep the logs for [PERF] lines and count them.\n", encoding="utf-8")
    renamed = tmp_path / "plog.txt"  # a log under another name: its lines are slog lines
    renamed.write_text("[INFO] GE(1,python):2024-01-01 [PERF] Load_0[Load]: AIV_MTE2 = 1\n", encoding="utf-8")
    bare = tmp_path / "perf_lines.out"
    bare.write_text("noise\n[PERF] Load_0[Load]: AIV_MTE2 = 1\n", encoding="utf-8")
    picture = tmp_path / "picture.png"
    picture.write_bytes(PNG + b"[PERF]")
    assert [is_att_log_file(path) for path in (readme, notes, renamed, bare, picture)] == [
        False, False, True, True, False]
    att, rest = split_att_logs([str(readme), str(renamed)])
    assert att == [str(renamed)] and rest == [str(readme)]


def test_a_dropped_picture_gives_one_sentence_and_no_role(tmp_path: Path) -> None:
    picture = tmp_path / "picture.png"
    picture.write_bytes(PNG)
    dropped = sort_dropped([str(picture)])
    assert dropped.att_logs == [] and dropped.detection is not None
    assert not dropped.detection.found_anything()
    assert dropped.detection.notes == [
        "picture.png is neither a graph, a dump folder, an NPY file nor an ATT log; it was ignored."]
    assert dropped.detection.ignored == [str(picture)]


def test_missing_paths_and_empty_folders_are_ignored(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    found = detect_roles([str(tmp_path / "gone"), str(empty)])
    assert not found.found_anything()
    assert found.ignored == [str(tmp_path / "gone"), str(empty)]
    assert found.notes[0] == "gone does not exist (any more); it was ignored."


def test_recent_entries_must_still_open(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    full = tmp_path / "full"
    full.mkdir()
    (full / "graph.json").write_text("{}", encoding="utf-8")
    assert recent_entry_usable([str(full)])
    assert recent_entry_usable([str(full / "graph.json")])
    assert not recent_entry_usable([str(empty)])
    assert not recent_entry_usable([str(full), str(tmp_path / "gone")])
    assert not recent_entry_usable([])
