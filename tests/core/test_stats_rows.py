"""The plain-line reader of statistics CSVs (stats_rows.RowReader) reads every line as the general path does.

Random files vary the header (default, custom item subsets, any column order, unknown and trailing empty columns,
other spellings) and every field of every line: plain values, empty/NA/N/A/- fields, spaces, quotes, bad
numbers (1_0, 0x10, 1e, --1), non-ASCII digits, 20-digit ints, odd shapes, rows without statistics, other field
counts, CRLF endings, repeated headers and duplicate tensors. Each file is read twice, once with the plain-line
reader switched off: the two StatsDumps (values, problems, notes, counts) must be the same.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from autofuse_studio.core.dumps import stats_csv, stats_rows
from autofuse_studio.core.dumps.stats_csv import StatsDump, StatsLoadError, read_stats_csv

COLUMNS = {"kind": ("Input/Output", "input/output", " Input / Output "), "index": ("Index", "Slot"), "data_size": ("Data Size",),
           "dtype": ("Data Type",), "format": ("Format",), "shape": ("Shape",), "count": ("Count",),
           "max": ("Max Value", "Max"), "min": ("Min Value",), "avg": ("Avg Value",),
           "l2norm": ("l2norm", "L2Norm Value"), "nan_count": ("Nan Count", "NaN Count"),
           "neg_inf_count": ("Negative Inf Count",), "pos_inf_count": ("Positive Inf Count",)}
FLOATS = ("1.5", "-0.990234375", "1e-05", "1E+300", "1e999", ".5", "5.", "+3", "-0", "nan", "NaN", "inf", "-Inf",
          "infinity", "1_0", "0x10", "1e", "--1", "١٢", " 1.5", "1.5 ", "", "NA", "n/a", "-", "N/A ", "abc", '"1.5"',
          "x", "na-", "nana", "-na", "inf1")
WHOLES = ("0", "1000", "12.0", "12.", "+7", "1234567890123456789", "12345678901234567890", "-1", "1.5", "", "NA",
          "-", " 3", "٣", "0x1", '"4"', "x", "--", "n/a/")
SHAPES = ("25x40", "1", "4X5", "-", "NA", "", "[4]", "()", "4 x 5", "x".join(["2"] * 65), "x".join(["2"] * 64),
          "4x", "1e3", "٤x٥", "x", "x4", "4xx5", "n/a")
TEXTS = ("DT_FLOAT16", "ND", "", " DT_FLOAT ", "DT FLOAT", "NA", "融合", "\x1cDT", "a;b", '"q"', "=1+1")
KINDS = ("Input", "Output", "output", "INPUT", " Input", "In", "")
INDEXES = ("0", "1", "7", "01", "99999999999999999999", "-1", "x", " 2", "")


def _field(rng: random.Random, column: str | None, plain: float) -> str:
    """One field of `column` (None: an unknown column), plain with probability `plain`."""
    pick = rng.random() < plain
    if column == "kind":
        return rng.choice(KINDS[:2] if pick else KINDS)
    if column == "index":
        return rng.choice(INDEXES[:3] if pick else INDEXES)
    if column in ("dtype", "format"):
        return rng.choice(TEXTS[:2] if pick else TEXTS)
    if column == "shape":
        return rng.choice(SHAPES[:3] if pick else SHAPES)
    if column in ("max", "min", "avg", "l2norm"):
        return rng.choice(FLOATS[:13] if pick else FLOATS)
    if column is None:
        return rng.choice(("", "abc", "1", "x y"))
    return rng.choice(WHOLES[:6] if pick else WHOLES)


def _header(rng: random.Random) -> list[str | None]:
    """A header's columns in order (None: an unknown one), kind first (what makes it a statistics CSV) and index
    always there."""
    chosen: list[str | None] = [name for name in COLUMNS if name == "index" or (name != "kind" and rng.random() < 0.7)]
    if rng.random() < 0.3:
        chosen.append(None)
    if rng.random() < 0.5:
        rng.shuffle(chosen)
    return ["kind", *chosen]


def random_csv(rng: random.Random, lines: int, plain: float) -> bytes:
    """A statistics CSV of `lines` data lines."""
    columns = _header(rng)
    names = [rng.choice(COLUMNS[column]) if column else "MD5 Value" for column in columns]
    trailing = rng.choice((0, 0, 1, 2))
    header = ",".join(names + [""] * trailing)
    out = [header]
    for _ in range(lines):
        roll = rng.random()
        if roll < 0.03:
            out.append(header)  # an appended chunk
            continue
        fields = [_field(rng, column, plain) for column in columns]
        if roll < 0.06:
            fields = fields[:rng.randint(0, len(fields))]
        elif roll < 0.09:
            fields += [rng.choice(("", "1", " "))] * rng.randint(1, trailing + 2)
        elif roll < 0.12:
            fields = ["" if column not in ("kind", "index") else field for column, field in zip(columns, fields,
                                                                                               strict=True)]
        else:
            fields += [""] * rng.choice((0, trailing))
        out.append(",".join(fields))
    ending = rng.choice(("\n", "\r\n", "\r"))
    return (ending.join(out) + rng.choice(("", ending))).encode("utf-8")


def _spelled(dump: StatsDump) -> str:
    """The whole dump as text (NaN equals NaN here; types count: an int is not the equal float)."""
    return repr(dump)


@pytest.mark.parametrize("seed", range(40))
def test_plain_lines_read_as_the_general_path_reads_them(seed: int, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    path = tmp_path / "Add.add_1.17.2.1700000000000000.csv"
    path.write_bytes(random_csv(rng, rng.choice((1, 5, 40)), plain=rng.choice((1.0, 0.97, 0.8, 0.3))))
    try:
        fast = _spelled(read_stats_csv(path))
    except StatsLoadError as error:
        fast = f"error: {error}"
    monkeypatch.setattr(stats_rows.RowReader, "match", lambda self, line, number: None)
    try:
        general = _spelled(read_stats_csv(path))
    except StatsLoadError as error:
        general = f"error: {error}"
    assert fast == general


def test_the_plain_reader_takes_cann_lines(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """CANN's own lines go the plain way (else the reader would be correct and useless)."""
    path = tmp_path / "Add.add_1.17.2.1700000000000000.csv"
    path.write_text("Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,"
                    "Nan Count,Negative Inf Count,Positive Inf Count\n"
                    "Output,0,640000,DT_FLOAT,NHWC,4x50x50x16,1.99999,1,1.50004,160000,0,0,0\n"
                    "Input,0,268435456,DT_INT64,ND,100x20x40,100,200,10.1,80000,400,500,600\n"
                    "Input,1,2,DT_FLOAT16,ND,-,NA,-inf,nan,1,0,1,0\n", encoding="utf-8")
    general: list[int] = []
    real_row = stats_csv._row
    monkeypatch.setattr(stats_csv, "_row", lambda *args: general.append(1) or real_row(*args))
    dump = read_stats_csv(path)
    assert not general
    assert [tensor.key for tensor in dump.tensors] == [("input", 0), ("input", 1), ("output", 0)]
    assert dump.tensors[1].shape is None and dump.tensors[1].max is None and dump.tensors[1].neg_inf_count == 1


def test_headers_are_parsed_once_and_bad_ones_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[int] = []
    real = stats_csv._parse_header
    monkeypatch.setattr(stats_csv, "_HEADERS", {})
    monkeypatch.setattr(stats_csv, "_parse_header", lambda *args: parsed.append(1) or real(*args))
    for number in range(5):
        path = tmp_path / f"op{number}.csv"
        path.write_text("Input/Output,Index,Max Value\nInput,0,1.5\n", encoding="utf-8")
        assert read_stats_csv(path).tensors[0].max == 1.5
    assert len(parsed) == 1
    for number in range(2):
        path = tmp_path / f"bad{number}.csv"
        path.write_text("Input/Output,Index,Max,Max Value\nInput,0,1,2\n", encoding="utf-8")
        with pytest.raises(StatsLoadError, match=f"bad{number}.csv line 1: the header names the column"):
            read_stats_csv(path)
    assert len(parsed) == 3


def test_plain_rows_are_the_tensor_stats_init_makes() -> None:
    """_plain_stats skips TensorStats.__init__: it must make the very same objects (no __post_init__ to skip)."""
    assert not hasattr(stats_csv.TensorStats, "__post_init__")
    values = dict(zip(stats_csv._STATS_FIELDS, stats_csv._STATS_DEFAULTS, strict=True))
    values.update(kind="output", index=3, shape=(2, 2), max=1.5, count=4, line=7)
    made = stats_csv._plain_stats(values)
    assert made == stats_csv.TensorStats(**values)
    assert repr(made) == repr(stats_csv.TensorStats(**values)) and hash(made) == hash(stats_csv.TensorStats(**values))
    with pytest.raises(AttributeError):
        made.max = 2.0  # type: ignore[misc]


@pytest.mark.parametrize("seed", range(12))
def test_a_stats_file_answers_what_the_whole_dump_holds(seed: int, tmp_path: Path) -> None:
    """read_stats_file converts a tensor's line when it is asked for: the same TensorStats read_stats_csv made."""
    rng = random.Random(seed)
    path = tmp_path / "Add.add_1.17.2.1700000000000000.csv"
    path.write_bytes(random_csv(rng, rng.choice((3, 30)), plain=rng.choice((1.0, 0.9, 0.5))))
    try:
        dump = read_stats_csv(path)
    except StatsLoadError as error:
        with pytest.raises(StatsLoadError, match="^" + re.escape(str(error)) + "$"):
            stats_csv.read_stats_file(path)
        return
    lazy = stats_csv.read_stats_file(path)
    keys = [(kind, index) for kind in ("input", "output") for index in (0, 1, 7, 8)]
    for kind, index in rng.sample(keys, len(keys)) * 2:  # in any order, twice (the second answer kept)
        assert repr(lazy.tensor(kind, index)) == repr(dump.tensor(kind, index))
