"""The survey's marks (which indices of each axis hold a rest element) on dense, structured errors: rows that cross
the kernel's chunks, columns a moved block never touches, one axis or five; the kernel against numpy's any()."""

from __future__ import annotations

import numpy as np
import pytest

from autofuse_studio.core.precision import native, signature, signature_native

pytestmark = pytest.mark.skipif(not native.enabled(), reason="the native kernel is not built or is disabled")


def structured_mask(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Where x differs from y: whole columns of the last axis in some rows, a tail, or scattered elements."""
    kind = int(rng.integers(4))
    mask = np.zeros(shape, dtype=bool)
    if kind == 0:  # blocks of columns moved in every row (a C0 exchange): the other columns never differ
        columns = rng.random(shape[-1]) < rng.uniform(0.2, 0.9)
        mask[...] = columns
    elif kind == 1:  # some rows, some columns
        rows = rng.random(shape[:-1]) < rng.uniform(0.1, 0.9)
        columns = rng.random(shape[-1]) < rng.uniform(0.1, 0.9)
        mask = rows[..., None] & columns
    elif kind == 2:  # dense with holes
        mask = rng.random(shape) < rng.uniform(0.5, 0.99)
    else:  # sparse
        mask = rng.random(shape) < rng.uniform(0.0005, 0.05)
    return mask


def _surveyed(rng: np.random.Generator, y: np.ndarray, mask: np.ndarray) -> signature_native.Survey | None:
    """The survey of y against a copy moved well beyond rounding where mask is set."""
    x = y.copy()
    x[mask] = (y[mask].astype(np.float64) + rng.uniform(5, 10, int(mask.sum()))).astype(y.dtype)
    low = signature.dtype_limits(str(y.dtype))
    params = (signature.ROUNDING_ULPS * low.eps, signature.ROUNDING_ULPS * low.min_subnormal, low.max, low.tiny,
              low.min_subnormal)
    return signature_native.survey(x, y, params)


@pytest.mark.parametrize("seed", range(120))
def test_marks_are_the_axes_that_hold_a_wrong_element(seed: int, simd: str) -> None:
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(1, 5))
    last = int(rng.choice([1, 3, 16, 48, 100, 300, 1024, 1500]))
    shape = (*(int(n) for n in rng.integers(1, 40, size=ndim - 1)), last)
    while np.prod(shape) > 40_000:  # the longest axis halved
        longest = int(np.argmax(shape))
        shape = tuple(n // 2 if axis == longest else n for axis, n in enumerate(shape))
    dtype = rng.choice(["float16", "float32", "float64"])
    y = rng.standard_normal(shape).astype(dtype)
    mask = structured_mask(rng, shape)
    found = _surveyed(rng, y, mask)
    assert found is not None
    assert found.rest == int(mask.sum())
    expected = [np.flatnonzero(mask.any(axis=tuple(a for a in range(ndim) if a != axis))) for axis in range(ndim)] \
        if mask.any() else []
    assert [hits.tolist() for hits in found.hits] == [marked.tolist() for marked in expected]


@pytest.mark.parametrize("seed", range(60))
def test_a_column_wrong_in_one_row_only_is_marked(seed: int, simd: str) -> None:
    """Dense rows (the first columns wrong everywhere) and a few columns each wrong in a single row: their one flag
    sits anywhere in a word of the row's bits, at any alignment of the row in the chunk."""
    rng = np.random.default_rng([31, seed])
    last = int(rng.choice([67, 100, 150, 300, 1500]))
    rows = max(2, 40_000 // last)
    dtype = rng.choice(["float16", "float32"])
    y = rng.standard_normal((rows, last)).astype(dtype)
    mask = np.zeros(y.shape, dtype=bool)
    mask[:, : last // 3] = True
    lone = rng.choice(np.arange(last // 3, last), size=min(8, last - last // 3), replace=False)
    mask[rng.integers(0, rows, lone.size), lone] = True
    found = _surveyed(rng, y, mask)
    assert found is not None and found.rest == int(mask.sum())
    assert found.hits[1].tolist() == np.flatnonzero(mask.any(axis=0)).tolist()
