"""Signatures of pairs with one known fault (issue 31): the code and its key params, and the detection rates."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.precision.signature import MAX_ELEMENTS, Signature, signature
from tests.core.signature_cases import FAULTS, Case, cases
from tests.core.signature_cases import matches as _matches
from tests.core.signature_cases import same as _same


def _signature(case: Case) -> Signature | None:
    return signature(LazyTensor.plain(case.fused), LazyTensor.plain(case.origin), case.fused_dtype,
                     case.origin_dtype)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_every_case_is_named(fault: str) -> None:
    wrong = []
    for case in cases(fault):
        found = _signature(case)
        if not _matches(case, found):
            wrong.append(f"{case.name}: {found}")
    assert not wrong, "\n".join(wrong)


RATE_SEEDS = (31, 32, 33, 34, 35)  # 5 x 45 cases per fault


def test_detection_rates(capsys: pytest.CaptureFixture[str]) -> None:
    """Code and key params right, per fault over RATE_SEEDS (printed to quote; a miss lists what was found)."""
    lines, rates = [], {}
    for fault in sorted(FAULTS):
        total = hits = 0
        missed: dict[str, int] = {}
        for seed in RATE_SEEDS:
            for case in cases(fault, seed):
                total += 1
                found = _signature(case)
                if _matches(case, found):
                    hits += 1
                else:
                    code = "none" if found is None else found.code
                    missed[code] = missed.get(code, 0) + 1
        rates[fault] = hits / total
        lines.append(f"{fault:22s} {hits:4d}/{total:<4d} {hits / total:6.1%}  " +
                     " ".join(f"{code}:{count}" for code, count in sorted(missed.items())))
    with capsys.disabled():
        print("\nsignature detection rates (fault: detected/cases, misses by code found)\n" + "\n".join(lines))
    assert min(rates.values()) >= 0.95, rates


def test_sentences_and_json() -> None:
    case = next(cases("tail_block"))
    found = _signature(case)
    assert found is not None
    assert found.sentence.startswith(f"tail block: axis {case.params['axis']} from index")
    assert Signature.from_dict(found.as_dict()) == found
    import json
    json.dumps(found.as_dict(), allow_nan=False)


def test_nonfinite_everywhere_is_json_safe() -> None:
    y = np.ones((4, 4), np.float32)
    x = np.full((4, 4), np.nan, np.float32)
    found = signature(LazyTensor.plain(x), LazyTensor.plain(y), "float32", "float32")
    assert found is not None and found.code == "nonfinite_introduced"
    assert found.params["count"] == 16


def test_too_big_or_mismatched_gives_none() -> None:
    small = LazyTensor.plain(np.zeros(4, np.float32))
    assert signature(small, LazyTensor.plain(np.zeros(5, np.float32)), "float32", "float32") is None
    big = LazyTensor(np.zeros(1, np.float32), (1,), (MAX_ELEMENTS + 1,))
    assert signature(big, big, "float32", "float32") is None


BIG = (512, 1024)  # 512K elements: examined on the sample grid


def _big_pair(fault: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    y = rng.standard_normal(BIG).astype(np.float32)
    x = y.copy()
    if fault == "tail":
        x[:, 1000:] = rng.standard_normal((BIG[0], 24)).astype(np.float32) + 3
    elif fault == "bias":
        x = y + np.float32(0.25)
    elif fault == "reverse":
        x = np.ascontiguousarray(y[::-1])
    elif fault == "shift":
        x = np.roll(y, 3, axis=1)
    elif fault == "nan":
        x[5, 7] = np.nan
    return x, y


@pytest.mark.parametrize(("fault", "code", "params"), [
    ("tail", "tail_block", {"axis": 1, "first_index": 1000, "tile": 24}),
    ("bias", "bias", {"offset": 0.25}),
    ("reverse", "layout_permutation", {"transform": "reverse", "axis": 0}),
    ("shift", "layout_permutation", {"transform": "shift", "axis": 1, "shift": 3}),
    ("nan", "nonfinite_introduced", {"first_index": [5, 7]}),
])
def test_big_pairs_are_named_from_a_sample(fault: str, code: str, params: dict[str, Any]) -> None:
    x, y = _big_pair(fault)
    found = signature(LazyTensor.plain(x), LazyTensor.plain(y), "float32", "float32")
    assert found is not None and found.code == code, found
    assert all(_same(found.params.get(key), value) for key, value in params.items()), found.params
    if fault in ("tail", "bias"):  # seen in the sample (permutations and one NaN: on the whole tensors)
        assert found.params.get("sampled") is True
    assert signature(LazyTensor.plain(y), LazyTensor.plain(y.copy()), "float32", "float32") is None


def test_c0_cases_cover_every_c0_both_layouts_and_every_rank() -> None:
    """The C0 generator exchanges blocks of 8, 16 and 32, along the last axis and in NC1HWC0-like layouts, on 1-5
    axes (each named with its c0, axis and moved blocks by test_every_case_is_named)."""
    seen = {(case.name.split("-")[0], case.params["c0"], case.fused.ndim) for case in cases("c0_blocks")}
    assert {c0 for _, c0, _ in seen} == {8, 16, 32}
    assert {name for name, _, _ in seen} == {"c0_last_axis", "c0_layout"}
    assert {ndim for _, _, ndim in seen} == {1, 2, 3, 4, 5}


def test_c0_blocks_of_an_nc1hwc0_tensor() -> None:
    """fp16 NC1HWC0 (C0 = 16) with C1 slices 1 and 2 exchanged; fp32 rows whose 8-blocks 0 and 1 are exchanged."""
    rng = np.random.default_rng(5)
    y = rng.standard_normal((2, 4, 3, 3, 16)).astype(np.float16)
    found = signature(LazyTensor.plain(np.ascontiguousarray(y[:, [0, 2, 1, 3]])), LazyTensor.plain(y), "float16",
                      "float16")
    assert found is not None and found.code == "layout_permutation"
    assert found.params == {"transform": "c0_blocks", "axis": 1, "c0": 16, "moved": 2, "count": 4,
                            "blocks": [[1, 2], [2, 1]]}
    assert "blocks of C0=16 exchanged along axis 1: 2 of 4 moved, fused ← origin 1←2, 2←1" in found.sentence
    z = rng.standard_normal((5, 24)).astype(np.float32)
    swapped = np.ascontiguousarray(z.reshape(5, 3, 8)[:, [1, 0, 2]].reshape(5, 24))
    found = signature(LazyTensor.plain(swapped), LazyTensor.plain(z), "float32", "float32")
    assert found is not None and found.params["transform"] == "c0_blocks"
    assert (found.params["axis"], found.params["c0"], found.params["blocks"]) == (1, 8, [[0, 1], [1, 0]])


@pytest.mark.parametrize(("fault", "code", "params"), [
    ("sparse_inf", "nonfinite_introduced", {"count": 2, "first_index": [3, 9]}),
    ("row", "localised", {"axis": 0, "indices": [301], "count": 1}),
    ("wobble", "rounding", {}),
])
def test_big_pairs_between_the_grid_points(fault: str, code: str, params: dict[str, Any]) -> None:
    """What the sample grid misses (two Infs, one row off the grid, nothing but rounding) is found by the cheap
    whole pass and classified on the grid plus its indices; counts are the whole tensors'."""
    rng = np.random.default_rng(11)
    y = rng.standard_normal(BIG).astype(np.float32)
    x = y.copy()
    if fault == "sparse_inf":
        x[3, 9], x[400, 1001] = np.inf, -np.inf
    elif fault == "row":
        x[301] += 5
    else:
        x = (y * (1 + np.float32(2 ** -23))).astype(np.float32)
    found = signature(LazyTensor.plain(x), LazyTensor.plain(y), "float32", "float32")
    assert found is not None and found.code == code, found
    assert all(_same(found.params.get(key), value) for key, value in params.items()), found.params
    if fault == "sparse_inf":
        assert found.params["share"] == 2 / x.size


@pytest.mark.parametrize("fault", ["tail_block", "localised", "underflow", "bias", "layout_permutation", "c0_blocks"])
def test_pairs_up_to_whole_elements_are_classified_whole(fault: str) -> None:
    """Between SAMPLE_ELEMENTS and WHOLE_ELEMENTS a pair is classified whole (exact counts, no "sampled"); above
    WHOLE_ELEMENTS a region is found on the sample grid."""
    from autofuse_studio.core.precision import signature as signature_module

    rng = np.random.default_rng([12, len(fault)])
    for rows in (257, 400, signature_module.WHOLE_ELEMENTS // 256):
        case = FAULTS[fault](rng, rng.standard_normal((rows, 256)), "float32", 1.0)
        assert (case is not None and signature_module.SAMPLE_ELEMENTS < case.fused.size <= \
            signature_module.WHOLE_ELEMENTS) or fault == "c0_blocks"
        found = signature(LazyTensor.plain(case.fused), LazyTensor.plain(case.origin), "float32", "float32")
        whole = signature_module.classify(case.fused, case.origin, "float32", "float32")
        assert found is not None and whole is not None and found.as_dict() == whole.as_dict(), (rows, found)
        assert "sampled" not in json.dumps(found.as_dict())
    case = FAULTS["tail_block"](rng, rng.standard_normal((signature_module.WHOLE_ELEMENTS // 256 + 1, 256)),
                                "float32", 1.0)
    assert case is not None
    found = signature(LazyTensor.plain(case.fused), LazyTensor.plain(case.origin), "float32", "float32")
    assert found is not None and found.code == "tail_block" and found.params.get("sampled") is True
