"""Files swapped between being found and being read: never a secret in the evidence, never a hang.

Issue 30, defect 6: discovered logs were opened again by path; a log swapped for a link to a secret while
the report was written put the secret into the evidence archive and its manifest, a FIFO hung the run.
Now each file is opened once more as the file found (O_NOFOLLOW, O_NONBLOCK, fstat: a regular file with the
same device and inode), and hashed and copied from that descriptor.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from autofuse_studio.core.att import scanner
from autofuse_studio.core.att.runs.analysis import analyze_run
from autofuse_studio.core.att.runs.archive import archive_run
from autofuse_studio.core.att.runs.discovery import list_side
from autofuse_studio.core.att.runs.outputs import render_reports
from autofuse_studio.core.att.runs.side_scan import scan_side
from autofuse_studio.core.att.runs.sides import resolve_sides
from autofuse_studio.core.att.safe_open import FileId, Pin, open_regular
from autofuse_studio.core.errors import InputError
from tests.core.runroots import standard_run_root

SECRET = b"root:x:0:0:TOP-SECRET-LINE\n[Op9] [PROF]The value of leaked is 1 in graph0_result0_g0_0.\n"
LOG = b"[Add] [PROF]The value of x is 1 in graph0_result0_g0_0.\n"


@contextlib.contextmanager
def no_hang(seconds: int = 20) -> Iterator[None]:
    """Fail (instead of hanging the suite) when the block blocks, e.g. on a FIFO."""
    def _alarm(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _to_link(path: Path, secret: Path) -> None:
    path.unlink()
    path.symlink_to(secret)


def _to_fifo(path: Path, _secret: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _to_other_file(path: Path, secret: Path) -> None:
    path.unlink()
    os.link(secret, path)  # a hard link: a regular file at the same path, but not the one found


SWAPS: list[Callable[[Path, Path], None]] = [_to_link, _to_fifo, _to_other_file]


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_bytes(SECRET)
    return path


def _tree_text(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


@pytest.mark.parametrize("swap", SWAPS)
def test_open_regular_refuses_what_was_swapped_in(swap: Callable[[Path, Path], None], tmp_path: Path,
                                                  secret: Path) -> None:
    log = tmp_path / "a.log"
    log.write_bytes(LOG)
    pin = Pin(FileId.of(log.lstat()))
    swap(log, secret)
    with no_hang(), pytest.raises(InputError, match=re.escape(f"Cannot read '{log}': it ")):
        open_regular(log, pin)


@pytest.mark.parametrize("swap", SWAPS)
def test_a_run_root_log_swapped_before_its_scan_is_refused(swap: Callable[[Path, Path], None], tmp_path: Path,
                                                           secret: Path) -> None:
    run_root = standard_run_root(tmp_path / "run")
    sides = resolve_sides(run_root)
    listing = list_side(sides.default, sides.run_root)
    target = run_root / "default" / "logs" / "att.log"
    swap(target, secret)
    with no_hang():
        side = scan_side(listing)
    assert [log.file.relpath for log in side.logs] == ["default/logs/device1/plog/plog-1_2024.log"]
    assert len(side.failures) == 1 and side.failures[0].startswith("'default/logs/att.log' could not be read: it ")
    assert all("Op9" not in log.scan.operators for log in side.logs)


@pytest.mark.parametrize("swap", SWAPS)
def test_a_log_swapped_before_it_is_archived_never_reaches_the_archive(swap: Callable[[Path, Path], None],
                                                                       tmp_path: Path, secret: Path) -> None:
    run_root = standard_run_root(tmp_path / "run")
    analysis = analyze_run(run_root)
    files = render_reports(analysis, "en", ["x"])
    swap(run_root / "default" / "logs" / "att.log", secret)
    archive = tmp_path / "archive"
    with no_hang(), pytest.raises(InputError, match=r"att\.log': it "):
        archive_run(analysis, files, archive, "n", ["x"])
    assert b"TOP-SECRET" not in _tree_text(archive)
    # No manifest: the archive says by its absence that it was interrupted.
    assert not (archive / "evidence-archive" / "n" / "archive-manifest.json").exists()


@pytest.mark.parametrize("swap", SWAPS)
def test_evidence_of_a_log_swapped_after_discovery(swap: Callable[[Path, Path], None], tmp_path: Path,
                                                   secret: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.log").write_bytes(LOG)
    (logs / "b.log").write_bytes(LOG.replace(b"Add", b"Mul"))
    discover = scanner.discover_logs

    def discover_then_swap(path: str | Path) -> scanner.LogDiscovery:
        found = discover(path)
        swap(logs / "b.log", secret)
        return found

    monkeypatch.setattr(scanner, "discover_logs", discover_then_swap)
    out = tmp_path / "out"
    with no_hang():
        assert main(["evidence", str(logs), "-o", str(out)]) == 1
    assert f"Cannot read log '{logs / 'b.log'}': it " in capsys.readouterr().err
    assert not out.exists() or b"TOP-SECRET" not in _tree_text(out)


def test_evidence_inputs_are_hashed_from_the_descriptor_that_was_scanned(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_bytes(LOG)
    out = tmp_path / "out"
    assert main(["evidence", str(log), "-o", str(out)]) == 0
    manifest = json.loads((out / "tool-manifest.json").read_text())
    assert manifest["inputs"] == [{"path": str(log.resolve()), "sha256": hashlib.sha256(LOG).hexdigest()}]


def test_scan_hashes_every_byte_of_gzip_and_cut_lines(tmp_path: Path) -> None:
    import gzip

    long_line = b"[Add] [PROF] " + b"x" * (scanner.MAX_LINE_BYTES + 10) + b"\n"
    for name, data in (("a.log", LOG + long_line + LOG), ("b.log.gz", gzip.compress(LOG + long_line) + b"")):
        path = tmp_path / name
        path.write_bytes(data)
        scan = scanner.scan_file(path, digest=True)
        assert scan.sha256 == hashlib.sha256(data).hexdigest() and scan.byte_size == len(data)
        assert scan.pin is not None and scan.pin.file_id == FileId.of(path.stat())


@pytest.mark.parametrize("swap", SWAPS)
def test_cited_lines_of_a_swapped_log_are_not_copied(swap: Callable[[Path, Path], None], tmp_path: Path,
                                                     secret: Path) -> None:
    from autofuse_studio.core.att.model import SourceRef
    from autofuse_studio.core.att.runs.evidence_text import fetch_lines

    log = tmp_path / "a.log"
    log.write_bytes(LOG)
    scan = scanner.scan_file(log)
    swap(log, secret)
    with no_hang():
        texts, problems = fetch_lines([SourceRef(str(log), 1)], pins={str(log): scan.pin})
    assert texts == {}
    assert len(problems) == 1 and problems[0].startswith(f"Cannot read log '{log}': it ")
