"""`autofuse-studio att ...`: outputs, messages and exit codes of every subcommand."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from tests.conftest import samples_dir

LOG = ("[Add] [PROF]The value of ub_size is 512 in graph0_result0_g0_0.\n"
       "[Add] [PROF]Among the templates, tiling case 0 of graph0_result0_g0 is the best choice.\n"
       "[Add] [PROF]Among all schedule results, graph0_result0 is the best choice.\n"
       "[Add] The value of graph0_result0 is 10.\n"
       "[Add] [PERF][graph0_result0_g0_R0] Load_0[Load]: AIV_MTE2 = (a=1 + b=3) = 4\n")


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "logs" / "a.log"
    path.parent.mkdir()
    path.write_text(LOG)
    return path


def test_summary_formats(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summary", str(log.parent)]) == 0
    out = capsys.readouterr().out
    assert "Found 1 log file(s)" in out and "Total operators extracted: 1" in out and "Parse Status" in out
    target = tmp_path / "s.csv"
    assert main(["summary", str(log), "-f", "csv", "-o", str(target), "--with-status"]) == 0
    assert target.read_bytes().startswith(b"\xef\xbb\xbfOperator,")
    assert f"Data exported to {target}" in capsys.readouterr().out
    xlsx = tmp_path / "s.xlsx"
    assert main(["summary", str(log), "-f", "excel", "-o", str(xlsx)]) == 0
    from openpyxl import load_workbook

    sheet = load_workbook(xlsx)["Summary"]
    assert sheet["A1"].value == "Operator" and sheet["A2"].value == "Add"


@pytest.mark.parametrize(
    ("argv", "code", "message", "stream"),
    [
        # Where att.py prints each error line: summary and perf-formula on stdout, compare and
        # evidence on stderr; split-slog prints none (ours stays on stderr).
        (["summary", "/nonexistent/x.log"], 1, "Error: Path '/nonexistent/x.log' not found.", "out"),
        (["compare", "/nonexistent.csv", "/nonexistent.csv"], 1, "Error: CSV file '/nonexistent.csv' not found.",
         "err"),
        (["evidence", "/nonexistent/x.log", "-o", "out"], 1, "Error: No log files found at '/nonexistent/x.log'",
         "err"),
        (["split-slog", "/nonexistent/x.log"], 1, "not found", "err"),
        (["verify-tiling", "src"], 2, "源目录不存在", "out"),
        ([], 2, "required", "err"),
    ],
)
def test_expected_failures_exit_non_zero(argv: list[str], code: int, message: str, stream: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == code
    captured = capsys.readouterr()
    assert message in (captured.out if stream == "out" else captured.err)
    assert "Traceback" not in captured.out + captured.err


def test_bad_case_and_missing_source_dir(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["split-slog", str(log), "--case", "c=x", "-o", str(tmp_path / "s")]) == 2
    assert "--case 'c=x'" in capsys.readouterr().err
    assert main(["perf-formula", str(tmp_path / "nope"), str(log), "-o", str(tmp_path / "p")]) == 2
    assert "[perf-formula] 源目录不存在" in capsys.readouterr().out  # where att.py prints it


def test_empty_folder_and_no_perf_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["summary", str(tmp_path / "empty")]) == 1
    # att.py's line (on stdout, without a `Found 0` line before it), as an error.
    assert capsys.readouterr().out == f"Error: No .log files found in '{tmp_path / 'empty'}' (nor *.log.gz).\n"
    plain = tmp_path / "plain.log"
    plain.write_text(LOG.splitlines()[0] + "\n")
    assert main(["perf-formula", str(tmp_path), str(plain), "-o", str(tmp_path / "p")]) == 1
    captured = capsys.readouterr()
    assert "[perf-formula] Add: 未找到 [PERF] 日志行，跳过" in captured.out
    assert not (tmp_path / "p" / "perf_formula.svg").exists()  # no empty picture


def test_evidence_split_perf_and_compare(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evidence", str(log), "-o", str(tmp_path / "ev")]) == 0
    assert f"Exported 1 evidence record(s) to '{tmp_path / 'ev'}'" in capsys.readouterr().out
    assert main(["split-slog", str(log), "-o", str(tmp_path / "sp")]) == 0
    assert "[split-slog] Add: compiler=0 groups, runtime=1 groups" in capsys.readouterr().out
    assert main(["perf-formula", str(tmp_path), str(log), "-o", str(tmp_path / "pf")]) == 0
    assert (tmp_path / "pf" / "perf_formula.svg").exists() and (tmp_path / "pf" / "perf_formula.json").exists()
    csv_path = tmp_path / "a.csv"
    main(["summary", str(log), "-f", "csv", "-o", str(csv_path)])
    capsys.readouterr()
    assert main(["compare", str(csv_path), str(csv_path)]) == 0
    assert "✓ 两个文件完全相同" in capsys.readouterr().out
    report = tmp_path / "r.txt"
    assert main(["compare", str(csv_path), str(csv_path), "-f", "text", "-o", str(report)]) == 0
    assert f"对比报告已保存到: {report}" in capsys.readouterr().out
    assert main(["compare", str(csv_path), str(csv_path), "-f", "excel", "-o", str(tmp_path / "r.xlsx")]) == 0


@pytest.mark.samples
def test_summary_console_matches_reference_layout(capsys: pytest.CaptureFixture[str]) -> None:
    log = samples_dir("att", "upstream-tests", "test_complete.log")
    expected = samples_dir("att", "reference-outputs", "test_complete", "summary_console.txt").read_text()
    assert main(["summary", str(log)]) == 0
    ours = capsys.readouterr().out.splitlines()
    theirs = expected.splitlines()[:-1]  # drop "rc=0"
    assert ours[0].endswith("test_complete.log") and ours[1] == theirs[1]
    # Our table adds a Parse Status column at the end; everything before it is the reference's layout.
    width = len(theirs[2])
    assert [line[:width] for line in ours[2:]] == [line[:width] for line in theirs[2:]]
    assert ours[2][width:].strip() == "Parse Status"


def test_evidence_manifest_lists_every_file_of_the_output_folder(log: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Rebuilt from att.py's own test_evidence_jsonl_contains_records_and_source_locations."""
    import hashlib
    import json

    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    raw_csv = out / "summary.csv"
    raw_csv.write_text("operator,cycle\nAdd,1\n", encoding="utf-8")
    (out / "perf.svg").write_text("<svg/>\n", encoding="utf-8")
    (out / "sub" / "case0.log").write_text("x\n", encoding="utf-8")
    os.mkfifo(out / "pipe")  # never opened: hashing a FIFO would block
    assert main(["evidence", str(log), "-o", str(out)]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "tool-manifest.json").read_text(encoding="utf-8"))
    paths = [entry["path"] for entry in manifest["artifacts"]]
    assert paths == ["att-evidence.jsonl", "perf.svg", "summary.csv", os.path.join("sub", "case0.log")]
    csv_entry = next(entry for entry in manifest["artifacts"] if entry["path"] == "summary.csv")
    assert csv_entry["sha256"] == hashlib.sha256(raw_csv.read_bytes()).hexdigest()
    assert manifest["record_count"] == 1


@pytest.mark.samples
def test_evidence_reference_test_on_its_own_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    data = samples_dir("att", "upstream-tests", "test_complete.log")
    (tmp_path / "summary.csv").write_text("operator,cycle\nAdd,1\n", encoding="utf-8")
    (tmp_path / "perf.svg").write_text("<svg/>\n", encoding="utf-8")
    assert main(["evidence", str(data), "-o", str(tmp_path)]) == 0
    capsys.readouterr()
    records = [json.loads(line) for line in (tmp_path / "att-evidence.jsonl").read_text().splitlines()]
    assert {(r["operator"], r["graph_id"], r["result_id"], r["group_id"], r["case_id"]) for r in records} == {
        ("Add", 0, 0, 0, 0), ("Mul", 1, 1, 0, 0)}
    for record in records:
        assert record["tiling_values"] and record["objective"] is not None
        assert record["source_path"] == str(data) and record["source_line"] > 0
        assert record["parse_status"] == "ok"
    manifest = json.loads((tmp_path / "tool-manifest.json").read_text())
    assert manifest["record_count"] == 2
    assert {"att-evidence.jsonl", "summary.csv", "perf.svg"} <= {a["path"] for a in manifest["artifacts"]}
