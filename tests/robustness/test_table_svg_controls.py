"""table.svg (the precision table picture, drawn by Qt's SVG generator) stays valid XML with control characters."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.table_picture import make_picture, picture_columns, svg_bytes


def test_control_characters_in_names_keep_the_svg_parseable(qtbot: QtBot) -> None:
    hostile = "scope/\x1b[31mred\x07\x0b\x0c\x00op"
    rows = [PrecisionRow("output", hostile, 0, "origin\x01op", 0, "OK", message="bell\x07")]
    picture = make_picture(rows, picture_columns(rows))
    document = svg_bytes(picture)
    ET.fromstring(document)  # raises on a character XML 1.0 forbids
    assert b"\\x1b" in document
