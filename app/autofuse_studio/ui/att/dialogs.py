"""File and folder choosers of the ATT panels, in one place so tests can replace them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget


def save_file(parent: QWidget | None, title: str, default: str, filters: str) -> Path | None:
    """Ask for a file to write; None when the user cancels."""
    name, _ = QFileDialog.getSaveFileName(parent, title, default, filters)
    return Path(name) if name else None


def open_file(parent: QWidget | None, title: str, filters: str) -> Path | None:
    """Ask for an existing file; None when the user cancels."""
    name, _ = QFileDialog.getOpenFileName(parent, title, "", filters)
    return Path(name) if name else None


def open_files(parent: QWidget | None, title: str, filters: str) -> list[Path]:
    """Ask for one or more existing files; empty when the user cancels."""
    names, _ = QFileDialog.getOpenFileNames(parent, title, "", filters)
    return [Path(n) for n in names]


def folder(parent: QWidget | None, title: str) -> Path | None:
    """Ask for a folder; None when the user cancels."""
    name = QFileDialog.getExistingDirectory(parent, title)
    return Path(name) if name else None
