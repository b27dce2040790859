"""read_stats_csv: every header variant, empty/NA fields, appended chunks, problem rows and hostile files."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from autofuse_studio.core.dumps import stats_csv
from autofuse_studio.core.dumps.stats_csv import (
    MAX_FIELD_CHARS,
    MAX_FILE_BYTES,
    StatsLoadError,
    TensorStats,
    looks_like_stats_csv,
    read_stats_csv,
)
from autofuse_studio.core.errors import InputError, NpyLoadError

DEFAULT_HEADER = ("Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,"
                  "Nan Count,Negative Inf Count,Positive Inf Count")
# The two rows CANN's own unit tests write (raw-dumps.md §5.3).
CANN_OUTPUT_ROW = "Output,0,640000,DT_FLOAT,NHWC,4x50x50x16,1.99999,1,1.50004,160000,0,0,0"
CANN_INPUT_ROW = "Input,0,268435456,DT_INT64,ND,100x20x40,100,200,10.1,80000,400,500,600"
NAME = "Add.add_1.17.2.1700000000000000.csv"

# Header name of each canonical column in the default spelling.
TITLE = {"kind": "Input/Output", "index": "Index", "data_size": "Data Size", "dtype": "Data Type", "format": "Format",
         "shape": "Shape", "count": "Count", "max": "Max Value", "min": "Min Value", "avg": "Avg Value",
         "l2norm": "l2norm", "nan_count": "Nan Count", "neg_inf_count": "Negative Inf Count",
         "pos_inf_count": "Positive Inf Count"}
# One tensor's values as written in a CSV and as read back.
WRITTEN = {"kind": "Output", "index": "3", "data_size": "96", "dtype": "DT_FLOAT16", "format": "NC1HWC0",
           "shape": "1x1x3x16", "count": "48", "max": "7.5", "min": "-2.25", "avg": "0.125", "l2norm": "12.5",
           "nan_count": "1", "neg_inf_count": "2", "pos_inf_count": "3"}
READ = {"data_size": 96, "dtype": "DT_FLOAT16", "format": "NC1HWC0", "shape": (1, 1, 3, 16), "count": 48,
        "max": 7.5, "min": -2.25, "avg": 0.125, "l2norm": 12.5, "nan_count": 1, "neg_inf_count": 2,
        "pos_inf_count": 3}
BASE = ("kind", "index", "data_size", "dtype", "format", "shape")
CUSTOM_ORDER = ("max", "min", "avg", "nan_count", "neg_inf_count", "pos_inf_count", "l2norm")


def _write(tmp_path: Path, content: str | bytes, name: str = NAME) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_bytes(content.encode("utf-8"))
    else:
        path.write_bytes(content)
    return path


def _csv(columns: tuple[str, ...], titles: dict[str, str] | None = None) -> str:
    titles = titles or TITLE
    header = ",".join(titles[column] for column in columns)
    row = ",".join(WRITTEN[column] for column in columns)
    return f"{header}\n{row}\n"


def _custom(items: tuple[str, ...]) -> tuple[str, ...]:
    return (*BASE, "count", *items)


HEADER_VARIANTS = {
    "default": (*BASE, "max", "min", "avg", "count", "nan_count", "neg_inf_count", "pos_inf_count"),
    "custom-count-only": _custom(()),
    "custom-max": _custom(("max",)),
    "custom-min-l2norm": _custom(("min", "l2norm")),
    "custom-avg-nan": _custom(("avg", "nan_count")),
    "custom-infs": _custom(("neg_inf_count", "pos_inf_count")),
    "custom-all": _custom(CUSTOM_ORDER),
    "custom-values-l2norm": _custom(("max", "min", "avg", "l2norm")),
    "reordered": ("kind", "index", "shape", "count", "dtype", "l2norm", "max", "format", "data_size", "min"),  # Input/Output stays first: detection
}


@pytest.mark.parametrize("columns", HEADER_VARIANTS.values(), ids=HEADER_VARIANTS.keys())
def test_header_variants_read_by_column_name(tmp_path: Path, columns: tuple[str, ...]) -> None:
    dump = read_stats_csv(_write(tmp_path, _csv(columns)))
    (tensor,) = dump.tensors
    assert tensor.key == ("output", 3)
    assert tensor.problem is None
    for name, value in READ.items():
        assert getattr(tensor, name) == (value if name in columns else None), name
    assert dump.columns == tuple(name for name in stats_csv.STAT_ITEMS if name in columns)


SPELLINGS = {
    "L2Norm Value": "l2norm", "L2NORM": "l2norm", "l2_norm": "l2norm", "NaN Count": "nan_count",
    "nan count": "nan_count", "NEGATIVE INF COUNT": "neg_inf_count", " Positive  Inf Count ": "pos_inf_count",
    "max value": "max", "Max": "max", "MIN VALUE": "min", "Avg": "avg", "data_type": "dtype", "DataSize": "data_size",
    "input / output": "kind", "INDEX": "index", "Slot": "index",
}


@pytest.mark.parametrize(("title", "column"), SPELLINGS.items())
def test_header_names_are_case_and_space_tolerant(tmp_path: Path, title: str, column: str) -> None:
    columns = tuple(dict.fromkeys(("kind", "index", "count", column)))
    titles = {**TITLE, column: title}
    (tensor,) = read_stats_csv(_write(tmp_path, _csv(columns, titles))).tensors
    assert tensor.key == ("output", 3)
    if column in READ:
        assert getattr(tensor, column) == READ[column]


def test_cann_rows(tmp_path: Path) -> None:
    dump = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\n{CANN_INPUT_ROW}\n"))
    assert dump.path == str(tmp_path / NAME)
    assert [tensor.key for tensor in dump.tensors] == [("input", 0), ("output", 0)]  # inputs first
    out = dump.tensor("output", 0)
    assert out == TensorStats("output", 0, 640000, "DT_FLOAT", "NHWC", (4, 50, 50, 16), 160000, 1.99999, 1.0,
                              1.50004, None, 0, 0, 0, None, 2)
    inp = dump.tensor("input", 0)
    assert inp is not None and (inp.max, inp.min, inp.nan_count, inp.pos_inf_count) == (100.0, 200.0, 400, 600)
    assert dump.tensor("input", 1) is None
    assert dump.inputs == (inp,) and dump.outputs == (out,)
    assert (dump.duplicates, dump.headers, dump.skipped_lines, dump.notes) == (0, 1, 0, ())
    assert "l2norm" not in dump.columns


@pytest.mark.parametrize("encoding", ["bom", "crlf", "bom+crlf", "cr", "quoted", "blank-lines", "no-final-newline"])
def test_text_variants(tmp_path: Path, encoding: str) -> None:
    header, row = DEFAULT_HEADER, CANN_OUTPUT_ROW
    if encoding == "quoted":
        header = ",".join(f'"{name}"' for name in header.split(","))
        row = ",".join(f'"{value}"' for value in row.split(","))
    text = f"{header}\n{row}\n"
    if encoding == "blank-lines":
        text = f"\n\n{header}\n\n{row}\n\n"
    if encoding == "no-final-newline":
        text = text.rstrip("\n")
    if "crlf" in encoding:
        text = text.replace("\n", "\r\n")
    if encoding == "cr":
        text = text.replace("\n", "\r")
    data = text.encode()
    if "bom" in encoding:
        data = b"\xef\xbb\xbf" + data
    (tensor,) = read_stats_csv(_write(tmp_path, data)).tensors
    assert (tensor.key, tensor.shape, tensor.max, tensor.count, tensor.problem) == (
        ("output", 0), (4, 50, 50, 16), 1.99999, 160000, None)


@pytest.mark.parametrize(("text", "value"), [
    ("inf", float("inf")), ("-inf", float("-inf")), ("+INF", float("inf")), ("Infinity", float("inf")),
    ("1e999", float("inf")), ("-1.5E-3", -1.5e-3), (".5", 0.5), ("5.", 5.0), ("  2.5 ", 2.5), ("0", 0.0),
])
def test_number_spellings(tmp_path: Path, text: str, value: float) -> None:
    (tensor,) = read_stats_csv(_write(tmp_path, f"Input/Output,Index,Count,Avg Value\nInput,0,4,{text}\n")).tensors
    assert tensor.problem is None
    assert tensor.avg == value


def test_nan_value(tmp_path: Path) -> None:
    (tensor,) = read_stats_csv(_write(tmp_path, "Input/Output,Index,Count,Avg Value\nInput,0,4,NaN\n")).tensors
    assert tensor.avg is not None and tensor.avg != tensor.avg and tensor.problem is None


@pytest.mark.parametrize("missing", ["", "NA", "na", "N/A", "-", " NA "])
def test_missing_items_are_none(tmp_path: Path, missing: str) -> None:
    row = f"Output,1,8,DT_FLOAT,ND,{missing},{missing},1,{missing},2,{missing},0,0"
    (tensor,) = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{row}\n")).tensors
    assert tensor.problem is None
    assert (tensor.shape, tensor.max, tensor.min, tensor.avg, tensor.count, tensor.nan_count) == (
        None, None, 1.0, None, 2, None)


@pytest.mark.parametrize("row", [
    "Input,1,,,,,,,,,,,",  # AICPU failure row
    "Input,1,8,DT_STRING,ND,2,NA,NA,NA,NA,NA,NA,NA",  # host path: NA per item
    "Input,1,-,UNKNOW,-,-,,,,,,,",
])
def test_failure_rows_are_kept_with_a_problem(tmp_path: Path, row: str) -> None:
    path = _write(tmp_path, f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\n{row}\n")
    dump = read_stats_csv(path)
    failed = dump.tensor("input", 1)
    assert failed is not None and not failed.usable
    assert failed.problem is not None and str(path) in failed.problem and "line 3" in failed.problem
    assert "no statistics" in failed.problem
    good = dump.tensor("output", 0)
    assert good is not None and good.usable


def test_repeated_headers_and_duplicate_rows(tmp_path: Path) -> None:
    second = CANN_OUTPUT_ROW.replace("1.99999", "2.5")
    text = (f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\nOutput,1,4,DT_FLOAT,ND,1,1,1,1,1,0,0,0\n"
            f"{DEFAULT_HEADER}\n{second}\nInput,0,4,DT_FLOAT,ND,1,3,3,3,1,0,0,0\n")
    dump = read_stats_csv(_write(tmp_path, text))
    assert [tensor.key for tensor in dump.tensors] == [("input", 0), ("output", 0), ("output", 1)]
    last = dump.tensor("output", 0)
    assert last is not None and last.max == 2.5 and last.line == 5  # the last row wins
    assert (dump.headers, dump.duplicates) == (2, 1)


def test_a_broken_later_copy_does_not_hide_a_good_row(tmp_path: Path) -> None:
    dump = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\n{CANN_OUTPUT_ROW[:30]}"))
    tensor = dump.tensor("output", 0)
    assert tensor is not None and tensor.usable and tensor.line == 2
    assert dump.duplicates == 1


def test_a_good_later_copy_replaces_a_broken_row(tmp_path: Path) -> None:
    dump = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW[:30]}\n{CANN_OUTPUT_ROW}\n"))
    tensor = dump.tensor("output", 0)
    assert tensor is not None and tensor.usable and tensor.line == 3


def test_a_later_header_with_other_columns_is_followed(tmp_path: Path) -> None:
    text = (f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\n"
            "Input/Output,Index,Data Size,Data Type,Format,Shape,Count,Max Value,l2norm\n"
            "Input,2,4,DT_FLOAT,ND,1,1,5,5\n")
    dump = read_stats_csv(_write(tmp_path, text))
    tensor = dump.tensor("input", 2)
    assert tensor is not None and (tensor.max, tensor.l2norm, tensor.avg) == (5.0, 5.0, None)
    assert "l2norm" in dump.columns and "avg" in dump.columns


BAD_ROWS = {
    "too-few-fields": ("Output,0,640000,DT_FLOAT,NHWC,4x50x50x16,1.99999", "7 fields, the header has 13"),
    "too-many-fields": (CANN_OUTPUT_ROW + ",5,6", "15 fields, the header has 13"),
    "formula-max": ('Output,0,4,DT_FLOAT,ND,1,"=HYPERLINK(""http://x"",""y"")",1,1,1,0,0,0',
                    "Max Value is '=HYPERLINK"),
    "formula-count": ("Output,0,4,DT_FLOAT,ND,1,1,1,1,=1+1,0,0,0", "Count is '=1+1'"),
    "underscore-number": ("Output,0,4,DT_FLOAT,ND,1,1_000,1,1,1,0,0,0", "Max Value is '1_000', not a number"),
    "hex-number": ("Output,0,4,DT_FLOAT,ND,1,0x10,1,1,1,0,0,0", "not a number"),
    "negative-count": ("Output,0,4,DT_FLOAT,ND,1,1,1,1,-3,0,0,0", "Count is '-3'"),
    "fraction-count": ("Output,0,4,DT_FLOAT,ND,1,1,1,1,2.5,0,0,0", "Count is '2.5'"),
    "huge-count": ("Output,0,4,DT_FLOAT,ND,1,1,1,1,123456789012345678901,0,0,0", "Count is"),
    "bad-shape": ("Output,0,4,DT_FLOAT,ND,4xx5,1,1,1,1,0,0,0", "Shape is '4xx5'"),
    "negative-dim": ("Output,0,4,DT_FLOAT,ND,-1x5,1,1,1,1,0,0,0", "Shape is '-1x5'"),
    "unterminated-quote": ('Output,0,4,DT_FLOAT,ND,1,"1,1,1,1,0,0,0', "not valid CSV"),
    "quote-in-field": ('Output,0,4,DT_FLOAT,ND,1,"1"x,1,1,1,0,0,0', "not valid CSV"),
    "long-field": ("Output,0,4,DT_FLOAT,ND,1," + "7" * (MAX_FIELD_CHARS + 1) + ",1,1,1,0,0,0",
                   f"Max Value is {MAX_FIELD_CHARS + 1} characters long"),
    "long-dtype": ("Output,0,4," + "D" * 5000 + ",ND,1,1,1,1,1,0,0,0", "Data Type is 5000 characters long"),
}


@pytest.mark.parametrize(("row", "message"), BAD_ROWS.values(), ids=BAD_ROWS.keys())
def test_unusable_rows_keep_their_tensor_with_a_problem(tmp_path: Path, row: str, message: str) -> None:
    path = _write(tmp_path, f"{DEFAULT_HEADER}\nInput,0,4,DT_FLOAT,ND,1,1,1,1,1,0,0,0\n{row}\n")
    dump = read_stats_csv(path)
    tensor = dump.tensor("output", 0)
    assert tensor is not None and tensor.problem is not None
    assert message in tensor.problem
    assert tensor.problem.startswith(f"{path} line 3 (output 0): ") and tensor.problem.endswith(".")
    assert len(tensor.problem) < 400  # quotes are bounded
    good = dump.tensor("input", 0)
    assert good is not None and good.usable


def test_a_formula_is_plain_text_where_text_is_expected(tmp_path: Path) -> None:
    row = 'Output,0,4,"=cmd|\' /C calc\'!A0",ND,1,1,1,1,1,0,0,0'
    (tensor,) = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{row}\n")).tensors
    assert tensor.dtype == "=cmd|' /C calc'!A0"
    assert tensor.usable


def test_readable_fields_of_a_bad_row_are_kept(tmp_path: Path) -> None:
    row = "Output,0,4,DT_FLOAT,ND,2x2,oops,1,1,4,0,0,0"
    (tensor,) = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{row}\n")).tensors
    assert (tensor.dtype, tensor.shape, tensor.count, tensor.max, tensor.min) == ("DT_FLOAT", (2, 2), 4, None, 1.0)
    assert not tensor.usable


@pytest.mark.parametrize(("text", "shape"), [
    ("4x50x16", (4, 50, 16)), ("7", (7,)), ("4X5", (4, 5)), ("[2, 3]", (2, 3)), ("(2,3)", (2, 3)), ("()", ()),
    ("-", None), ("NA", None), ("0x4", (0, 4)),
])
def test_shapes(tmp_path: Path, text: str, shape: tuple[int, ...] | None) -> None:
    row = f'Output,0,4,DT_FLOAT,ND,"{text}",1,1,1,1,0,0,0'
    (tensor,) = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{row}\n")).tensors
    assert tensor.shape == shape
    assert tensor.usable


def test_integral_decimal_counts_and_trailing_empty_fields(tmp_path: Path) -> None:
    text = f"{DEFAULT_HEADER},\nOutput,0,4.0,DT_FLOAT,ND,1,1,1,1,12.0,0,0,0,\nOutput,1,4,DT_FLOAT,ND,1,1,1,1,1,0,0,0\n"
    dump = read_stats_csv(_write(tmp_path, text))
    assert [(tensor.data_size, tensor.count, tensor.usable) for tensor in dump.tensors] == [(4, 12, True),
                                                                                           (4, 1, True)]


@pytest.mark.parametrize(("row", "reason"), [
    ("Inside,0,4,DT_FLOAT,ND,1,1,1,1,1,0,0,0", "Input/Output is 'Inside'"),
    ("Output,x,4,DT_FLOAT,ND,1,1,1,1,1,0,0,0", "Index is 'x'"),
    ("Output,-1,4,DT_FLOAT,ND,1,1,1,1,1,0,0,0", "Index is '-1'"),
    ("Output,99999999999999999999,4,DT_FLOAT,ND,1,1,1,1,1,0,0,0", "Index is"),
    ("Outp", "no Input/Output and Index"),
    ("Output", "no Input/Output and Index"),
    ("\x00\x01\x02garbage,0,4", "Input/Output is '\\x00\\x01\\x02garbage'"),
])
def test_rows_naming_no_tensor_become_notes(tmp_path: Path, row: str, reason: str) -> None:
    path = _write(tmp_path, f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\n{row}\n")
    dump = read_stats_csv(path)
    assert [tensor.key for tensor in dump.tensors] == [("output", 0)]
    assert dump.skipped_lines == 1
    (note,) = dump.notes
    assert note.startswith(f"{path} line 3 names no tensor: ") and reason in note


def test_notes_are_capped(tmp_path: Path) -> None:
    rows = "\n".join(f"bogus,{number}" for number in range(stats_csv.MAX_NOTES + 50))
    dump = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{rows}\n"))
    assert dump.skipped_lines == stats_csv.MAX_NOTES + 50
    assert len(dump.notes) == stats_csv.MAX_NOTES


def test_too_many_tensors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats_csv, "MAX_TENSORS", 10)
    rows = "\n".join(f"Input,{index},4,DT_FLOAT,ND,1,1,1,1,1,0,0,0" for index in range(11))
    path = _write(tmp_path, f"{DEFAULT_HEADER}\n{rows}\n")
    with pytest.raises(StatsLoadError, match=r"line 12: .*more than 10 tensors") as caught:
        read_stats_csv(path)
    assert caught.value.line == 12


def test_ten_megabyte_field(tmp_path: Path) -> None:
    big = "9" * (10 << 20)
    text = f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\nInput,4,4,DT_FLOAT,ND,1,{big},1,1,1,0,0,0\n{big},1\n"
    path = _write(tmp_path, text)
    start = time.perf_counter()
    dump = read_stats_csv(path)
    assert time.perf_counter() - start < 5
    tensor = dump.tensor("input", 4)
    assert tensor is not None and tensor.problem is not None
    assert f"{path} line 3 (input 4): the line is {len(text.splitlines()[2])} bytes long" in tensor.problem
    assert dump.skipped_lines == 1 and "line 4 names no tensor" in dump.notes[0]
    assert all(len(note) < 400 for note in dump.notes)
    assert dump.tensor("output", 0) is not None


def test_long_digit_runs_are_scanned_in_linear_time(tmp_path: Path) -> None:
    junk = "9" * (MAX_FIELD_CHARS - 1) + "x"  # a backtracking number pattern takes ~0.25 s per such field
    rows = "\n".join(f"Output,{index},4,DT_FLOAT,ND,1,{junk},{junk},{junk},1,0,0,0,{junk}" for index in range(10))
    text = f"{DEFAULT_HEADER},l2norm\n{rows}\n"
    start = time.perf_counter()
    dump = read_stats_csv(_write(tmp_path, text))
    assert time.perf_counter() - start < 2
    assert len(dump.tensors) == 10 and all("not a number" in (tensor.problem or "") for tensor in dump.tensors)


def test_non_utf8_row(tmp_path: Path) -> None:
    data = f"{DEFAULT_HEADER}\n".encode() + b"Output,0,4,DT_\xff\xfe,ND,1,1,1,1,1,0,0,0\n"
    (tensor,) = read_stats_csv(_write(tmp_path, data)).tensors
    assert tensor.problem is not None and "not UTF-8" in tensor.problem


def test_nul_bytes_in_a_row(tmp_path: Path) -> None:
    (tensor,) = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\nOutput,0,4,DT_FLOAT,ND,1,1\x00,1,1,1,0,0,0\n")
                               ).tensors
    assert tensor.problem is not None and "Max Value is '1\\x00'" in tensor.problem


def test_header_only_is_an_empty_dump(tmp_path: Path) -> None:
    dump = read_stats_csv(_write(tmp_path, DEFAULT_HEADER + "\r\n"))
    assert dump.tensors == () and dump.headers == 1
    assert dump.columns == ("count", "max", "min", "avg", "nan_count", "neg_inf_count", "pos_inf_count")


def _load_error(path: Path) -> StatsLoadError:
    with pytest.raises(StatsLoadError) as caught:
        read_stats_csv(path)
    error = caught.value
    message = str(error)
    assert str(path) in message and message.endswith(".")
    assert len(message) < len(str(path)) + 450  # an escaped quote of at most 80 bytes
    assert error.path == str(path)
    assert isinstance(error, NpyLoadError) and isinstance(error, InputError)
    return error


@pytest.mark.parametrize(("content", "message"), [
    (b"", "is empty (0 bytes)"),
    (b"\n\r\n  \n", "holds only blank lines"),
    (bytes(range(256)) * 64, "is not a CANN statistics CSV"),
    (b"\x93NUMPY\x01\x00v\x00{'descr': '<f4'}", "is not a CANN statistics CSV"),
    (b"PK\x03\x04" + b"\x00" * 100, "is not a CANN statistics CSV"),
    (b"Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size\nAdd,a,1,1,1,input,0,4\n",
     "MindSpore/msprobe statistic.csv"),
    (b"Index,Input/Output,Count\n0,Input,1\n", "is not a CANN statistics CSV"),
    (b"Input/Output,Count,Max Value\nInput,1,2\n", "has no 'Index' column"),
    (b"Input/Output,Index,Max Value,max\nInput,0,1,2\n", "names the column 'Max Value' twice"),
    (b"Input/Output,Index,\"broken\n", "is not CSV text"),
    (b"Input/Output,Index,\xff\xfe\n", "is not CSV text"),
    (b"Input/Output," + b"x" * 100_000 + b"\n", "the header is 100013 bytes long"),
    (b" " * (1 << 20) + b"x", "is not a CANN statistics CSV"),
])
def test_not_a_stats_csv(tmp_path: Path, content: bytes, message: str) -> None:
    path = _write(tmp_path, content)
    start = time.perf_counter()
    error = _load_error(path)
    assert time.perf_counter() - start < 2
    assert message in str(error)


def test_header_error_names_the_line(tmp_path: Path) -> None:
    error = _load_error(_write(tmp_path, "\n\nInput/Output,Count\n"))
    assert error.line == 3 and "line 3" in str(error)


def test_huge_file_is_refused_without_reading(tmp_path: Path) -> None:
    path = _write(tmp_path, f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\n")
    with path.open("r+b") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    start = time.perf_counter()
    error = _load_error(path)
    assert time.perf_counter() - start < 1
    assert "64 MiB" in str(error)


def test_file_at_the_cap_is_read(tmp_path: Path) -> None:
    text = f"{DEFAULT_HEADER}\n{CANN_OUTPUT_ROW}\n"
    path = _write(tmp_path, text)
    with path.open("r+b") as handle:
        handle.truncate(MAX_FILE_BYTES)  # the rest is NUL bytes: one unusable line naming no tensor
    dump = read_stats_csv(path)
    assert [tensor.key for tensor in dump.tensors] == [("output", 0)]
    assert dump.skipped_lines == 1


def test_directory(tmp_path: Path) -> None:
    assert "is a directory" in str(_load_error(tmp_path))


def test_missing_file(tmp_path: Path) -> None:
    assert "No such file" in str(_load_error(tmp_path / "absent.csv"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / NAME
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_stats_csv(fifo)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(5)
    assert not thread.is_alive(), "read_stats_csv blocked on a FIFO"
    (error,) = outcome
    assert isinstance(error, StatsLoadError) and "not a regular file" in str(error) and str(fifo) in str(error)


@pytest.mark.parametrize(("data", "expected"), [
    (DEFAULT_HEADER.encode(), True),
    (b"\xef\xbb\xbf" + DEFAULT_HEADER.encode(), True),
    (b"input/output,index", True),
    (b'"Input/Output","Index"', True),
    (b"\r\n  Input / Output ,Index", True),
    (b"Input/Output", False),  # a header cut before its first comma is not recognised
    (b"Output,0,4", False),
    (b"Op Type,Op Name", False),
    (b"\x93NUMPY", False),
    (b"", False),
    (b"\xef\xbb\xbf", False),
])
def test_looks_like_stats_csv(data: bytes, expected: bool) -> None:
    assert looks_like_stats_csv(data) is expected


def test_as_dict_is_strict_json(tmp_path: Path) -> None:
    row = "Output,0,4,DT_FLOAT,ND,2x2,inf,-inf,nan,4,,0,0"
    (tensor,) = read_stats_csv(_write(tmp_path, f"{DEFAULT_HEADER}\n{row}\n")).tensors
    data = json.loads(json.dumps(tensor.as_dict(), allow_nan=False))
    assert (data["max"], data["min"], data["avg"], data["nan_count"], data["count"]) == ("inf", "-inf", "nan", None, 4)
    assert data["shape"] == [2, 2] and data["kind"] == "output" and data["problem"] is None


def test_item_rejects_unknown_names() -> None:
    with pytest.raises(KeyError):
        TensorStats("input", 0).item("dtype")
