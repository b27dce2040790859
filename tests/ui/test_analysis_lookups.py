"""The analysis worker's look-ups: the fusion links are worked out once, while comparing, and kept for the result."""

from __future__ import annotations

import json
from typing import Any

import pytest

from autofuse_studio.core.graphview import sync
from autofuse_studio.core.progress import NEVER_CANCELLED, no_progress
from autofuse_studio.core.run.spec import RunSpec
from autofuse_studio.ui.precision import analysis
from tests.core.test_graphview_build import DEMO


def demo_spec() -> RunSpec:
    """The bundled demo case as the window runs it."""
    manifest = json.loads((DEMO / "manifest.json").read_text(encoding="utf-8"))
    graphs, data = manifest["graphs"], manifest["data"]
    return RunSpec(DEMO / graphs["af_open"], DEMO / graphs["af_close"], DEMO / data["af_open"],
                   DEMO / data["af_close"], jobs=1)


def test_the_links_worked_out_while_comparing_are_the_results(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Any] = []

    class CountedLinks(sync._Links):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            built.append(self)

    monkeypatch.setattr(sync, "_Links", CountedLinks)
    kept: list[sync.FusionIndex] = []
    lookups = analysis.case_lookups
    monkeypatch.setattr(analysis, "case_lookups", lambda case: kept.append(lookups(case)) or kept[-1])
    done = analysis.analyse(demo_spec(), lambda kind, value: None, progress=no_progress, cancel=NEVER_CANCELLED)
    assert len(kept) == 1 and done.fusion_index is not None
    assert len(built) == 1 and done.fusion_index._links is built[0]  # one set of links, made while comparing
    first = done.result.first_divergence
    assert first is not None
    assert done.fusion_index.rows_of_fused(first.fused_op)  # the result's rows are grouped on the kept links
    assert done.fusion_index.originals_of(first.fused_op)


def test_a_result_without_a_loaded_case_event_still_gets_its_links() -> None:
    done = analysis.analyse(demo_spec(), lambda kind, value: None, progress=no_progress, cancel=NEVER_CANCELLED)
    assert done.case is not None
    again = analysis.finished_analysis(done.result, done.case)  # no links given: worked out here
    assert again.fusion_index is not None and again.fusion_index._links is not done.fusion_index._links
    first = done.result.first_divergence
    assert first is not None
    assert again.fusion_index.originals_of(first.fused_op) == done.fusion_index.originals_of(first.fused_op)
