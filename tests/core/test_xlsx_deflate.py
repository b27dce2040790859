"""xlsx sheets deflated by ISA-L (python-isal) are valid zips that read back as the zlib-deflated ones."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from autofuse_studio.core.reports import row_join, xlsx_stream
from autofuse_studio.core.reports.precision_files import write_precision
from tests.core.test_result_files_identity import xlsx_contents
from tests.synth.result_rows import synthetic_result


def _sheet_compressors(path: Path) -> list[int]:
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None  # every member's CRC and length check out
        return [info.compress_type for info in archive.infolist() if info.filename.startswith("xl/worksheets/")]


def test_isal_deflated_sheets_read_back_as_zlib_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isal = pytest.importorskip("isal.isal_zlib", reason="python-isal is not installed")
    used: list[object] = []
    real = isal.compressobj

    def counted(*args: object) -> object:
        used.append(args)
        return real(*args)

    result = synthetic_result(3000, seed=5, hostile=True)
    monkeypatch.setattr(xlsx_stream, "_ISAL", type("Isal", (), {"compressobj": staticmethod(counted),
                                                                "DEFLATED": isal.DEFLATED,
                                                                "crc32": staticmethod(isal.crc32)}))
    write_precision(result, tmp_path / "isal.xlsx")
    if row_join.native_joiner() is not None:
        assert len(used) == 3  # the three sheets: precision, summary, ranks
    monkeypatch.setattr(xlsx_stream, "_ISAL", None)
    write_precision(result, tmp_path / "zlib.xlsx")
    assert _sheet_compressors(tmp_path / "isal.xlsx") == _sheet_compressors(tmp_path / "zlib.xlsx") == \
        [zipfile.ZIP_DEFLATED] * 3
    assert xlsx_contents(tmp_path / "isal.xlsx") == xlsx_contents(tmp_path / "zlib.xlsx")  # openpyxl reads both
    with zipfile.ZipFile(tmp_path / "isal.xlsx") as fast, zipfile.ZipFile(tmp_path / "zlib.xlsx") as slow:
        assert [fast.read(name) for name in fast.namelist()] == [slow.read(name) for name in slow.namelist()]


def test_without_isal_or_with_the_c_paths_off_zlib_deflates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = synthetic_result(200, seed=2)
    monkeypatch.setattr(xlsx_stream, "_ISAL", None)
    write_precision(result, tmp_path / "a.xlsx")
    monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    write_precision(result, tmp_path / "b.xlsx")
    assert _sheet_compressors(tmp_path / "a.xlsx") == [zipfile.ZIP_DEFLATED] * 3
    assert xlsx_contents(tmp_path / "a.xlsx") == xlsx_contents(tmp_path / "b.xlsx")
