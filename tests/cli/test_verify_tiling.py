"""`autofuse-studio att verify-tiling` exit codes and console output (local builds with the stub SDK)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autofuse_studio.cli import att
from tests.stub_sdk import needs_build, write_tf_source


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert att.main(["verify-tiling", "--help"]) == 0
    assert "--input-json" in capsys.readouterr().out


def test_preset_with_input_json_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert att.main(["verify-tiling", "src", "--preset", "A", "--input-json", "x.json"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_missing_source_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert att.main(["verify-tiling", "/nonexistent/src"]) == 2
    assert capsys.readouterr().out.startswith("✗ 源目录不存在")  # on stdout, as att.py prints it


def test_every_problem_listed_and_nothing_built(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_tf_source(tmp_path / "src")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"dynamic_dims": [0], "aiv_num": 0, "ub_size": 1,
                               "abi": {"kind": "tf_static", "shape_dims": 0, "block_dim_width": 32}}))
    code = att.main(["verify-tiling", str(source), "--input-json", str(bad), "-o", str(tmp_path / "out")])
    captured = capsys.readouterr()
    err = captured.err
    assert code == 2
    # The error line on stdout (where att.py prints its ✗ lines), the list of problems on stderr.
    assert "3 problem(s) found before compiling" in captured.out and "problem(s)" not in err
    assert "dynamic_dims[0] = 0" in err
    assert "aiv_num = 0" in err
    assert not (tmp_path / "out").exists()


@needs_build
def test_success_exit_0(sdk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_tf_source(tmp_path / "src")
    assert att.main(["verify-tiling", str(source), "--aiv-num", "3", "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "source=preset_A+--aiv-num aiv_num=3" in out
    assert "aiv_num ← --aiv-num" in out
    assert json.loads((tmp_path / "out" / "result.json").read_text())["fields"]["block_dim"] == 4


@needs_build
def test_compile_failure_exit_1(sdk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_tf_source(tmp_path / "src", behaviour="compile_error")
    assert att.main(["verify-tiling", str(source), "-o", str(tmp_path / "out")]) == 1
    assert "status=COMPILE_FAILED" in capsys.readouterr().out


def test_unknown_host_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_tf_source(tmp_path / "src")
    assert att.main(["verify-tiling", str(source), "--host", "nowhere", "-o", str(tmp_path / "out")]) == 1
    assert "No host profile named 'nowhere'" in capsys.readouterr().out
