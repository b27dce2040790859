"""json_rows: the JSON rows joined column by column by the C joiner are json.dumps(indent=2)'s bytes, or None."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest

from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports import precision_json, row_join
from autofuse_studio.core.reports.json_rows import joined_rows
from autofuse_studio.core.reports.json_spelling import Unlike, fixed
from autofuse_studio.core.reports.precision_files import write_precision
from tests.core.test_result_files_identity import reference_json
from tests.synth.result_rows import synthetic_result

pytest.importorskip("autofuse_studio.core.reports._rowjoin", reason="the C row joiner is not built")
# The tests of joined_rows itself need the C joiner; those of the written files run without it too.
needs_c = pytest.mark.skipif(row_join.native_joiner() is None, reason="AUTOFUSE_STUDIO_NO_NATIVE=1")


def _row(op: str = "op", origin: str | None = "origin", **fields: Any) -> PrecisionRow:
    return PrecisionRow("output", op, 0, origin, 0, "OK", **fields)


@needs_c
def test_joined_rows_are_the_struct_path_bytes() -> None:
    rows = synthetic_result(5000, seed=11, hostile=True).rows
    joined = joined_rows(rows)
    assert joined is not None and len(joined) == 2  # 4096 rows a chunk
    assert b"".join(joined) == b"".join(precision_json._formatted_rows(rows))


TEXTS = ["", "plain", 'quote"', "back\\slash", "ctl\x01\x1f", "tab\t", "line\nbreak", "融合 \U0001f600",
         "\u2028\u2029", "\x7f", "x" * 5000]


@pytest.mark.parametrize("text", TEXTS)
def test_texts_are_escaped_as_json_dumps_escapes_them(text: str, tmp_path: Path) -> None:
    rows = [_row(text or "op", text or None, message=text, fused_file=text, step=text, rank=text or None), _row()]
    assert row_join.native_joiner() is None or joined_rows(rows) is not None
    result = PrecisionResult(rows, Thresholds())
    assert write_precision(result, tmp_path / "r.json").read_bytes() == reference_json(result)


@pytest.mark.parametrize("fields", [
    {"rank": True},  # a bool: json.dumps writes true
    {"occurrence": 2.5e-7},  # a float outside the metrics, spelled as repr
    {"fused_shape": (True, 16)},  # a bool in a shape
    {"signature": Signature("bias", 0.5, {"x": np.float64(1e-9)})},  # a float subclass in a nested object
    {"signature": Signature("bias", 0.5, {"x": [1e-7, (2e16,)], "y": -0.0})},  # respelled deep in a nested object
    {"signature": Signature("bias", 0.5, {1: 0.5})},  # a non-text key: json.dumps writes "1"
])
def test_values_the_columns_do_not_know_write_what_json_dumps_wrote(fields: dict[str, Any], tmp_path: Path) -> None:
    result = PrecisionResult([_row(**fields), _row()], Thresholds())
    assert write_precision(result, tmp_path / "r.json").read_bytes() == reference_json(result)


@pytest.mark.parametrize(("fields", "error"), [({"step": math.nan}, ValueError),
                                               ({"message": "bad\udc80"}, UnicodeEncodeError),
                                               ({"fused_shape": (np.int64(8),)}, TypeError),
                                               ({"signature": Signature("bias", 0.5, {"x": (math.inf,)})},
                                                ValueError)])
def test_what_json_dumps_refused_is_refused_as_before(fields: dict[str, Any], error: type[Exception],
                                                      tmp_path: Path) -> None:
    if row_join.native_joiner() is not None:
        with pytest.raises(precision_json.Unlike):
            joined_rows([_row(**fields)])
    result = PrecisionResult([_row(**fields)], Thresholds())
    with pytest.raises(error):
        reference_json(result)
    with pytest.raises(error):
        write_precision(result, tmp_path / "r.json")
    assert not (tmp_path / "r.json").exists()


def test_without_the_c_joiner_the_struct_path_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    assert joined_rows(synthetic_result(10).rows) is None


NESTED = [{"a": 1.0, "b": [0.5, (2, "t")], "c": None, "d": -0.0, "e": 1e-4, "f": 9.99e15},
          {"a": 1e-5}, {"a": [(2e16,)]}, {"a": {"b": math.nan}}, {"a": -math.inf}, {1: 0.5}, {(1,): 0.5}]


@needs_c
@pytest.mark.parametrize("value", [*NESTED, NESTED])
def test_nested_plain_is_true_only_where_fixed_changes_nothing(value: Any) -> None:
    try:
        spelled = msgspec.json.encode(fixed(value))
    except Unlike:
        spelled = None
    plain = row_join.native_joiner().nested_plain(value)  # type: ignore[union-attr]
    assert plain == (value is NESTED[0])
    if plain:
        assert msgspec.json.encode(value) == spelled


@needs_c
def test_nested_unplain_names_the_objects_fixed_would_change() -> None:
    assert row_join.nested_unplain(NESTED) == list(range(1, len(NESTED)))
    assert row_join.nested_unplain([NESTED[0], NESTED[0]]) == []


def test_nested_unplain_names_every_object_without_the_c_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(row_join.NATIVE_DISABLE_ENV, "1")
    assert row_join.nested_unplain([NESTED[0], NESTED[0]]) == [0, 1]
