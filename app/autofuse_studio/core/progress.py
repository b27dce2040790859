"""Progress reporting and cooperative cancellation passed into long-running core functions."""

from __future__ import annotations

import threading
from typing import Protocol

from autofuse_studio.core.errors import Cancelled


class Progress(Protocol):
    """Receives progress from long core functions; must be cheap and thread-safe."""

    def __call__(self, done: int, total: int, message: str = "") -> None:
        """Report `done` of `total` units of work with a short message."""


def no_progress(done: int, total: int, message: str = "") -> None:
    """A Progress that ignores everything."""


class CancelToken:
    """A thread-safe flag that long functions poll through check()."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the work to stop at its next check()."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """True once cancel() was called."""
        return self._event.is_set()

    def wait(self, timeout: float) -> bool:
        """Block until cancel() is called or `timeout` seconds pass; True when cancelled."""
        return self._event.wait(timeout)

    def check(self) -> None:
        """Raise Cancelled when cancel() was called."""
        if self._event.is_set():
            raise Cancelled()


NEVER_CANCELLED = CancelToken()
