"""Signatures in results (issue 31): failing rows get one after the verdicts, every output carries it, nothing
else changes; mode 2 prints it."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.api.precision import PrecisionTable
from autofuse_studio.cli import main
from autofuse_studio.core.precision.engine import SIGNED_VERDICTS, run_mode1
from autofuse_studio.core.precision.row_stream import encode_record, row_from_record, row_to_record
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.precision.table import format_summary
from autofuse_studio.core.reports.precision_files import table_columns, write_precision
from tests.core.conftest import mode1_request


@pytest.fixture(scope="module")
def signed(coverage_case: tuple[Path, dict[str, Any]]) -> Any:
    root, manifest = coverage_case
    return run_mode1(mode1_request(root, manifest, jobs=2))


def test_failing_rows_and_only_they_are_signed(signed: Any) -> None:
    with_signature = [row for row in signed.rows if row.signature is not None]
    assert with_signature, "the coverage case has failing rows compared by value"
    assert all(row.verdict in SIGNED_VERDICTS for row in with_signature)
    # Every failing row compared by value from two files is signed, the propagated ones too.
    failing = [row for row in signed.rows if row.verdict in ("CULPRIT", "PROPAGATED") and row.metrics is not None
               and row.fused_file and row.origin_file]
    assert {row.verdict for row in failing} == {"CULPRIT", "PROPAGATED"}
    assert all(row.signature is not None for row in failing)
    for row in with_signature:
        document = row.to_dict()["signature"]
        assert set(document) == {"code", "confidence", "params", "sentence"}
        json.dumps(document, allow_nan=False)
    assert all(row.to_dict()["signature"] is None for row in signed.rows if row.signature is None)


def test_summary_lines_end_with_the_sentence(signed: Any) -> None:
    summary = format_summary(signed)
    culprits = [row for row in signed.rows if row.verdict == "CULPRIT" and row.signature is not None]
    assert culprits
    assert f" — {culprits[0].signature.sentence}" in summary


def test_stream_round_trip_keeps_the_signature(signed: Any) -> None:
    row = next(row for row in signed.rows if row.signature is not None)
    back = row_from_record(json.loads(encode_record(row_to_record(row))))
    assert back == row and back.signature == row.signature
    old = row_to_record(row)
    del old["signature"]  # a host from before signatures
    assert row_from_record(old).signature is None


def test_files_and_dataframe_carry_the_columns(signed: Any, tmp_path: Path) -> None:
    columns = table_columns(signed)
    assert columns[columns.index("verdict") + 1:columns.index("verdict") + 3] == ("signature", "signature_sentence")
    path = write_precision(signed, tmp_path / "r.csv")
    with path.open(encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    codes = {row["signature"] for row in rows if row["signature"]}
    assert codes and codes <= {row.signature.code for row in signed.rows if row.signature is not None}
    frame = PrecisionTable(signed).to_dataframe()
    assert frame["signature"].notna().sum() == sum(row.signature is not None for row in signed.rows)


def test_no_signature_no_columns() -> None:
    from autofuse_studio.core.precision.rows import PrecisionResult
    from autofuse_studio.core.precision.thresholds import Thresholds

    result = PrecisionResult([PrecisionRow("output", "a", 0, "b", 0, "OK")], Thresholds())
    assert "signature" not in table_columns(result)
    assert PrecisionRow("output", "a", 0, "b", 0, "OK", signature=Signature("bias", 1.0)).to_dict()["signature"][
        "code"] == "bias"


def test_mode2_prints_the_signature_when_the_pair_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    origin = np.random.default_rng(3).standard_normal((8, 64)).astype(np.float32)
    fused = origin.copy()
    fused[:, 48:] = 7.0  # the last tile of 16 along axis 1
    np.save(tmp_path / "a.npy", fused)
    np.save(tmp_path / "b.npy", origin)
    out = tmp_path / "r.json"
    code = main(["nwa", "--mode", "2", "--npy-a", str(tmp_path / "a.npy"), "--npy-b", str(tmp_path / "b.npy"),
                 "--output", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    line = next(line for line in text.splitlines() if line.startswith("签名/signature: "))
    assert "tail block: axis 1 from index 48 (last tile of 16)" in line
    assert text.index("阈值判定") < text.index("签名/signature")
    assert json.loads(out.read_text())["rows"][0]["signature"]["code"] == "tail_block"


def test_mode2_passing_pair_prints_no_signature(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    origin = np.arange(64, dtype=np.float32)
    np.save(tmp_path / "a.npy", origin)
    np.save(tmp_path / "b.npy", origin)
    assert main(["nwa", "--mode", "2", "--npy-a", str(tmp_path / "a.npy"), "--npy-b", str(tmp_path / "b.npy")]) == 0
    assert "signature" not in capsys.readouterr().out


def test_unreadable_or_big_pairs_get_no_signature(tmp_path: Path) -> None:
    from autofuse_studio.core.precision.engine import mode2_sides, pair_signature

    np.save(tmp_path / "a.npy", np.zeros(4, np.float32))
    (tmp_path / "broken.npy").write_bytes(b"not an npy")
    assert pair_signature(*mode2_sides(tmp_path / "a.npy", tmp_path / "broken.npy")) is None
    assert pair_signature(*mode2_sides(tmp_path / "a.npy", tmp_path / "gone.npy")) is None
