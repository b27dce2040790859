"""Signatures after a verdict change (core.precision.signature_rows): dropped and restored at once, the rest signed
from the files as a run signs them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.precision.engine import compare_two
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, VERDICT_OK, VERDICT_PROPAGATED
from autofuse_studio.core.precision.signature_rows import (
    SignatureCache,
    apply_signed,
    row_sides,
    settle_signatures,
    sign_pairs,
    sign_row,
    signable,
    signable_on_demand,
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


def test_sign_row_says_why_there_is_none(tmp_path: Path) -> None:
    from autofuse_studio.core.precision import engine, signature

    rng = np.random.default_rng(5)
    origin = rng.standard_normal((4, 32)).astype(np.float32)
    np.save(tmp_path / "b.npy", origin)
    np.save(tmp_path / "a.npy", origin * np.float32(2))
    row = compare_two(tmp_path / "a.npy", tmp_path / "b.npy", Thresholds())[1].rows[0]
    found, reason = sign_row(row)
    assert found is not None and found.code == "scale" and reason == ""
    assert sign_row(replace(row, origin_file=str(tmp_path / "a.npy"))) == (None, engine.NO_DIFFERENCE)
    assert sign_row(replace(row, origin_file=str(tmp_path / "gone.npy"))) == (None, engine.UNREADABLE)
    np.save(tmp_path / "c.npy", origin[:2])
    assert sign_row(replace(row, origin_file=str(tmp_path / "c.npy"))) == (None, engine.NOT_COMPARABLE)
    assert sign_row(replace(row, fused_file=None)) == (None, engine.NO_FILES)
    big = np.zeros(signature.MAX_ELEMENTS + 1, np.float32)
    np.save(tmp_path / "big.npy", big)
    assert sign_row(replace(row, fused_file=str(tmp_path / "big.npy"), origin_file=str(tmp_path / "big.npy"))) \
        == (None, engine.TOO_BIG)
    # Any verdict can be signed on demand; a run signs failing rows only.
    assert signable_on_demand(row) and not signable(row)
    assert not signable_on_demand(replace(row, metrics=None))


def test_a_run_signs_failing_rows_on_every_worker(tmp_path: Path) -> None:
    from autofuse_studio.core.precision.engine import sign_failing
    from autofuse_studio.core.precision.pair import PairSide
    from autofuse_studio.core.precision.plan import PlannedRow

    rng = np.random.default_rng(9)
    planned = []
    for number in range(6):
        origin = rng.standard_normal((3, 50)).astype(np.float32)
        np.save(tmp_path / f"o{number}.npy", origin)
        np.save(tmp_path / f"f{number}.npy", origin + np.float32(number + 1))
        row = compare_two(tmp_path / f"f{number}.npy", tmp_path / f"o{number}.npy", Thresholds())[1].rows[0]
        row.verdict = (VERDICT_CULPRIT, VERDICT_PROPAGATED, VERDICT_OK)[number % 3]
        row.signature = None
        sides = PairSide(tmp_path / f"f{number}.npy", None, "f"), PairSide(tmp_path / f"o{number}.npy", None, "o")
        planned.append(PlannedRow(row, *sides))
    sign_failing(planned, workers=2)
    for number, item in enumerate(planned):
        signed = item.row.signature
        if number % 3 == 2:
            assert signed is None, "an OK row is not signed by a run"
        else:
            assert signed is not None and signed.code == "bias"
            assert signed.params["offset"] == pytest.approx(number + 1, rel=1e-3)
