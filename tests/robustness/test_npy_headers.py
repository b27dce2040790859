"""Hostile NPY headers and non-files: one clear NPY_LOAD_ERROR row, never a traceback, the rest compared."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.npy import open_npy
from autofuse_studio.core.errors import NpyLoadError
from tests.robustness.conftest import run_cli, run_python_peak
from tests.synth import CaseSpec, generate_case

BODY = np.arange(16, dtype="<f4").tobytes()
READ_WHOLE = 1 << 20


def write_npy(path: Path, header: str, body: bytes = BODY, version: tuple[int, int] = (1, 0)) -> Path:
    """An NPY file with exactly this header text (padded like np.save) and body."""
    text = header.encode("latin-1")
    length_bytes = 2 if version == (1, 0) else 4
    pad = -(8 + length_bytes + len(text) + 1) % 64
    text += b" " * pad + b"\n"
    path.write_bytes(b"\x93NUMPY" + bytes(version) + len(text).to_bytes(length_bytes, "little") + text + body)
    return path


def header(shape: str, descr: str = "'<f4'", fortran: str = "False") -> str:
    return f"{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}"


HOSTILE = [
    (header("(-1,-1)"), r"dimension 0 is -1 \(negative\)"),
    (header("(True,16)"), r"dimension 0 is True \(a bool"),
    (header("(16,False)"), r"dimension 1 is False \(a bool"),
    (header("(-1,16)"), r"dimension 0 is -1 \(negative\)"),
    (header("(-16,)"), r"dimension 0 is -16 \(negative\)"),
    (header("(4.0,4)"), r"dimension 0 is 4.0 \(not an integer\)"),
    (header("('16',)"), r"dimension 0 is '16' \(not an integer\)"),
    (header("[16]"), "the shape is a list"),
    (header("(" + "1," * 65 + ")"), "65 dimensions"),
    (header("(16,)", fortran="1"), "fortran_order is 1"),
    (header("(16,)", fortran="None"), "fortran_order is None"),
    (header("(4,)"), "48 bytes after the 16 bytes"),
    (header("(32,)"), r"truncated.*128 bytes.*64 bytes follow"),
    (header("(10**12,)"), "not a Python literal"),
    (header("(1000000000000, 1000000000000)"), "truncated: its header promises 4000000000000000000000000 bytes"),
    (header("(" + "9" * 30 + ",)"), "too large for an array dimension"),
    (header("(" + "9" * 5001 + ",)"), "too many digits"),
    (header("(16,)", descr="'|O'"), "holds Python objects"),
    (header("(16,)", descr="'f4,i4'"), "unsupported dtype 'f4,i4'"),
    (header("(16,)", descr="'(2,)f4'"), r"unsupported dtype '\(2,\)f4'"),
    (header("(16,)", descr="[('a', '<f4')]"), "structured"),
    (header("(16,)", descr="{'names': ['a'], 'formats': ['O']}"), "descr is a dict"),
    ("{'descr': '<f4', 'fortran_order': False}", "exactly the keys"),
    ("[1, 2, 3]", "not a dictionary"),
    ("__import__('os').system('touch pwned')", "not a Python literal"),
]


@pytest.mark.parametrize("read_below", [0, READ_WHOLE], ids=["mapped", "read-whole"])
@pytest.mark.parametrize(("text", "reason"), HOSTILE)
def test_hostile_headers_are_refused_with_the_reason(tmp_path: Path, text: str, reason: str, read_below: int) -> None:
    path = write_npy(tmp_path / "h.npy", text)
    with pytest.raises(NpyLoadError, match=reason) as info:
        open_npy(path, read_below=read_below)
    assert str(path) in str(info.value)
    assert len(str(info.value)) < 400
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("read_below", [0, READ_WHOLE], ids=["mapped", "read-whole"])
def test_an_8_kb_header_is_never_echoed(tmp_path: Path, read_below: int) -> None:
    for text in (header("(16,)", descr="'" + "A" * 8000 + "'"), "{'descr': '<f4', 'x': '" + "B" * 8000 + "'}",
                 "{" + "C" * 8000):
        path = write_npy(tmp_path / "long.npy", text)
        with pytest.raises(NpyLoadError) as info:
            open_npy(path, read_below=read_below)
        assert len(str(info.value)) < 400, str(info.value)


@pytest.mark.parametrize(
    ("version", "length", "reason"),
    [((1, 0), 60000, "more than the 10000"), ((2, 0), 0xFFFFFFF0, "more than the 10000"),
     ((1, 0), 200, "file ends after"), ((3, 0), 0xFFFFFFFF, "more than the 10000")],
)
def test_declared_header_length_is_checked_before_reading(tmp_path: Path, version: tuple[int, int], length: int,
                                                          reason: str) -> None:
    length_bytes = 2 if version == (1, 0) else 4
    path = tmp_path / "len.npy"
    path.write_bytes(b"\x93NUMPY" + bytes(version) + length.to_bytes(length_bytes, "little") + b"{" + b" " * 50)
    with pytest.raises(NpyLoadError, match=reason):
        open_npy(path)


def test_a_huge_declared_shape_or_header_allocates_nothing(tmp_path: Path) -> None:
    huge = write_npy(tmp_path / "huge.npy", header("(4000000000, 4000000000)"))
    long_header = tmp_path / "long.npy"
    long_header.write_bytes(b"\x93NUMPY\x02\x00" + (0xFFFFFFF0).to_bytes(4, "little") + b"{" * 100)
    code = (
        "from autofuse_studio.core.dumps.npy import open_npy\n"
        "from autofuse_studio.core.errors import NpyLoadError\n"
        f"for path in ({str(huge)!r}, {str(long_header)!r}):\n"
        "    for read_below in (0, 1 << 20):\n"
        "        try:\n"
        "            open_npy(path, read_below=read_below)\n"
        "        except NpyLoadError as exc:\n"
        "            print(exc)\n"
    )
    done, peak = run_python_peak(code)
    assert done.stdout.count("\n") == 4, done.stdout + done.stderr
    assert peak < 150


def test_bf16_fortran_and_version_3_still_load(tmp_path: Path) -> None:
    bits = (np.arange(6, dtype=np.float32).view(np.uint32) >> 16).astype("<u2").tobytes()
    bf16 = write_npy(tmp_path / "bf.npy", "{'descr': '<V2', 'fortran_order': False, 'shape': (2L, 3L), }", bits)
    np.testing.assert_array_equal(open_npy(bf16).materialize(), np.arange(6, dtype=np.float32).reshape(2, 3))
    fortran = write_npy(tmp_path / "f.npy", header("(4, 4)", fortran="True"))
    np.testing.assert_array_equal(open_npy(fortran).materialize(), np.arange(16, dtype="<f4").reshape(4, 4).T)
    v3 = write_npy(tmp_path / "v3.npy", header("(16,)", descr="'<f4'"), version=(3, 0))
    np.testing.assert_array_equal(open_npy(v3).materialize(), np.arange(16, dtype="<f4"))


@pytest.mark.parametrize("shape", ["(-1,-1)", "(True,16)", "(-1,16)", "(-16,)"])
def test_mode_2_reports_npy_load_error_without_a_traceback(tmp_path: Path, shape: str) -> None:
    bad = write_npy(tmp_path / "bad.npy", header(shape))
    good = tmp_path / "good.npy"
    np.save(good, np.arange(16, dtype="<f4"))
    run = run_cli("nwa", "--mode", "2", "--npy-a", bad, "--npy-b", good)
    assert run.returncode == 1
    assert "NPY_LOAD_ERROR" in run.stdout
    assert "SHAPE_FLATTENED" not in run.stdout
    assert f"{bad} has an invalid shape" in run.stdout


def _non_files(tmp_path: Path) -> list[tuple[str, str]]:
    fifo = tmp_path / "fifo.npy"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.npy"
    folder.mkdir()
    return [(str(fifo), "is a named pipe (FIFO)"), (str(folder), "is a directory"),
            ("/dev/zero", "is a character device")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_mode_2_says_what_a_non_file_is_and_never_blocks(tmp_path: Path) -> None:
    good = tmp_path / "good.npy"
    np.save(good, np.arange(16, dtype="<f4"))
    for path, kind in _non_files(tmp_path):
        for args in (("--npy-a", path, "--npy-b", good), ("--npy-a", good, "--npy-b", path)):
            run = run_cli("nwa", "--mode", "2", *args, timeout=30)
            assert run.returncode == 1
            assert f"{path} {kind}, not an NPY file." in run.output
            assert "不存在" not in run.output
    missing = run_cli("nwa", "--mode", "2", "--npy-a", tmp_path / "absent.npy", "--npy-b", good)
    assert "NPY 文件不存在" in missing.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_open_npy_refuses_non_files_without_blocking(tmp_path: Path) -> None:
    cases = _non_files(tmp_path)
    code = (
        "from autofuse_studio.core.dumps.npy import open_npy\n"
        "from autofuse_studio.core.errors import NpyLoadError\n"
        f"for path in {[path for path, _ in cases]!r}:\n"
        "    for read_below in (0, 1 << 20):\n"
        "        try:\n"
        "            open_npy(path, read_below=read_below)\n"
        "        except NpyLoadError as exc:\n"
        "            print(exc)\n"
    )
    done, _ = run_python_peak(code, timeout=30)
    lines = done.stdout.splitlines()
    assert len(lines) == 6, done.stdout + done.stderr
    for (path, kind), line in zip(cases, lines[::2], strict=True):
        assert line == f"Cannot read {path}: it {kind}, not an NPY file."


def _fused_output(case: Path, fused_op: str) -> Path:
    return next(case.glob(f"af_open/dump/**/*AscBackend.{fused_op}.*.output.0.npy"))


@pytest.mark.parametrize("shape", ["(-1,-1)", "(True,16)", "(-16,)"])
def test_mode_1_marks_only_the_bad_row(tmp_path: Path, shape: str) -> None:
    generate_case(tmp_path, CaseSpec(seed=1, n_fused=4))
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    victim = manifest["rows"][1]["fused_op"]
    write_npy(_fused_output(tmp_path, victim), header(shape))
    out = tmp_path / "rows.json"
    run = run_cli("nwa", "--af-open-graph", tmp_path / manifest["graphs"]["af_open"],
                  "--af-close-graph", tmp_path / manifest["graphs"]["af_close"],
                  "--af-open-data", tmp_path / manifest["data"]["af_open"],
                  "--af-close-data", tmp_path / manifest["data"]["af_close"], "--output", out)
    assert run.returncode == 0, run.output
    rows = {row["fused_op"]: row for row in json.loads(out.read_text(encoding="utf-8"))["rows"]}
    assert rows[victim]["status"] == "NPY_LOAD_ERROR"
    assert "invalid shape" in rows[victim]["message"]
    others = [row for name, row in rows.items() if name != victim]
    assert len(others) == 3
    assert all(row["status"] == "OK" for row in others)


def test_report_goes_on_past_a_hostile_header(tmp_path: Path) -> None:
    generate_case(tmp_path, CaseSpec(seed=1, n_fused=4))
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    write_npy(_fused_output(tmp_path, manifest["rows"][1]["fused_op"]), header("(True,16)"))
    out = tmp_path / "report"
    run = run_cli("report", "--af-open-graph", tmp_path / manifest["graphs"]["af_open"],
                  "--af-close-graph", tmp_path / manifest["graphs"]["af_close"],
                  "--af-open-data", tmp_path / manifest["data"]["af_open"],
                  "--af-close-data", tmp_path / manifest["data"]["af_close"], "-o", out)
    assert run.returncode == 0, run.output
    assert (out / "report.xlsx").stat().st_size > 0
