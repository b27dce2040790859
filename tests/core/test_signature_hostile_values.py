"""Signatures of pairs salted with NaN and Inf: always an answer (a sentence, JSON-ready params), never a crash.

A pair big enough to be classified on a grid has its grid's signature mapped onto the whole; a NaN median or
correlation there is stored as None (JSON has no NaN) and its sentence used to raise TypeError, failing the run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision import native
from autofuse_studio.core.precision import signature as signature_module
from autofuse_studio.core.precision.signature import signature
from tests.core.signature_cases import FAULTS, STORED

SHAPES = ((300,), (48, 40), (720, 96), (64, 24, 40))  # the last two are classified on a grid
SALTS = (np.nan, np.inf, -np.inf)


def _salted(values: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    salted = values.copy()
    flat = salted.reshape(-1)
    for _ in range(count):
        flat[rng.integers(0, flat.size)] = SALTS[int(rng.integers(0, len(SALTS)))]
    return salted


def _signed(fused: np.ndarray, origin: np.ndarray, fused_dtype: str, origin_dtype: str) -> None:
    found = signature(LazyTensor.plain(fused), LazyTensor.plain(origin), fused_dtype, origin_dtype)
    if found is not None:
        assert isinstance(found.sentence, str) and found.sentence
        json.dumps(found.params, allow_nan=False)  # NaN/Inf are None in the params


@pytest.mark.parametrize("native_on", [True, False], ids=["native", "numpy"])
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_every_fault_salted_with_nan_and_inf_gets_a_signature(fault: str, native_on: bool,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if not native_on:
        monkeypatch.setenv(native.DISABLE_ENV, "1")
    rng = np.random.default_rng(len(fault))
    for shape in SHAPES:
        for dtype in ("float16", "float32"):
            case = FAULTS[fault](rng, rng.standard_normal(shape), dtype, 1.0)
            if case is None:
                continue
            fused, origin = case.fused, case.origin
            for count in (1, 2, 5):
                _signed(_salted(fused, rng, count), _salted(origin, rng, count), case.fused_dtype, case.origin_dtype)
                _signed(_salted(fused, rng, count), origin, case.fused_dtype, case.origin_dtype)


def test_exchanged_c0_blocks_with_nans_on_both_sides_are_signed() -> None:
    """The case that failed: float32 (720, 96), C0=16 blocks exchanged, two NaN per side."""
    rng = np.random.default_rng(0)
    answered = 0
    for _ in range(40):
        origin = rng.standard_normal((720, 96)).astype(STORED["float32"])
        fused = origin.reshape(720, 6, 16)[:, rng.permutation(6), :].reshape(720, 96).copy()
        for side in (origin, fused):
            side.reshape(-1)[rng.integers(0, side.size, 2)] = np.nan
        found = signature(LazyTensor.plain(fused), LazyTensor.plain(origin), "float32", "float32")
        assert found is not None
        answered += "nan" in found.sentence
    assert answered  # some of them are unclassified with a NaN median relative error, said as nan


@pytest.mark.parametrize(("code", "params"), [
    ("overflow", {"count": 3, "limit": None}),
    ("underflow", {"share": None}),
    ("bias", {"offset": None}),
    ("scale", {"factor": None}),
    ("rounding", {"ulps": 4.0, "eps": None, "max_rel_err": None}),
    ("uncorrelated", {"correlation": None}),
    ("unclassified", {"differing_share": None, "median_rel_err": None}),
])
def test_a_sentence_reads_a_missing_number_as_nan(code: str, params: dict[str, object]) -> None:
    assert "nan" in signature_module._sentence(code, params)
