"""Hostile names: control bytes never reach the terminal raw; split-slog output is valid on Windows."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.cli.console import EscapingStream
from autofuse_studio.core.att.safe_paths import UniqueNames, safe_name
from autofuse_studio.core.precision.rows import OUTPUT, PrecisionRow
from autofuse_studio.core.precision.table import display_width, format_table
from autofuse_studio.core.printable import escape_controls
from tests.robustness.conftest import run_cli
from tests.synth import CaseSpec, generate_case

HOSTILE = "op\x1b[2J\x07\x9b31m\u202eevil\u2066\r"
SHOWN = "op\\x1b[2J\\x07\\x9b31m\\u202eevil\\u2066\\x0d"
# What must never reach a terminal: C0 controls but newline and tab, DEL, C1, bidi controls.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
WINDOWS_RESERVED = re.compile(r"(?i)(con|prn|aux|nul|com\d|lpt\d)(\..*)?")


def test_escape_controls_and_the_console_stream() -> None:
    assert escape_controls(HOSTILE) == SHOWN
    assert escape_controls("a\nb\tc", keep="\n\t") == "a\nb\tc"
    assert escape_controls("plain 中文 ok") == "plain 中文 ok"
    sink = io.StringIO()
    stream = EscapingStream(sink)
    assert stream.write(f"{HOSTILE}\n\tnext") == len(HOSTILE) + 6
    assert sink.getvalue() == f"{SHOWN}\n\tnext"


def test_the_nwa_table_escapes_names_and_stays_aligned() -> None:
    rows = [PrecisionRow(OUTPUT, HOSTILE, 0, "origin\x1bx", 0, "FILE_NOT_FOUND"),
            PrecisionRow(OUTPUT, "plain", 1, "plain_origin", 0, "OK")]
    table = format_table(rows)
    assert RAW_CONTROL.search(table) is None
    assert SHOWN in table
    assert len({display_width(line) for line in table.splitlines()}) == 1


def _case_with_hostile_op(root: Path) -> tuple[dict[str, object], str]:
    generate_case(root, CaseSpec(seed=1, n_fused=4))
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    victim = manifest["rows"][1]["fused_op"]
    graph = root / manifest["graphs"]["af_open"]
    text = graph.read_text(encoding="utf-8")
    graph.write_text(text.replace(victim, victim + json.dumps(HOSTILE)[1:-1]), encoding="utf-8")
    return manifest, victim + HOSTILE


def test_nwa_console_shows_escapes_and_files_keep_the_real_name(tmp_path: Path) -> None:
    manifest, hostile_op = _case_with_hostile_op(tmp_path)
    out = tmp_path / "rows.json"
    graphs, data = manifest["graphs"], manifest["data"]
    run = run_cli("nwa", "--af-open-graph", tmp_path / graphs["af_open"],  # type: ignore[index]
                  "--af-close-graph", tmp_path / graphs["af_close"],  # type: ignore[index]
                  "--af-open-data", tmp_path / data["af_open"], "--af-close-data",  # type: ignore[index]
                  tmp_path / data["af_close"], "--output", out)  # type: ignore[index]
    assert run.returncode == 0, run.output
    assert RAW_CONTROL.search(run.output) is None
    assert escape_controls(hostile_op) in run.stdout
    names = [row["fused_op"] for row in json.loads(out.read_text(encoding="utf-8"))["rows"]]
    assert hostile_op in names


def test_mode_2_paths_and_errors_are_escaped(tmp_path: Path) -> None:
    good = tmp_path / "good.npy"
    np.save(good, np.arange(8, dtype=np.float32))
    hostile = tmp_path / f"{HOSTILE.replace('/', '_')}.npy"
    hostile.write_bytes(b"not an npy file")
    run = run_cli("nwa", "--mode", "2", "--npy-a", hostile, "--npy-b", good)
    assert run.returncode == 1
    assert RAW_CONTROL.search(run.output) is None
    assert SHOWN in run.stdout
    missing = run_cli("nwa", "--mode", "2", "--npy-a", tmp_path / "x\x1b]0;pwn\x07.npy", "--npy-b", good)
    assert RAW_CONTROL.search(missing.output) is None
    assert "x\\x1b]0;pwn\\x07.npy" in missing.output


def test_att_console_output_and_warnings_are_escaped(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    tag = "Add\x1bc\x07\u202e"  # ESC c resets a terminal
    line = f"[{tag}] [PROF]The value of s\x07 is 1 in graph0_result0_g0_0.\n"
    (logs / "a\x1b[1m.log").write_bytes(line.encode("utf-8") + b"bad \xff byte\n")  # warned with file:line
    run = run_cli("att", "summary", logs)
    assert run.returncode == 0, run.output
    assert RAW_CONTROL.search(run.output) is None
    assert "Add\\x1bc\\x07\\u202e" in run.stdout
    assert "a\\x1b[1m.log" in run.output
    csv = tmp_path / "out.csv"
    assert run_cli("att", "summary", logs, "-f", "csv", "-o", csv).returncode == 0
    assert tag in csv.read_text(encoding="utf-8-sig")


@pytest.mark.parametrize(("name", "safe"), [
    ("CON", "CON_"), ("con", "con_"), ("Nul", "Nul_"), ("aux.txt", "aux_.txt"), ("NUL.tar.gz", "NUL_.tar.gz"),
    ("COM1", "COM1_"), ("lpt9.log", "lpt9_.log"), ("com0", "com0_"), ("PRN.", "PRN_._"), ("trail.", "trail._"),
    ("trail ", "trail_"), ("dots...", "dots..._"), ("CONSOLE", "CONSOLE"), ("COM10", "COM10"), ("x.con", "x.con"),
    ("..", "_"), ("a/b", "a_b"),
])
def test_safe_name_is_valid_on_windows(name: str, safe: str) -> None:
    assert safe_name(name) == safe


def test_unique_names_stay_stable_and_distinct_case_insensitively() -> None:
    names = UniqueNames()
    got = [names.get(source) for source in ("CON", "Con", "CON_", "aux.txt", "CON")]
    assert got == ["CON_", "Con_~2", "CON_~3", "aux_.txt", "CON_"]


def _windows_problems(root: Path) -> list[str]:
    problems = []
    for path in root.rglob("*"):
        name = path.name
        if WINDOWS_RESERVED.fullmatch(name) or name.endswith((".", " ")):
            problems.append(str(path.relative_to(root)))
    return problems


def test_split_slog_output_can_be_written_on_windows(tmp_path: Path) -> None:
    operators = ["CON", "aux.txt", "Nul", "com1", "LPT1.log", "trail.", "con"]
    log = tmp_path / "s.log"
    log.write_text("".join(f"[{op}] [PROF]The value of s is 1 in graph0_result0_g0_0.\n" for op in operators),
                   encoding="utf-8")
    out = tmp_path / "split"
    run = run_cli("att", "split-slog", log, "-o", out)
    assert run.returncode == 0, run.output
    folders = sorted(path.name for path in out.iterdir())
    assert len(folders) == len(operators)
    assert len({folder.lower() for folder in folders}) == len(operators)
    assert _windows_problems(out) == []
    again = run_cli("att", "split-slog", log, "-o", tmp_path / "again")
    assert again.returncode == 0
    assert sorted(path.name for path in (tmp_path / "again").iterdir()) == folders
