"""The xlsx sheet joined with the GIL released and deflated ahead on two threads writes the same members (issue 29)."""

from __future__ import annotations

import io
import math
import threading
import time
import zipfile
import zlib
from types import SimpleNamespace
from typing import IO, Any

import msgspec
import pytest

from autofuse_studio.core.reports import pipelined_write, row_join, xlsx_stream
from autofuse_studio.core.reports.row_join import ROW, Numbers, join_rows
from autofuse_studio.core.reports.xlsx_stream import Workbook, column_cells, column_letter
from tests.core.test_row_join import HOSTILE_TEXTS, _floats

NATIVE = pytest.importorskip("autofuse_studio.core.reports._rowjoin", reason="the C row joiner is not built")

MIXED: list[Any] = [*_floats(3000), 0, -5, 2**63 - 1, -(2**63), 2**70, -(2**70), None, math.nan, math.inf, -math.inf,
                    "", "a", "é", "x\U0001f600", ("<w" + ROW + ">",), (ROW * 3,), ("",), *HOSTILE_TEXTS]
TEMPLATE_SETS = [("", "", ""), ("<c r=\"A" + ROW + "\"><v>", "</v></c>", ""),
                 (ROW + "<" + ROW + ROW, ROW, ROW + "e" + ROW)]  # no mark, one, several


@pytest.mark.parametrize("templates", TEMPLATE_SETS)
@pytest.mark.parametrize(("start", "stop", "first"), [(0, len(MIXED), 1), (5, 40, 99_999), (3, 3, 1), (0, 1, -3)])
def test_the_released_join_writes_join_rows_bytes(templates: tuple[str, str, str], start: int, stop: int,
                                                  first: int) -> None:
    before, after, empty = templates
    numbers = msgspec.json.encode([*_floats(len(MIXED) - 1), None][start:stop])  # a chunk's numbers, as _encoded
    columns = [(MIXED, before, after, empty), (MIXED, "<t>", "</t>", "", before, after),
               (numbers, before, after, empty)]
    args = (columns, start, stop, "<row r=\"" + ROW + "\">", "</row>" + ROW, ROW + ",", first)
    assert NATIVE.join_rows_released(*args) == NATIVE.join_rows(*args)


@pytest.mark.parametrize("columns", [
    [(["ok", "bad\ud800"], "", "", "")],  # a lone surrogate
    [(["a", b"bytes"], "", "", "")], [(["a", ("two", "parts")], "", "", "")], [(["a", 1.5j], "", "", "")],
    [(["a"], "", "", "")],  # shorter than stop
    [(msgspec.json.encode([1, 2, 3]), "", "", "")], [(b"[1]", "", "", "")], [(b"[1,]", "", "", "")],
    [(["a"], "", "")],  # not a column
])
def test_the_released_join_refuses_what_join_rows_refuses(columns: list[Any]) -> None:
    errors = []
    for join in (NATIVE.join_rows, NATIVE.join_rows_released, _into):
        with pytest.raises(Exception) as caught:
            join(columns, 0, 2, "", "\n", "", 1)
        errors.append((caught.type, str(caught.value)))
    assert errors[0] == errors[1] == errors[2]


def _into(*args: Any) -> Any:
    """join_rows_released into a buffer."""
    return NATIVE.join_rows_released(*args, bytearray())


def test_a_chunk_joined_into_a_buffer_replaces_a_lone_surrogate_as_the_bytes_do() -> None:
    columns = [(["ok", "bad\ud800", "融合"], "<t>", "</t>", "")]
    expected = xlsx_stream._column_rows(columns, 0, 3, 7)
    into = bytearray()
    assert b"bad?" in expected and bytes(xlsx_stream._column_rows_into(columns, 0, 3, 7, into)) == expected
    assert bytes(xlsx_stream._column_rows_into(columns, 0, 1, 7, into)) == xlsx_stream._column_rows(columns, 0, 1, 7)


def test_released_is_the_same_bytes_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [text for text in HOSTILE_TEXTS if ROW not in text]  # xlsx escapes control characters: no ROW in a text
    columns = [(Numbers(_floats(500)), "<n" + ROW + ">", "</n>", ""), (texts * 30, "<t>", "</t>", "-")]
    native = join_rows(columns, 0, 400, "[", "]", ",", 3, "replace", released=True)
    monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    assert join_rows(columns, 0, 400, "[", "]", ",", 3, "replace", released=True) == native


def _book(rows: int) -> tuple[Workbook, xlsx_stream.Sheet]:
    book = Workbook()
    sheet = book.sheet("big", ("text", "number", "mixed"))
    texts = [HOSTILE_TEXTS[at % len(HOSTILE_TEXTS)] for at in range(rows)]
    floats = _floats(rows)
    columns: list[list[Any]] = [texts, floats, [*MIXED[:rows], *floats][:rows]]
    for number, column in enumerate(columns, start=1):
        sheet.columns.append(column_cells(column, column_letter(number)))
    sheet.freeze_header = sheet.autofilter = True
    book.sheet("small").add_row(["label", 1.5, "=formula"])
    return book, sheet


def _members(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None  # CRCs and sizes check out
        return [(info.filename, archive.read(info)) for info in archive.infolist()]


@pytest.mark.parametrize("rows", [0, 1, 20_000])  # 20,000 rows: five chunks of ROWS_PER_CHUNK
def test_a_sheet_deflated_ahead_is_the_sheet_written_in_place(rows: int) -> None:
    ahead, sheet = _book(rows)
    ahead.deflate_ahead(sheet)
    ahead.sheet("after").add_row(["added later", 2])
    in_place, _ = _book(rows)
    in_place.sheet("after").add_row(["added later", 2])
    written = []
    for book in (ahead, in_place):
        handle = io.BytesIO()
        book.save(handle)
        written.append(_members(handle.getvalue()))
    assert written[0] == written[1]
    assert written[0][5][0] == "xl/worksheets/sheet1.xml"
    assert written[0][5][1].count(b"<row ") == rows + 1


@pytest.mark.parametrize("sections", [1, 2, 3, 7])
def test_a_sheet_deflated_in_sections_is_one_valid_part(sections: int, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("isal.isal_zlib", reason="python-isal is not installed")
    rows = 6 * xlsx_stream.ROWS_PER_CHUNK + 17  # seven chunks: shared out unevenly
    in_place, _ = _book(rows)
    handle = io.BytesIO()
    in_place.save(handle)
    expected = _members(handle.getvalue())
    monkeypatch.setattr(xlsx_stream, "SECTIONS", sections)
    ahead, sheet = _book(rows)
    ahead.deflate_ahead(sheet)
    handle = io.BytesIO()
    ahead.save(handle)
    assert _members(handle.getvalue()) == expected  # testzip: the joined CRC and size check out


def test_sections_without_isal_are_one_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = 3 * xlsx_stream.ROWS_PER_CHUNK + 1
    _, sheet = _book(rows)
    expected = b"".join(chunk if isinstance(chunk, bytes) else chunk.encode()
                        for chunk in xlsx_stream._sheet_xml(sheet, True, []))
    monkeypatch.setattr(xlsx_stream, "_ISAL", None)
    ahead = xlsx_stream._DeflatedAhead(xlsx_stream._sheet_sections(sheet, True, [], 3))
    plain = io.BytesIO()
    ahead.write_into(plain)  # no zipfile counters: the part inflated again and written through
    assert plain.getvalue() == expected


def test_sections_share_the_chunks_in_order() -> None:
    _, sheet = _book(5 * xlsx_stream.ROWS_PER_CHUNK)
    whole = list(xlsx_stream._sheet_xml(sheet, True, []))
    for count in (1, 2, 4, 5, 9):
        sections = xlsx_stream._sheet_sections(sheet, True, [], count)
        assert len(sections) == min(count, 5)
        assert [chunk for section in sections for chunk in section] == whole


def test_a_spelling_error_ahead_is_raised_by_save() -> None:
    book, sheet = _book(9000)
    sheet.columns.append(([*["ok"] * 8999, {"not": "a cell"}], "<t>", "</t>", ""))
    book.deflate_ahead(sheet)
    with pytest.raises(TypeError, match="a cell must be"):
        book.save(io.BytesIO())


def test_columns_filled_ahead_are_the_columns_filled_first() -> None:
    rows = 3 * xlsx_stream.ROWS_PER_CHUNK + 5
    filled_first, sheet = _book(rows)
    filled_first.deflate_ahead(sheet)
    ahead, empty = _book(rows)
    kept, empty.columns = empty.columns, []  # built by fill() on the spelling side instead
    ahead.deflate_ahead(empty, lambda: empty.columns.extend(kept))
    written = []
    for book in (filled_first, ahead):
        handle = io.BytesIO()
        book.save(handle)
        written.append(_members(handle.getvalue()))
    assert written[0] == written[1]


def test_a_fill_error_ahead_is_raised_by_save() -> None:
    book, sheet = _book(10)

    def broken() -> None:
        raise ValueError("a column could not be read")

    book.deflate_ahead(sheet, broken)
    with pytest.raises(ValueError, match="could not be read"):
        book.save(io.BytesIO())


def test_without_zipfiles_counters_the_part_is_written_through() -> None:
    chunks: list[str | bytes] = [b"<a>" * 50_000, "<b>\u00e9</b>", b""]
    ahead = xlsx_stream._DeflatedAhead([iter(chunks)])
    plain = io.BytesIO()
    ahead.write_into(plain)  # a file object: no zipfile counters, the inflated bytes go through write()
    assert plain.getvalue() == b"<a>" * 50_000 + "<b>\u00e9</b>".encode()


@pytest.mark.parametrize("sizes", [[1] * 12, [3, 7, 2], [10], [11, 5], [25]])
def test_the_gzip_header_is_cut_however_the_stream_is_chunked(sizes: list[int]) -> None:
    packer = zlib.compressobj(1, zlib.DEFLATED, xlsx_stream.GZIP_WINDOW)
    stream = packer.compress(b"sheet " * 1000) + packer.flush()
    chunks, at = [], 0
    for size in sizes:
        chunks.append(stream[at:at + size])
        at += size
    chunks.append(stream[at:-8])
    assert b"".join(xlsx_stream._without_gzip_header(chunks)) == stream[10:-8]
    with pytest.raises(ValueError, match="gzip header"):
        xlsx_stream._without_gzip_header([stream[:3] + b"\x08" + stream[4:]])  # a file name follows the header


def test_a_deflate_error_is_raised_and_nothing_hangs(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def compress(self, data: bytes) -> bytes:
            raise OSError("deflate failed")

        def flush(self) -> bytes:
            return b""

    monkeypatch.setattr(xlsx_stream, "_ISAL", None)
    monkeypatch.setattr(xlsx_stream, "zlib", SimpleNamespace(compressobj=lambda *args: Broken(), DEFLATED=8))
    ahead = xlsx_stream._DeflatedAhead([iter([b"<a/>"] * 50)])  # more chunks than the queue holds
    with pytest.raises(OSError, match="deflate failed"):
        ahead.write_into(io.BytesIO())


def _streamed(rows: int, block: int, into: IO[bytes] | None = None) -> Workbook:
    """_book's workbook with its big sheet's columns put `block` rows at a time (Workbook.deflate_streamed; `into`:
    the file its part is written into as it is deflated)."""
    book, sheet = _book(rows)
    whole, sheet.columns = sheet.columns, []
    blocks = book.deflate_streamed(sheet, rows, into)
    for start in range(0, rows, block):
        part = [(_rows(column[0], start, start + block), *column[1:]) for column in whole]
        blocks.put(lambda made=part: made)
    blocks.close()
    return book


def _rows(values: Any, start: int, stop: int) -> Any:
    return Numbers(values.values[start:stop]) if isinstance(values, Numbers) else values[start:stop]


@pytest.mark.parametrize(("rows", "block"), [(0, 5), (1, 1), (2 * xlsx_stream.ROWS_PER_CHUNK + 3, 777),
                                             (3 * xlsx_stream.ROWS_PER_CHUNK, 3 * xlsx_stream.ROWS_PER_CHUNK + 1)])
def test_a_sheet_streamed_in_blocks_is_the_sheet_written_whole(rows: int, block: int) -> None:
    # Blocks of any size, numbered on from the block before: the same part, head (its size) to tail.
    in_place, _ = _book(rows)
    written = []
    for book in (_streamed(rows, block), in_place):
        handle = io.BytesIO()
        book.save(handle)
        written.append(_members(handle.getvalue()))
    assert written[0] == written[1]


def test_a_sheet_streamed_into_the_file_is_its_first_member_on_the_disk_before_save(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Its deflated bytes are written (and synced, every STREAMED_SYNC_BYTES) as they come: the final fsync waits for
    # the last stretch only. The zip holds the same members as the workbook written whole, the streamed one first.
    synced: list[int] = []
    monkeypatch.setattr(xlsx_stream, "STREAMED_SYNC_BYTES", 1 << 10)
    monkeypatch.setattr(pipelined_write, "_datasync", synced.append)
    rows = 3 * xlsx_stream.ROWS_PER_CHUNK + 5
    in_place, _ = _book(rows)
    whole = io.BytesIO()
    in_place.save(whole)
    with open(tmp_path / "streamed.xlsx", "wb") as handle:
        book = _streamed(rows, 1000, handle)
        deadline = time.monotonic() + 30
        while not synced and time.monotonic() < deadline:
            time.sleep(0.01)
        assert synced, "nothing reached the disk before save"
        book.save(handle)
    streamed = _members((tmp_path / "streamed.xlsx").read_bytes())
    assert streamed[0][0] == "xl/worksheets/sheet1.xml"
    assert sorted(streamed) == sorted(_members(whole.getvalue()))


class _FillingUp(io.BytesIO):
    """A file that takes `room` bytes, then fails as a full disk does."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, data: Any) -> int:
        if self.tell() + len(data) > self.room:
            raise OSError(28, "No space left on device")
        return super().write(data)


def test_a_write_error_of_a_streamed_sheet_is_raised_by_save_and_no_thread_is_left() -> None:
    rows = 4 * xlsx_stream.ROWS_PER_CHUNK
    book = _streamed(rows, 999, _FillingUp(20_000))
    with pytest.raises(OSError, match="No space left"):
        book.save(book._archive.fp)  # type: ignore[union-attr]  # the handle it writes into
    _no_xlsx_threads()


def test_an_abandoned_streamed_sheet_leaves_no_thread_and_an_unwritten_file(tmp_path: Any) -> None:
    with open(tmp_path / "dropped.xlsx", "wb") as handle:
        book, sheet = _book(0)
        blocks = book.deflate_streamed(sheet, 10 * xlsx_stream.ROWS_PER_CHUNK, handle)
        column = column_cells(["text"] * xlsx_stream.ROWS_PER_CHUNK, "A")
        for _ in range(3):
            blocks.put(lambda: [column])
        blocks.close()  # fewer rows than announced: the caller gave up
        book.abandon()
    _no_xlsx_threads()


def _no_xlsx_threads() -> None:
    for thread in threading.enumerate():
        if thread.name.startswith(("xlsx-", "autofuse-part-")):
            thread.join(timeout=10)
            assert not thread.is_alive()


def _streaming(announced: int) -> tuple[Workbook, xlsx_stream.ColumnBlocks, list[Any]]:
    """_book(10)'s workbook with its big sheet streamed (`announced` rows), and the sheet's 10 rows of columns."""
    book, sheet = _book(10)
    whole, sheet.columns = sheet.columns, []
    return book, book.deflate_streamed(sheet, announced), whole


def test_a_streamed_sheet_of_another_size_than_announced_is_refused() -> None:
    book, blocks, whole = _streaming(11)
    blocks.put(lambda: whole)
    blocks.close()
    with pytest.raises(ValueError, match="another count of rows"):
        book.save(io.BytesIO())


def test_a_streamed_sheet_spelling_error_stops_taking_blocks_and_is_raised_by_save() -> None:
    # The spelling thread fails on the first block: the caller's later puts are dropped, not waited on forever.
    book, blocks, whole = _streaming(10 * (xlsx_stream.QUEUE_BLOCKS + 3))
    blocks.put(lambda: [([{"not": "a cell"}] * 10, "", "", "")])
    for _ in range(xlsx_stream.QUEUE_BLOCKS + 2):
        blocks.put(lambda: whole)
    blocks.close()
    with pytest.raises(TypeError, match="a cell must be"):
        book.save(io.BytesIO())


def test_a_block_maker_error_is_raised_by_save() -> None:
    book, blocks, _ = _streaming(10)

    def broken() -> list[Any]:
        raise ValueError("a block could not be made")

    blocks.put(broken)
    blocks.close()
    with pytest.raises(ValueError, match="could not be made"):
        book.save(io.BytesIO())


def test_a_precision_xlsx_that_fails_while_streaming_leaves_no_file_and_no_thread(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from autofuse_studio.core.reports import precision_files
    from tests.synth.result_rows import synthetic_result

    result = synthetic_result(5 * precision_files.XLSX_BLOCK_ROWS)
    read = precision_files.column_values
    calls = []

    def failing(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("the third block could not be read")
        return read(*args)

    monkeypatch.setattr(precision_files, "column_values", failing)
    target = tmp_path / "result.xlsx"
    with pytest.raises(RuntimeError, match="third block"):
        precision_files.write_precision(result, target)
    assert not target.exists() and list(tmp_path.iterdir()) == []
    for thread in threading.enumerate():
        if thread.name.startswith("xlsx-"):
            thread.join(timeout=10)
            assert not thread.is_alive()  # the spelling and deflate threads ended with the closed blocks


@pytest.mark.parametrize(("start", "stop"), [(0, 9), (1, 3), (4, 9)])
def test_a_float_column_with_minus_inf_in_two_parts_writes_the_one_columns_cells(start: int, stop: int) -> None:
    # Its numbers (and "nan", "inf") for msgspec, its quoted "-inf" cells apart: the same cells, in the same places.
    values = [1.5, -math.inf, None, math.nan, math.inf, -0.0, 1e-300, -math.inf, 7]
    one = xlsx_stream.column_cells(values, "C")
    parts = xlsx_stream.column_cell_parts(values, "C")
    assert len(parts) == 2 and isinstance(parts[0][0], Numbers)
    row = (f'<row r="{ROW}">', "</row>", "")
    assert join_rows(parts, start, stop, *row, 5, released=True) == join_rows([one], start, stop, *row, 5)
    finite = [value for value in values if value is None or math.isfinite(value)]
    assert xlsx_stream.column_cell_parts(finite, "C") == [xlsx_stream.column_cells(finite, "C")]
