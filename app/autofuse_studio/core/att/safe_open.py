"""Opening a found file as what was found: a regular file, the same one, never a pipe that blocks.

A file is found (listed, its identity noted), then read, hashed and copied later. In between it can be
swapped: for a link to a secret (which then lands in the evidence archive and its manifest), for a FIFO
(which hangs the run) or for another file. So every later open
* does not follow a link where a file was found (O_NOFOLLOW),
* never blocks (O_NONBLOCK: a FIFO opens at once and is refused),
* checks with fstat that the descriptor is a regular file and, when the identity (device, inode) is
  known, the very file that was found,
and whatever is read, hashed or copied comes from that one descriptor.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from typing import BinaryIO

from autofuse_studio.core.errors import InputError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0) | _NONBLOCK


@dataclass(frozen=True, slots=True)
class FileId:
    """A file's identity: its device and inode (what stays the same while its path may be swapped)."""

    dev: int
    ino: int

    @classmethod
    def of(cls, info: os.stat_result) -> FileId:
        """The identity in a stat result."""
        return cls(info.st_dev, info.st_ino)


@dataclass(frozen=True, slots=True)
class Pin:
    """What a found path led to: the file's identity, and whether the path itself was a link to it."""

    file_id: FileId
    link: bool = False


def os_reason(exc: OSError) -> str:
    """An OSError's reason as words starting in lower case (`input/output error`), without `[Errno N]`."""
    reason = (exc.strerror or str(exc)).rstrip(".")
    return reason[:1].lower() + reason[1:]


def not_read(path: object, reason: str, what: str = "") -> InputError:
    """The InputError for a file that could not be read: `Cannot read <what>'<path>': <reason>.`"""
    if what in ("", "log "):
        return InputError.of("att_log_unreadable" if what else "att_file_unreadable", path=str(path), reason=reason)
    return InputError(f"Cannot read {what}'{path}': {reason}.", str(path))


def open_regular(path: str | os.PathLike[str], pin: Pin | None = None, what: str = "") -> BinaryIO:
    """The file at `path` open for binary reading; InputError (naming the path) unless it is a regular file.

    With a `pin`, a link is followed only when the path was a link when it was found, and the file must be
    the one found then (same device and inode). Without one (a path the user typed), links are followed.
    `what` names the kind of file in the message (`"log "`).
    """
    follow = pin is None or pin.link
    try:
        fd = os.open(path, _FLAGS | (0 if follow else _NOFOLLOW))
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise not_read(path, "it became a symbolic link after it was found, and links are not followed",
                           what) from None
        raise not_read(path, os_reason(exc), what) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a pipe, socket or device)"
            raise not_read(path, f"it is {kind}", what)
        if pin is not None and FileId.of(info) != pin.file_id:
            raise not_read(path, "it was replaced by another file after it was found", what)
        if _NONBLOCK:  # a regular file ignores O_NONBLOCK; cleared anyway so reads behave as usual
            import fcntl

            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~_NONBLOCK)
        return open(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def pin_of(path: str | os.PathLike[str]) -> Pin | None:
    """The pin of a path as it is now (a link is followed and marked), or None when it cannot be stat'ed."""
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
        return Pin(FileId.of(os.stat(path)), link)
    except OSError:
        return None
