"""FINAL_TILING records: att_mix64_v1 vectors, envelopes, framing and its failures."""

from __future__ import annotations

import hashlib

import pytest

from autofuse_studio.core.att.final_frames import FinalTilingCollector
from autofuse_studio.core.att.final_tiling import parse_envelope
from autofuse_studio.core.att.hashing import att_mix64_v1
from autofuse_studio.core.att.model import SourceRef

PAYLOAD = '{"tile_m":64,"tile_n":128}'
FRAME_ID = '"8:Fusion_0|0|0|1|2|5|0:"'
BEGIN = ('[ATT][FINAL_TILING_BEGIN] schema=1 source="runtime" selection_mode="default" operator="Fusion_0" '
         'graph=0 result=0 group=1 case_id=2 tiling_key=5 score=1 sub_case_tag="" template="ConcatCase2" '
         'repr_kind="full_json" pipe_estimates="{\\"M2\\":128.0,\\"V\\":null}" '
         f"id={FRAME_ID} chunks=2 len=26 hash_alg=att_mix64_v1 hash=d2647d72f785f3b1")
CHUNK0 = f'[ATT][FINAL_TILING_CHUNK] id={FRAME_ID} seq=0 data="{{\\"tile_m\\":64,"'
CHUNK1 = f'[ATT][FINAL_TILING_CHUNK] id={FRAME_ID} seq=1 data="\\"tile_n\\":128}}"'
END = f"[ATT][FINAL_TILING_END] id={FRAME_ID} chunks=2 len=26 hash_alg=att_mix64_v1 hash=d2647d72f785f3b1"


@pytest.mark.parametrize(
    ("text", "digest"),
    [("", "000000006d2b79f5"), ("{}", "f41025c6e346c01c"), ("a", "00038d2975844000"),
     (PAYLOAD, "d2647d72f785f3b1"), ("中", "89d69b03a52e36a3")],
)
def test_att_mix64_vectors(text: str, digest: str) -> None:
    assert att_mix64_v1(text.encode("utf-8")) == digest


def test_envelope_quotes_escapes_and_unclosed_quote() -> None:
    fields = parse_envelope(' a=1 b="x \\"y\\"\\n\\q" junk c=')
    assert fields == {"a": "1", "b": 'x "y"\n\\q', "c": ""}
    assert parse_envelope('a=1 b="unclosed') == {}


def _collect(*lines: str) -> FinalTilingCollector:
    collector = FinalTilingCollector()
    for number, line in enumerate(lines, start=1):
        collector.feed(line, SourceRef("f.log", number))
    return collector


def test_valid_frame() -> None:
    records, _ = _collect(BEGIN, CHUNK0, CHUNK1, END).finish()
    assert len(records) == 1
    record = records[0]
    assert record.status == "ok"
    assert record.tiling_repr == {"tile_m": 64, "tile_n": 128}
    assert record.repr_hash == "d2647d72f785f3b1"
    assert record.pipe_estimates == {"AIV_MTE2": 128.0, "AIV_MTE3": None, "AIV_VEC": None}
    assert (record.group, record.case_id, record.tiling_key, record.score) == (1, 2, 5, 1)
    assert record.origin.line == 1


@pytest.mark.parametrize(
    ("lines", "claimed"),
    [
        ((BEGIN, CHUNK0, CHUNK1), None),  # missing END
        ((BEGIN, CHUNK1, CHUNK0, END), "d2647d72f785f3b1"),  # reordered chunks
        ((BEGIN, CHUNK0, CHUNK0, CHUNK1, END), "d2647d72f785f3b1"),  # duplicated chunk
        ((BEGIN, CHUNK0, CHUNK1, END.replace("hash=d2647d72f785f3b1", "hash=0000000000000000")),
         "0000000000000000"),  # bad hash at the end
        ((BEGIN.replace("len=26", "len=25"), CHUNK0, CHUNK1, END.replace("len=26", "len=25")), None),
    ],
)
def test_framing_failures_are_incomplete(lines: tuple[str, ...], claimed: str | None) -> None:
    records, _ = _collect(*lines).finish()
    assert [r.status for r in records] == ["incomplete_final_tiling"]
    assert records[0].tiling_repr is None
    if claimed is not None:
        assert records[0].repr_hash == claimed


def test_sha256_is_the_default_algorithm() -> None:
    digest = hashlib.sha256(PAYLOAD.encode()).hexdigest()
    begin = (BEGIN.replace(" hash_alg=att_mix64_v1", "").replace("d2647d72f785f3b1", digest))
    end = END.replace(" hash_alg=att_mix64_v1", "").replace("d2647d72f785f3b1", digest)
    records, _ = _collect(begin, CHUNK0, CHUNK1, end).finish()
    assert records[0].status == "ok"
    assert records[0].repr_hash == digest


def test_single_line_validation_and_duplicates() -> None:
    good = ('[ATT][FINAL_TILING] schema=1 source=r operator=Add_0 graph=0 result=0 group=0 case_id=2 '
            'tiling_key=2 pipe_estimates="{\\"M2\\":128.0}" tiling_repr="{\\"tile_m\\":64}"')
    records, _ = _collect(
        good,
        good.replace("case_id=2", "case_id=3"),  # same group again: a duplicate selection
        good.replace("tiling_key=2", "tiling_key=-1"),
        good.replace('pipe_estimates="{\\"M2\\":128.0}"', 'pipe_estimates="oops"'),
        good.replace("score", "x").replace("tiling_key=2", "tiling_key=2 score=high"),
    ).finish()
    assert [r.status for r in records] == ["ok", "duplicate_final_tiling", "invalid_final_tiling",
                                           "invalid_final_tiling", "invalid_final_tiling"]
    expected = hashlib.sha256(b'{"tile_m":64}').hexdigest()
    assert records[0].repr_hash == expected


def test_summary_records() -> None:
    _, summaries = _collect(
        '[ATT][FINAL_TILING_SUMMARY] schema=1 source="runtime" operator="F" graph=0 result=0 '
        'groups="{\\"0\\":{\\"case_id\\":1}}"',
        '[ATT][FINAL_TILING_SUMMARY] schema=2 operator="F" graph=0 result=0 groups="{}"',
    ).finish()
    assert [s.status for s in summaries] == ["ok", "invalid_final_tiling_summary"]
    assert summaries[0].groups == {"0": {"case_id": 1}}
