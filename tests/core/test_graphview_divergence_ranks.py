"""The report's picture of a multi-rank run: both panels coloured by the first divergence's rank and step."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.ge.fusion import build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.divergence import first_divergence_picture
from autofuse_studio.core.graphview.style import VERDICT_FILLS
from autofuse_studio.core.graphview.sync import worst_verdict
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, PrecisionResult, PrecisionRow
from autofuse_studio.core.run.spec import RunSpec
from tests.core.test_graphview_divergence import panel_nodes
from tests.synth import generate_case
from tests.synth.spec import multi_rank_spec


@pytest.fixture(scope="module")
def ranked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Model, Model, PrecisionResult]:
    """Four ranks, two steps, the culprit computing wrong on rank 2 only."""
    root: Path = tmp_path_factory.mktemp("ranked")
    manifest = generate_case(root, multi_rank_spec())
    graphs, data = manifest.graphs, manifest.data
    request = RunSpec(root / graphs["af_open"], root / graphs["af_close"], root / data["af_open"],
                           root / data["af_close"], jobs=1)
    return load_model(root / graphs["af_open"]), load_model(root / graphs["af_close"]), run_mode1(request)


def _fill(rows: list[PrecisionRow]) -> str:
    verdict = worst_verdict(rows)
    assert verdict is not None
    return VERDICT_FILLS[verdict]


def test_both_panels_show_the_verdicts_of_the_divergence_rank_and_step(
        ranked: tuple[Model, Model, PrecisionResult]) -> None:
    af_open, af_close, result = ranked
    first = result.first_divergence
    assert first is not None and first.rank == "2"
    mapping = build_fusion_mapping(af_open)
    picture = first_divergence_picture(af_open, af_close, mapping, result)
    assert picture is not None
    # Expected colours from that rank's and step's rows alone, worked out here without the graph code.
    rows = [row for row in result.rows if row.rank == first.rank and row.step == first.step]
    fused = panel_nodes(picture.items, "panel-fused")
    compared = {row.fused_op for row in rows} & set(fused)
    assert first.fused_op in compared and len(compared) >= 3
    for op in compared:
        assert fused[op].fill == _fill([row for row in rows if row.fused_op == op]), op
    original = panel_nodes(picture.items, "panel-original")
    checked = 0
    for op in {row.origin_op for row in rows if row.origin_op} & set(original):
        replaced_by = {f.op.name for f in mapping.fused_ops
                       if op in f.original_op_names or any(out.origin_op == op for out in f.outputs)}
        own = [row for row in rows if row.origin_op == op or row.fused_op in replaced_by]
        assert original[op].fill == _fill(own), op
        checked += 1
    assert checked >= 2
    # Colouring by every rank at once would look different: elsewhere the same op is fine.
    assert VERDICT_CULPRIT not in {row.verdict for row in result.rows if row.rank == "0" and row.fused_op == first.fused_op}
