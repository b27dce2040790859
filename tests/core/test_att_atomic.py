"""The atomic write helper used by every ATT writer."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.reports.atomic import atomic_open, atomic_write_bytes, atomic_write_text


def test_writes_replace_and_leave_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "new" / "f.txt"
    atomic_write_text(target, "héllo\n", encoding="utf-8-sig")
    assert target.read_bytes() == "\ufeffhéllo\n".encode()
    atomic_write_bytes(target, b"x")
    assert target.read_bytes() == b"x"
    assert [p.name for p in target.parent.iterdir()] == ["f.txt"]


def test_failure_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old")

    def fail_midway() -> None:
        with atomic_open(target, "w") as handle:
            handle.write("half")
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        fail_midway()
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]
