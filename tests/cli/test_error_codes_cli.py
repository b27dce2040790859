"""Coded errors print the sentences the CLI printed before (English, and the reference's Chinese ERROR: lines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_nwa_with_a_missing_graph_prints_the_reference_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    graph = tmp_path / "missing.json"
    code, said = _run(["nwa", "--af-open-graph", str(graph), "--af-close-graph", str(graph),
                       "--af-open-data", str(tmp_path), "--af-close-data", str(tmp_path)], capsys)
    assert code == 1
    assert f"ERROR: dump 图 JSON 文件不存在: {graph}" in said.splitlines()


def test_nwa_mode2_on_a_host_is_refused_with_the_same_sentence(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, said = _run(["nwa", "--mode", "2", "--npy-a", "a", "--npy-b", "b", "--host", "box"], capsys)
    assert code == 2
    assert "--host runs mode 1 (graphs and dump folders) only; compare two NPY files locally." in said


def test_nwa_output_with_an_unknown_suffix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "result.txt"
    npy = tmp_path / "a.npy"
    np.save(npy, np.zeros(2, np.float32))
    code, said = _run(["nwa", "--mode", "2", "--npy-a", str(npy), "--npy-b", str(npy), "--output", str(out)], capsys)
    assert code == 2
    assert f"Cannot write {out}: the output file must end in .json, .csv or .xlsx." in said


def test_report_into_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    graph = tmp_path / "g.json"
    graph.write_text("{}", encoding="utf-8")
    code, said = _run(["report", "--af-open-graph", str(graph), "--af-close-graph", str(graph),
                       "--af-open-data", str(tmp_path), "--af-close-data", str(tmp_path), "-o", str(blocker)], capsys)
    assert code != 0
    assert f"The output path {blocker} exists and is not a folder." in said
