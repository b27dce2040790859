"""`--output` files of 100k rows (issue 29, target 3): seconds per format against the replaced writers, same run.

The rows are synthetic (tests/synth/result_rows.py): realistic values, ~10% non-OK statuses, statistics rows,
signed culprits, several ranks. The baselines are the writers before issue 29 (json.dumps of to_dict(); the
csv.writer loop over table_records()), kept in tests/core/test_result_files_identity.py, which also checks that
both write the same bytes (xlsx: the same cells, styles and rules read back; here for CHECKED_ROWS rows, the 100k-row
workbooks being timed only). Min–max of RUNS runs;
the openpyxl xlsx writer is run once (it takes tens of seconds). Every format is also timed without the C
paths (AUTOFUSE_STUDIO_NO_NATIVE=1, the fallback), CPU seconds beside wall ones (the machine is shared), and the
xlsx lines end with what deflating its sheet alone costs (zlib and ISA-L level 1, one core). The "plain write"
column is the floor no writer can go under: the file's bytes, already made, written by one atomic_write_bytes into a
new file, alternated with the others. On this VM a write into page-cache pages the guest has not touched before
costs the host's first touch (a plain 129 MB write: 1.7-2.0 s of system time when cold, 0.03-0.13 s warm), which
is what a writer's slowest run shows. The GUI's File > Export table writes the same files on the task runner: the
second benchmark prints the longest block.
"""

from __future__ import annotations

import importlib.util
import os
import time
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.reports.atomic import atomic_write_bytes
from autofuse_studio.core.reports.precision_files import write_precision
from autofuse_studio.core.reports.row_join import NATIVE_DISABLE_ENV
from autofuse_studio.ui.precision.export import start_table_export
from autofuse_studio.ui.tasks import TaskRunner
from tests.bench.test_bench_exports import _wait_for, longest_block
from tests.core.test_result_files_identity import reference_csv, reference_json, reference_xlsx, xlsx_contents
from tests.synth.result_rows import synthetic_result

pytestmark = pytest.mark.bench
ROWS = 100_000
CHECKED_ROWS = 10_000  # rows of the workbooks read back cell by cell
RUNS = 3
TARGET_S = 0.5


def _seconds(work: Callable[[], object], runs: int, cpu: list[float] | None = None) -> list[float]:
    """Wall seconds of `runs` calls; with `cpu`, their CPU seconds (every thread of the process) appended."""
    times = []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        times.append(time.perf_counter() - start)
        if cpu is not None:
            cpu.append(time.process_time() - start_cpu)
    return times


def _span(times: list[float]) -> str:
    return f"{min(times):6.2f}–{max(times):5.2f} s"


def _without_native(work: Callable[[], object]) -> Callable[[], object]:
    """`work` run with AUTOFUSE_STUDIO_NO_NATIVE=1 (the Python row joiner)."""
    def run() -> object:
        os.environ[NATIVE_DISABLE_ENV] = "1"
        try:
            return work()
        finally:
            del os.environ[NATIVE_DISABLE_ENV]
    return run


def _isal_packer() -> Any:
    from isal import isal_zlib  # the writer's deflate when python-isal is installed

    return isal_zlib.compressobj(1, isal_zlib.DEFLATED, -15)


_PACKERS: list[tuple[str, Callable[[], Any]]] = [("zlib level 1", lambda: zlib.compressobj(1, zlib.DEFLATED, -15))]
if importlib.util.find_spec("isal") is not None:
    _PACKERS.append(("ISA-L level 1", _isal_packer))


def _deflate_seconds(path: Path, packer: tuple[str, Callable[[], Any]]) -> tuple[float, float]:
    """(CPU seconds, MB): deflating the xlsx's first sheet alone, as the writer does, on one core."""
    with zipfile.ZipFile(path) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml")
    start = time.process_time()
    compressor = packer[1]()
    compressor.compress(sheet)
    compressor.flush()
    return time.process_time() - start, len(sheet) / 1e6


def test_bench_result_files(tmp_path: Path) -> None:
    result = synthetic_result(ROWS)
    print(f"\n--output of {ROWS:,} rows (min–max of {RUNS} runs; target ≤ {TARGET_S} s each; CPU: all threads)")
    _text_formats(result, tmp_path)
    _xlsx(result, tmp_path)


def test_bench_result_files_of_a_statistics_run(tmp_path: Path) -> None:
    """The same with every compared row from statistics (a statistics-mode dump, all an LLM-scale job can afford):
    each row carries a nested statistics object (JSON) or ten stat_* cells (CSV, xlsx). The xlsx is timed without
    the openpyxl writer (minutes at this size); its contents are checked on CHECKED_ROWS rows."""
    result = synthetic_result(ROWS, statistics=True)
    print(f"\n--output of {ROWS:,} rows of a statistics-mode run (min–max of {RUNS} runs; target ≤ {TARGET_S} s)")
    _text_formats(result, tmp_path)
    now: list[float] = []
    now_cpu: list[float] = []
    for _ in range(RUNS):
        now += _seconds(lambda: write_precision(result, tmp_path / "new.xlsx"), 1, now_cpu)
    sample = synthetic_result(CHECKED_ROWS, statistics=True)
    reference_xlsx(sample, tmp_path / "old-sample.xlsx")
    assert xlsx_contents(write_precision(sample, tmp_path / "new-sample.xlsx")) == xlsx_contents(
        tmp_path / "old-sample.xlsx")
    print(f"  {'.xlsx':<6} {'(not timed)':>16} {_span(now):>16} {'':>7} {_span(now_cpu):>16} "
          f"{(tmp_path / 'new.xlsx').stat().st_size / 1e6:7.0f} MB")


def _text_formats(result: PrecisionResult, tmp_path: Path) -> None:
    """JSON and CSV: the writers before issue 29, now, now without C, and a plain write of the bytes, alternated."""
    print(f"  {'format':<6} {'before issue 29':>16} {'now':>16} {'ratio':>7} {'now CPU':>16} {'size':>9} "
          f"{'now without C':>16} {'its CPU':>16} {'plain write':>16}")
    for suffix, reference in ((".json", reference_json), (".csv", reference_csv)):
        old = tmp_path / f"old{suffix}"
        new = tmp_path / f"new{suffix}"
        content = reference(result)
        before, now, fallback, now_cpu, fallback_cpu, plain = [], [], [], [], [], []
        for _ in range(RUNS):  # alternated: a load change on the shared machine hits both alike
            before += _seconds(lambda r=reference, o=old: atomic_write_bytes(o, r(result)), 1)
            now += _seconds(lambda n=new: write_precision(result, n), 1, now_cpu)
            fallback += _seconds(_without_native(lambda n=new: write_precision(result, n)), 1, fallback_cpu)
            plain += _seconds(lambda c=content, p=tmp_path / f"plain{suffix}": atomic_write_bytes(p, c), 1)
        assert new.read_bytes() == old.read_bytes() == content
        del content
        size = new.stat().st_size / 1e6
        print(f"  {suffix:<6} {_span(before):>16} {_span(now):>16} {min(now) / min(before):6.2f}x "
              f"{_span(now_cpu):>16} {size:7.0f} MB {_span(fallback):>16} {_span(fallback_cpu):>16} "
              f"{_span(plain):>16}")
        if suffix == ".json":
            assert min(now) < 0.5 * min(before), "msgspec should write JSON at least twice as fast as json.dumps"


def _xlsx(result: PrecisionResult, tmp_path: Path) -> None:
    """xlsx: openpyxl once (tens of seconds; the contents must be what it wrote: xlsx_contents), now and now
    without C RUNS times, and the floor of deflating the sheet alone."""
    new_xlsx = tmp_path / "new.xlsx"
    before = _seconds(lambda: reference_xlsx(result, tmp_path / "old.xlsx"), 1)
    now, fallback, now_cpu, fallback_cpu = [], [], [], []
    for _ in range(RUNS):
        now += _seconds(lambda: write_precision(result, new_xlsx), 1, now_cpu)
        fallback += _seconds(_without_native(lambda: write_precision(result, new_xlsx)), 1, fallback_cpu)
    # Read back with openpyxl, cell by cell with styles, the two 100k-row workbooks took over 5 minutes on a slow
    # machine: the same writers' workbooks of CHECKED_ROWS rows are compared instead (every row kind is there).
    sample = synthetic_result(CHECKED_ROWS)
    reference_xlsx(sample, tmp_path / "old-sample.xlsx")
    assert xlsx_contents(write_precision(sample, tmp_path / "new-sample.xlsx")) == xlsx_contents(
        tmp_path / "old-sample.xlsx")
    with zipfile.ZipFile(new_xlsx) as archive:
        assert archive.testzip() is None
    print(f"  {'.xlsx':<6} {_span(before):>16} {_span(now):>16} {min(now) / min(before):6.2f}x "
          f"{_span(now_cpu):>16} {new_xlsx.stat().st_size / 1e6:7.0f} MB {_span(fallback):>16} "
          f"{_span(fallback_cpu):>16}")
    deflate = [_deflate_seconds(new_xlsx, packer) for packer in _PACKERS for _ in range(RUNS)]
    for number, (name, _) in enumerate(_PACKERS):
        found = deflate[number * RUNS:(number + 1) * RUNS]
        print(f"  floor: deflating the {found[0][1]:.0f} MB sheet XML alone ({name}, one core) "
              f"{_span([seconds for seconds, _ in found])}")


def test_bench_gui_table_export_blocks(qtbot: QtBot, tmp_path: Path) -> None:
    """Longest GUI-thread block while File > Export table writes 100k rows on the task runner."""
    result = synthetic_result(ROWS)
    runner = TaskRunner()
    print(f"\nlongest GUI-thread block, File > Export table of {ROWS:,} rows (the export runs on a worker)")
    try:
        for suffix in (".json", ".csv", ".xlsx"):
            target = tmp_path / f"gui{suffix}"
            blocked = longest_block(qtbot, lambda t=target: _wait_for(qtbot, start_table_export(runner, result, t)))
            print(f"  {suffix:<6} {blocked:8.1f} ms")
            assert target.stat().st_size > 0
    finally:
        runner.shutdown()
