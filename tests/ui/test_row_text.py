"""A first divergence named in the status line follows the UI language (op names stay as they are)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.precision.rows import INPUT, OUTPUT, PrecisionRow
from autofuse_studio.ui.i18n import translations
from autofuse_studio.ui.precision.row_text import describe_row_here


@pytest.fixture
def chinese(qtbot: QtBot) -> Iterator[None]:
    assert translations().apply("zh_CN")
    yield
    translations().apply("en")


def _row(kind: str, rank: str | None, step: str) -> PrecisionRow:
    row = PrecisionRow(kind, "autofuse_3_Mul", 1, "Mul", 0, "OK")
    row.rank, row.step = rank, step
    return row


def test_english_names_the_row_as_the_cli_does(qtbot: QtBot) -> None:
    assert describe_row_here(_row(OUTPUT, "5", "0")) == "autofuse_3_Mul output 1 (rank 5, step 0)"
    assert describe_row_here(_row(INPUT, None, "0")) == "autofuse_3_Mul input 1"


@pytest.mark.usefixtures("chinese")
def test_chinese_names_the_row_in_chinese() -> None:
    text = describe_row_here(_row(OUTPUT, "5", "0"))
    assert text.startswith("autofuse_3_Mul 输出 1")
    assert "output" not in text
