"""Helpers the signature tests share: hostile float32 values, and a pair's signature with and without the C paths."""

from __future__ import annotations

import json

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native, signature

F32 = np.finfo(np.float32)


def hostile_float32(rng: np.random.Generator, size: int) -> np.ndarray:
    """float32 values: subnormals, signed zeros, NaN, ±Inf, the largest finite values, and plain ones."""
    pool = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, F32.max, -F32.max, 2.0**-149, -(2.0**-149), 2.0**-127,
                     F32.tiny, 3e38, -3e38, 1.0, -1.0, 65504.0, 65520.0, 1e-8], dtype=np.float32)
    values = rng.standard_normal(size).astype(np.float32)
    where = rng.random(size) < 0.2
    values[where] = rng.choice(pool, int(where.sum()))
    return values


def signed_both_ways(fused: np.ndarray, origin: np.ndarray, dtype: str, monkeypatch: pytest.MonkeyPatch
                     ) -> tuple[str, str]:
    """The pair's signature (JSON) with the native paths, and with numpy alone."""
    def signed() -> str:
        with np.errstate(all="ignore"):
            found = signature.signature(LazyTensor.plain(fused), LazyTensor.plain(origin), dtype, dtype)
        return json.dumps(None if found is None else found.as_dict(), sort_keys=True)

    fast = signed()
    monkeypatch.setenv(native.DISABLE_ENV, "1")
    slow = signed()
    monkeypatch.delenv(native.DISABLE_ENV)
    return fast, slow
