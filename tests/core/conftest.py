"""Fixtures shared by the core tests: the generated full-coverage mode-1 case and requests for it, the kernel's
SIMD and plain-C paths."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.precision import native, signature
from autofuse_studio.core.run.spec import RunSpec
from tests.synth import full_coverage_spec, generate_case


@pytest.fixture(scope="session")
def coverage_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The generated case with every status and verdict (read-only: shared by the whole session)."""
    root = tmp_path_factory.mktemp("coverage")
    generate_case(root, full_coverage_spec())
    return root, json.loads((root / "manifest.json").read_text(encoding="utf-8"))


def mode1_request(root: Path, manifest: dict[str, Any], **options: Any) -> RunSpec:
    """The RunSpec of a generated case's graphs and dump folders."""
    return RunSpec(root / manifest["graphs"]["af_open"], root / manifest["graphs"]["af_close"],
                        root / manifest["data"]["af_open"], root / manifest["data"]["af_close"], **options)


@pytest.fixture(params=["simd", "baseline"])
def simd(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run with the kernel's AVX2 code (where the CPU has it) and with its plain C baseline (native path on)."""
    monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    library = native.kernel_library()
    assert library is not None
    level = library.af_use_simd(int(request.param == "simd"))
    assert request.param == "simd" or level == 0
    yield request.param
    library.af_use_simd(1)


@pytest.fixture
def grid_above_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample grid's path for every pair above SAMPLE_ELEMENTS, as before WHOLE_ELEMENTS (pairs up to it are
    classified whole now): the tests written for the grid keep their 70K-100K pairs on it."""
    monkeypatch.setattr(signature, "WHOLE_ELEMENTS", signature.SAMPLE_ELEMENTS)
