"""The precision table's columns: the core definition (core.precision.columns) plus how the GUI shows a cell.

Header and tooltip texts come from the core definition; translated_texts() holds them as literal translate()
calls because pyside6-lupdate only finds literals (tests/core/test_columns_once.py checks both agree).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from autofuse_studio.core.precision.columns import ColumnDef, gui_columns
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.ui.precision.signature_text import signature_label
from autofuse_studio.ui.precision.stats_text import NOT_APPLICABLE, worst_statistic, worst_statistic_text

CONTEXT = "PrecisionColumns"


# The English texts the table shows, as literal markers: pyside6-lupdate finds literals only, never texts read
# from the core definition. Kept equal to it by tests/core/test_columns_once.py.
_TEXTS: tuple[str, ...] = tuple(str(text) for text in (  # the stubs type QT_TRANSLATE_NOOP as object
    QT_TRANSLATE_NOOP("PrecisionColumns", "output"), QT_TRANSLATE_NOOP("PrecisionColumns", "input"),
    # Headers
    QT_TRANSLATE_NOOP("PrecisionColumns", "Kind"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Fused op"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Index"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Origin op"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Origin index"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Cosine"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Max abs err"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Max rel err"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Status"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Verdict"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Rank"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Step"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Occurrence"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Mean abs err"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "RMSE"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Rel. Euclidean"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Within 0.1%"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Within 0.5%"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "NaN fused"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Inf fused"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "NaN origin"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Inf origin"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "NaN/Inf mismatch"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Elements"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Fused dtype"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Origin dtype"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Fused shape"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Origin shape"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Statistics"),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Signature"),
    # Header tooltips
    QT_TRANSLATE_NOOP("PrecisionColumns", "output: a fused op's output against its origin op's output; input: a "
                                          "fused op's input (--compare-input)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "The fused op (af-open graph)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Which output (or input) of the fused op."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "The af-close op whose output the fused tensor is compared with."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Which output of the origin op."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Cosine similarity: a·b / (‖a‖·‖b‖ + 1e-8) (a: fused tensor, b: origin "
                                          "tensor)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Largest absolute error: max |a − b| (a: fused tensor, b: origin tensor); "
                                          "statistics rows: the most divergent statistic's |fused − origin|."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Largest relative error: max |a − b| / (max(|a|, |b|) + 1e-8) (a: fused "
                                          "tensor, b: origin tensor); statistics rows: the most divergent "
                                          "statistic's relative difference."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "OK when compared, else why not (NO_MAPPING, FILE_NOT_FOUND, "
                                          "SHAPE_MISMATCH, ...)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "CULPRIT: fails while its inputs are fine; PROPAGATED: fails because an "
                                          "upstream op already failed; OK: within the thresholds; UNKNOWN: not "
                                          "compared."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "The device (rank) of a multi-rank dump; empty when neither side has "
                                          "several ranks."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "The step (iteration) folder the two dumps come from."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "k-th dump (timestamp order) of an op dumped k times on both sides."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Mean absolute error: Σ|a − b| / n (a: fused tensor, b: origin tensor, n: "
                                          "elements)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Root mean square error: √(Σ(a − b)² / n) (a: fused tensor, b: origin "
                                          "tensor, n: elements)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Relative Euclidean distance: ‖a − b‖ / ‖b‖, 0 when both are 0 (a: fused "
                                          "tensor, b: origin tensor)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Share of elements whose relative error |a − b| / (max(|a|, |b|) + 1e-8) "
                                          "is below 0.001 (a: fused tensor, b: origin tensor)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Share of elements whose relative error |a − b| / (max(|a|, |b|) + 1e-8) "
                                          "is below 0.005 (a: fused tensor, b: origin tensor)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "NaN elements of the fused tensor."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "+Inf and -Inf elements of the fused tensor."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "NaN elements of the origin tensor."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "+Inf and -Inf elements of the origin tensor."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Positions where only one side is NaN or Inf, or the Infs differ."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Elements compared (n)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Data type of the fused tensor."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Data type of the origin tensor."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Shape of the fused tensor (as compared)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Shape of the origin tensor (as compared)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "Statistics mode: the statistic that diverged most, fused vs origin "
                                          "(relative difference)."),
    QT_TRANSLATE_NOOP("PrecisionColumns", "The kind of error a failing row holds (overflow, bias, scale, ...; the "
                                          "JSON row has code, confidence, params and sentence)."),
))


@functools.cache
def translated_texts() -> dict[str, str]:
    """English header/tooltip/label text -> current language.

    Cached: call translated_texts.cache_clear() when the language changes.
    """
    return {text: QCoreApplication.translate(CONTEXT, text) for text in _TEXTS}


@dataclass(frozen=True)
class Column:
    """One table column, built from its core definition: `key` names it in exports and saved view state.

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
    tooltip: str = ""  # English source text of the header's tooltip

    def display(self, row: PrecisionRow) -> str:
        """The cell text."""
        if self.stats_text is not None and row.stats is not None and row.metrics is None:
            return self.stats_text(row)
        value = self.value(row)
        return "-" if value is None else self.text(value)

    def translated_header(self) -> str:
        """The header in the current UI language."""
        return translated_texts().get(self.header, self.header)

    def translated_tooltip(self) -> str:
        """The header's tooltip (what the column holds, a metric's formula) in the current UI language."""
        return translated_texts().get(self.tooltip, self.tooltip)


def both_all_zero(row: PrecisionRow) -> bool:
    """True when a compared row's two tensors are all zeros: cosine 0 with no error and no NaN/Inf on either side.

    a == b everywhere (max |a − b| = 0, all finite) and a·b = Σa² = 0 leaves only zeros (float64 squares of
    values under ~1e-162 also vanish; no float32/16 dump holds such values).
    """
    metrics = row.metrics
    return (metrics is not None and metrics.elements > 0 and metrics.cosine == 0 and metrics.max_abs_err == 0
            and not (metrics.nan_fused or metrics.inf_fused or metrics.nan_origin or metrics.inf_origin))


def cosine_tooltip(row: PrecisionRow) -> str | None:
    """Why the cosine cell of an all-zero pair shows 0 on a row that is not failing (None for other rows)."""
    if not both_all_zero(row):
        return None
    return QCoreApplication.translate(
        "PrecisionColumns", "Both tensors are all zeros: their cosine a·b / (‖a‖·‖b‖ + 1e-8) is 0 here because "
                            "neither has a length, not because they differ; every error is 0, the two are "
                            "identical.")


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


def _signature(row: PrecisionRow) -> object:
    """The signature's label in the UI language (what the cell shows and the column sorts by)."""
    return None if row.signature is None else signature_label(row.signature)


def _fused_op(row: PrecisionRow) -> object:
    return _op_name(row.fused_op, row.fused_file)


def _origin_op(row: PrecisionRow) -> object:
    return _op_name(row.origin_op, row.origin_file)


def _op_name(name: str | None, file: str | None) -> str | None:
    """A mode-2 row is named by its two files (the CLI and JSON keep the paths as given): the table shows the
    file name, the cell's tooltip the whole path."""
    if name is not None and name == file:
        return PurePath(name).name or name
    return name


def full_text(row: PrecisionRow, column: Column) -> str:
    """The cell's whole text for its tooltip: a mode-2 row's op cells give the path the cell shortens."""
    if column.key in ("fused_op", "origin_op"):
        name = getattr(row, column.key)
        if name is not None:
            return str(name)
    return column.display(row)


def _kind(value: object) -> str:
    kind = str(value)
    return translated_texts().get(kind, kind) if kind in ("output", "input") else kind


# Where the GUI shows more than the core value: a statistics row's worst statistic in the error columns, the
# statistic that diverged most in its own column ('avg 0.55 vs 0.5 (9.1%)'), the kind and the signature's label
# in the UI language, a mode-2 row's file names.
_VALUES: dict[str, Callable[[PrecisionRow], object]] = {
    "max_abs_err": _max_abs_err, "max_rel_err": _max_rel_err, "statistics": _statistics, "signature": _signature,
    "fused_op": _fused_op, "origin_op": _origin_op}
_TEXT: dict[str, Callable[[object], str]] = {"kind": _kind}
_STATS_TEXT: dict[str, Callable[[PrecisionRow], str]] = {"statistics": worst_statistic_text}


def _column(spec: ColumnDef) -> Column:
    """The table column of a core column definition."""
    assert spec.header is not None, spec.key
    # Tensor metrics do not apply to a statistics row ('—'), except the errors that show its worst statistic.
    stats_text = _STATS_TEXT.get(spec.key, _not_applicable if spec.metric and spec.key not in _VALUES else None)
    return Column(spec.key, spec.header, _VALUES.get(spec.key, spec.value), spec.numeric,
                  _TEXT.get(spec.key, spec.text), stats_text, left_aligned=spec.key == "statistics",
                  tooltip=spec.tooltip)


# In the model order of core.precision.columns.GUI_ORDER (the table view shows Rank first when it is shown at
# all: a visual move, indexes stay stable).
COLUMNS: tuple[Column, ...] = tuple(_column(spec) for spec in gui_columns())
COLUMN_KEYS = tuple(column.key for column in COLUMNS)
# What the table shows first (a visual order only: model indexes and COLUMN_KEYS stay stable for tests,
# saved view state and exports). Rank and step tell repeated op names apart; the verdict is what a
# user reads first, then the metrics that decided it. Origin names (long subgraph paths) come after,
# so they never push the numbers off-screen. Columns not named keep their model order after these.
LEADING_COLUMNS = ("rank", "step", "verdict", "fused_op", "fused_index", "kind", "statistics", "cosine",
                   "max_abs_err", "max_rel_err", "signature", "status", "origin_op", "origin_index")
# Cells whose full text is also their tooltip: names and statuses can be longer than any sensible width.
LONG_TEXT_COLUMNS = frozenset({"fused_op", "origin_op", "status", "fused_shape", "origin_shape", "statistics"})
VERDICT_COLUMN = COLUMN_KEYS.index("verdict")
# Columns shown only when some row has a value: single-device and tensor cases look as they always did.
OPTIONAL_COLUMNS: dict[str, Callable[[PrecisionRow], bool]] = {
    spec.key: spec.present_when for spec in gui_columns() if spec.present_when is not None}


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
