"""The Python API on arguments of the wrong shape: InputError with a sentence, never a raw Python error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio import api
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.rank_ids import rank_list


@pytest.fixture(scope="module")
def npys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("npys")
    values = np.arange(1, 17, dtype=np.float16)
    np.save(folder / "a.npy", values)
    np.save(folder / "b.npy", values)
    return folder / "a.npy", folder / "b.npy"


@pytest.mark.parametrize(("dtype_thresholds", "message"), [
    ([1], "dtype_thresholds must map dtype names to limits"),
    ("float16", "dtype_thresholds must map dtype names to limits"),
    ({"float16": 0.9}, r"dtype_thresholds\['float16'\] must map limit names to numbers"),
    ({"float16": [0.9]}, r"dtype_thresholds\['float16'\] must map limit names to numbers"),
    ({"flaot16": {"cosine": 0.9}}, "unknown dtype 'flaot16' \\(use bool, int4"),
    ({5: {"cosine": 0.9}}, "unknown dtype 5"),
    ({"float16": {"cosinus": 0.9}}, "unknown limit 'cosinus'"),
    ({"float16": {1: 0.9}}, "unknown limit '1'"),
    ({"float16": {"cosine": "0.9"}}, "must be a number"),
])
def test_bad_dtype_thresholds_are_input_errors(npys: tuple[Path, Path], dtype_thresholds: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        api.make_thresholds(dtype_thresholds=dtype_thresholds)
    with pytest.raises(InputError, match=message):
        api.compare_npys(*npys, dtype_thresholds=dtype_thresholds)


def test_dtype_names_numpy_or_dump_style_both_work(npys: tuple[Path, Path]) -> None:
    strict = {"cosine": 1.0, "max_abs": 0.0}
    for name in ("float16", "DT_FLOAT16", "fp16", "dt_float16"):
        thresholds = api.make_thresholds(dtype_thresholds={name: {"cosine": 0.5}})
        assert thresholds.limits_for("float16").cosine == 0.5
        assert thresholds.limits_for("float32").cosine == 0.99
        assert api.compare_npys(*npys, dtype_thresholds={name: strict}).passed is True  # identical tensors


@pytest.mark.parametrize(("ranks", "message"), [
    (["x"], "ranks takes device ids"),
    ([1.5], "ranks takes device ids"),
    ([True], "ranks takes device ids"),
    ([-1], "ranks takes device ids"),
    ("0,a", "ranks takes device ids"),
    ("", "ranks takes device ids"),
    ("1" * 5000, "ranks takes device ids"),
    ([object()], "ranks takes device ids"),
])
def test_bad_ranks_are_input_errors(ranks: Any, message: str) -> None:
    case = api.demo_case()
    with pytest.raises(InputError, match=message):
        api.compare_case(*case, ranks=ranks)


def test_ranks_as_text_or_numbers() -> None:
    assert rank_list("0,1", "ranks") == ["0", "1"]
    assert rank_list(" 007 , 3,7", "ranks") == ["7", "3"]
    assert rank_list([0, "2", 2], "ranks") == ["0", "2"]
    assert len(api.compare_case(*api.demo_case(), ranks="0")) > 0  # the demo case has no rank folders: all rows


def test_jobs_must_be_a_number() -> None:
    with pytest.raises(InputError, match="jobs must be a whole number"):
        api.compare_case(*api.demo_case(), jobs="4")  # type: ignore[arg-type]
