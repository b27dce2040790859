"""Columns of the precision table: header, how a cell is shown, and the key it sorts by."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QCoreApplication

from autofuse_studio.core.precision.rows import EXTRA_METRICS, PrecisionRow
from autofuse_studio.core.precision.table import format_cosine, format_error
from autofuse_studio.ui.precision.stats_text import NOT_APPLICABLE, worst_statistic, worst_statistic_text

CONTEXT = "PrecisionColumns"


def _noop(text: str) -> str:
    """Marks English text that translated_texts() translates."""
    return text


@functools.cache
def translated_texts() -> dict[str, str]:
    """English header/label text -> current language; literal translate() calls so that lupdate finds them.

    Cached: call translated_texts.cache_clear() when the language changes.
    """
    return {
        "output": QCoreApplication.translate("PrecisionColumns", "output"),
        "input": QCoreApplication.translate("PrecisionColumns", "input"),
        "Mean abs err": QCoreApplication.translate("PrecisionColumns", "Mean abs err"),
        "RMSE": QCoreApplication.translate("PrecisionColumns", "RMSE"),
        "Rel. Euclidean": QCoreApplication.translate("PrecisionColumns", "Rel. Euclidean"),
        "Within 0.1%": QCoreApplication.translate("PrecisionColumns", "Within 0.1%"),
        "Within 0.5%": QCoreApplication.translate("PrecisionColumns", "Within 0.5%"),
        "NaN fused": QCoreApplication.translate("PrecisionColumns", "NaN fused"),
        "Inf fused": QCoreApplication.translate("PrecisionColumns", "Inf fused"),
        "NaN origin": QCoreApplication.translate("PrecisionColumns", "NaN origin"),
        "Inf origin": QCoreApplication.translate("PrecisionColumns", "Inf origin"),
        "NaN/Inf mismatch": QCoreApplication.translate("PrecisionColumns", "NaN/Inf mismatch"),
        "Elements": QCoreApplication.translate("PrecisionColumns", "Elements"),
        "Kind": QCoreApplication.translate("PrecisionColumns", "Kind"),
        "Fused op": QCoreApplication.translate("PrecisionColumns", "Fused op"),
        "Index": QCoreApplication.translate("PrecisionColumns", "Index"),
        "Origin op": QCoreApplication.translate("PrecisionColumns", "Origin op"),
        "Origin index": QCoreApplication.translate("PrecisionColumns", "Origin index"),
        "Cosine": QCoreApplication.translate("PrecisionColumns", "Cosine"),
        "Max abs err": QCoreApplication.translate("PrecisionColumns", "Max abs err"),
        "Max rel err": QCoreApplication.translate("PrecisionColumns", "Max rel err"),
        "Status": QCoreApplication.translate("PrecisionColumns", "Status"),
        "Verdict": QCoreApplication.translate("PrecisionColumns", "Verdict"),
        "Step": QCoreApplication.translate("PrecisionColumns", "Step"),
        "Rank": QCoreApplication.translate("PrecisionColumns", "Rank"),
        "Occurrence": QCoreApplication.translate("PrecisionColumns", "Occurrence"),
        "Fused dtype": QCoreApplication.translate("PrecisionColumns", "Fused dtype"),
        "Origin dtype": QCoreApplication.translate("PrecisionColumns", "Origin dtype"),
        "Fused shape": QCoreApplication.translate("PrecisionColumns", "Fused shape"),
        "Origin shape": QCoreApplication.translate("PrecisionColumns", "Origin shape"),
        "Statistics": QCoreApplication.translate("PrecisionColumns", "Statistics"),
    }


@dataclass(frozen=True)
class Column:
    """One table column: `key` names it in exports and saved view state.

    `stats_text` words the cell of a statistics-mode row (compared by its statistics, without metrics) when the
    column shows something else for it than its value: '—' where a tensor metric does not apply.
    """

    key: str
    header: str  # English source text; translated when shown
    value: Callable[[PrecisionRow], object]
    numeric: bool = False
    text: Callable[[object], str] = str
    stats_text: Callable[[PrecisionRow], str] | None = None
    left_aligned: bool = False  # a numeric column (sorted by number) whose text starts with a word

    def display(self, row: PrecisionRow) -> str:
        """The cell text."""
        if self.stats_text is not None and row.stats is not None and row.metrics is None:
            return self.stats_text(row)
        value = self.value(row)
        return "-" if value is None else self.text(value)

    def translated_header(self) -> str:
        """The header in the current UI language."""
        return translated_texts().get(self.header, self.header)


def _metric(name: str) -> Callable[[PrecisionRow], object]:
    return lambda row: row.metric(name)


def _not_applicable(_row: PrecisionRow) -> str:
    return NOT_APPLICABLE


def _max_abs_err(row: PrecisionRow) -> object:
    """The metric, or a statistics row's worst statistic's absolute difference (as the console table shows)."""
    if row.metrics is None and (worst := worst_statistic(row)) is not None:
        return abs(worst.diff)
    return row.metric("max_abs_err")


def _max_rel_err(row: PrecisionRow) -> object:
    """The metric, or a statistics row's worst statistic's relative difference."""
    if row.metrics is None and (worst := worst_statistic(row)) is not None:
        return worst.rel_diff
    return row.metric("max_rel_err")


def _statistics(row: PrecisionRow) -> object:
    """A statistics row's worst statistic's relative difference (what the Statistics column sorts by)."""
    worst = worst_statistic(row)
    return None if worst is None else worst.rel_diff


def _shape(value: object) -> str:
    assert isinstance(value, tuple)
    return "x".join(str(dim) for dim in value) or "scalar"


def _percent(value: object) -> str:
    return f"{float(value):.4%}"  # type: ignore[arg-type]


def _error(value: object) -> str:
    return format_error(float(value))  # type: ignore[arg-type]


def _cosine(value: object) -> str:
    return format_cosine(float(value))  # type: ignore[arg-type]


_KINDS = {"output": _noop("output"), "input": _noop("input")}


def _kind(value: object) -> str:
    kind = str(value)
    return translated_texts().get(_KINDS[kind], kind) if kind in _KINDS else kind


_EXTRA_HEADERS = {
    "mean_abs_err": _noop("Mean abs err"),
    "rmse": _noop("RMSE"),
    "rel_euclidean": _noop("Rel. Euclidean"),
    "one_thousandth_ratio": _noop("Within 0.1%"),
    "five_thousandth_ratio": _noop("Within 0.5%"),
    "nan_fused": _noop("NaN fused"),
    "inf_fused": _noop("Inf fused"),
    "nan_origin": _noop("NaN origin"),
    "inf_origin": _noop("Inf origin"),
    "nonfinite_mismatch": _noop("NaN/Inf mismatch"),
    "elements": _noop("Elements"),
}


def _extra(name: str) -> Column:
    # Metrics added to the engine later still get a column, with their field name as header.
    header = _EXTRA_HEADERS.get(name, name.replace("_", " "))
    if name.endswith("_ratio"):
        return Column(name, header, _metric(name), True, _percent, _not_applicable)
    if name.startswith(("nan", "inf", "nonfinite")) or name == "elements":
        return Column(name, header, _metric(name), True, stats_text=_not_applicable)
    return Column(name, header, _metric(name), True, _error, _not_applicable)


COLUMNS: tuple[Column, ...] = (
    Column("kind", _noop("Kind"), lambda row: row.kind, text=_kind),
    Column("fused_op", _noop("Fused op"), lambda row: row.fused_op),
    Column("fused_index", _noop("Index"), lambda row: row.fused_index, True),
    Column("origin_op", _noop("Origin op"), lambda row: row.origin_op),
    Column("origin_index", _noop("Origin index"), lambda row: row.origin_index, True),
    Column("cosine", _noop("Cosine"), _metric("cosine"), True, _cosine, _not_applicable),
    Column("max_abs_err", _noop("Max abs err"), _max_abs_err, True, _error),
    Column("max_rel_err", _noop("Max rel err"), _max_rel_err, True, _error),
    Column("status", _noop("Status"), lambda row: row.status),
    Column("verdict", _noop("Verdict"), lambda row: row.verdict),
    # The table view shows Rank first when it is shown at all (a visual move: indexes stay stable).
    Column("rank", _noop("Rank"), lambda row: row.rank, text=str),
    Column("step", _noop("Step"), lambda row: row.step),
    Column("occurrence", _noop("Occurrence"), lambda row: row.occurrence, True),
    *(_extra(name) for name in EXTRA_METRICS),
    Column("fused_dtype", _noop("Fused dtype"), lambda row: row.fused_dtype),
    Column("origin_dtype", _noop("Origin dtype"), lambda row: row.origin_dtype),
    Column("fused_shape", _noop("Fused shape"), lambda row: row.fused_shape, text=_shape),
    Column("origin_shape", _noop("Origin shape"), lambda row: row.origin_shape, text=_shape),
    # Statistics mode: the statistic that diverged most, 'avg 0.55 vs 0.5 (9.1%)' (last: model indexes stay).
    Column("statistics", _noop("Statistics"), _statistics, True, stats_text=worst_statistic_text,
           left_aligned=True),
)
COLUMN_KEYS = tuple(column.key for column in COLUMNS)
# What the table shows first (a visual order only: model indexes and COLUMN_KEYS stay stable for tests,
# saved view state and exports). Rank and step tell repeated op names apart; the verdict is what a
# user reads first, then the metrics that decided it. Origin names (long subgraph paths) come after,
# so they never push the numbers off-screen. Columns not named keep their model order after these.
LEADING_COLUMNS = ("rank", "step", "verdict", "fused_op", "fused_index", "kind", "statistics", "cosine",
                   "max_abs_err", "max_rel_err", "status", "origin_op", "origin_index")
# Cells whose full text is also their tooltip: names and statuses can be longer than any sensible width.
LONG_TEXT_COLUMNS = frozenset({"fused_op", "origin_op", "status", "fused_shape", "origin_shape", "statistics"})
VERDICT_COLUMN = COLUMN_KEYS.index("verdict")
# Columns shown only when some row has a value: single-device and tensor cases look as they always did.
OPTIONAL_COLUMNS: dict[str, Callable[[PrecisionRow], bool]] = {
    "rank": lambda row: row.rank is not None, "occurrence": lambda row: row.occurrence is not None,
    "statistics": lambda row: row.stats is not None}


def visual_order() -> list[int]:
    """Model column indexes in the order the table shows them by default."""
    leading = [COLUMN_KEYS.index(key) for key in LEADING_COLUMNS]
    return leading + [number for number in range(len(COLUMNS)) if number not in leading]


def sort_order(rows: Sequence[PrecisionRow], column: Column, descending: bool) -> list[int]:
    """Positions of `rows` sorted by `column` (stable; empty and NaN cells last in both directions)."""
    if column.numeric:
        keys = np.fromiter((_number(column.value(row)) for row in rows), dtype=np.float64, count=len(rows))
        # NaN sorts last in numpy; negating keeps it last for the descending order too.
        return np.argsort(-keys if descending else keys, kind="stable").tolist()  # type: ignore[no-any-return]
    texts = [column.value(row) for row in rows]
    filled = [index for index, text in enumerate(texts) if text not in (None, "")]
    empty = [index for index, text in enumerate(texts) if text in (None, "")]
    filled.sort(key=lambda index: str(texts[index]), reverse=descending)
    return filled + empty


def _number(value: object) -> float:
    if value is None:
        return math.nan
    return float(value)  # type: ignore[arg-type]
