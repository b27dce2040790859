"""The Session: typed change events, the focus cleared by a result without its row, thresholds re-judging rows."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from autofuse_studio.core import session as session_module
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.session import (
    CaseChanged,
    Change,
    Focus,
    FocusChanged,
    ResultChanged,
    Session,
    ThresholdsChanged,
)


def _row(name: str, cosine: float, rank: str | None = None, step: str = "0", order: int = 0) -> PrecisionRow:
    metrics = Metrics(cosine, 1e-3, 1e-3, 1e-4, 1e-4, 1e-4, 1.0, 1.0, 10, 0, 0, 0, 0)
    return PrecisionRow(kind="output", fused_op=name, fused_index=0, origin_op=f"{name}_origin", origin_index=0,
                        status="OK", step=step, rank=rank, order=order, metrics=metrics)


def _result(*rows: PrecisionRow) -> PrecisionResult:
    return PrecisionResult(rows=list(rows), first_divergence=None, thresholds=Thresholds())


@pytest.fixture
def recorded() -> tuple[Session, list[Change]]:
    session = Session()
    changes: list[Change] = []
    session.subscribe(changes.append)
    return session, changes


def test_each_change_is_published_as_its_kind(recorded: tuple[Session, list[Change]]) -> None:
    session, changes = recorded
    case = object()
    session.set_case(case)
    result = _result(_row("a", 1.0))
    session.set_result(result)
    session.focus_cell("1", "2")
    assert changes == [CaseChanged(case), ResultChanged(result), changes[2]]
    focus = changes[2]
    assert isinstance(focus, FocusChanged) and focus.focus.cell == ("1", "2") and focus.cell_changed
    assert not focus.row_changed
    assert session.case is case and session.result is result


def test_selecting_a_row_moves_the_cell_and_the_same_row_again_is_no_change(
        recorded: tuple[Session, list[Change]]) -> None:
    session, changes = recorded
    row = _row("a", 1.0, rank="3", step="1")
    session.set_result(_result(row))
    changes.clear()
    session.select_row(row)
    session.select_row(row)
    assert len(changes) == 1
    change = changes[0]
    assert isinstance(change, FocusChanged)
    assert change.focus == Focus("3", "1") and change.focus.row is row and change.row_changed
    session.select_row(None)
    last = changes[-1]
    assert isinstance(last, FocusChanged) and last.focus.row is None and last.focus.cell == ("3", "1")


def test_a_new_result_clears_a_selected_row_it_does_not_hold_before_it_is_published(
        recorded: tuple[Session, list[Change]]) -> None:
    session, changes = recorded
    old = _row("a", 1.0, step="0")
    session.set_result(_result(old))
    session.select_row(old)
    changes.clear()
    equal_but_new = _row("a", 1.0, step="0")  # the same case analysed again: equal rows, new objects
    new_result = _result(equal_but_new)
    session.set_result(new_result)
    assert [type(change) for change in changes] == [FocusChanged, ResultChanged]
    focus = changes[0]
    assert isinstance(focus, FocusChanged) and focus.focus.row is None and focus.row_changed
    assert session.focus.row is None and session.focus.cell == (None, "0")
    assert session.result is new_result


def test_a_result_holding_the_selected_row_keeps_it(recorded: tuple[Session, list[Change]]) -> None:
    session, changes = recorded
    row = _row("a", 1.0)
    session.set_result(_result(row))
    session.select_row(row)
    changes.clear()
    session.set_result(_result(row, _row("b", 1.0, order=1)))
    assert [type(change) for change in changes] == [ResultChanged]
    assert session.focus.row is row


def test_no_result_forgets_the_whole_focus(recorded: tuple[Session, list[Change]]) -> None:
    session, changes = recorded
    row = _row("a", 1.0, rank="0")
    session.set_result(_result(row))
    session.select_row(row)
    changes.clear()
    session.set_result(None)
    assert [type(change) for change in changes] == [FocusChanged, ResultChanged]
    assert session.focus == Focus() and session.focus.row is None
    changes.clear()
    session.set_result(None)  # nothing changes: nothing published
    assert changes == []


def test_thresholds_judge_the_result_again_and_are_published_even_when_equal(
        recorded: tuple[Session, list[Change]]) -> None:
    session, changes = recorded
    low = _row("low", 0.9)
    result = _result(low, _row("high", 1.0, order=1))
    session.set_result(result)
    changes.clear()
    session.set_thresholds(Thresholds(Limits(cosine=0.99)))
    strict = changes[-1]
    assert isinstance(strict, ThresholdsChanged) and strict.summary is not None
    assert low.verdict == "CULPRIT" and result.first_divergence is low
    assert strict.summary.verdict_counts.get("CULPRIT") == 1
    loose = Thresholds(Limits(cosine=0.5))
    session.set_thresholds(loose)
    session.set_thresholds(loose)
    assert len(changes) == 3
    assert low.verdict == "OK" and result.first_divergence is None and result.thresholds is loose
    assert session.thresholds is loose


def test_thresholds_without_a_result_are_published_without_a_summary(
        recorded: tuple[Session, list[Change]]) -> None:
    session, changes = recorded
    thresholds = Thresholds(Limits(cosine=0.5))
    session.set_thresholds(thresholds)
    assert changes == [ThresholdsChanged(thresholds, None)]


def test_unsubscribed_listeners_hear_nothing_and_may_leave_while_called() -> None:
    session = Session()
    heard: list[Change] = []
    unsubscribe = session.subscribe(heard.append)

    def leaving(change: Change) -> None:
        session.unsubscribe(leaving)

    session.subscribe(leaving)
    session.set_case(None)
    session.set_case(None)
    unsubscribe()
    session.unsubscribe(heard.append)  # twice: no error
    session.set_case(None)
    assert len(heard) == 2


def test_the_session_module_imports_no_qt() -> None:
    tree = ast.parse(Path(session_module.__file__).read_text(encoding="utf-8"))
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not any(name.startswith(("PySide6", "pyqtgraph", "autofuse_studio.ui")) for name in imported)
