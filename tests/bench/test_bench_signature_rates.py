"""Signature detection rates over many knobs (issue 31's closing note): per fault, detected / cases and the confusion.

The pair generator (tests/core/signature_cases.py) runs over SEEDS × dtypes × random shapes of 1–5 axes (2 to 64
per axis, at most 64K elements) × MAGNITUDES × tile lengths up to 64; a case is detected when its code and key
params are right (signature_cases.matches). Printed: the rate per fault, and per fault the codes found instead
("none": no signature). Also `python -m tests.bench.test_bench_signature_rates [seeds]`.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision.signature import signature
from tests.core import signature_cases
from tests.core.signature_cases import DTYPES, FAULTS, Case, matches

pytestmark = pytest.mark.bench

SEEDS = 40
MAGNITUDES = (1e-3, 1e-1, 1.0, 1e2, 1e4)
TILES = (1, 2, 4, 8, 16, 32, 64)
MAX_ELEMENTS = 1 << 16


def _shape(rng: np.random.Generator) -> tuple[int, ...]:
    """1–5 axes of 2 to 64 (the first 8+ long, so every fault has an axis to work on), at most MAX_ELEMENTS."""
    while True:
        ndim = int(rng.integers(1, 6))
        shape = (int(rng.integers(8, 65)), *(int(rng.integers(2, 65)) for _ in range(ndim - 1)))
        if math.prod(shape) <= MAX_ELEMENTS and (ndim == 1 or shape[0] * shape[-1] >= 16):
            return tuple(int(length) for length in rng.permutation(shape))


def knob_cases(fault: str, seeds: int = SEEDS) -> Iterator[Case]:
    """Every dtype × magnitude of one fault on `seeds` random shapes each (fixed seeds: runs repeat)."""
    for seed in range(seeds):
        rng = np.random.default_rng([seed, signature_cases.SEED_INDEX[fault], 2026])
        for dtype in DTYPES:
            for magnitude in MAGNITUDES:
                shape = _shape(rng)
                base = rng.standard_normal(shape) * magnitude
                try:
                    case = FAULTS[fault](rng, base, dtype, magnitude)
                except ValueError:  # a fault that needs an axis this shape lacks (e.g. 8+ long for localised)
                    continue
                if case is not None:
                    case.name = f"{case.name}-{dtype}-{'x'.join(map(str, shape))}-{magnitude:g}"
                    yield case

RATE_FLOOR, MEAN_FLOOR = 0.99, 0.995


def rates(seeds: int = SEEDS) -> tuple[list[str], dict[str, float]]:
    """The printed table and the rate per fault."""
    lines, found_rates = [], {}
    for fault in sorted(FAULTS):
        total = hits = 0
        confusion: Counter[str] = Counter()
        for case in knob_cases(fault, seeds):
            total += 1
            with np.errstate(all="ignore"):
                found = signature(LazyTensor.plain(case.fused), LazyTensor.plain(case.origin), case.fused_dtype,
                                  case.origin_dtype)
            if matches(case, found):
                hits += 1
            else:
                code = "none" if found is None else found.code
                if found is not None and found.code == case.code:
                    code += " (params)"
                elif found is not None and found.code == "mixed":
                    code += "(" + "+".join(part["code"] for part in found.params["parts"]) + ")"
                confusion[code] += 1
        found_rates[fault] = hits / total if total else 0.0
        lines.append(f"{fault:22s} {hits:5d}/{total:<5d} {found_rates[fault]:6.1%}  " +
                     ", ".join(f"{code}: {count}" for code, count in confusion.most_common(6)))
    return lines, found_rates


def test_detection_rates_over_the_knobs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signature_cases, "TILES", TILES)
    lines, found = rates()
    print(f"\nsignature detection over {SEEDS} seeds x {len(DTYPES)} dtypes x magnitudes "
          f"{', '.join(f'{m:g}' for m in MAGNITUDES)} (random shapes of 1-5 axes, tiles up to {TILES[-1]}):\n"
          "fault                  detected/cases   wrong codes found instead\n" + "\n".join(lines))
    print(f"overall (unweighted mean of the faults): {sum(found.values()) / len(found):.1%}")
    # The floor the closing notes report (99.2-100% per fault, 99.8% mean on 2026-12-05): a change that
    # makes the checks cheaper must not make them blinder.
    assert min(found.values()) >= RATE_FLOOR, {fault: rate for fault, rate in found.items() if rate < RATE_FLOOR}
    assert sum(found.values()) / len(found) >= MEAN_FLOOR


if __name__ == "__main__":
    signature_cases.TILES = TILES
    table, _ = rates(int(sys.argv[1]) if len(sys.argv) > 1 else SEEDS)
    print("\n".join(table))
