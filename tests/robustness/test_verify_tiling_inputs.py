"""verify-tiling on hostile inputs: --input-json, compile.toml, output_code.py, --log and -o; a sentence each."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from autofuse_studio.core.tiling.params import load_input_json
from tests.robustness.conftest import run_cli
from tests.stub_sdk import TILING_DATA, needs_build, tiling_cpp, write_inductor_source, write_tf_source

PARAMS = {"dynamic_dims": [], "aiv_num": 8, "ub_size": 4096,
          "abi": {"kind": "tf_static", "shape_dims": 0, "block_dim_width": 32}}
EXIT_INPUT = 2


def _verify(source: Path, tmp_path: Path, *extra: str) -> list[str]:
    return ["att", "verify-tiling", str(source), "-o", str(tmp_path / "out"), *extra]


def _refused(run_args: list[str], *expected: str) -> None:
    run = run_cli(*run_args)
    assert run.returncode == EXIT_INPUT, run.output
    for text in expected:
        assert text in run.output, run.output
    assert "=== Compile Check ===" not in run.stdout  # nothing was built


@pytest.mark.parametrize(("content", "message"), [
    (b'{"aiv_num": 8, \xff\xfe}', "is not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"aiv_num": 1' + b"0" * 5000 + b"}", "number too long"),
    (b'{"aiv_num": 8,', "is not valid JSON"),
    (b" " * (2 << 20), "larger than"),
])
def test_hostile_input_json(content: bytes, message: str, tmp_path: Path) -> None:
    path = tmp_path / "params.json"
    path.write_bytes(content)
    _refused(_verify(write_tf_source(tmp_path / "src"), tmp_path, "--input-json", str(path)), str(path), message)


def test_input_json_that_is_not_a_file(tmp_path: Path) -> None:
    source = write_tf_source(tmp_path / "src")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path in (tmp_path, fifo, Path("/dev/zero")):
        _refused(_verify(source, tmp_path, "--input-json", str(path)), "is not a regular file")


def test_a_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "params.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({**PARAMS, "aiv_num": 0}).encode())
    # The BOM is read past: the only problem left is the (deliberately) bad range.
    _refused(_verify(write_tf_source(tmp_path / "src"), tmp_path, "--input-json", str(path)), "aiv_num = 0")
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(PARAMS).encode())
    assert load_input_json(path).values == PARAMS


def test_a_huge_value_is_not_echoed(tmp_path: Path) -> None:
    path = tmp_path / "params.json"
    path.write_text(json.dumps({**PARAMS, "aiv_num": "x" * 500_000, "dynamic_dims": [0] * 100_000}))
    run = run_cli(*_verify(write_tf_source(tmp_path / "src"), tmp_path, "--input-json", str(path)))
    assert run.returncode == EXIT_INPUT
    assert len(run.output) < 10_000


@pytest.mark.parametrize(("toml", "message"), [
    ("[compile]\nflags = '-O2 \"-DX=1'\n", "no closing quotation"),
    ("[compile]\nflags = '-O2 -DX\\'\n", "no escaped character"),
    ("[compile]\nextra_includes = " + "[" * 100_000 + "]" * 100_000 + "\n", "too deep"),
    ("[compile]\njobs = 1" + "0" * 5000 + "\n", "too long number"),
])
def test_hostile_compile_config(toml: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "compile.toml"
    path.write_text(toml)
    _refused(_verify(write_tf_source(tmp_path / "src"), tmp_path, "--compile-config", str(path)), str(path), message)


def test_compile_config_not_utf8_or_not_a_file(tmp_path: Path) -> None:
    source = write_tf_source(tmp_path / "src")
    path = tmp_path / "compile.toml"
    path.write_bytes(b"[compile]\nflags = '\xff'\n")
    _refused(_verify(source, tmp_path, "--compile-config", str(path)), str(path), "not UTF-8")
    _refused(_verify(source, tmp_path, "--compile-config", str(tmp_path)), "not a regular file")


def _output_code(folder: Path, artifacts_text: str, before: str = "") -> Path:
    folder.mkdir()
    (folder / "output_code.py").write_text(before + "k_artifacts = " + artifacts_text + "\n")
    return folder


def _artifacts_prefix() -> str:
    return "{" + f"'tiling_def': {TILING_DATA!r}, 'host_impl': {tiling_cpp('inductor', 1)!r}, "


@pytest.mark.parametrize(("tail", "message"), [
    ("'deep': " + "[" * 100_000 + "]" * 100_000 + "}", "nested more than"),
    ("'chain': 1" + "+1" * 40_000 + "}", "not a plain literal dict"),
    ("'many': [" + "1," * 3_000_000 + "]}", "more than 100000 tokens"),
    ("'open': [1, 2", "EOF in multi-line statement"),
    ("'bad': '''unterminated", "not valid Python"),
])
def test_hostile_output_code_is_bounded(tail: str, message: str, tmp_path: Path) -> None:
    source = _output_code(tmp_path / "src", _artifacts_prefix() + tail)
    run = run_cli(*_verify(source, tmp_path))
    assert run.returncode == EXIT_INPUT, run.output
    assert "output_code.py' line 1" in run.output
    assert message in run.output
    assert run.peak_mib < 250, f"{run.peak_mib:.0f} MiB"


def test_only_the_artifacts_dict_is_parsed(tmp_path: Path) -> None:
    # Deep nesting elsewhere in the (never executed) file does not matter: only the dict is read.
    before = "x = " + "(" * 50_000 + ")" * 50_000 + "\n"
    source = _output_code(tmp_path / "src", _artifacts_prefix() + "'k': {'v': [1, (2, 3)]}}", before)
    run = run_cli(*_verify(source, tmp_path, "--input-json", "/nonexistent.json"))
    assert "Cannot read the input JSON '/nonexistent.json'" in run.output  # got past the artifacts


def test_output_must_be_a_writable_folder(tmp_path: Path) -> None:
    source = write_tf_source(tmp_path / "src")
    (tmp_path / "file").write_text("x")
    _refused(["att", "verify-tiling", str(source), "-o", str(tmp_path / "file")], "is a file, not a folder")
    _refused(["att", "verify-tiling", str(source), "-o", str(tmp_path / "file" / "sub")], "is a file, not a folder")
    (tmp_path / "out" / "result.json").mkdir(parents=True)
    _refused(["att", "verify-tiling", str(source), "-o", str(tmp_path / "out")], "result.json': it is a folder")


@needs_build
def test_output_that_cannot_be_created_after_checks(tmp_path: Path) -> None:
    run = run_cli(*["att", "verify-tiling", str(write_tf_source(tmp_path / "src")), "-o", "/proc/afs-verify"])
    assert run.returncode == 1
    assert "'/proc/afs-verify'" in run.output


@needs_build
def test_log_with_a_5000_digit_number(tmp_path: Path, sdk: Path) -> None:
    log = tmp_path / "a.log"
    line = ("[autofused_add] local buffer tiling success, input: result_id: 0, group_id: 0, case_id: {case}, "
            "sub_case_id: 0core_num: 2, ub_size: 512, input_vars[0]: 512\n")
    log.write_text(line.format(case="1" + "0" * 5000) + line.format(case="2"))
    params = tmp_path / "params.json"
    params.write_text(json.dumps({**PARAMS, "dynamic_dims": [4], "abi": {"kind": "inductor", "shape_dims": 1,
                                                                          "block_dim_width": 32}}))
    source = write_inductor_source(tmp_path / "src")
    run = run_cli(*_verify(source, tmp_path, "--log", str(log), "--case", "r=0,g=0,c=2", "--input-json", str(params)))
    assert f"--log {log}:1: a number with more than 20 digits; line skipped" in run.stdout
    assert run.returncode == 0, run.output  # the other line was used
    assert f"dynamic_dims ← log {log}:2" in run.stdout
