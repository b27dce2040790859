"""Column width rules every table shares: the cap of a column's width and what its header needs."""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView

MAX_WIDTH = 360  # px: longer names are elided in the middle (their tooltip holds the full text)


def header_width(header: QHeaderView, logical: int) -> int:
    """Width a header section needs for its text (and the sort arrow, when sorting is on), as Qt measures it."""
    return int(header.sectionSizeFromContents(logical).width())
