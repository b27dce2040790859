"""Drag and drop of local files and folders, shared by every panel that accepts drops."""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QDragEnterEvent, QDropEvent


def local_paths(mime: QMimeData) -> list[str]:
    """The local file and folder paths carried by a drag (remote URLs are ignored)."""
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]


def accept_local_drag(event: QDragEnterEvent) -> None:
    """Accept a drag that carries at least one local path."""
    if local_paths(event.mimeData()):
        event.acceptProposedAction()


def take_local_drop(event: QDropEvent) -> list[str]:
    """The dropped local paths; the drop is accepted when there are any."""
    paths = local_paths(event.mimeData())
    if paths:
        event.acceptProposedAction()
    return paths
