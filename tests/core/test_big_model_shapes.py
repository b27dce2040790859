"""The big-model benchmark's graph shapes (tests/synth/big_model.py) leave mode 1's rows as they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.run.spec import RunSpec
from tests.synth import CaseSpec, generate_case
from tests.synth.big_model import GraphShape, write_shape


def _rows(root: Path, graphs: dict[str, str], data: dict[str, str]) -> list[Any]:
    spec = RunSpec(str(root / graphs["af_open"]), str(root / graphs["af_close"]), str(root / data["af_open"]),
                   str(root / data["af_close"]))
    result = run_mode1(spec)
    return [(r.fused_op, r.kind, r.fused_index, r.origin_op, r.origin_index, r.status, r.metrics, r.fused_file,
             r.origin_file) for r in result.rows]


@pytest.mark.parametrize("shape", [GraphShape("compact", attrs="lean"), GraphShape("indented", attrs="heavy", outputs=3),
                                   GraphShape("compact", pad_ops=50)], ids=["lean", "heavy-3out", "padded"])
def test_shapes_keep_the_rows(tmp_path: Path, shape: GraphShape) -> None:
    root = tmp_path / "case"
    manifest = generate_case(root, CaseSpec(seed=5, n_fused=12, elements=8, chains=2, culprit=6))
    before = _rows(root, manifest.graphs, manifest.data)
    assert len(before) >= 12 and any(row[5] == "OK" for row in before)
    original = (root / manifest.graphs["af_close"]).read_bytes()
    size = write_shape(root, manifest.graphs, shape)
    assert size > 0 and (root / manifest.graphs["af_close"]).read_bytes() != original
    assert _rows(root, manifest.graphs, manifest.data) == before
