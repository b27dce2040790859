"""Small side files a user names (thresholds TOML, *.afcase, hosts.json): regular files only, read with a cap.

One rule for all of them: the file is opened without blocking (a FIFO would wait for a writer), it must be a
regular file (a FIFO, folder or device is named as such), and at most cap + 1 bytes are ever read, whatever
the size the file system reports (a device reports 0). A problem is an InputError naming the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# Opening a FIFO without O_NONBLOCK waits for a writer; regular files ignore the flag.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_KINDS = (
    (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
)
_CHUNK = 1 << 20


def file_kind(mode: int) -> str:
    """'a named pipe (FIFO)', 'a folder' ... for a mode that is not a regular file's."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _size_text(cap: int) -> str:
    return f"{cap >> 20} MB" if cap >= 1 << 20 and cap % (1 << 20) == 0 else f"{cap:,} bytes"


def read_side_file(path: str | Path, cap: int, what: str, quoted: bool = False) -> bytes:
    """The bytes of the regular file `path`, at most `cap` of them; InputError naming `what` and the path otherwise.

    `what` starts the sentences, e.g. "The thresholds file"; `quoted` puts the path in single quotes.
    """
    from autofuse_studio.core.errors import InputError

    shown = f"'{path}'" if quoted else str(path)

    try:
        mode = os.stat(path).st_mode  # a device or FIFO is named without being opened
        if not stat.S_ISREG(mode):
            raise InputError.of("side_file_not_file", what=what, shown=shown, kind=file_kind(mode), path=path)
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as error:
        raise InputError.of("side_file_unreadable", what=what, shown=shown, reason=error.strerror or str(error),
                            path=path) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError.of("side_file_not_file", what=what, shown=shown, kind=file_kind(mode), path=path)
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise InputError.of("side_file_unreadable", what=what, shown=shown, reason=error.strerror or str(error),
                            path=path) from None
    finally:
        os.close(fd)
    if left <= 0:
        raise InputError.of("side_file_too_large", what=what, shown=shown, size=_size_text(cap), path=path)
    return b"".join(chunks)
