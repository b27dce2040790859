"""The signature catalogue (core.messages.SIGNATURES): every code has English and Chinese templates, English renders
core's own sentence exactly, Chinese renders every generated signature, and the report writes a sentence per
culprit (issue 31)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.messages import SIGNATURES, render_signature, render_signature_parts
from autofuse_studio.core.precision.rows import OUTPUT, VERDICT_CULPRIT, VERDICT_OK, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.signature import Signature, _sentence, classify
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.reports.precision_files import write_xlsx
from autofuse_studio.core.reports.signature_lines import signature_records
from tests.core.signature_cases import FAULTS, cases

CODES = ("nonfinite_introduced", "overflow", "underflow", "layout_permutation", "tail_block", "localised", "bias",
         "scale", "rounding", "uncorrelated", "mixed", "unclassified")


def _signatures(fault: str, limit: int = 12) -> list[Signature]:
    found = []
    for case in cases(fault):
        signature = classify(case.fused.astype(np.float64), case.origin.astype(np.float64), case.fused_dtype,
                             case.origin_dtype)
        if signature is not None:
            found.append(signature)
        if len(found) == limit:
            break
    return found


def test_the_catalogue_covers_every_code() -> None:
    assert set(SIGNATURES) == set(CODES)
    for english, chinese in SIGNATURES.values():
        assert english and any("\u4e00" <= char <= "\u9fff" for char in chinese)


@pytest.mark.parametrize("fault", sorted(set(FAULTS) - {"identical"}))
def test_english_is_cores_sentence_and_chinese_renders(fault: str) -> None:
    signatures = _signatures(fault)
    assert signatures
    for signature in signatures:
        assert render_signature_parts(signature.code, signature.params, "en") == signature.sentence
        assert render_signature(signature.code, signature.params, signature.sentence, "en") == signature.sentence
        chinese = render_signature(signature.code, signature.params, signature.sentence, "zh_CN")
        assert chinese != signature.sentence and any("\u4e00" <= char <= "\u9fff" for char in chinese)


def test_unclassified_and_other_versions() -> None:
    params = {"correlation": 0.5, "differing_share": 0.25, "median_rel_err": 0.031}
    assert render_signature_parts("unclassified", params, "en") == _sentence("unclassified", params)
    assert render_signature("unclassified", params, "x", "zh") == "未归类：25.00% 的值超出舍入误差（相对误差中位数 0.031）"
    # A code or params this version does not know: the English sentence rather than a broken one.
    assert render_signature("new_code", {}, "new code: something", "zh") == "new code: something"
    assert render_signature("tail_block", {"axis": 1}, "tail block: …", "zh") == "tail block: …"


def _result() -> PrecisionResult:
    tail = next(sig for sig in _signatures("tail_block") if sig.code == "tail_block")
    bias = next(sig for sig in _signatures("bias") if sig.code == "bias")
    rows = [PrecisionRow(OUTPUT, f"autofuse_{number}", 0, f"Add_{number}", 0, "OK", step="0", order=number,
                         verdict=VERDICT_OK) for number in range(4)]
    rows[1] = replace(rows[1], verdict=VERDICT_CULPRIT, signature=tail)
    rows[3] = replace(rows[3], verdict=VERDICT_CULPRIT, signature=bias)
    return PrecisionResult(rows, Thresholds(), first_divergence=rows[1])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_summary_sheet_has_a_sentence_per_culprit(tmp_path: Path, language: str) -> None:
    from openpyxl import load_workbook

    result = _result()
    path = tmp_path / "report.xlsx"
    write_xlsx(result, path, language)
    book = load_workbook(path, read_only=True)
    lines = [(label, value) for label, value in book["summary"].iter_rows(values_only=True)
             if label in ("culprit signature", "CULPRIT 误差特征")]
    book.close()
    tail, bias = result.rows[1].signature, result.rows[3].signature
    assert tail is not None and bias is not None
    if language == "en":
        assert lines == [("culprit signature", f"autofuse_1 output 0 (step 0): {tail.sentence}"),
                         ("culprit signature", f"autofuse_3 output 0 (step 0): {bias.sentence}")]
    else:
        assert [label for label, _value in lines] == ["CULPRIT 误差特征"] * 2
        assert lines[0][1] == (f"autofuse_1 输出 0 (step 0)："
                               f"{render_signature(tail.code, tail.params, tail.sentence, 'zh')}")
        assert str(lines[0][1]).count("尾块：第 ") == 1 and str(lines[1][1]).count("偏置：") == 1
    # Rows without a signature, or not CULPRIT, get no line.
    assert len(signature_records(result, language)) == 2
    assert signature_records(replace(result, rows=[replace(row, signature=None) for row in result.rows])) == []
