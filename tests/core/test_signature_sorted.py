"""Check 4's unknown orders decided on sorted values (signature._sorted_match) give the argsort check's answers.

_permutation used to decide an order that no named transform explains by argsort: sort(x)[k] within
tol[order[k]] of y[order[k]], order = argsort(y). _sorted_match decides the same from the two sorted value
arrays (tol where a rank needs it) or says None when ties in y leave the answer to argsort's order; the
whole signatures of unknown permutations (small and sampled, float16/bfloat16/float32/float64) stay those of the
numpy path, which still runs the argsort check.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest

from autofuse_studio.core.precision import native, signature
from tests.core.signature_cases import to_bf16
from tests.core.signature_helpers import signed_both_ways


def _argsort_check(x: np.ndarray, y: np.ndarray, tol: np.ndarray) -> bool:
    """The check as _permutation makes it without _sorted_match."""
    order = np.argsort(y, axis=None)
    return signature._close(np.sort(x, axis=None), y.reshape(-1)[order], tol.reshape(-1)[order])


def _decided(x: np.ndarray, y: np.ndarray, c1: float, c2: float) -> tuple[bool | None, bool]:
    """(_sorted_match's answer, the argsort check's) on float64 x, y with tol = c1 max(|x|, |y|) + c2."""
    tol = c1 * np.maximum(np.abs(x), np.abs(y))
    tol += c2
    flat_tol = tol.reshape(-1)
    found = signature._sorted_match(signature._sorted_values(x, y), np.float64, y.reshape(-1),
                                    lambda at: flat_tol[at], c1, c2)
    return found, _argsort_check(x, y, tol)


def _pairs(rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """Permutations exact, with noise around the tolerance, with one value changed, with many ties and ±0."""
    pairs = []
    for size in (2, 5, 64, 1000):
        for values in (rng.standard_normal(size), rng.integers(-3, 4, size).astype(float),
                       np.where(rng.random(size) < 0.5, 0.0, -0.0) + rng.integers(0, 2, size)):
            y = values
            x = rng.permutation(values)
            pairs.append((x, y))
            for noise in (1e-4, 1e-3, 5e-3, 2e-2):
                pairs.append((x * (1 + noise * rng.standard_normal(size)), y))
            changed = x.copy()
            changed[rng.integers(size)] += 1.5
            pairs.append((changed, y))
            pairs.append((-x, y))
    return pairs


def test_sorted_values_decide_as_the_argsort_check() -> None:
    rng = np.random.default_rng(2026)
    decided = 0
    for x, y in _pairs(rng):
        for c1, c2 in ((4 * 2.0**-10, 4 * 2.0**-24), (4 * 2.0**-23, 0.0), (0.0, 0.0)):
            found, expected = _decided(x, y, c1, c2)
            assert found is None or found == expected, (x, y, c1, c2)
            decided += found is not None
    assert decided >= 0.9 * len(_pairs(np.random.default_rng(2026))) * 3  # ties rarely leave it to argsort


def test_exact_permutation_matches_and_a_changed_value_does_not() -> None:
    rng = np.random.default_rng(3)
    y = rng.standard_normal(500)
    x = rng.permutation(y)
    assert _decided(x, y, 4 * 2.0**-23, 0.0) == (True, True)
    x[17] += 0.5
    assert _decided(x, y, 4 * 2.0**-23, 0.0) == (False, False)


def test_ties_close_to_call_are_left_to_argsort() -> None:
    """y ties at 1: rank 1's tol is 0.042 or 0.2 depending on which tied position argsort puts there."""
    y = np.array([1.0, 1.0, 5.0])
    x = np.array([5.0, 1.05, 1.0])
    found, _ = _decided(x, y, 0.04, 0.0)
    assert found is None


def test_a_rank_beyond_its_least_tol_is_decided_by_its_position() -> None:
    """A unique y value: its position's tol (with the larger |x| there) decides, not the least tol."""
    y = np.array([1.0, 2.0, 10.0])
    x = np.array([10.0, 1.05, 2.0])  # sort(x) = 1.05, 2, 10: rank 0 is 0.05 off; tol there 0.04 * 10 = 0.4
    assert _decided(x, y, 0.04, 0.0) == (True, True)
    assert _decided(x, y, 0.004, 0.0) == (False, False)  # 0.05 > 0.04


def _stored(values: np.ndarray, dtype: str) -> np.ndarray:
    return to_bf16(values) if dtype == "bfloat16" else values.astype(dtype)


UNKNOWN_ORDERS: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]] = {
    "shuffled": lambda y, rng: rng.permutation(y.reshape(-1)).reshape(y.shape),
    "rows": lambda y, rng: y[rng.permutation(y.shape[0])],
    "rows, one value off": lambda y, rng: np.where(np.arange(y.size).reshape(y.shape) == 7, y * 3 + 1,
                                                   y[rng.permutation(y.shape[0])]),
    "rows, rounded": lambda y, rng: y[rng.permutation(y.shape[0])] * (1 + 1e-4),
}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(40, 96), (720, 96)])
def test_unknown_orders_sign_as_numpy_does(dtype: str, shape: tuple[int, int],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Small pairs (the kernel's classify) and sampled ones (_whole_permutation) alike, ties of bfloat16 too."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    rng = np.random.default_rng(len(dtype) + shape[0])
    y = _stored(rng.standard_normal(shape), dtype)
    for name, order in UNKNOWN_ORDERS.items():
        x = np.ascontiguousarray(_stored(order(y.astype(np.float64), rng), dtype))
        fast, slow = signed_both_ways(x, y, dtype, monkeypatch)
        assert fast == slow, (name, fast, slow)
    fast, _ = signed_both_ways(np.ascontiguousarray(y[::-1][rng.permutation(shape[0])]), y, dtype, monkeypatch)
    assert json.loads(fast)["params"].get("transform", "absent") is None  # rows shuffled: no named transform


@pytest.mark.parametrize("special", [np.inf, np.nan])
def test_nonfinite_values_reaching_the_sorted_values_stay_unmatched(special: float,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the kernel's gate (a build without _kernel), Inf/NaN on both sides reach the sorted values: the
    answer stays the one without the C search (numpy's gate rejects them)."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    rng = np.random.default_rng(4)
    y = rng.standard_normal((300, 256)).astype(np.float32)
    y[3, 5], y[7, 9] = special, -special
    x = rng.permutation(y.reshape(-1)).reshape(y.shape)
    low = signature.dtype_limits("float32")
    monkeypatch.setattr(signature, "_gate_fails", lambda *_: False)  # what it says without the kernel
    with np.errstate(all="ignore"):
        found = signature._whole_permutation(x, y, low)
        monkeypatch.setattr(signature, "_TRANSFORM", None)
        expected = signature._whole_permutation(x, y, low)
    assert expected is None
    assert found == expected
