"""One palette for the ATT tab's performance changes: Compare and the Runs view tint with these colours."""

from __future__ import annotations

from PySide6.QtGui import QColor

IMPROVED = QColor("#cdeccf")  # green: lower perf value = faster
REGRESSED = QColor("#f6c9c6")  # red: higher perf value = slower
CHANGED_SAME_PERF = QColor("#fff2c2")  # pale yellow: something changed, the perf did not (or is unknown)
ONLY_ONE = QColor("#e8e8e8")  # grey: present in one run only


def perf_change_fill(delta_pct: float | None) -> QColor:
    """The tint of a change by its perf delta in percent: improvement, regression, or neither."""
    if delta_pct is None or delta_pct == 0:
        return CHANGED_SAME_PERF
    return IMPROVED if delta_pct < 0 else REGRESSED
