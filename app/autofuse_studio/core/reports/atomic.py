"""Atomic file writes: write a temp file in the target folder, then os.replace it into place."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "wb", encoding: str | None = None,
                newline: str | None = None) -> Iterator[IO[Any]]:
    """Yield a file object on a temp file next to `path`; on success it replaces `path` atomically."""
    target = Path(path)
    fd, temp_name = temp_file_beside(target)
    try:
        if "b" in mode:
            handle: IO[Any] = os.fdopen(fd, mode)
        else:
            handle = os.fdopen(fd, mode, encoding=encoding or "utf-8", newline=newline)
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def temp_file_beside(target: Path, suffix: str = ".tmp") -> tuple[int, str]:
    """(fd, name) of a new temp file in target's folder with the mode a plain open() would give (umask)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # The temp file lives in the same folder so os.replace never crosses file systems.
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    # mkstemp creates 0600 files; every written file gets the permissions a plain open() would have.
    os.chmod(temp_name, 0o666 & ~_current_umask())
    return fd, temp_name


def _current_umask() -> int:
    # Read it rather than os.umask(x) twice, which would briefly change it for every thread.
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` atomically."""
    with atomic_open(path, "wb") as handle:
        handle.write(data)


def atomic_write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` atomically with the given encoding and no newline translation."""
    atomic_write_bytes(path, text.encode(encoding))
