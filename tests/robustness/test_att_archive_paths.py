"""`att analyze --archive`: never written into the run root it archives, and the run name said as used.

Issue 30, defect 5 (an `evidence-archive` link into the run root, `--run-root A/evidence-archive --archive A`)
and from 13: `--name ""` warned `_` but named the archive after the run root; the progress line's clearing
`\\r\\x1b[K` reached the terminal as the literal text `\\x0d\\x1b[K`.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main
from autofuse_studio.core.att.runs.analysis import analyze_run
from autofuse_studio.core.att.runs.archive import archive_run
from autofuse_studio.core.att.runs.outputs import render_reports
from autofuse_studio.core.errors import InputError
from tests.core.runroots import standard_run_root, tree_state


def _analyze(run_root: Path, out: Path, archive: Path, *extra: str) -> int:
    return main(["analyze", "--run-root", str(run_root), "--output", str(out), "--archive", str(archive),
                 "--lang", "en", *extra])


@pytest.mark.parametrize("sub", ["evidence-archive", "report-archive"])
def test_an_archive_folder_linked_into_the_run_root_is_refused(sub: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    run_root = standard_run_root(tmp_path / "run")
    (run_root / "default" / "keep").mkdir()
    archive = tmp_path / "archive"
    archive.mkdir()
    (archive / sub).symlink_to(run_root / "default" / "keep")
    before = tree_state(run_root)
    assert _analyze(run_root, tmp_path / "out", archive) == 1
    err = capsys.readouterr().err
    assert f"The archive folder '{archive / sub}' is inside the run root '{run_root}'" in err
    assert tree_state(run_root) == before  # nothing archived into the evidence
    assert not (tmp_path / "out").exists()  # refused before any work
    assert sorted(p.name for p in archive.iterdir()) == [sub]


def test_a_run_root_that_is_the_archives_evidence_folder_is_refused(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "A"
    run_root = standard_run_root(archive / "evidence-archive")
    before = tree_state(run_root)
    assert _analyze(run_root, tmp_path / "out", archive) == 1
    assert "is inside the run root" in capsys.readouterr().err
    assert tree_state(run_root) == before
    assert not (archive / "report-archive").exists()


def test_a_link_swapped_in_after_the_check_is_refused_too(tmp_path: Path) -> None:
    # The GUI archives later than it analysed: the checks run again where the archive is written.
    run_root = standard_run_root(tmp_path / "run")
    analysis = analyze_run(run_root)
    files = render_reports(analysis, "en", ["x"])
    archive = tmp_path / "archive"
    archive.mkdir()
    (archive / "evidence-archive").symlink_to(run_root / "pgo")
    before = tree_state(run_root)
    with pytest.raises(InputError, match="inside the run root"):
        archive_run(analysis, files, archive, "n", ["x"])
    assert tree_state(run_root) == before


def test_an_empty_name_warns_what_is_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_root = standard_run_root(tmp_path / "night-run")
    archive = tmp_path / "archive"
    assert _analyze(run_root, tmp_path / "out", archive, "--name", "") == 0
    captured = capsys.readouterr()
    assert "Warning: the run name is empty; the run root's folder name 'night-run' is used." in captured.err
    assert f"evidence in {archive / 'evidence-archive' / 'night-run'}," in captured.out
    assert (archive / "report-archive" / "night-run" / "archive-manifest.json").is_file()
    assert _analyze(run_root, tmp_path / "out2", archive, "--name", "a/b") == 0
    assert "was made safe for a folder name: 'a_b'" in capsys.readouterr().err
    assert (archive / "evidence-archive" / "a_b").is_dir()


def test_the_progress_line_is_cleared_on_a_terminal_not_printed(tmp_path: Path) -> None:
    run_root = standard_run_root(tmp_path / "run")
    primary, secondary = pty.openpty()
    code = ("import sys; from autofuse_studio.cli import main; "
            f"sys.exit(main(['att', 'analyze', '--run-root', {str(run_root)!r}, '--output', "
            f"{str(tmp_path / 'out')!r}]))")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=secondary,
                               env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    os.close(secondary)
    seen = b""
    while True:
        ready, _, _ = select.select([primary], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    assert process.wait(timeout=60) == 0
    os.close(primary)
    assert b"\\x0d\\x1b[K" not in seen and b"\\x1b" not in seen
    assert b"\r\x1b[K" in seen
