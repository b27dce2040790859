"""Session: the case, thresholds, result and focus the GUI shows, Qt-free; views follow its typed changes.

As napari's ViewerModel: the state lives here, every front end widget observes it, and nothing pushes the same
fact to several widgets by hand. Listeners are called synchronously, in subscription order, on the thread that
made the change (the Qt adapter re-emits them as signals on the GUI thread).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict_summary import VerdictSummary, assign_with_summary

if TYPE_CHECKING:
    from autofuse_studio.core.precision.verdict import ProducerIndex


# The case inputs: today's CaseFiles (core.case); a RunSpec replaces it later. Typed loosely on purpose, so
# swapping the type touches no listener (none reads its fields).
CaseInputs = object


@dataclass(frozen=True)
class Focus:
    """What the views look at: a rank and step (the graph colours by it) and the selected row, if any."""

    rank: str | None = None
    step: str | None = None
    row: PrecisionRow | None = field(default=None, compare=False)  # by identity: see Session.select_row

    @property
    def cell(self) -> tuple[str | None, str | None]:
        """(rank, step)."""
        return self.rank, self.step


@dataclass(frozen=True)
class CaseChanged:
    """Other case inputs were opened (the result, if any, still belongs to the previous ones until replaced)."""

    case: CaseInputs | None


@dataclass(frozen=True)
class ThresholdsChanged:
    """The thresholds are `thresholds`; `summary` is the result's verdicts under them (None without a result)."""

    thresholds: Thresholds
    summary: VerdictSummary | None


@dataclass(frozen=True)
class ResultChanged:
    """The result shown is `result` (None: nothing shown)."""

    result: PrecisionResult | None


@dataclass(frozen=True)
class FocusChanged:
    """The focus moved from `previous` to `focus`; `row_changed`: the selected row is another one (or none)."""

    focus: Focus
    previous: Focus

    @property
    def row_changed(self) -> bool:
        """True when the selected row is not the same object as before."""
        return self.focus.row is not self.previous.row

    @property
    def cell_changed(self) -> bool:
        """True when the rank or step changed."""
        return self.focus.cell != self.previous.cell


Change = CaseChanged | ThresholdsChanged | ResultChanged | FocusChanged
Listener = Callable[[Change], None]


class Session:
    """The current case, thresholds, result (with its producer index) and focus; publishes every change."""

    def __init__(self, thresholds: Thresholds | None = None) -> None:
        self._listeners: list[Listener] = []
        self.case: CaseInputs | None = None
        self.thresholds = thresholds if thresholds is not None else Thresholds()
        self.result: PrecisionResult | None = None
        self.producers: ProducerIndex = {}
        self.focus = Focus()

    # --- observers ---------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` with every later change; returns the function that unsubscribes it."""
        self._listeners.append(listener)
        return lambda: self.unsubscribe(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling `listener` (no error when it was not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _publish(self, change: Change) -> None:
        # A copy: a listener may unsubscribe (or subscribe another) while being called.
        for listener in list(self._listeners):
            listener(change)

    # --- changes -------------------------------------------------------------------------------------
    def set_case(self, case: CaseInputs | None) -> None:
        """Other case inputs are open."""
        self.case = case
        self._publish(CaseChanged(case))

    def set_thresholds(self, thresholds: Thresholds) -> None:
        """New thresholds: the result's verdicts are assigned again (no metric is recomputed), then published.

        Published even when equal to the current ones: a listener may have been showing a result judged by others.
        """
        self.thresholds = thresholds
        summary = None
        if self.result is not None:
            self.result.thresholds = thresholds
            summary = assign_with_summary(self.result.rows, thresholds, self.producers)
            self.result.first_divergence = summary.first_divergence
            self.result.first_divergence_by_rank = summary.first_divergence_by_rank
        self._publish(ThresholdsChanged(thresholds, summary))

    def set_result(self, result: PrecisionResult | None, producers: ProducerIndex | None = None) -> None:
        """Show `result` (None: none); a selected row that is not one of its rows is unselected first.

        The focus changes before the result is published, so no listener shows a row of the old result
        next to the new one.
        """
        if result is self.result and (producers is None or producers is self.producers):
            return
        if self.focus.row is not None and (result is None or not _holds(result, self.focus.row)):
            self._move_focus(Focus(self.focus.rank, self.focus.step) if result is not None else Focus())
        elif result is None and self.focus != Focus():
            self._move_focus(Focus())
        self.result = result
        self.producers = producers if producers is not None else {}
        self._publish(ResultChanged(result))

    def focus_cell(self, rank: str | None, step: str | None) -> None:
        """Look at another rank and step; the selected row stays selected."""
        if (rank, step) != self.focus.cell:
            self._move_focus(Focus(rank, step, self.focus.row))

    def select_row(self, row: PrecisionRow | None) -> None:
        """Select `row` (None: no row) and look at its rank and step.

        Rows compare by identity: two results of the same case hold equal rows, and the selected one must
        belong to the result shown.
        """
        if row is self.focus.row:
            return
        focus = Focus(row.rank, row.step, row) if row is not None else Focus(self.focus.rank, self.focus.step)
        self._move_focus(focus)

    def _move_focus(self, focus: Focus) -> None:
        previous, self.focus = self.focus, focus
        self._publish(FocusChanged(focus, previous))


def _holds(result: PrecisionResult, row: PrecisionRow) -> bool:
    """True when `row` is one of the result's rows (the same object)."""
    return any(candidate is row for candidate in result.rows)
