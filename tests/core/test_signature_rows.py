"""Signatures after a verdict change (core.precision.signature_rows): dropped and restored at once, the rest signed
from the files as a run signs them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from autofuse_studio.core.precision.engine import compare_two
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, VERDICT_OK
from autofuse_studio.core.precision.signature_rows import (
    SignatureCache,
    apply_signed,
    row_sides,
    settle_signatures,
    sign_pairs,
)
from autofuse_studio.core.precision.thresholds import Limits, Thresholds


def test_settle_sign_apply(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    origin = rng.standard_normal((6, 40)).astype(np.float32)
    np.save(tmp_path / "b.npy", origin)
    np.save(tmp_path / "a.npy", origin + np.float32(0.5))  # a bias: CULPRIT under any cosine above 0.9
    _, result = compare_two(tmp_path / "a.npy", tmp_path / "b.npy", Thresholds(default=Limits(cosine=None)))
    row = result.rows[0]
    assert row.verdict == VERDICT_OK and row.signature is None
    cache: SignatureCache = {}
    assert settle_signatures(result.rows, cache) == []  # nothing fails: nothing to sign
    row.verdict = VERDICT_CULPRIT
    todo = settle_signatures(result.rows, cache)
    assert todo == [row]
    signed = sign_pairs([row_sides(r) for r in todo])
    assert apply_signed(todo, signed, cache) == [row]
    assert row.signature is not None and row.signature.code == "bias"
    fresh = compare_two(tmp_path / "a.npy", tmp_path / "b.npy", Thresholds())[1].rows[0]
    assert fresh.signature == row.signature
    row.verdict = VERDICT_OK
    assert settle_signatures(result.rows, cache) == [] and row.signature is None
    row.verdict = VERDICT_CULPRIT
    assert settle_signatures(result.rows, cache) == [] and row.signature == fresh.signature
    # A row without files, or compared by statistics only, is never signed.
    bare = replace(row, signature=None, fused_file=None)
    assert settle_signatures([bare], {}) == []
