"""The xlsx files the CLI writes: hostile names stay text."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.cli import main
from tests.xlsx_checks import HOSTILE, assert_text_cells

FUSED, ORIGIN = '=HYPERLINK("x","y")', "@SUM(A1:A2)"


def _graph(path: Path, name: str, op_type: str, attrs: list[dict[str, object]]) -> Path:
    desc = {"layout": "ND", "attr": attrs}
    path.write_text(json.dumps({"graph": [{"name": "g", "op": [
        {"name": name, "type": op_type, "input": [], "output_desc": [desc]}]}]}), encoding="utf-8")
    return path


def test_nwa_output_xlsx_keeps_hostile_op_names_as_text(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    origin_attrs = [{"key": "_datadump_origin_name", "value": {"s": ORIGIN}},
                    {"key": "_datadump_origin_output_index", "value": {"i": 0}}]
    open_graph = _graph(tmp_path / "open.json", FUSED, "AscBackend", origin_attrs)
    close_graph = _graph(tmp_path / "close.json", ORIGIN, "Add", [])
    (tmp_path / "od").mkdir()
    (tmp_path / "cd").mkdir()
    np.save(tmp_path / "od" / f"AscBackend.{FUSED}.3.44.1.output.0.npy", np.arange(8, dtype=np.float32))
    np.save(tmp_path / "cd" / f"Add.{ORIGIN}.9.44.1.output.0.npy", np.arange(8, dtype=np.float32))
    target = tmp_path / "x.xlsx"
    assert main(["nwa", "--af-open-graph", str(open_graph), "--af-close-graph", str(close_graph),
                 "--af-open-data", str(tmp_path / "od"), "--af-close-data", str(tmp_path / "cd"),
                 "--output", str(target)]) == 0
    assert FUSED in capsys.readouterr().out
    assert_text_cells(target, [FUSED, ORIGIN])


def test_att_summary_excel_keeps_hostile_operators_as_text(tmp_path: Path) -> None:
    names = [name for name in HOSTILE if "\r" not in name]
    log = tmp_path / "run.log"
    log.write_text("".join(f"[{name}] [PROF]The value of ub_size is 512 in graph{g}_result0_g0_0.\n"
                           f"[{name}] [PROF]Among the templates, tiling case 0 of graph{g}_result0_g0 is the "
                           "best choice.\n" for g, name in enumerate(names)), encoding="utf-8")
    target = tmp_path / "s.xlsx"
    assert main(["att", "summary", str(log), "-f", "excel", "-o", str(target)]) == 0
    assert_text_cells(target, names)

