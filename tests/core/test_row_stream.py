"""Rows, notices and whole results survive the JSON-lines stream exactly (NaN, None, ranks, occurrences)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.result_stream import ResultAssembler, RowEmitter
from autofuse_studio.core.precision.row_stream import (
    StreamError,
    decode_record,
    encode_record,
    row_from_record,
    row_to_record,
    thresholds_from_record,
    thresholds_to_record,
)
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from autofuse_studio.core.run.spec import RunSpec
from tests.synth import full_coverage_spec, generate_case
from tests.synth.spec import multi_rank_spec

SPECS = {
    "multi_rank": lambda: multi_rank_spec(runs=2, missing_ranks=(("af_close", 3),)),
    "loops": lambda: multi_rank_spec(ranks=2, culprit_rank=1, loop_occurrences=3),
    "full_coverage": full_coverage_spec,
}


@pytest.fixture(scope="module", params=sorted(SPECS))
def result(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> PrecisionResult:
    root = tmp_path_factory.mktemp(request.param) / "case"
    manifest = generate_case(root, SPECS[request.param]())
    return run_mode1(RunSpec(root / manifest.graphs["af_open"], root / manifest.graphs["af_close"],
                                  root / manifest.data["af_open"], root / manifest.data["af_close"],
                                  compare_input=True, jobs=2))


def _through_text(record: dict[str, object]) -> dict[str, object]:
    line = encode_record(record)
    assert line.endswith("\n") and "\n" not in line[:-1] and line.isascii()
    return decode_record(line)


def test_rows_round_trip_with_repr_equal(result: PrecisionResult) -> None:
    assert result.rows
    for row in result.rows:
        back = row_from_record(_through_text({"type": "row", **row_to_record(row)}))  # type: ignore[arg-type]
        assert repr(back) == repr(row)


def test_non_finite_metrics_and_hostile_names_round_trip() -> None:
    metrics = Metrics(math.nan, math.inf, -math.inf, -0.0, 1e-310, 5e-324, 0.1 + 0.2, 1.0, 2**60, 3, 0, 1, 2, 4)
    row = PrecisionRow("output", "op\x1b[31m\u202e名\n", 2, None, None, "OK", step="10", rank="63", occurrence=4,
                       metrics=metrics, message="line\nbreak\ttab", fused_shape=(), origin_shape=(1, 2),
                       fused_file="/a b/$(x)/'q'.npy")
    back = row_from_record(_through_text({"type": "row", **row_to_record(row)}))  # type: ignore[arg-type]
    assert repr(back) == repr(row)
    assert back.metrics is not None and math.isnan(back.metrics.cosine)
    assert math.copysign(1, back.metrics.mean_abs_err) == -1.0


def reassembled(lines: list[str]) -> PrecisionResult:
    """The result a client rebuilds from a host's stream lines (rows records, then the result record)."""
    assembler = ResultAssembler()
    rebuilt = None
    for line in lines:
        record = decode_record(line)
        if record["type"] == "rows":
            assembler.add_rows(record)
        else:
            rebuilt = assembler.result(record)
    assert rebuilt is not None
    return rebuilt

def test_whole_result_rebuilt_identically(result: PrecisionResult) -> None:
    if result.ranks:
        assert any(row.occurrence is not None for row in result.rows) or len(result.ranks) == 4
    lines: list[str] = []
    emitter = RowEmitter(lambda record: lines.append(encode_record(record)))
    half = len(result.rows) // 2
    emitter.rows(result.rows[half:])  # rows arrive in any order, before their verdicts
    emitter.rows(result.rows[:half])
    emitter.result(result)
    rebuilt = reassembled(lines)
    assert [repr(row) for row in rebuilt.rows] == [repr(row) for row in result.rows]
    assert json.dumps(rebuilt.to_dict()) == json.dumps(result.to_dict())
    assert repr(rebuilt.first_divergence) == repr(result.first_divergence)
    assert {k: repr(v) for k, v in rebuilt.first_divergence_by_rank.items()} == \
        {k: repr(v) for k, v in result.first_divergence_by_rank.items()}
    assert [notice.to_dict() for notice in rebuilt.notices] == [notice.to_dict() for notice in result.notices]
    assert (rebuilt.output_mappings, rebuilt.input_mappings, rebuilt.steps, rebuilt.ranks) == \
        (result.output_mappings, result.input_mappings, result.steps, result.ranks)


def test_a_changed_row_is_sent_again_and_updated_in_place() -> None:
    records: list[dict[str, object]] = []
    emitter = RowEmitter(records.append)
    row = PrecisionRow("output", "op", 0, "origin", 0, "FILE_NOT_FOUND")
    emitter.rows([row])
    emitter.rows([row])  # unchanged: nothing sent
    row.verdict = "OK"  # verdicts alone never resend a row
    emitter.rows([row])
    assert len(records) == 1
    row.status = "OK"
    emitter.result(PrecisionResult([row], Thresholds(), notices=[Notice("k", "said", 2, [{"a": 1}], "af-open")]))
    assert [record["type"] for record in records] == ["rows", "rows", "result"]
    assembler = ResultAssembler()
    first = assembler.add_rows(_through_text(records[0]))
    assert assembler.add_rows(_through_text(records[1])) == []
    rebuilt = assembler.result(_through_text(records[2]))
    assert rebuilt.rows[0] is first[0] and first[0].status == "OK" and first[0].verdict == "OK"


def test_thresholds_travel_exactly_and_are_checked_again() -> None:
    thresholds = Thresholds(Limits(0.1 + 0.2, None, 1e-3), {"float16": Limits(0.995, 0.5, None)})
    record = _through_text({"type": "thresholds", **thresholds_to_record(thresholds)})
    assert thresholds_from_record(record) == thresholds
    broken = replace(thresholds, default=Limits(2.0, None, None))
    with pytest.raises(Exception, match="cosine"):
        thresholds_from_record(thresholds_to_record(broken))


@pytest.mark.parametrize("line", ["not json", "[1, 2]", '{"no": "type"}', '{"type": "rows", "rows": [{"id": 1}]}'])
def test_broken_lines_are_stream_errors(line: str) -> None:
    def feed() -> None:
        ResultAssembler().add_rows(decode_record(line))

    with pytest.raises(StreamError):
        feed()


@pytest.mark.parametrize(("change", "said"), [
    ({"status": "PWNED"}, "unknown status"), ({"verdict": "FINE"}, "unknown verdict"), ({"kind": "x"}, "unknown kind"),
    ({"fused_index": "0"}, "Expected `int`"), ({"metrics": {"cosine": "x"}}, "metrics"),
    ({"fused_shape": [1.5]}, "Expected `int`")])
def test_rows_from_plain_dicts_are_checked_like_streamed_ones(change: dict[str, object], said: str) -> None:
    metrics = Metrics(math.nan, math.inf, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 4, 0, 0, 0, 0)
    record = row_to_record(PrecisionRow("output", "op", 0, "o", 0, "DTYPE_CAST_SHAPE_FLATTENED", metrics=metrics))
    assert row_from_record(record).metrics is not None
    with pytest.raises(StreamError, match=said):
        row_from_record({**record, **change})
    with pytest.raises(StreamError, match="cosine"):
        row_from_record({**record, "metrics": {**record["metrics"], "cosine": math.nan}})  # a float NaN: never sent
