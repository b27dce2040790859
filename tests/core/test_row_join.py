"""row_join: the C joiner (_rowjoin.c) and its Python fallback write the same bytes, hostile text included."""

from __future__ import annotations

import math
import random
import struct
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports import precision_csv, row_join, xlsx_stream
from autofuse_studio.core.reports.precision_files import write_precision
from autofuse_studio.core.reports.row_join import (
    ROW,
    Numbers,
    all_finite,
    attribute_columns,
    column_kinds,
    column_survey,
    column_surveys,
    join_rows,
    plain_texts,
)
from tests.core.test_result_files_identity import _assert_same_files, reference_csv
from tests.synth.result_rows import synthetic_result

pytest.importorskip("autofuse_studio.core.reports._rowjoin", reason="the C row joiner is not built")

HOSTILE_TEXTS = [
    "=HYPERLINK(\"http://x\",\"y\")", "=1+2", "+1", "-2", "@SUM(A1)", "＝全角", "\tlead", "trail ", "\rcr", "a\nb",
    "nul\x00byte", "\x01row mark\x01", "".join(map(chr, range(32))), "\x7f", "quote\"comma,", "<tag>&amp;",
    "emoji \U0001f600\U0001f4a9", "融合算子", "\u2028\u2029", "x" * 100_000, "", "0012", "12",
]


@pytest.fixture(params=["native", "python"])
def joiner(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with the C joiner, then with AUTOFUSE_STUDIO_NO_NATIVE=1."""
    if request.param == "python":
        monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    param: str = request.param
    return param


def _both(call: Callable[[], Any], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """call() with the C joiner and with the Python fallback."""
    native = call()
    with monkeypatch.context() as patch:
        patch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
        assert row_join.native_joiner() is None
        python = call()
    return native, python


def _floats(count: int) -> list[float]:
    rng = random.Random(3)
    values = [1e-7, 5e-324, 1.7976931348623157e308, -0.0, 0.0, 1.0, 1e16, 9.999e15, 1e-4, 1e-5, 0.1, 100.0,
              9999999999999998.0, 1234567890123456.8, 1e15, 0.00012, -0.00009999, 0.00010000000000000002]
    while len(values) < count:
        value = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if rng.random() < 0.5:
            value = rng.random() * 10.0 ** rng.randint(-12, 20) * rng.choice((1, -1))
        if math.isfinite(value):
            values.append(value)
    return values


def test_texts_are_copied_as_they_are_in_both_joiners(monkeypatch: pytest.MonkeyPatch) -> None:
    column = ([*HOSTILE_TEXTS, None], "", "", "-")
    native, python = _both(lambda: join_rows([column, column], 0, len(HOSTILE_TEXTS) + 1, "<", ">\n", "|", 1),
                           monkeypatch)
    assert native == python
    cells = [text or "-" for text in HOSTILE_TEXTS]  # "" is an empty cell, as None is
    expected = "".join(f"<{cell}|{cell}>\n" for cell in cells) + "<-|->\n"
    assert native == expected.encode("utf-8")  # \x01 inside a plain text is not a row number


def test_an_empty_text_is_an_empty_cell_in_both_joiners(monkeypatch: pytest.MonkeyPatch) -> None:
    # xlsx writes no cell for "" (openpyxl wrote none); the column's `empty` template, not before + after.
    columns = [(["", "a", None, 0, ""], "<t>", "</t>", "", "<n>", "</n>")]
    native, python = _both(lambda: join_rows(columns, 0, 5, "[", "]", ",", 1), monkeypatch)
    assert native == python == b"[][<t>a</t>][][<n>0</n>][]"


def test_row_numbers_fill_the_templates_and_whole_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    columns = [(["a", None, ("<w" + ROW + ">",)], "[" + ROW + ":", "]", "{" + ROW + "}")]
    native, python = _both(lambda: join_rows(columns, 1, 3, "r" + ROW + "=", ";", "", 7), monkeypatch)
    assert native == python == b"r7={7};r8=<w8>;"


def test_numbers_are_spelled_as_repr_and_str(monkeypatch: pytest.MonkeyPatch) -> None:
    values: list[Any] = [*_floats(20_000), 0, -5, 2**63 - 1, 2**70, -(2**70), None, math.nan, math.inf, -math.inf]
    expected = "".join(("" if value is None or (isinstance(value, float) and not math.isfinite(value))
                        else repr(value)) + "\n" for value in values).encode()
    for column in ((values, "", "", ""), (Numbers(values), "", "", "")):
        native, python = _both(lambda c=column: join_rows([c], 0, len(values)), monkeypatch)  # type: ignore[misc]
        assert native == python == expected


def test_number_templates_apply_to_numbers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    columns = [(["t", 12, 1.5, None], "<s>", "</s>", "_", "<n>", "</n>")]
    native, python = _both(lambda: join_rows(columns, 0, 4, "", ",", ""), monkeypatch)
    assert native == python == b"<s>t</s>,<n>12</n>,<n>1.5</n>,_,"


def test_a_lone_surrogate_is_refused_or_replaced_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    columns = [(["ok", "bad\ud800"], "", "", "")]
    for disabled in ("", "1"):
        monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, disabled)
        with pytest.raises(UnicodeEncodeError):
            join_rows(columns, 0, 2)
    native, python = _both(lambda: join_rows(columns, 0, 2, errors="replace"), monkeypatch)
    assert native == python == b"ok\nbad?\n"


@pytest.mark.parametrize("value", [True, b"bytes", 1.5j, ("two", "parts")])
def test_a_cell_of_another_type_is_a_type_error(value: Any, joiner: str) -> None:
    with pytest.raises(TypeError):
        join_rows([(["a", value], "", "", "")], 0, 2)


def test_a_numbers_column_must_match_the_rows(joiner: str) -> None:
    with pytest.raises(ValueError, match="numbers"):
        join_rows([(msgspec.json.encode([1, 2, 3]), "", "", "")], 0, 2)


def test_no_rows_and_no_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _both(lambda: join_rows([(["a"], "", "", "")], 0, 0), monkeypatch) == (b"", b"")
    assert _both(lambda: join_rows([], 0, 2, "<", ">"), monkeypatch) == (b"<><>", b"<><>")


def test_attribute_columns_read_every_object(monkeypatch: pytest.MonkeyPatch) -> None:
    objects = [SimpleNamespace(a=number, b=str(number)) for number in range(5)]
    native, python = _both(lambda: attribute_columns(objects, ["b", "a"]), monkeypatch)
    assert native == python == [["0", "1", "2", "3", "4"], [0, 1, 2, 3, 4]]
    with pytest.raises(AttributeError):
        attribute_columns(objects, ["missing"])


def test_attribute_columns_give_none_for_none_and_read_items(monkeypatch: pytest.MonkeyPatch) -> None:
    objects = [SimpleNamespace(a=1), None, SimpleNamespace(a=3)]
    assert _both(lambda: attribute_columns(objects, ["a"]), monkeypatch) == ([[1, None, 3]],) * 2
    dicts = [{"x": 1, "y": "a"}, None, {"x": 2.5, "y": None}]
    native, python = _both(lambda: attribute_columns(dicts, ["y", "x"], items=True), monkeypatch)
    assert native == python == [["a", None, None], [1, None, 2.5]]
    with pytest.raises(KeyError):
        attribute_columns(dicts, ["missing"], items=True)


def test_column_kinds_name_the_types_and_non_finite_floats(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _both(lambda: column_kinds([1, 2.5, None, "a", 3]), monkeypatch) == (({int, float, type(None), str},
                                                                                 True),) * 2
    for bad in (math.nan, math.inf, -math.inf):
        assert _both(lambda b=bad: column_kinds(["a", 1.0, b]), monkeypatch) == (({str, float}, False),) * 2
    assert _both(lambda: column_kinds(()), monkeypatch) == ((set(), True),) * 2


def test_nonfinite_places_are_where_nan_and_inf_floats_are(monkeypatch: pytest.MonkeyPatch) -> None:
    class Odd(float):  # a float subclass is not a float cell: the CSV writer leaves such columns to csv.writer
        pass

    values = [1.5, math.nan, None, "inf", -math.inf, 3, Odd("nan"), math.inf, -0.0, 1e308 * 10]
    assert _both(lambda: row_join.nonfinite_places(values), monkeypatch) == ([1, 4, 7, 9],) * 2
    assert _both(lambda: row_join.nonfinite_places(()), monkeypatch) == ([],) * 2


def test_attribute_columns_read_across_chunks_subclasses_and_odd_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(row_join, "ATTRIBUTE_CHUNK", 3)  # several C calls filling the same lists

    class Derived(SimpleNamespace):
        @property
        def b(self) -> str:  # a subclass's property in place of a plain attribute
            return "derived"

    odd = [SimpleNamespace(a=10**40, b=math.nan), Derived(a=-1), None, SimpleNamespace(a=[1], b=None),
           SimpleNamespace(a=2, b="x" * 1000)]
    native, python = _both(lambda: attribute_columns(tuple(odd), ("a", "b")), monkeypatch)
    assert native[0] == python[0] == [10**40, -1, None, [1], 2]
    assert native[1][1:] == python[1][1:] == ["derived", None, None, "x" * 1000]
    assert math.isnan(native[1][0]) and math.isnan(python[1][0])
    with pytest.raises(AttributeError):
        attribute_columns(odd, ["a", "missing"])


def test_attribute_columns_survive_a_property_that_empties_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(row_join.NATIVE_DISABLE_ENV, raising=False)  # C's reader: it must not read freed memory
    objects: list[Any] = []

    class Emptying:
        @property
        def a(self) -> int:
            objects.clear()  # the rows read shrink under the reader: an error, never a crash
            return 1

    objects.extend([Emptying(), Emptying(), Emptying()])
    with pytest.raises(IndexError):
        attribute_columns(objects, ["a"])


class _Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a: Any, b: Any = "unset") -> None:
        self.a = a
        if b != "unset":
            self.b = b


def test_slots_are_read_as_getattr_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # The C reader takes a __slots__ member straight from its place, only where getattr would read that place.
    class Shadowed(_Slotted):
        __slots__ = ()

        @property
        def b(self) -> str:  # a subclass's property over the base's slot: the property answers
            return "property"

    class Hooked(_Slotted):
        __slots__ = ()

        def __getattribute__(self, name: str) -> Any:
            return "hooked" if name == "a" else object.__getattribute__(self, name)

    shadowed = Shadowed(2)
    _Slotted.b.__set__(shadowed, "y")  # type: ignore[attr-defined]  # the base's slot holds a value, unseen
    objects = [_Slotted(1, "x"), shadowed, _Slotted(3, None), Hooked(4, "z"), None, _Slotted(5, 2.5)] * 40
    native, python = _both(lambda: attribute_columns(objects, ("b", "a")), monkeypatch)
    assert native == python
    assert native[0][:6] == ["x", "property", None, "z", None, 2.5]
    assert native[1][:6] == [1, 2, 3, "hooked", None, 5]
    with pytest.raises(AttributeError, match="b"):  # an unset slot: getattr's own error
        attribute_columns([_Slotted(1, "x"), _Slotted(2)], ["b"])


def test_a_class_changed_while_its_slots_are_read_is_read_as_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(row_join.NATIVE_DISABLE_ENV, raising=False)

    class Base:
        __slots__ = ("a", "number")

        def __init__(self, a: int) -> None:
            self.a = self.number = a

        @property
        def trigger(self) -> int:  # read before `a`: puts a property over the slot `a` at the third object
            if self.number == 3:
                Base.a = property(lambda self: "changed")  # type: ignore[assignment,method-assign]
            return self.number

    objects = [Base(number) for number in range(1, 6)]
    assert attribute_columns(objects, ["trigger", "a"]) == [[1, 2, 3, 4, 5], [1, 2, "changed", "changed", "changed"]]


def test_item_values_read_slotted_items_as_getattr(monkeypatch: pytest.MonkeyPatch) -> None:
    from autofuse_studio.core.reports.stats_table import _READ, _item_values, _python_item_values

    items_of = [tuple(_Item(f"n{k}", float(row * 7 + k), row, -0.5, math.inf) for k in range(3)) for row in range(50)]
    names, columns, floats, kinds = _item_values(items_of, 3)  # type: ignore[misc]
    python_names, python_columns, python_floats, python_kinds = _python_item_values(items_of, 150)  # type: ignore[misc]
    assert (names, columns) == (python_names, python_columns)
    assert floats.tolist() == python_floats.tolist()
    assert len(_READ) == 5
    # Where the values were ints (the origins here), for spell_numbers; the Python twin does not say.
    assert kinds is not None and python_kinds is None
    assert kinds.tolist() == [[int(value.__class__ is int) for value in part] for part in columns]
    assert kinds[1].tolist() == [1] * 150 and kinds[0].tolist() == [0] * 150


class _Item:
    __slots__ = ("diff", "fused", "name", "origin", "rel_diff")

    def __init__(self, name: str, fused: float, origin: int, diff: float, rel_diff: float) -> None:
        self.name, self.fused, self.origin, self.diff, self.rel_diff = name, fused, origin, diff, rel_diff


def test_column_survey_answers_as_column_kinds_and_plain_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(row_join.NATIVE_DISABLE_ENV, raising=False)
    for values in (["a", None, 1, 2.5], ["a", math.nan, "=x"], [None, "a,b"], [], [math.inf, 3], ["", " x"]):
        for rules in (XLSX_RULES, CSV_RULES):
            assert column_survey(values, *rules) == (*column_kinds(values), plain_texts(values, *rules))
    monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    assert column_survey(["a", 1.5], *CSV_RULES) == ({str, float}, True, None)  # Python checks the texts itself


def test_many_columns_surveyed_at_once_answer_as_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(row_join.NATIVE_DISABLE_ENV, raising=False)
    many_types: list[Any] = [type(f"Kind{at}", (), {})() for at in range(40)]  # more types than C lists
    columns: list[Any] = [["a", None, 1, 2.5], ["a", math.nan, "=x"], [None, "a,b"], [], [math.inf, 3], ["", " x"],
                          ("t", "\u4e2d", 7), [*many_types, math.nan, "=y"], [*many_types, 1.5, "plain"]]
    for rules in (XLSX_RULES, CSV_RULES):
        assert column_surveys(columns, *rules) == [column_survey(values, *rules) for values in columns]
        assert column_surveys(columns, *rules)[-2] == ({*map(type, many_types), float, str}, False, False)
    with pytest.raises(TypeError):
        column_surveys([["a"], 5], *XLSX_RULES)
    monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    assert column_surveys([["a", 1.5]], *CSV_RULES) == [({str, float}, True, None)]


def test_whole_number_columns_are_written_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    values = [0, None, -1, 2**63, -(2**70), 12345678901234567, None]
    column = precision_csv.column_cells(values, non_finite_empty=True)
    assert _both(lambda: join_rows([(column, "", "", "")], 0, len(values)), monkeypatch) == (
        b"0\n\n-1\n9223372036854775808\n-1180591620717411303424\n12345678901234567\n\n",) * 2
    xlsx_column = xlsx_stream.column_cells(values, "C")
    native, python = _both(lambda: join_rows([xlsx_column], 0, 3, "", ""), monkeypatch)
    assert native == python == b'<c r="C1"><v>0</v></c><c r="C3"><v>-1</v></c>'


@pytest.mark.parametrize("non_finite", [(math.nan,), (math.inf, math.nan), (-math.inf,), (math.nan, -math.inf, math.inf)])
def test_non_finite_floats_outside_the_metrics_keep_their_text(non_finite: tuple[float, ...],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # "nan", "inf", "-inf" as the row-by-row cells spell them: CSV text, xlsx inline strings ("-inf" quoted as a
    # formula lead), with or without the C joiner, the GIL held or not.
    values: list[Any] = [*_floats(50), None, 3, *non_finite, 2.5, *non_finite]
    expected_csv = "".join(("" if value is None else repr(value)) + "\n" for value in values).encode()
    expected_xlsx = "".join(xlsx_stream.cell("D", value).replace(ROW, str(number)) if value is not None else ""
                            for number, value in enumerate(values, start=1)).encode()
    csv_column = (precision_csv.column_cells(values), "", "", "")
    xlsx_column = xlsx_stream.column_cells(values, "D")
    for column, templates, expected in ((csv_column, ("", "\n", ","), expected_csv),
                                        (xlsx_column, ("", "", ""), expected_xlsx)):
        native, python = _both(lambda c=column, t=templates: join_rows([c], 0, len(values), *t),  # type: ignore[misc]
                               monkeypatch)
        assert native == python == _released([column], 0, len(values), *templates) == expected


XLSX_RULES = (xlsx_stream._UNSAFE_INSIDE, "".join(xlsx_stream.FORMULA_LEADS), True, xlsx_stream.MAX_CELL_TEXT)
CSV_RULES = ("".join(precision_csv._QUOTE_MARKS), "".join(precision_csv.FORMULA_LEADS), False, 10**9)


@pytest.mark.parametrize(("text", "xlsx_plain", "csv_plain"), [
    ("plain_op/Add_1", True, True), ("融合算子 emoji \U0001f600", True, True), ("", True, True), ("x" * 32767, True, True),
    ("x" * 32768, False, True), ("trail ", False, True), (" lead", False, True), ("\u3000ideographic", False, True),
    ("=1+2", False, False), ("＝全角", False, False), ("-2", False, False), ("a<b", False, True), ("a&b", False, True),
    ("nul\x00byte", False, True), ("bell\x07", False, True), ("del\x7f", True, True), ("a,b", True, False),
    ('q"q', True, False), ("a\nb", True, False), ("融合\r算子", False, False),
])
def test_plain_texts_finds_every_text_that_needs_work(text: str, xlsx_plain: bool, csv_plain: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(row_join.NATIVE_DISABLE_ENV, raising=False)  # C's scan (Python's checks: the next test)
    values = ["plain", None, 12, text, "融合"]
    assert plain_texts(values, *XLSX_RULES) is xlsx_plain
    assert plain_texts(values, *CSV_RULES) is csv_plain


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_text_columns_are_spelled_alike_with_and_without_the_c_scan(text: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    values = ["plain", None, text, "", "融合"]
    assert _both(lambda: xlsx_stream._text_values(values, "B"), monkeypatch) == (
        (xlsx_stream._text_values(values, "B"),) * 2)
    native, python = _both(lambda: list(precision_csv.column_cells(values)), monkeypatch)
    assert native == python


def test_all_finite() -> None:
    assert all_finite([1.0, None, 3, 2.5])
    assert not all_finite([1.0, math.nan])
    assert not all_finite([math.inf, None])
    assert all_finite([])


def _hostile_result() -> PrecisionResult:
    """Rows whose names and files are HOSTILE_TEXTS (control characters, formula leads, non-BMP, 100k chars)."""
    rows = [PrecisionRow("output", text or "op", number, text or None, 0, "OK", message=text, fused_file=text,
                         step=text, rank=text if number % 2 else None, source_type=text)
            for number, text in enumerate(HOSTILE_TEXTS)]
    return PrecisionResult(rows, Thresholds())


def test_hostile_cells_write_the_same_files_both_ways(tmp_path: Path, joiner: str) -> None:
    """CSV bytes, JSON bytes and xlsx contents equal the replaced writers', with and without the C joiner."""
    _assert_same_files(_hostile_result(), tmp_path)
    _assert_same_files(synthetic_result(2500, seed=7, hostile=True), tmp_path / "synthetic")


def test_a_lone_surrogate_in_a_name_fails_csv_as_before(tmp_path: Path, joiner: str) -> None:
    result = _hostile_result()
    result.rows[0].fused_op = "bad\udc80"
    with pytest.raises(UnicodeEncodeError):
        reference_csv(result)
    with pytest.raises(UnicodeEncodeError):
        write_precision(result, tmp_path / "r.csv")
    assert not (tmp_path / "r.csv").exists()


def _released(columns: list[Any], start: int, stop: int, *templates: str) -> bytes:
    return join_rows(columns, start, stop, *templates, released=True)


def _every_cell_kind(count: int, seed: int) -> list[Any]:
    """A column of `count` cells of every kind join_rows takes, the ones read without the GIL (ASCII texts, 64-bit
    ints, ASCII whole cells, None, "", NaN) among those it reads with it (floats, non-ASCII texts, big ints)."""
    rng = random.Random(seed)
    texts = [text for text in HOSTILE_TEXTS if ROW not in text]  # a caller that numbers rows keeps ROW out of texts
    kinds: list[Callable[[], Any]] = [
        lambda: rng.choice(texts), lambda: "op_" + str(rng.getrandbits(20)), lambda: None,
        lambda: "", lambda: rng.randint(-(2**63), 2**63 - 1), lambda: rng.choice((2**63, -(2**63) - 1, 2**70)),
        lambda: rng.choice(_floats(40)), lambda: rng.choice((math.nan, math.inf, -math.inf)),
        lambda: ("<w" + ROW + ">" + rng.choice(("x", "融合")),), lambda: (rng.choice(("", "plain", "a,b")),),
        lambda: rng.randint(-5, 5)]
    return [rng.choice(kinds)() for _ in range(count)]


@pytest.mark.parametrize("seed", range(6))
def test_the_released_joiner_writes_what_the_others_write(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Cells read without the GIL and cells read with it, in any mix: the same bytes as the joiner that holds the
    # GIL throughout and as Python.
    rows = 3000
    columns = [(_every_cell_kind(rows, seed * 10 + number), "<" + ROW + ":", ">", "{" + ROW + "}", "#", "")
               for number in range(4)]
    columns.append((Numbers([*_floats(rows - 3), None, "nan", "-inf"]), "t:", ";", "_", "n:", ""))
    templates = ("r" + ROW + "=", "\n", "|")
    for start, stop in ((0, rows), (17, 18), (rows, rows), (5, 2500)):
        released = _released(columns, start, stop, *templates, 1)
        native, python = _both(lambda s=start, e=stop: join_rows(columns, s, e, *templates, 1),  # type: ignore[misc]
                               monkeypatch)
        assert released == native == python


def test_a_numbers_column_writes_its_words_as_text_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    columns = [(Numbers([1.5, "nan", None, "-inf", 3, "inf"]), "<t>", "</t>", "_", "<n>", "</n>")]
    expected = b"<n>1.5</n>,<t>nan</t>,_,<t>-inf</t>,<n>3</n>,<t>inf</t>,"
    native, python = _both(lambda: join_rows(columns, 0, 6, "", ",", ""), monkeypatch)
    assert native == python == _released(columns, 0, 6, "", ",", "") == expected


@pytest.mark.parametrize("text", ["", "a b", "x,y", 'q"', "back\\", "nan1", "融合"])
def test_a_numbers_column_refuses_a_text_that_is_not_a_word(text: str, joiner: str) -> None:
    columns = [(Numbers([1.0, text]), "", "", "")]
    for released in (False, True):
        with pytest.raises(ValueError, match="numbers"):
            join_rows(columns, 0, 2, released=released)


def test_the_released_joiner_reports_a_bad_cell_before_a_bad_number() -> None:
    # The list columns' cells come first, as in the joiner that holds the GIL: the first bad cell's error.
    columns = [(["a", "b", 1.5j, object()], "", "", ""), (msgspec.json.encode([1, 2]), "", "", "")]
    for released in (False, True):
        with pytest.raises(TypeError, match="complex"):
            join_rows(columns, 0, 4, released=released)
    with pytest.raises(ValueError, match="fewer numbers"):
        join_rows([(["a", "b", "c"], "", "", ""), columns[1]], 0, 3, released=True)


def test_rows_joined_into_a_buffer_are_join_rows_bytes_and_the_buffer_is_reused() -> None:
    texts = [f"t{number}" for number in range(300)]
    columns = [(texts, '"', '"', "null"), (row_join.Numbers(_floats(300)), "", "", "null"),
               (["融合算子" if number % 50 == 0 else "x" for number in range(300)], "", "", "")]  # UTF-8: with the GIL
    into = bytearray()
    for start, stop in ((0, 300), (10, 20), (0, 300), (5, 295), (0, 0)):  # sizes go up and down
        expected = join_rows(columns, start, stop, "[", "]\n", ",", released=True)
        written = row_join.join_rows_into(columns, start, stop, "[", "]\n", ",", into)
        assert written is into and bytes(written) == expected


def test_a_buffer_with_a_view_on_it_is_refused() -> None:
    into = bytearray(b"held")
    view = memoryview(into)
    with pytest.raises(BufferError):
        row_join.join_rows_into([(["a"] * 10, "", "", "")], 0, 10, "", "\n", ",", into)
    assert bytes(view) == b"held"
    view.release()
