"""Signed rows for GUI tests: real signatures classified from the fault generator's pairs (tests/core)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.signature import Signature, classify
from autofuse_studio.core.precision.thresholds import Thresholds
from tests.core.signature_cases import Case, cases


def signed_case(fault: str, shape: tuple[int, ...] | None = None, dtype: str = "float32") -> tuple[Case, Signature]:
    """The generator's first `fault` pair (of `shape` and `dtype`) whose signature has the fault's code."""
    for case in cases(fault):
        if case.fused_dtype != dtype or (shape is not None and case.fused.shape != shape):
            continue
        found = classify(case.fused.astype(np.float64), case.origin.astype(np.float64), case.fused_dtype,
                         case.origin_dtype)
        if found is not None and found.code == case.code:
            return case, found
    raise AssertionError(f"no {fault} pair of shape {shape}")


def signed_result(rows: list[PrecisionRow], faults: dict[int, str]) -> PrecisionResult:
    """A result of `rows` whose rows at the given positions are CULPRITs signed with the given faults' codes."""
    rows = [replace(row) for row in rows]
    for position, fault in faults.items():
        rows[position] = replace(rows[position], verdict=VERDICT_CULPRIT, signature=signed_case(fault)[1])
    return PrecisionResult(rows, Thresholds(), first_divergence=rows[min(faults)] if faults else None)


def tail_pair(folder: Path, seed: int = 31) -> tuple[Path, Path]:
    """Two NPYs in `folder` whose last tile of 16 along axis 1 is a little off: cosine about 0.9988, passing 0.99."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    origin = rng.standard_normal((8, 64)).astype(np.float32)
    fused = origin.copy()
    fused[:, 48:] += (rng.standard_normal((8, 16)) * 0.1).astype(np.float32)
    np.save(folder / "a.npy", fused)
    np.save(folder / "b.npy", origin)
    return folder / "a.npy", folder / "b.npy"
