"""Write a precision result as JSON, CSV or xlsx (atomically; the format follows the file suffix)."""

from __future__ import annotations

import codecs
import csv
import functools
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.gc_pause import gc_paused
from autofuse_studio.core.precision.columns import (
    EXPORT_KEYS,
    SIGNATURE_KEYS,
    STATS_KEYS,
    by_key,
    export_columns,
    shown_keys,
)
from autofuse_studio.core.precision.overview import Overview, build_overview
from autofuse_studio.core.precision.palette import VERDICT_COLOURS
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.stats import StatsThresholds
from autofuse_studio.core.reports.atomic import atomic_open
from autofuse_studio.core.reports.json_spelling import METRIC_KEYS
from autofuse_studio.core.reports.pipelined_write import pipelined_writes
from autofuse_studio.core.reports.precision_csv import (
    Unlike,
    column_values,
    csv_chunk_makers,
    csv_chunks,
    csv_header,
)
from autofuse_studio.core.reports.precision_json import write_result_json
from autofuse_studio.core.reports.row_join import Column
from autofuse_studio.core.reports.signature_lines import signature_records
from autofuse_studio.core.reports.stats_cells import stats_cell_columns
from autofuse_studio.core.reports.stats_cells import stats_cells as stats_cells  # the API's records read it here
from autofuse_studio.core.reports.table_facts import FACT_KEYS, TableFacts, table_facts
from autofuse_studio.core.reports.xlsx_cells import csv_cell, integer_cell
from autofuse_studio.core.reports.xlsx_stream import (
    ROWS_PER_CHUNK,
    ConditionalFill,
    Sheet,
    Workbook,
    column_cell_parts,
    column_cells,
    column_letter,
    text_surveys,
)

# Columns of the tabular exports, in order, with the statistics-mode columns (stat_*, empty for tensor rows: the
# JSON rows carry the whole comparison as `statistics`) and the signature's code and sentence (the JSON rows
# carry the whole signature): all defined in core.precision.columns.
TABLE_COLUMNS = EXPORT_KEYS
STATS_COLUMNS = STATS_KEYS
SIGNATURE_COLUMNS = SIGNATURE_KEYS
SUFFIXES = (".json", ".csv", ".xlsx")
_TEXT_CHUNK = 1 << 22  # characters encoded at a time by the csv.writer fallback


def _cell(value: Any) -> Any:
    if isinstance(value, list):
        return "x".join(str(dim) for dim in value)
    return value


def table_columns(result: PrecisionResult) -> tuple[str, ...]:
    """TABLE_COLUMNS without 'rank' / 'occurrence' / the statistics / the signature columns when no row has one.

    Single-device tensor runs keep the files they always had.
    """
    return shown_keys(export_columns(), result.rows)


def signature_cells(row: PrecisionRow) -> dict[str, Any]:
    """The SIGNATURE_COLUMNS values of a row: its signature's code and sentence, None when it has none."""
    found = row.signature
    return {"signature": None if found is None else found.code,
            "signature_sentence": None if found is None else found.sentence}


def stats_columns(result: PrecisionResult) -> dict[str, list[Any]]:
    """The STATS_COLUMNS of every row, by key (None in tensor rows' cells)."""
    return rows_stats_columns(result.rows, result.thresholds.stats)


def rows_stats_columns(rows: Sequence[PrecisionRow], thresholds: StatsThresholds) -> dict[str, list[Any]]:
    """The STATS_COLUMNS of `rows` under `thresholds`, by key (stats_cells' values, column by column)."""
    return stats_cell_columns([row.stats for row in rows], thresholds)


def table_records(result: PrecisionResult, columns: tuple[str, ...] | None = None) -> list[list[Any]]:
    """Every row as a list of cell values in `columns` order (default table_columns()); None for empty cells."""
    columns = table_columns(result) if columns is None else columns
    with_stats = any(name in STATS_COLUMNS for name in columns)
    records = []
    for row in result.rows:
        row_dict = row.to_dict()
        if with_stats:
            row_dict.update(stats_cells(row, result.thresholds.stats))
        row_dict.update(signature_cells(row))
        records.append([_cell(row_dict.get(name)) for name in columns])
    return records


def write_json(result: PrecisionResult, path: Path) -> None:
    """The documented JSON document (NaN as null), UTF-8, keys in a stable order."""
    # msgspec-encoded, byte for byte what json.dumps(indent=2) wrote (see precision_json).
    with atomic_open(path, "wb") as handle:
        write_result_json(result, handle)


def write_csv(result: PrecisionResult, path: Path) -> None:
    """One header line and one line per row, UTF-8 with BOM so Excel opens Chinese names correctly.

    Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR ...) starts with a `'`.
    """
    columns = table_columns(result)
    with_stats = any(name in STATS_COLUMNS for name in columns)
    with gc_paused(), atomic_open(path, "wb") as handle:  # gc: millions of cell strings, none in a cycle
        handle.write(codecs.BOM_UTF8)
        if result.rows and handle.seekable():
            try:  # a block's columns are read while threads join and write the lines before them
                handle.write(csv_header(columns))
                with pipelined_writes(handle) as writer:
                    stats_of = functools.partial(rows_stats_columns, thresholds=result.thresholds.stats)
                    for make in csv_chunk_makers(result.rows, columns, stats_of if with_stats else None):
                        writer.put(make)
                return
            except Unlike:  # a value the column-wise writer does not spell, found late: csv.writer writes it all
                handle.seek(len(codecs.BOM_UTF8))
                handle.truncate()
        for chunk in _sequential_csv_chunks(result, columns, with_stats):
            handle.write(chunk)  # each chunk written, and freed, as it is joined


def _sequential_csv_chunks(result: PrecisionResult, columns: tuple[str, ...], with_stats: bool) -> Iterable[bytes]:
    """write_csv's lines on this thread (for a pipe: every column is checked before the first line is written)."""
    try:
        return csv_chunks(result.rows, columns, stats_columns(result) if with_stats else None)
    except Unlike:  # a value of a type the column-wise writer does not spell: csv.writer does, as it always did
        # Encoded a chunk at a time: 40 MB at once would hold the GIL for ~40 ms.
        text = _csv_writer_lines(result, columns)
        return [text[start:start + _TEXT_CHUNK].encode("utf-8") for start in range(0, len(text), _TEXT_CHUNK)]


def _csv_writer_lines(result: PrecisionResult, columns: tuple[str, ...]) -> str:
    """write_csv's text through csv.writer over table_records() (the reference csv_lines matches)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for record in table_records(result, columns):
        # Names from graphs and dumps (`=HYPERLINK(...)`) are text, never a live formula: see csv_cell.
        writer.writerow(["" if value is None else csv_cell(value) for value in record])
    return buffer.getvalue()


def summary_records(result: PrecisionResult, facts: TableFacts | None = None) -> list[tuple[str, Any]]:
    """The (label, value) lines of the summary sheet (`facts`: the counts already worked out)."""
    statuses = result.counts("status") if facts is None else facts.status_counts
    verdicts = result.counts("verdict") if facts is None else facts.verdict_counts
    records: list[tuple[str, Any]] = [("rows", len(result.rows))]
    records += [(f"status {name}", count) for name, count in statuses.items()]
    records += [(f"verdict {name}", count) for name, count in verdicts.items()]
    first = result.first_divergence
    records.append(("first divergence", "none" if first is None else
                    f"{first.fused_op} {first.kind} {first.fused_index}"))
    if first is not None:
        records += [("first divergence origin", f"{first.origin_op} output {first.origin_index}"),
                    ("first divergence step", first.step)]
        if first.rank is not None:
            records.append(("first divergence rank", first.rank))
    for rank, row in result.first_divergence_by_rank.items():
        records.append((f"rank {rank} first divergence",
                        "none" if row is None else f"{row.fused_op} {row.kind} {row.fused_index} step {row.step}"))
    records.append(("cosine threshold", result.thresholds.default.cosine))
    return records


def write_xlsx(result: PrecisionResult, path: Path, language: str = "en") -> None:
    """Sheets 'precision' (frozen header, autofilter, verdict colours), 'summary' (its culprits' signature
    sentences in `language`) and 'ranks' (the rank × step overview)."""
    # Millions of cell strings and 44 full-length lists, none in a cycle: paused until they are freed (a
    # collection while they were young walked them all, ~0.1 s).
    with gc_paused():
        _write_xlsx(result, path, language)


def _write_xlsx(result: PrecisionResult, path: Path, language: str) -> None:
    book = Workbook()
    columns = table_columns(result)
    precision = book.sheet("precision", columns)
    _precision_settings(precision, columns, len(result.rows))
    with atomic_open(path, "wb") as handle:
        try:
            _build_and_save(book, precision, result, columns, language, handle)
        except BaseException:
            book.abandon()  # its threads end before the file is dropped
            raise


def _build_and_save(book: Workbook, precision: Sheet, result: PrecisionResult, columns: tuple[str, ...],
                    language: str, handle: IO[bytes]) -> None:
    """The precision sheet (streamed into `handle` as it is read, when it can be), the summary and ranks sheets, saved
    into `handle`."""
    if result.rows and _bulk_columns(columns):
        values = _streamed_precision(book, precision, result, columns, handle)
    else:
        values = _column_values(result, columns)
        # Its columns surveyed (without the GIL), spelled and deflated on other threads while the other sheets are
        # built.
        book.deflate_ahead(precision, lambda: _precision_columns(precision, values))
    # The summary and ranks sheets from the columns just read: no more passes over every row object.
    facts = table_facts(result, values)
    summary = book.sheet("summary")
    numbered = ("first divergence rank", "first divergence step")
    summary.add_rows([(label, integer_cell(value) if label in numbered else value)
                      for label, value in summary_records(result, facts)] +
                     signature_records(result, language, facts.culprits))
    summary.widths = {1: 28, 2: 60}
    book.deflate_ahead(summary)  # thousands of culprit sentences in a big run: spelled while the precision sheet is
    # (the main thread would wait for it anyway)
    ranks = book.sheet("ranks", RANK_COLUMNS)
    verdict_column = RANK_COLUMNS.index("worst verdict")
    for record in rank_records(result, facts.overview):
        fill = book.fill_style(VERDICT_COLOURS[record[verdict_column]])
        ranks.add_row([integer_cell(value) if position < 2 else value for position, value in enumerate(record)],
                      {verdict_column: fill})
    ranks.freeze_header, ranks.widths = True, {9: 48}
    book.deflate_ahead(ranks)
    book.save(handle)


XLSX_BLOCK_ROWS = 2 * ROWS_PER_CHUNK  # rows read at a time into a streamed precision sheet


def _bulk_columns(columns: tuple[str, ...]) -> bool:
    """True when column_values knows every column (else the records are read as the table shows them)."""
    try:
        column_values([], columns, {key: [] for key in STATS_COLUMNS})
    except Unlike:
        return False
    return True


def _streamed_precision(book: Workbook, sheet: Sheet, result: PrecisionResult, columns: tuple[str, ...],
                        into: IO[bytes]) -> dict[str, Sequence[Any]]:
    """The precision sheet's rows read XLSX_BLOCK_ROWS at a time and each block's cells made here, spelled (the C
    join, the GIL released) and deflated on other threads while the next block is read (the first bytes are
    deflated as soon as the first block is read, not after every row is; the spelling thread is the busiest); the
    values of the columns table_facts reads, whole, by key (the other sheets' facts: every column kept whole cost
    ~0.14 s of 100k rows, most of it touching each value's object twice). The sheet is the zip's first member,
    written into `into` as it is deflated."""
    with_stats = any(name in STATS_COLUMNS for name in columns)
    found: dict[str, list[Any]] = {key: [] for key in FACT_KEYS if key in columns}
    blocks = book.deflate_streamed(sheet, len(result.rows), into)
    try:
        for start in range(0, len(result.rows), XLSX_BLOCK_ROWS):
            rows = result.rows[start:start + XLSX_BLOCK_ROWS]
            values = column_values(rows, columns, rows_stats_columns(rows, result.thresholds.stats)
                                   if with_stats else None)
            block = {key: values[key] for key in columns}
            # The cells made here (this thread has time to spare), joined and deflated by the workers.
            blocks.put(functools.partial(list, _precision_cells(block, streamed=True)))
            for key, column in found.items():
                column += block[key]
    finally:
        blocks.close()
    return dict(found)


def _precision_columns(sheet: Sheet, by_column: dict[str, Sequence[Any]]) -> None:
    """The table's cells column by column (table_records' values, by key)."""
    sheet.columns.extend(_precision_cells(by_column))


def _precision_cells(by_column: dict[str, Sequence[Any]], streamed: bool = False) -> list[Column]:
    """The table's cells (or a block's) column by column, from table_records' values by key (`streamed`: for a
    streamed sheet, a column may come as two: column_cell_parts)."""
    with gc_paused():
        listed = {}
        for key, values in by_column.items():
            if by_key(key).folder_number:  # plain integer folder numbers as numbers; other names stay text
                spelled = {value: integer_cell(value) for value in set(values)}  # a few distinct folder names
                values = list(map(spelled.__getitem__, values))
            listed[key] = values
        surveys = text_surveys(list(listed.values()))  # every column's at once, without the GIL
        made = column_cell_parts if streamed else lambda *given: [column_cells(*given)]
        return [column for number, ((key, values), survey) in enumerate(zip(listed.items(), surveys, strict=True),
                                                                          start=1)
                for column in made(values, column_letter(number), key in METRIC_KEYS, survey)]


def _precision_settings(sheet: Sheet, columns: tuple[str, ...], rows: int) -> None:
    """The table's frozen header, autofilter, widths and verdict colours (its `rows` not added yet)."""
    sheet.freeze_header = sheet.autofilter = True
    last = f"{column_letter(max(1, len(columns)))}{max(2, rows + 1)}"  # Sheet.last_cell() once the rows are in
    verdict_column = column_letter(columns.index("verdict") + 1)
    sheet.conditional = [ConditionalFill(f"A2:{last}", f'${verdict_column}2="{verdict}"', colour)
                         for verdict, colour in VERDICT_COLOURS.items()]
    sheet.widths = {number: by_key(name).width for number, name in enumerate(columns, start=1)}


def _column_values(result: PrecisionResult, columns: tuple[str, ...]) -> dict[str, Sequence[Any]]:
    """Each column's values in `columns` order (none for no rows): in bulk, else through table_records()."""
    if not result.rows:
        return {}
    stats = stats_columns(result) if any(name in STATS_COLUMNS for name in columns) else None
    try:
        found = column_values(result.rows, columns, stats)
        return {key: found[key] for key in columns}
    except Unlike:  # a column the bulk path does not know: the records as the table shows them
        return dict(zip(columns, map(list, zip(*table_records(result, columns), strict=True)), strict=True))


RANK_COLUMNS = ("rank", "step", "rows", "culprits", "propagated", "ok", "unknown", "worst verdict",
                "first divergence", "min cosine")


def rank_records(result: PrecisionResult, overview: Overview | None = None) -> list[list[Any]]:
    """One record per (rank, step) in RANK_COLUMNS order: counts, worst verdict, first divergence, min cosine
    (`overview`: the result's, already built)."""
    overview = build_overview(result.rows) if overview is None else overview
    records = []
    for rank in overview.ranks:
        for step in overview.steps:
            cell = overview.cell(rank, step)
            if cell is None:
                continue
            first = cell.first_divergence
            records.append([rank if rank is not None else "", step, cell.rows, cell.culprits,
                            cell.verdicts["PROPAGATED"], cell.verdicts["OK"], cell.verdicts["UNKNOWN"],
                            cell.worst_verdict, "" if first is None else f"{first.fused_op} {first.kind} "
                            f"{first.fused_index}", cell.min_cosine])
    return records


def write_precision(result: PrecisionResult, path: str | Path) -> Path:
    """Write `result` to `path` in the format its suffix names (.json, .csv, .xlsx)."""
    target = Path(path)
    writers = {".json": write_json, ".csv": write_csv, ".xlsx": write_xlsx}
    writer = writers.get(target.suffix.lower())
    if writer is None:
        raise UsageError.of("output_suffix", path=target)
    writer(result, target)
    return target
