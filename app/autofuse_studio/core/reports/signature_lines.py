"""The report's sentence per culprit: which op, and the kind of error its signature names, in English or Chinese."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from autofuse_studio.core.messages import EN, SIGNATURE_PARTS, is_chinese, render_signature
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, PrecisionResult, PrecisionRow


def culprit_sentence(row: PrecisionRow, language: str = EN) -> str:
    """'autofuse_13 output 0 (step 0): tail block: axis 3 from index 96 …' for a signed row."""
    assert row.signature is not None
    chinese = is_chinese(language)
    where = [f"rank {row.rank}"] if row.rank is not None else []
    where += [f"step {row.step}"] if row.step else []
    kind = SIGNATURE_PARTS[row.kind][chinese] if row.kind in SIGNATURE_PARTS else row.kind
    signature = row.signature
    sentence = render_signature(signature.code, signature.params, signature.sentence, language)
    return SIGNATURE_PARTS["culprit_line"][chinese].format(
        op=row.fused_op, kind=kind, index=row.fused_index, where=f" ({', '.join(where)})" if where else "",
        sentence=sentence)


def signature_records(result: PrecisionResult, language: str = EN,
                      culprits: Sequence[PrecisionRow] | None = None) -> list[tuple[str, Any]]:
    """One (label, sentence) record per signed CULPRIT row, in the table's order, for the 'summary' sheet
    (`culprits`: the result's CULPRIT rows in order, already found)."""
    label = SIGNATURE_PARTS["culprit_signature"][is_chinese(language)]
    return [(label, culprit_sentence(row, language)) for row in (result.rows if culprits is None else culprits)
            if row.verdict == VERDICT_CULPRIT and row.signature is not None]
