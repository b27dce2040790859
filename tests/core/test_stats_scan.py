"""The C reader of statistics CSV lines (_statsscan.c) answers what the Python readers answer, tensor for tensor.

Every field variant of every column kind is put in a line of its own file, and random files (tests/core/
test_stats_rows.random_csv: headers in any order, unknown and trailing columns, quotes, spaces, bad numbers,
repeated headers, duplicates, CRLF) are read twice: through the C reader and with it switched off. The StatsFiles
must give the same tensors (values, types, line numbers) for every key, or the same error sentence.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from autofuse_studio.core.dumps import stats_csv, stats_rows
from autofuse_studio.core.dumps.stats_csv import StatsLoadError, stats_file_from_contents
from tests.core.test_stats_rows import FLOATS, INDEXES, KINDS, SHAPES, TEXTS, WHOLES, random_csv

SCAN = stats_rows._SCAN
pytestmark = pytest.mark.skipif(SCAN is None, reason="the _statsscan extension is not built")

HEADER = ("Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,"
          "Negative Inf Count,Positive Inf Count")
PLAIN = ["Output", "0", "16", "DT_FLOAT16", "ND", "2x4", "0.5", "-0.25", "0.125", "8", "0", "0", "0"]
# More edges than the random files draw: long and odd numbers, blank-looking lines, signs, dots.
MORE_FLOATS = ("1" * 300, "1." + "5" * 500, "+.5e-3", "-nan", "+inf", "INFINITY", "-infinity", "nAn", "1e+", "1e-5x",
               ".", "+", "-.", "1.e5", "0.0e0", "9" * 400 + "e-400", "1ee5", "e5", "1.5.5", "\t1", "1\x0b")
MORE_WHOLES = ("+", "12.000", "12.01", "1.", "+12.0", "0000000000000000001", "9999999999999999999", "18446744073709551616",
               "N/a", "nA", "--", "+-1")
MORE_SHAPES = ("0", "1x0", "x".join(["9999999999999999999"] * 3), "1x", "X1", "1x x2", "N/A", "na", "2x3x" * 10 + "2")
COLUMN_VARIANTS = {2: WHOLES + MORE_WHOLES, 3: TEXTS, 4: TEXTS, 5: SHAPES + MORE_SHAPES, 6: FLOATS + MORE_FLOATS,
                   9: WHOLES + MORE_WHOLES, 0: KINDS, 1: (*INDEXES, "1234567890123456789", "00")}
KEYS = [(kind, index) for kind in ("input", "output") for index in (0, 1, 2, 7, 8, 1234567890123456789)]


def _both(path: Path, data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, bool]:
    """Every key's tensor (or the error) through the C reader and through Python, and whether C read the file."""
    monkeypatch.setattr(stats_rows, "_SCAN", SCAN)
    taken = stats_csv._plain_file(path, data) is not None if _readable(path, data) else False
    answers = []
    for scan in (SCAN, None):
        monkeypatch.setattr(stats_rows, "_SCAN", scan)
        try:
            found = stats_file_from_contents(path, data)
            answers.append(repr([found.tensor(*key) for key in KEYS]))
        except StatsLoadError as error:
            answers.append(f"error: {error}")
    return answers[0], answers[1], taken


def _readable(path: Path, data: bytes) -> bool:
    try:
        stats_csv._plain_file(path, data)
    except StatsLoadError:
        return False
    return True


@pytest.mark.parametrize("position", sorted(COLUMN_VARIANTS))
def test_every_field_variant_reads_as_python_reads_it(position: int, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "Add.add_1.17.2.1700000000000000.csv"
    taken = 0
    for variant in COLUMN_VARIANTS[position]:
        fields = list(PLAIN)
        fields[position] = variant
        data = f"{HEADER}\n{','.join(fields)}\nInput,1,2,DT_FLOAT16,ND,1,1,1,1,1,0,0,0\n".encode()
        fast, general, plain = _both(path, data, monkeypatch)
        assert fast == general, variant
        # C reads the file exactly when the regex reader calls every line plain.
        monkeypatch.setattr(stats_rows, "_SCAN", None)
        _, reader = stats_csv._header_of(HEADER.encode(), 1, path)
        assert reader is not None
        lines = data.splitlines()
        by_regex = all(reader.match(line, number) is not None for number, line in enumerate(lines[1:], 2))
        assert plain == by_regex, variant
        taken += plain
    assert taken  # some variants are plain: the C path was used, not only refused


@pytest.mark.parametrize("seed", range(120))
def test_random_files_read_as_python_reads_them(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    path = tmp_path / "Add.add_1.17.2.1700000000000000.csv"
    data = random_csv(rng, rng.choice((1, 4, 30)), plain=rng.choice((1.0, 1.0, 0.97, 0.6)))
    if rng.random() < 0.2:
        data = b"\xef\xbb\xbf" + data
    if rng.random() < 0.2:
        data = data.replace(b"\n", b"\n \t\n", 1)  # a blank line among the data
    fast, general, _ = _both(path, data, monkeypatch)
    assert fast == general


def test_cann_files_take_the_c_reader(tmp_path: Path) -> None:
    data = (f"{HEADER}\r\n{','.join(PLAIN)}\r\n\r\nInput,0,2,DT_FLOAT16,ND,-,NA,-inf,nan,1,0,1,0\r\n"
            f"{','.join(PLAIN[:6])},0.75,-0.25,0.125,8,0,0,0\r\n").encode()
    found = stats_csv._plain_file(tmp_path / "a.csv", data)
    assert found is not None
    later = found.tensor("output", 0)
    assert later is not None and (later.max, later.line, later.shape, later.dtype) == (0.75, 5, (2, 4), "DT_FLOAT16")
    first = found.tensor("input", 0)
    assert first is not None and (first.shape, first.max, first.min, first.neg_inf_count) == (None, None,
                                                                                               -float("inf"), 1)
    assert found.tensor("input", 5) is None


def test_more_tensors_than_a_file_may_hold_go_the_general_way() -> None:
    _, reader = stats_csv._header_of(HEADER.encode(), 1, "x.csv")
    assert reader is not None
    lines = [HEADER.encode(), *(f"Output,{index},16,DT_FLOAT16,ND,2,1,1,1,2,0,0,0".encode() for index in (0, 1, 0))]
    assert reader.plain_file(lines, 1, 2) is not None  # a repeated tensor is not another one
    assert reader.plain_file([*lines, b"Input,0,16,DT_FLOAT16,ND,2,1,1,1,2,0,0,0"], 1, 2) is None


def test_the_c_reader_refuses_bad_arguments() -> None:
    scan = SCAN
    with pytest.raises(ValueError, match="differ in size"):
        scan.plain_rows([b"Output,0,1"], 0, b"kif", b"\x00\x00", 0, 100, 64, 10)
    with pytest.raises(ValueError, match="unknown role"):
        scan.plain_rows([b"Output,0,1"], 0, b"kiz", b"\x00\x00\x01", 0, 100, 64, 10)
    with pytest.raises(TypeError, match="bytes"):
        scan.plain_rows(["Output,0,1"], 0, b"kif", b"\x00\x00\x01", 0, 100, 64, 10)
    assert scan.plain_rows([b"Output,0,1.5"], 0, b"kif", b"\x00\x00\x01", 0, 100, 64, 10) == {("output", 0): (1, 1.5)}
    assert scan.plain_rows([b"Output,0,1.5"], 0, b"kif", b"\x00\x00\x01", 0, 5, 64, 10) is None  # a line too long
