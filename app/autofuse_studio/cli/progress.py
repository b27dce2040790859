"""Progress on stderr for the CLI: a throttled one-line counter, only when stderr is a terminal."""

from __future__ import annotations

import sys
import time

from autofuse_studio.cli.console import unescaped
from autofuse_studio.core.printable import escape_controls
from autofuse_studio.core.progress import Progress, no_progress


class _TerminalProgress:
    """Rewrites one stderr line at most 10 times a second."""

    def __init__(self) -> None:
        self._last = 0.0

    def __call__(self, done: int, total: int, message: str = "") -> None:
        now = time.monotonic()
        if now - self._last < 0.1 and done < total:
            return
        self._last = now
        end = "\n" if total and done >= total and message.startswith("comparing") else ""
        # Our \r and erase-line escape must reach the terminal as they are; the message may hold file names.
        stream = unescaped(sys.stderr)
        stream.write(f"\r{escape_controls(message)} {done}/{total}\x1b[K{end}")
        stream.flush()


def terminal_progress() -> Progress:
    """A Progress that draws on stderr when it is a terminal, else one that does nothing."""
    return _TerminalProgress() if sys.stderr.isatty() else no_progress


def clear_progress_line() -> None:
    """Erase the progress line (when stderr is a terminal) with a real CR and erase-line escape.

    Written under the escaping console, sys.stderr.write("\\r\\x1b[K") would show the literal text
    `\\x0d\\x1b[K` on the terminal: our own escapes go to the stream beneath it.
    """
    if sys.stderr.isatty():
        stream = unescaped(sys.stderr)
        stream.write("\r\x1b[K")
        stream.flush()
