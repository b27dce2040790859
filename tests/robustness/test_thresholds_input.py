"""Threshold files and options: wrong types, NaN, out-of-range values are one sentence; mode 2 applies them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.case import thresholds_from_dict
from autofuse_studio.core.errors import InputError
from tests.robustness.conftest import run_cli

REFERENCE_LINES = ("文件A: ", "文件B: ", "状态: OK", "余弦相似度: ", "绝对误差最大值: ", "相对误差最大值: ")


@pytest.fixture
def mode2(tmp_path: Path) -> list[str]:
    a = np.arange(1, 17, dtype=np.float32)
    b = a * 1.01
    b[0] = -b[0]  # cosine 0.9987: passes the default 0.99, fails a stricter limit
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    return ["nwa", "--mode", "2", "--npy-a", str(tmp_path / "a.npy"), "--npy-b", str(tmp_path / "b.npy")]


@pytest.mark.parametrize(("text", "message"), [
    ("default = 5\n", "[default] must be a table"),
    ("dtype = 3\n", "dtype must hold tables"),
    ("[dtype]\nfloat16 = 1\n", "[dtype.float16] must be a table"),
    ("[default]\ncosine = nan\n", "must be a finite number"),
    ("[default]\nmax_abs = inf\n", "must be a finite number"),
    ("[default]\ncosine = 2\n", "must be in [-1, 1]"),
    ("[default]\nmax_rel = -0.5\n", "must be 0 or more"),
    ("[default]\ncosine = true\n", "must be a number"),
    ("[default]\ncosine = 0.9\n[extra]\nx = 1\n", "unknown key 'extra'"),
    ("[default]\nmax_abs = 1" + "0" * 5000 + "\n", "too long number"),
    ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "not valid TOML"),
])
def test_bad_threshold_files_name_file_and_key(text: str, message: str, mode2: list[str], tmp_path: Path) -> None:
    path = tmp_path / "limits.toml"
    path.write_text(text, encoding="utf-8")
    for argv in (mode2, ["nwa", "--af-open-graph", str(path), "--af-close-graph", str(path),
                         "--af-open-data", str(tmp_path), "--af-close-data", str(tmp_path)]):
        run = run_cli(*argv, "--thresholds", str(path))
        assert run.returncode == 1, run.output
        assert str(path) in run.output
        assert message in run.output
        assert "状态" not in run.stdout  # refused before comparing


def test_a_bom_and_non_utf8_threshold_files(mode2: list[str], tmp_path: Path) -> None:
    path = tmp_path / "limits.toml"
    path.write_bytes(b"\xef\xbb\xbf[default]\ncosine = 0.999999\n")
    assert "FAIL" in run_cli(*mode2, "--thresholds", str(path)).stdout
    path.write_bytes(b"[default]\ncosine = 0.9 # \xff\n")
    run = run_cli(*mode2, "--thresholds", str(path))
    assert run.returncode == 1
    assert "not UTF-8" in run.output


@pytest.mark.parametrize(("option", "value"), [("--cosine-threshold", "nan"), ("--cosine-threshold", "inf"),
                                               ("--cosine-threshold", "1.5"), ("--max-abs-threshold", "-1"),
                                               ("--max-rel-threshold", "nan"), ("--dtype-threshold", "float32:cosine=nan"),
                                               ("--dtype-threshold", ":cosine=0.9")])
def test_bad_threshold_options_are_refused(option: str, value: str, mode2: list[str]) -> None:
    run = run_cli(*mode2, f"{option}={value}")
    assert run.returncode == 1, run.output
    assert option in run.output
    assert "状态" not in run.stdout


def test_mode2_refuses_an_unreadable_threshold_file(mode2: list[str], tmp_path: Path) -> None:
    run = run_cli(*mode2, "--thresholds", str(tmp_path / "missing.toml"))
    assert run.returncode == 1
    assert "missing.toml" in run.output


def test_mode2_applies_the_thresholds(mode2: list[str], tmp_path: Path) -> None:
    passing = run_cli(*mode2)
    assert passing.returncode == 0
    lines = passing.stdout.splitlines()
    assert [line for line in lines if line.startswith(REFERENCE_LINES)] == lines[:6]  # the reference's lines, first
    assert lines[-1] == "阈值判定: PASS [cosine >= 0.99]"
    failing = run_cli(*mode2, "--max-rel-threshold", "0.001", "--fail-on-divergence", "--output",
                      str(tmp_path / "r.json"))
    assert failing.returncode == 3
    assert "阈值判定: FAIL (max_rel_err 1.9901 > 0.001) [cosine >= 0.99, max_rel_err <= 0.001]" in failing.stdout
    row = json.loads((tmp_path / "r.json").read_text())["rows"][0]
    assert row["verdict"] != "OK"
    path = tmp_path / "limits.toml"
    path.write_text("[dtype.float32]\ncosine = 0.9999999\n")
    assert "FAIL (cosine" in run_cli(*mode2, "--thresholds", str(path)).stdout
    assert run_cli(*mode2, "--max-rel-threshold", "0.001").returncode == 0  # failing is exit 0 unless asked


def test_case_files_refuse_nan_thresholds() -> None:
    with pytest.raises(InputError, match="finite"):
        thresholds_from_dict({"default": {"cosine": float("nan")}})
    assert thresholds_from_dict({"default": {"cosine": None}}).default.cosine is None
