"""A big permuted pair whose grid the transform maps onto itself skips the grid's classify (signature._closed_search).

The shortcut must give the signature the grid's classify and the whole check give: it is compared with the path
without it (and with numpy alone) on permuted pairs of 1-5 axes, float16/bfloat16/float32, C0 of 8/16/32 and
hostile values (NaN/Inf/max, signed zeros, zeros moved onto fused subnormals, repeated values, one wrong element),
and its three tests (_transform.flushed, _transform.grid_differs, signature._grid_closed) with numpy references.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native, signature
from tests.core.signature_cases import cast

pytestmark = [pytest.mark.skipif(signature._TRANSFORM is None, reason="_transform not built (no C compiler)"),
              pytest.mark.usefixtures("grid_above_sample")]  # 70K-100K pairs: the grid's path
TRANSFORM: Any = signature._TRANSFORM
STORED = {"float16": np.float16, "float32": np.float32, "float64": np.float64}
SUBNORMAL = {"float16": 3e-6, "bfloat16": 1e-39, "float32": 1e-40}


@pytest.fixture(autouse=True)
def _native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)


def _magnitude_bits(values: np.ndarray) -> np.ndarray:
    unsigned = np.dtype(f"u{values.itemsize}")
    return values.view(unsigned) & unsigned.type((1 << (8 * values.itemsize - 1)) - 1)


def _hostile(rng: np.random.Generator, size: int, dtype: str) -> np.ndarray:
    """Values of a float dtype with many zeros of both signs, subnormals, the smallest normal, NaN, Inf, max."""
    info = np.finfo(STORED[dtype])
    pool = np.array([0.0, -0.0, float(info.smallest_subnormal), -float(info.smallest_subnormal), float(info.tiny),
                     -float(info.tiny), float(info.tiny) / 2, np.nan, np.inf, -np.inf, float(info.max), 1.0, -2.5],
                    dtype=STORED[dtype])
    values = rng.standard_normal(size).astype(STORED[dtype])
    where = rng.random(size) < rng.choice([0.0005, 0.05, 0.5])
    values[where] = rng.choice(pool, int(where.sum()))
    return values


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_flushed_matches_numpy(dtype: str) -> None:
    rng = np.random.default_rng(31)
    info = np.finfo(STORED[dtype])
    tiny_bits = int(_magnitude_bits(np.array([info.tiny], dtype=STORED[dtype]))[0])
    hits = 0
    for trial in range(300):
        size = int(rng.choice([1, 7, 4095, 4096, 4097, 9000, int(rng.integers(1, 20000))]))
        x, y = _hostile(rng, size, dtype), _hostile(rng, size, dtype)
        if trial % 3 == 0:  # no zero in x but one, at a block's edge or the end
            x[_magnitude_bits(x) == 0] = 1.0
            at = int(rng.choice([0, size - 1, min(size - 1, 4095), min(size - 1, 4096)]))
            x[at], y[at] = -0.0, info.smallest_subnormal
        below = int(rng.choice([0, 1, 2, tiny_bits, tiny_bits + 1, int(rng.integers(0, tiny_bits + 2))]))
        expected = bool(np.any((_magnitude_bits(x) == 0) & (_magnitude_bits(y) > 0) & (_magnitude_bits(y) < below)))
        assert TRANSFORM.flushed(x, y, below) is expected, (trial, size, below)
        hits += expected
    assert 50 < hits < 250  # both answers were tested


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_flushed_on_a_grid_matches_numpy(dtype: str) -> None:
    rng = np.random.default_rng(11)
    info = np.finfo(STORED[dtype])
    tiny_bits = int(_magnitude_bits(np.array([info.tiny], dtype=STORED[dtype]))[0])
    answers = set()
    for trial in range(300):
        shape: tuple[int, ...] = (1 << 20,)
        while math.prod(shape) > 20_000:
            shape = tuple(int(n) for n in rng.choice([1, 2, 3, 5, 8, 70, 130], size=int(rng.integers(1, 6))))
        x, y = (_hostile(rng, math.prod(shape), dtype).reshape(shape) for _ in range(2))
        if trial % 2:  # few zeros: whether the grid holds the one left decides
            x[_magnitude_bits(x) == 0] = 1.0
            at = tuple(int(rng.integers(length)) for length in shape)
            x[at], y[at] = 0.0, info.smallest_subnormal
        grid = _random_grid(rng, shape)
        if trial % 3 == 0:  # trailing axes kept whole: one run per point of the others
            grid = (*grid[:1], *(np.arange(length, dtype=np.int64) for length in shape[1:]))
        below = int(rng.choice([1, 2, tiny_bits, tiny_bits + 1]))
        cells_x, cells_y = x[np.ix_(*grid)], y[np.ix_(*grid)]
        expected = bool(np.any((_magnitude_bits(cells_x) == 0) & (_magnitude_bits(cells_y) > 0)
                               & (_magnitude_bits(cells_y) < below)))
        assert TRANSFORM.flushed(x, y, below, grid) is expected, (trial, shape, grid, below)
        answers.add(expected)
    assert answers == {True, False}


def test_flushed_rejects_other_inputs() -> None:
    with pytest.raises(ValueError):
        TRANSFORM.flushed(np.zeros(4, np.float16), np.zeros(4, np.float32), 1)
    with pytest.raises(ValueError):
        TRANSFORM.flushed(np.zeros(4, np.float16), np.zeros(5, np.float16), 1)
    with pytest.raises(ValueError):
        TRANSFORM.flushed(np.zeros(4, np.float16), np.zeros(4, np.float16), 1 << 16)
    with pytest.raises(ValueError):
        TRANSFORM.flushed(np.zeros(4, np.float16), np.zeros(4, np.float16), 1, (np.array([4]),))


def _random_grid(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    return tuple(np.unique(rng.integers(0, length, size=int(rng.integers(1, length + 1)))).astype(np.int64)
                 for length in shape)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_grid_differs_matches_numpy(dtype: str) -> None:
    rng = np.random.default_rng(5)
    c1, c2 = 4 * float(np.finfo(STORED[dtype]).eps), 4 * float(np.finfo(STORED[dtype]).smallest_subnormal)
    answers = set()
    for trial in range(300):
        shape = tuple(int(n) for n in rng.integers(1, 9, size=int(rng.integers(1, 6))))
        y = _hostile(rng, math.prod(shape), dtype).reshape(shape)
        # Within rounding, at the border of tol (a few ulps either way) or far off, element by element.
        steps = rng.choice([0, 0, 0, 3, 4, 5, 1000], size=y.shape)
        with np.errstate(all="ignore"):
            x = (y.astype(np.float64) * (1 + steps * float(np.finfo(STORED[dtype]).eps))).astype(STORED[dtype])
        grid = _random_grid(rng, shape)
        cap = int(rng.choice([1, 3, 10**9, int(rng.integers(1, 50))]))
        cells_x = x[np.ix_(*grid)].astype(np.float64).reshape(-1)[:cap]
        cells_y = y[np.ix_(*grid)].astype(np.float64).reshape(-1)[:cap]
        with np.errstate(all="ignore"):
            tol = c1 * np.maximum(np.abs(cells_x), np.abs(cells_y))
            tol += c2
            expected = bool(np.any(np.isfinite(cells_x) & np.isfinite(cells_y) & (np.abs(cells_x - cells_y) > tol)))
        assert TRANSFORM.grid_differs(x, y, grid, c1, c2, cap) is expected, (trial, shape, grid, cap)
        answers.add(expected)
    assert answers == {True, False}


def test_grid_differs_rejects_other_grids() -> None:
    x = np.zeros((3, 4), np.float32)
    for grid in ((np.array([0, 3]), np.array([0])), (np.array([0]),), (np.array([0], np.int32), np.array([0])),
                 (np.array([], np.int64), np.array([0])), (np.array([-1]), np.array([0]))):
        with pytest.raises(ValueError):
            TRANSFORM.grid_differs(x, x, grid, 1e-3, 0.0, 10)


def _moves(shape: tuple[int, ...], rng: np.random.Generator
           ) -> Iterator[tuple[dict[str, Any], tuple[int, ...] | None, np.ndarray]]:
    """Each named transform of a shape: (params as _native_search names it, C0 perm, origin position of each
    fused element)."""
    positions = np.arange(math.prod(shape)).reshape(shape)
    for axis, length in enumerate(shape):
        if length > 1:
            yield {"transform": "reverse", "axis": axis}, None, np.flip(positions, axis)
            step = int(rng.integers(1, length))
            yield {"transform": "shift", "axis": axis, "shift": step}, None, np.roll(positions, step, axis)
    for first in range(len(shape)):
        for second in range(first + 1, len(shape)):
            if shape[first] == shape[second] > 1:
                yield {"transform": "swap_axes", "axes": [first, second]}, None, np.swapaxes(positions, first, second)
    last = shape[-1]
    for c0 in (32, 16, 8):
        if last % c0 == 0 and last // c0 >= 2:
            perm = rng.permutation(last // c0)
            moved = positions.reshape(*shape[:-1], last // c0, c0)[..., perm, :].reshape(shape)
            yield {"transform": "c0_blocks", "axis": len(shape) - 1, "c0": c0}, tuple(perm.tolist()), moved
    if last in (32, 16, 8):
        for axis in range(len(shape) - 1):
            perm = rng.permutation(shape[axis])
            yield ({"transform": "c0_blocks", "axis": axis, "c0": last}, tuple(perm.tolist()),
                   np.take(positions, perm, axis=axis))


def test_grid_closed_matches_the_points_it_reads() -> None:
    rng = np.random.default_rng(7)
    answers = set()
    for trial in range(400):
        shape: tuple[int, ...] = (1 << 20,)
        while math.prod(shape) > 5_000:
            shape = tuple(int(n) for n in rng.choice([1, 2, 3, 4, 5, 6, 8, 16, 32, 48], size=int(rng.integers(1, 6))))
        for named, perm, moved in _moves(shape, rng):
            grid = list(_random_grid(rng, shape)) if trial % 2 else signature._grid(shape)
            if trial % 4 == 1:  # symmetric grids: a reverse maps them onto themselves
                grid = [np.union1d(g, length - 1 - g) for g, length in zip(grid, shape, strict=True)]
            if trial % 8 == 3 and len(shape) >= 2 and shape[0] == shape[1]:  # equal grids: a swap maps them
                grid[1] = grid[0]
            read = moved[np.ix_(*grid)].reshape(-1)
            points = np.arange(math.prod(shape)).reshape(shape)[np.ix_(*grid)].reshape(-1)
            expected = np.array_equal(np.sort(read), np.sort(points))
            assert signature._grid_closed(named, perm, grid, shape) is expected, (shape, named, perm, grid)
            answers.add(expected)
    assert answers == {True, False}


def _signed(fused: np.ndarray, origin: np.ndarray, dtype: str) -> str:
    """The signature as JSON; an error's type and text (the same error both ways is the same outcome: an
    `unclassified` grid part whose median relative error is NaN fails in _mapped's sentence, shortcut or not)."""
    try:
        with np.errstate(all="ignore"):
            found = signature.signature(LazyTensor.plain(fused), LazyTensor.plain(origin), dtype, dtype)
    except TypeError as error:
        return f"TypeError: {error}"
    return json.dumps(None if found is None else found.as_dict(), sort_keys=True)


def _big_shape(rng: np.random.Generator) -> tuple[int, ...]:
    """1-5 axes, 66K-150K elements, the last axis often a C0 or a multiple of one, sometimes two equal axes."""
    axes = int(rng.integers(1, 6))
    shape = [int(n) for n in rng.choice([2, 3, 4, 6, 8, 16, 32], size=axes - 1)]
    last = int(rng.choice([8, 16, 32, 96, 128, 256, 7]))
    if axes >= 3 and rng.integers(2):
        shape[1] = shape[0]
    lead = max(1, int(rng.integers(66_000, 150_000)) // (math.prod(shape) * last))
    shape = [lead, *shape[1:]] if shape else []
    full = (*shape, last) if axes > 1 else (int(rng.integers(66_000, 150_000)),)
    while math.prod(full) <= signature.SAMPLE_ELEMENTS:
        full = (full[0] * 2, *full[1:])
    return full


def _origin(rng: np.random.Generator, shape: tuple[int, ...], dtype: str, kind: str) -> np.ndarray:
    values = rng.standard_normal(shape) * float(rng.choice([1e-3, 1.0, 1e3]))
    if kind == "repeated":  # few distinct values: moved blocks often equal on the grid's rows
        values = np.round(values / np.abs(values).max() * 2)
    y = cast(values, dtype).reshape(-1)
    if kind == "flushed":  # zeros and fused subnormals: a moved zero on a subnormal is an underflow
        y[rng.random(y.size) < 0.05] = 0.0
        y[rng.random(y.size) < 0.05] = cast(np.array(SUBNORMAL[dtype]), dtype)
    if kind == "special":
        info_max = {"float16": 65504.0, "bfloat16": 3.3895313892515355e38, "float32": float(np.finfo(np.float32).max)}
        pool = [np.nan, np.inf, -np.inf, info_max[dtype], -0.0, 0.0]
        for value in rng.choice(pool, int(rng.integers(1, 4))):
            y[int(rng.integers(y.size))] = value
    if kind == "signed_zeros":
        y[rng.random(y.size) < 0.1] = -0.0
        y[rng.random(y.size) < 0.1] = 0.0
    return np.ascontiguousarray(y.reshape(shape))


def test_signatures_same_with_and_without_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(2026)
    taken: list[bool] = []
    closed_search = signature._closed_search

    def spy(*args: Any) -> Any:
        answer = closed_search(*args)
        taken.append(answer[0] is not None)
        return answer

    codes: set[str] = set()
    numpy_checked = 0
    for trial in range(36):
        dtype = ("float16", "bfloat16", "float32")[trial % 3]
        kind = ("plain", "flushed", "special", "signed_zeros", "repeated", "wrong_one")[trial // 3 % 6]
        shape = _big_shape(rng)
        y = _origin(rng, shape, dtype, kind)
        # Zeros looked for on the whole pair, or (every other trial) on the grid's points only, as bigger pairs.
        monkeypatch.setattr(signature, "WHOLE_FLUSHED", 0 if trial % 2 else 4 * signature.SAMPLE_ELEMENTS)
        moves = list(_moves(shape, rng))
        for index in rng.choice(len(moves), size=min(3, len(moves)), replace=False):
            _, _, moved = moves[int(index)]
            x = np.ascontiguousarray(y.reshape(-1)[moved])
            if kind == "wrong_one":  # not bit for bit: the whole check decides as before
                x.reshape(-1)[int(rng.integers(x.size))] += cast(np.array(1.0), dtype)
            monkeypatch.setattr(signature, "_closed_search", spy)
            fast = _signed(x, y, dtype)
            monkeypatch.setattr(signature, "_closed_search", lambda *args: (None, None))
            assert fast == _signed(x, y, dtype), (trial, kind, dtype, shape)
            if trial % 6 == 0:  # numpy alone too (the shortcut needs the kernel's sweep)
                monkeypatch.setenv(native.DISABLE_ENV, "1")
                assert fast == _signed(x, y, dtype), (trial, kind, dtype, shape)
                monkeypatch.delenv(native.DISABLE_ENV)
                numpy_checked += 1
            codes.add("error" if fast.startswith("TypeError") else json.loads(fast)["code"] if fast != "null" else "none")
    # The shortcut answered many pairs and declined others; the declined ones include moved zeros read as underflow.
    assert sum(taken) >= 20 and not all(taken)
    assert {"layout_permutation", "mixed"} <= codes and numpy_checked >= 6


def _with_and_without(monkeypatch: pytest.MonkeyPatch, x: np.ndarray, y: np.ndarray, dtype: str
                      ) -> tuple[str, str, list[bool]]:
    """The signature with the shortcut, without it, and whether the shortcut answered each call."""
    taken: list[bool] = []
    closed_search = signature._closed_search

    def spy(*args: Any) -> Any:
        answer = closed_search(*args)
        taken.append(answer[0] is not None)
        return answer

    monkeypatch.setattr(signature, "_closed_search", spy)
    fast = _signed(x, y, dtype)
    monkeypatch.setattr(signature, "_closed_search", lambda *args: (None, None))
    return fast, _signed(x, y, dtype), taken


def test_a_shift_across_the_grid_that_reads_as_a_bias_is_not_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    # A ramp rolled by one row: on the grid (every other row) fused - origin is -1 but at the wrap, a bias with a
    # localised row, and so the pair's signature, though the whole is a shift (the grid is not mapped onto itself).
    y = (np.arange(600, dtype=np.float32)[:, None] + np.arange(128, dtype=np.float32)[None, :] / 1024)
    x = np.ascontiguousarray(np.roll(y, 1, axis=0))
    fast, slow, taken = _with_and_without(monkeypatch, x, y, "float32")
    assert fast == slow and taken == [False]
    assert json.loads(fast)["code"] == "mixed"


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_blocks_equal_on_every_grid_row_are_not_shortcut(monkeypatch: pytest.MonkeyPatch, dtype: str) -> None:
    # Two C0 blocks exchanged, equal on the grid's rows: the grid shows nothing beyond rounding, so the candidates
    # off the grid decide (a sampled answer), not the shortcut.
    rng = np.random.default_rng(3)
    y = cast(rng.standard_normal((1200, 64)), dtype)
    rows = signature._grid(y.shape)[0]
    y[rows, 32:] = y[rows, :32]
    x = np.ascontiguousarray(y.reshape(1200, 2, 32)[:, [1, 0], :].reshape(1200, 64))
    fast, slow, taken = _with_and_without(monkeypatch, x, y, dtype)
    assert fast == slow and taken == [False]
    assert json.loads(fast)["params"].get("sampled") is True
