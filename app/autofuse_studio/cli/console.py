"""The CLI's console: control and bidi characters from names in logs, graphs and paths are shown escaped."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from autofuse_studio.core.printable import escape_controls

# Line structure stays; everything else that a terminal would act on (ESC, BEL, CR, bidi overrides) is escaped.
KEPT = "\n\t"


class EscapingStream:
    """A text stream wrapper whose write() shows control characters as `\\x1b`-style escapes."""

    def __init__(self, stream: TextIO) -> None:
        self.unescaped = stream  # for output that is ours and means its escapes (the progress line)

    def write(self, text: str) -> int:
        """Write `text` escaped; returns len(text) as a plain write would."""
        self.unescaped.write(escape_controls(text, KEPT))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unescaped, name)


@contextlib.contextmanager
def escaped_console() -> Iterator[None]:
    """Route sys.stdout and sys.stderr through EscapingStream while the block runs."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingStream(out), EscapingStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def unescaped(stream: TextIO) -> TextIO:
    """The stream under an EscapingStream (or `stream` itself)."""
    return stream.unescaped if isinstance(stream, EscapingStream) else stream
