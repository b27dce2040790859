"""Event-loop waits shared by the screenshot and tour scripts (they drive the real window offscreen)."""

from __future__ import annotations


def wait_for(signal: object, timeout_ms: int = 60_000, settle_ms: int = 300, *others: object) -> None:
    """Run the event loop until signal (or one of `others`) fires, then settle_ms more for painting; at most
    timeout_ms. Connect before the action that makes it fire."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    for each in (signal, *others):
        each.connect(lambda *_args: QTimer.singleShot(settle_ms, loop.quit))  # type: ignore[attr-defined]
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()


def pause(ms: int) -> None:
    """Run the event loop for ms milliseconds."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
