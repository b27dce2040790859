"""Run roots made of the shared ATT sample logs (skipped when ../shared/samples is absent)."""

from __future__ import annotations

import gzip
from pathlib import Path

from autofuse_studio.core.att.runs.analysis import analyze_run
from autofuse_studio.core.att.runs.diff import CHANGED, UNCHANGED
from tests.conftest import samples_dir
from tests.core.runroots import read_line

PREFIX = b"[INFO] GE(17,python):2024-05-01-10:00:00.000.000 [tiling_func.cc:12] "


def test_the_same_logs_gzipped_deeper_and_prefixed_are_unchanged(tmp_path: Path) -> None:
    complete = samples_dir("att", "upstream-tests", "test_complete.log").read_bytes()
    perf = samples_dir("att", "synthetic", "perf_multi_case.log").read_bytes()
    root = tmp_path / "run"
    (root / "default" / "logs").mkdir(parents=True)
    (root / "default" / "logs" / "att.log").write_bytes(complete)
    (root / "default" / "perf.txt").write_bytes(perf)
    deep = root / "pgo" / "profiling" / "device0" / "plog"
    deep.mkdir(parents=True)
    prefixed = b"".join(PREFIX + line for line in complete.splitlines(keepends=True))
    (deep / "plog-17.log.gz").write_bytes(gzip.compress(prefixed))
    (root / "pgo" / "perf").write_bytes(perf)  # a log without any extension
    analysis = analyze_run(root)
    assert {d.name: d.status for d in analysis.diffs} == {"Add": UNCHANGED, "Mul": UNCHANGED,
                                                          "FlashAttentionScore": UNCHANGED}
    flash = next(d for d in analysis.diffs if d.name == "FlashAttentionScore")
    assert flash.candidate is not None and flash.candidate.groups[0].bottleneck is not None
    for diff in analysis.diffs:
        for ref in diff.evidence:
            assert analysis.texts[ref.source] == read_line(Path(ref.source.path), ref.source.line)
            if ref.side == "candidate" and ref.source.path.endswith(".gz"):
                assert analysis.texts[ref.source].startswith(PREFIX.decode())


def test_a_final_tiling_case_change(tmp_path: Path) -> None:
    text = samples_dir("att", "upstream-tests", "test_final_tiling_multigroup.log").read_text()
    root = tmp_path / "run"
    for side in ("default", "base"):
        (root / side).mkdir(parents=True)
    (root / "base" / "final.log").write_text(text)
    changed = text.replace("group=0 case_id=2 tiling_key=2", "group=0 case_id=1 tiling_key=1", 1)
    (root / "default" / "final.log").write_text(changed)
    analysis = analyze_run(root)
    assert (analysis.sides.default.label, analysis.sides.candidate.label) == ("base", "default")
    diffs = {d.name: d for d in analysis.diffs}
    assert diffs["Fusion_0"].status == CHANGED and diffs["Fusion_1"].status == UNCHANGED
    kinds = [c.kind for c in diffs["Fusion_0"].causes]
    assert kinds == ["group_case", "tiling_key"]
    refs = {(r.side, analysis.relpath(r.source), r.source.line) for r in diffs["Fusion_0"].causes[0].evidence}
    assert refs == {("default", "base/final.log", 1), ("candidate", "default/final.log", 1)}
