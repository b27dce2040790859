"""The naive baseline of the mode-1 benchmarks: the reference's three metrics, pair by pair, in float64."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def naive_loop(pairs: list[tuple[Path, Path]]) -> float:
    """Seconds to np.load both files of every pair, cast to float64 and compute cosine, max abs and max rel."""
    start = time.perf_counter()
    for fused_path, origin_path in pairs:
        a = np.load(fused_path).flatten().astype(np.float64)
        b = np.load(origin_path).flatten().astype(np.float64)
        if a.size != b.size:
            continue
        float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-8))
        diff = np.abs(a - b)
        float(np.max(diff))
        float(np.max(diff / (np.maximum(np.abs(a), np.abs(b)) + 1e-8)))
    return time.perf_counter() - start
