"""Lines with 5001-digit numbers (ids and [PERF] costs): skipped and named with file:line, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from autofuse_studio.core.att.model import CaseKey
from autofuse_studio.core.att.scanner import scan_file

HUGE = "9" * 5001
LINES = [
    f"[Add] [PROF]The value of ub_size is 5 in graph{HUGE}_result0_g0_0.",
    f"[Add] [PROF]Among the templates, tiling case {HUGE} of graph0_result0_g0 is the best choice.",
    f"[Add] [PROF]Among all schedule results, graph{HUGE}_result0 is the best choice.",
    f"[Add] The value of graph0_result{HUGE} is 3.",
    f"[Add] [PERF][graph0_result0_g0_R0] Load_0[Load]: AIV_MTE2 = (a=1 + b={HUGE}) = {HUGE}",
    f"[DFX]Begin to generate model info for graph Add of tiling case id {HUGE}",
    "[Add] [PROF]The value of ub_size is 512 in graph0_result0_g0_0.",
    f"[Add] [PROF]The value of block_dim is {HUGE} in graph0_result0_g0_0.",
    "[Add] [PERF][graph0_result0_g0_R0] Load_0[Load]: AIV_MTE2 = (a=1 + b=3) = 4",
]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "huge.log"
    path.write_text("\n".join(LINES) + "\n")
    return path


def test_long_ids_and_infinite_perf_costs_are_skipped_and_listed(log: Path) -> None:
    scan = scan_file(log)
    assert scan.warning_count == 6
    assert [w.split(": ", 1)[0] for w in scan.warnings] == [f"{log}:{n}" for n in range(1, 7)]
    assert scan.warnings[4].endswith("a [PERF] cost is too large for a number; the line is skipped.")
    op = scan.operators["Add"]
    values = op.values[CaseKey(0, 0, 0, 0)]
    assert values["ub_size"].value == 512.0
    assert values["block_dim"].value == float("inf")  # a value, as att.py reads it: float() has no digit limit
    assert [node.total for node in op.perf_nodes] == [4.0]


@pytest.mark.parametrize("command", ["summary", "evidence", "split-slog", "perf-formula"])
def test_every_subcommand_survives(command: str, log: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "out")
    argv = {"summary": ["summary", str(log)], "evidence": ["evidence", str(log), "-o", out],
            "split-slog": ["split-slog", str(log), "-o", out],
            "perf-formula": ["perf-formula", str(tmp_path), str(log), "-o", out]}[command]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
