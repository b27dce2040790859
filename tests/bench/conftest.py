"""Benchmarks measure the app: they opt in to freezing long-lived objects as the CLI and the GUI do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from autofuse_studio.core.gc_pause import long_lived_freezing


@pytest.fixture(autouse=True)
def _as_the_application() -> Iterator[None]:
    """Core freezes its models and results here, as under `autofuse-studio` (library calls do not)."""
    with long_lived_freezing():
        yield
