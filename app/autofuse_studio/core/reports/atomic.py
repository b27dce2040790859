"""Atomic file writes: write a temp file in the target folder, then os.replace it into place.

One rule for every writer: a failure is an OutputError naming the user's path (never the temp file);
a folder in the way is refused; an existing FIFO or device (/dev/stdout) is written through, not replaced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from autofuse_studio.core.errors import OutputError


def _first_non_folder(folder: Path) -> Path | None:
    """The first existing ancestor-or-self of folder that is not a folder (why mkdir fails with ENOTDIR)."""
    for candidate in [*reversed(folder.parents), folder]:
        if candidate.exists() and not candidate.is_dir():
            return candidate
    return None


def _reason(target: Path, exc: OSError) -> str:
    """Why target cannot be written, in words about the user's path."""
    folder = target.parent
    blocker = _first_non_folder(folder) if exc.errno in (errno.ENOTDIR, errno.EEXIST, errno.ENOENT) else None
    if blocker is not None:
        return f"'{blocker}' is a file, not a folder"
    if exc.errno == errno.EISDIR or target.is_dir():
        return "it is a folder"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return f"no permission to write in '{folder}'"
    if exc.errno == errno.EROFS:
        return f"'{folder}' is on a read-only file system"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "no space left on the device"
    return f"{(exc.strerror or str(exc)).lower()} (in '{folder}')"


def output_error(path: str | Path, exc: OSError) -> OutputError:
    """The OutputError for an OSError met while writing path."""
    target = Path(path)
    return OutputError.of("output_unwritable", path=target, problem=_reason(target, exc))


def _existing_ancestor(folder: Path) -> Path:
    for candidate in [folder, *folder.parents]:
        if candidate.exists():
            return candidate
    return Path(folder.anchor or ".")


def _folder_problem(folder: Path) -> str | None:
    blocker = _first_non_folder(folder)
    if blocker is not None:
        return f"'{blocker}' is a file, not a folder"
    existing = _existing_ancestor(folder)
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"no permission to write in '{existing}'"
    return None


def check_output_folder(folder: str | Path) -> None:
    """OutputError (nothing created) when folder cannot become a writable folder: a file in the way, no rights."""
    problem = _folder_problem(Path(folder))
    if problem:
        raise OutputError.of("output_folder_unusable", path=folder, problem=problem)


def make_folder(folder: str | Path) -> Path:
    """mkdir -p folder; OutputError naming it when that is impossible."""
    target = Path(folder)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        problem = _folder_problem(target) or f"{(exc.strerror or str(exc)).lower()}"
        raise OutputError.of("output_folder_create", path=target, problem=problem) from None
    return target


def check_writable_target(path: str | Path) -> None:
    """OutputError (nothing created) when path is a folder or its folder cannot be written; checks before work."""
    target = Path(path)
    if target.is_dir():
        raise OutputError.of("output_is_folder", path=target)
    problem = _folder_problem(target.parent)
    if problem:
        raise OutputError.of("output_unwritable", path=target, problem=problem)


def _is_special(target: Path) -> bool:
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISSOCK(mode)


def _open(fd_or_path: int | Path, mode: str, encoding: str | None, newline: str | None) -> IO[Any]:
    if "b" in mode:
        return open(fd_or_path, mode)
    return open(fd_or_path, mode, encoding=encoding or "utf-8", newline=newline)


def _temp_beside(target: Path, suffix: str) -> tuple[int, str]:
    """Create the folder and a temp file next to target with a plain open()'s permissions; OutputError if not."""
    check_writable_target(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # The temp file lives in the same folder so os.replace never crosses file systems.
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
        # mkstemp creates 0600 files; give the result the permissions a plain open() would have.
        os.chmod(temp_name, 0o666 & ~_current_umask())
    except OSError as exc:
        raise output_error(target, exc) from None
    return fd, temp_name


@contextlib.contextmanager
def _replacing(target: Path, temp_name: str) -> Iterator[None]:
    """Run the body, then move temp_name over target; on any failure remove it (OSErrors -> OutputError)."""
    try:
        yield
        os.replace(temp_name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        if exc.filename in (None, temp_name, str(target)):  # not, say, an input the body was reading
            raise output_error(target, exc) from None
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "wb", encoding: str | None = None,
                newline: str | None = None) -> Iterator[IO[Any]]:
    """Yield a file object on a temp file next to `path`; on success it replaces `path` atomically."""
    target = Path(path)
    if _is_special(target):
        with _written_through(target, mode, encoding, newline) as handle:
            yield handle
        return
    fd, temp_name = _temp_beside(target, ".tmp")
    with _replacing(target, temp_name), _open(fd, mode, encoding, newline) as handle:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temp file path with path's suffix (for writers that need a name, e.g. Qt's); replaced on success."""
    target = Path(path)
    fd, temp_name = _temp_beside(target, target.suffix)
    os.close(fd)
    with _replacing(target, temp_name):
        yield Path(temp_name)


@contextlib.contextmanager
def _written_through(target: Path, mode: str, encoding: str | None, newline: str | None) -> Iterator[IO[Any]]:
    """A FIFO or device: write into it (replacing /dev/stdout with a file would be wrong, and as root, harmful)."""
    try:
        with _open(target, mode, encoding, newline) as handle:
            yield handle
    except OSError as exc:
        if exc.filename not in (None, str(target)):
            raise
        raise output_error(target, exc) from None


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


def atomic_write_bytes(path: str | Path, data: bytes | memoryview) -> None:
    """Write `data` to `path` atomically (OutputError naming path when it cannot be written).

    A memoryview of a foreign buffer (Qt's encoded pictures) is written without a copy held under the GIL.
    """
    with atomic_open(path, "wb") as handle:
        handle.write(data)


def atomic_write_text(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Write `text` to `path` atomically with the given encoding and no newline translation."""
    atomic_write_bytes(path, text.encode(encoding))
