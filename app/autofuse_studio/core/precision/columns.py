"""Every column of a precision result, defined once: the GUI table, CSV/xlsx, to_dataframe() and the docs read it.

A new column is one entry in COLUMNS (in the file order; where the GUI table shows it: GUI_ORDER). The JSON
rows (PrecisionRow.to_dict) carry every column whose `json` is true under the same key; tests check that
each reader has every column.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from autofuse_studio.core.precision.rows import EXTRA_METRICS, PrecisionRow
from autofuse_studio.core.precision.table import format_cosine, format_error

__all__ = [
    "COLUMNS", "EXPORT_KEYS", "FLOAT", "GUI_ORDER", "INTEGER", "SHAPE", "SIGNATURE_KEYS", "STATS_KEYS", "TEXT",
    "ColumnDef", "by_key", "export_columns", "gui_columns", "markdown_table", "shown_keys",
]

# What a column's values are: words, whole numbers (counts, indexes), real numbers, or a shape tuple.
TEXT, INTEGER, FLOAT, SHAPE = "text", "integer", "float", "shape"
WIDE = 40  # width hint (characters) of op names and file paths
NARROW = 14  # width hint of every other column


def _plain(value: object) -> str:
    return str(value)


def _percent(value: object) -> str:
    return f"{float(value):.4%}"  # type: ignore[arg-type]


def _error(value: object) -> str:
    return format_error(float(value))  # type: ignore[arg-type]


def _cosine(value: object) -> str:
    return format_cosine(float(value))  # type: ignore[arg-type]


def _shape(value: object) -> str:
    assert isinstance(value, tuple)
    return "x".join(str(dim) for dim in value) or "scalar"


@dataclass(frozen=True)
class ColumnDef:
    """One column: `key` names it in JSON, CSV, xlsx, the DataFrame and the GUI's saved layout.

    `header` is the GUI table's English header (None: the GUI table does not show the column; translated when
    shown), `tooltip` what the column holds (the formula of a metric; a = fused tensor, b = origin tensor,
    n elements). `text` shows a value in the GUI; `width` is a width hint in characters (the xlsx column width).
    `export`: a CSV/xlsx/DataFrame column; `json`: a key of the JSON rows. `present_when`: the column is shown
    (GUI) and written (CSV/xlsx) only when some row satisfies it, so single-device tensor runs keep their files.
    `metric`: the value is a field of the row's Metrics. `folder_number`: a folder name that xlsx writes as a
    number when it is a plain integer.
    """

    key: str
    header: str | None
    tooltip: str
    kind: str = TEXT
    text: Callable[[object], str] = _plain
    width: int = NARROW
    export: bool = True
    json: bool = True
    present_when: Callable[[PrecisionRow], bool] | None = None
    metric: bool = False
    folder_number: bool = False

    @property
    def numeric(self) -> bool:
        """True when the values are numbers (sorted as numbers, right-aligned)."""
        return self.kind in (INTEGER, FLOAT)

    def value(self, row: PrecisionRow) -> object:
        """The row's raw value in this column (None when it has none): a metric or the row's attribute."""
        return row.metric(self.key) if self.metric else getattr(row, self.key, None)


def _has_rank(row: PrecisionRow) -> bool:
    return row.rank is not None


def _has_occurrence(row: PrecisionRow) -> bool:
    return row.occurrence is not None


def _has_stats(row: PrecisionRow) -> bool:
    return row.stats is not None


def _has_signature(row: PrecisionRow) -> bool:
    return row.signature is not None


_RELATIVE = "|a − b| / (max(|a|, |b|) + 1e-8)"
_SIDES = " (a: fused tensor, b: origin tensor)"
_COUNTED = " (a: fused tensor, b: origin tensor, n: elements)"


def _ratio(limit: str) -> str:
    return f"Share of elements whose relative error {_RELATIVE} is below {limit}{_SIDES}."


# The metrics after the reference's three, in EXTRA_METRICS order: header, tooltip, kind, text.
_EXTRA: dict[str, tuple[str, str, str, Callable[[object], str]]] = {
    "mean_abs_err": ("Mean abs err", f"Mean absolute error: Σ|a − b| / n{_COUNTED}.", FLOAT, _error),
    "rmse": ("RMSE", f"Root mean square error: √(Σ(a − b)² / n){_COUNTED}.", FLOAT, _error),
    "rel_euclidean": ("Rel. Euclidean", f"Relative Euclidean distance: ‖a − b‖ / ‖b‖, 0 when both are 0{_SIDES}.",
                      FLOAT, _error),
    "one_thousandth_ratio": ("Within 0.1%", _ratio("0.001"), FLOAT, _percent),
    "five_thousandth_ratio": ("Within 0.5%", _ratio("0.005"), FLOAT, _percent),
    "nan_fused": ("NaN fused", "NaN elements of the fused tensor.", INTEGER, _plain),
    "inf_fused": ("Inf fused", "+Inf and -Inf elements of the fused tensor.", INTEGER, _plain),
    "nan_origin": ("NaN origin", "NaN elements of the origin tensor.", INTEGER, _plain),
    "inf_origin": ("Inf origin", "+Inf and -Inf elements of the origin tensor.", INTEGER, _plain),
    "nonfinite_mismatch": ("NaN/Inf mismatch", "Positions where only one side is NaN or Inf, or the Infs differ.",
                           INTEGER, _plain),
    "elements": ("Elements", "Elements compared (n).", INTEGER, _plain),
}


def _extra(name: str) -> ColumnDef:
    header, tooltip, kind, text = _EXTRA[name]
    return ColumnDef(name, header, tooltip, kind, text, metric=True)


# Compact on purpose: L2 norm and NaN/Inf counts show up as `stat_worst` when they are what diverges.
def _stat(key: str, tooltip: str, kind: str = FLOAT) -> ColumnDef:
    return ColumnDef(key, None, tooltip, kind, json=False, present_when=_has_stats)


# In the order of the CSV and xlsx files and the DataFrame.
COLUMNS: tuple[ColumnDef, ...] = (
    ColumnDef("rank", "Rank", "The device (rank) of a multi-rank dump; empty when neither side has several ranks.",
              present_when=_has_rank, folder_number=True),
    ColumnDef("step", "Step", "The step (iteration) folder the two dumps come from.", folder_number=True),
    ColumnDef("occurrence", "Occurrence", "k-th dump (timestamp order) of an op dumped k times on both sides.",
              INTEGER, present_when=_has_occurrence),
    ColumnDef("kind", "Kind", "output: a fused op's output against its origin op's output; input: a fused op's "
              "input (--compare-input)."),
    ColumnDef("fused_op", "Fused op", "The fused op (af-open graph).", width=WIDE),
    ColumnDef("fused_index", "Index", "Which output (or input) of the fused op.", INTEGER),
    ColumnDef("origin_op", "Origin op", "The af-close op whose output the fused tensor is compared with.",
              width=WIDE),
    ColumnDef("origin_index", "Origin index", "Which output of the origin op.", INTEGER),
    ColumnDef("status", "Status", "OK when compared, else why not (NO_MAPPING, FILE_NOT_FOUND, SHAPE_MISMATCH, ...)."),
    ColumnDef("cosine", "Cosine", f"Cosine similarity: a·b / (‖a‖·‖b‖ + 1e-8){_SIDES}.", FLOAT, _cosine, metric=True),
    ColumnDef("max_abs_err", "Max abs err", f"Largest absolute error: max |a − b|{_SIDES}; statistics rows: the "
              "most divergent statistic's |fused − origin|.", FLOAT, _error, metric=True),
    ColumnDef("max_rel_err", "Max rel err", f"Largest relative error: max {_RELATIVE}{_SIDES}; statistics rows: "
              "the most divergent statistic's relative difference.", FLOAT, _error, metric=True),
    *(_extra(name) for name in EXTRA_METRICS),
    ColumnDef("statistics", "Statistics", "Statistics mode: the statistic that diverged most, fused vs origin "
              "(relative difference).", FLOAT, export=False, present_when=_has_stats),
    _stat("stat_worst", "The statistic furthest beyond (or closest to) its limit under the row's dtype limits: "
          "max, min, avg, l2norm, nan_count, neg_inf_count, pos_inf_count, or count when the element counts "
          "differ; empty when no statistic differs.", TEXT),
    _stat("stat_fused", "That statistic on the fused side."),
    _stat("stat_origin", "That statistic on the origin side."),
    _stat("stat_rel_diff", "|fused − origin| / max(|fused|, |origin|) of that statistic (inf when only "
          "one side is finite)."),
    _stat("stat_max_fused", "Max of the fused side (empty where its CSV lacks the item)."),
    _stat("stat_max_origin", "Max of the origin side."),
    _stat("stat_min_fused", "Min of the fused side."),
    _stat("stat_min_origin", "Min of the origin side."),
    _stat("stat_avg_fused", "Avg of the fused side."),
    _stat("stat_avg_origin", "Avg of the origin side."),
    ColumnDef("verdict", "Verdict", "CULPRIT: fails while its inputs are fine; PROPAGATED: fails because an "
              "upstream op already failed; OK: within the thresholds; UNKNOWN: not compared."),
    ColumnDef("signature", "Signature", "The kind of error a failing row holds (overflow, bias, scale, ...; the JSON "
              "row has code, confidence, params and sentence).", present_when=_has_signature),
    ColumnDef("signature_sentence", None, "The signature in one sentence.", json=False,
              present_when=_has_signature),
    ColumnDef("fused_dtype", "Fused dtype", "Data type of the fused tensor."),
    ColumnDef("origin_dtype", "Origin dtype", "Data type of the origin tensor."),
    ColumnDef("fused_shape", "Fused shape", "Shape of the fused tensor (as compared).", SHAPE, _shape),
    ColumnDef("origin_shape", "Origin shape", "Shape of the origin tensor (as compared).", SHAPE, _shape),
    ColumnDef("source_type", None, "An input row's producer type (Const, Data, ...: such inputs are skipped)."),
    ColumnDef("message", None, "What went wrong with the row, when something did."),
    ColumnDef("fused_file", None, "The fused tensor's dump file.", width=WIDE),
    ColumnDef("origin_file", None, "The origin tensor's dump file.", width=WIDE),
)
_BY_KEY = {column.key: column for column in COLUMNS}
# The GUI table's model order (its indexes, clipboard copy; the default visual order is set in the UI). New
# columns go at the end: the saved layouts name columns by key, so any order works for them.
GUI_ORDER = ("kind", "fused_op", "fused_index", "origin_op", "origin_index", "cosine", "max_abs_err",
             "max_rel_err", "status", "verdict", "rank", "step", "occurrence", *EXTRA_METRICS, "fused_dtype",
             "origin_dtype", "fused_shape", "origin_shape", "statistics", "signature")
EXPORT_KEYS = tuple(column.key for column in COLUMNS if column.export)
# The statistics-mode and signature columns of the files (written only when some row has statistics / a signature).
STATS_KEYS = tuple(column.key for column in COLUMNS if column.export and column.present_when is _has_stats)
SIGNATURE_KEYS = tuple(column.key for column in COLUMNS if column.present_when is _has_signature)


def by_key(key: str) -> ColumnDef:
    """The column named `key` (KeyError for an unknown one)."""
    return _BY_KEY[key]


def gui_columns() -> tuple[ColumnDef, ...]:
    """The columns of the GUI table, in its model order."""
    return tuple(_BY_KEY[key] for key in GUI_ORDER)


def export_columns() -> tuple[ColumnDef, ...]:
    """The CSV/xlsx/DataFrame columns, in file order."""
    return tuple(column for column in COLUMNS if column.export)


def shown_keys(columns: Sequence[ColumnDef], rows: Sequence[PrecisionRow]) -> tuple[str, ...]:
    """Keys of `columns` without those whose `present_when` no row satisfies."""
    return tuple(column.key for column in columns
                 if column.present_when is None or any(column.present_when(row) for row in rows))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_table() -> str:
    """The docs' table of every column (docs/nwa.md shows it between its `columns` markers)."""
    lines = ["| column | GUI header | CSV/xlsx | meaning |", "|---|---|---|---|"]
    for column in COLUMNS:
        header = column.header or "—"
        where = "yes" if column.export and column.present_when is None else "when present" if column.export else "—"
        lines.append(f"| `{column.key}` | {_cell(header)} | {where} | {_cell(column.tooltip)} |")
    return "\n".join(lines) + "\n"
