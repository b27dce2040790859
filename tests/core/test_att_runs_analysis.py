"""Run-root analysis: discovery by content, statuses, causes, evidence lines, hostile logs, read-only run root."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from autofuse_studio.core.att.runs.analysis import analyze_run
from autofuse_studio.core.att.runs.diff import CHANGED, ONLY_CANDIDATE, ONLY_DEFAULT, UNCHANGED
from autofuse_studio.core.att.runs.texts import cause_text
from autofuse_studio.core.errors import InputError
from tests.core.runroots import SHAPE, read_line, standard_run_root, tree_state
from tests.synth.att_runs import RunLogSpec, write_run_root


@pytest.fixture
def run_root(tmp_path: Path) -> Path:
    return standard_run_root(tmp_path / "field-run")


def _by_name(run_root: Path) -> dict[str, object]:
    return {d.name: d for d in analyze_run(run_root).diffs}


def test_logs_are_found_by_content_at_any_depth(run_root: Path) -> None:
    analysis = analyze_run(run_root)
    default, candidate = analysis.scans["default"], analysis.scans["candidate"]
    assert [log.file.relpath for log in default.logs] == ["default/logs/att.log",
                                                         "default/logs/device1/plog/plog-1_2024.log"]
    assert [log.file.relpath for log in candidate.logs] == ["pgo/att.log.gz", "pgo/profiling/run/a/b/c/slog.txt"]
    assert [f.relpath for f in candidate.plain] == ["pgo/profiling/msprof.txt"]  # a .txt without ATT lines
    categories = {f.category for f in default.listing.folders}
    assert categories == {"logs", "profiling", "kernel_meta", "dump"}
    # dump/ holds a file that looks like a log: never parsed, so Op0 has no value `x`.
    op0 = analysis.operators["default"].operators["Op0"]
    assert all("x" not in g.values for g in op0.groups.values())


def test_statuses_causes_and_order(run_root: Path) -> None:
    analysis = analyze_run(run_root)
    order = [(d.name, d.status) for d in analysis.diffs]
    assert order == [("Op3", CHANGED), ("Op2", CHANGED), ("Op1", CHANGED), ("Op5", ONLY_DEFAULT),
                     ("Op8", ONLY_CANDIDATE), ("Op0", UNCHANGED), ("Op4", UNCHANGED), ("Op6", UNCHANGED),
                     ("Op7", UNCHANGED)]
    diffs = {d.name: d for d in analysis.diffs}
    assert diffs["Op3"].perf_delta_pct == pytest.approx(25.0)
    kinds = {name: [c.kind for c in diffs[name].causes] for name in diffs}
    assert kinds["Op3"] == ["result_perf"]
    assert kinds["Op2"][0] == "best_result" and "result_perf" in kinds["Op2"]
    assert kinds["Op1"][:2] == ["group_case", "tiling_values"] and "bottleneck" in kinds["Op1"]
    assert kinds["Op4"] == ["tiling_values", "tiling_values"]  # values only: still unchanged
    assert kinds["Op0"] == []
    assert cause_text(diffs["Op1"].causes[0]) == "group 0: tiling case 0 → 2"
    assert cause_text(diffs["Op1"].causes[0], "zh") == "group 0 选中的 tiling case 0 → 2"
    bottleneck = next(c for c in diffs["Op1"].causes if c.kind == "bottleneck")
    assert (bottleneck.params["default"], bottleneck.params["candidate"]) == ("AIV_MTE3", "AIV_MTE2")


def test_every_evidence_line_shows_the_text_of_that_line(run_root: Path) -> None:
    analysis = analyze_run(run_root)
    checked = 0
    for diff in analysis.diffs:
        assert diff.evidence, diff.name
        for ref in diff.evidence:
            path = Path(ref.source.path)
            assert analysis.texts[ref.source] == read_line(path, ref.source.line)
            expected_root = analysis.sides.side(ref.side).root
            assert expected_root in path.parents
            checked += 1
    assert checked > 40
    prefixed = next(r for r in analysis.diffs[0].evidence if r.side == "candidate")
    assert analysis.texts[prefixed.source].startswith("[INFO] GE(4242,python):2024-05-01-10:00:00.000.000 [")


def test_identical_runs_are_all_unchanged(tmp_path: Path) -> None:
    root = standard_run_root(tmp_path / "same", changes={}, extra_candidate_op=False)
    analysis = analyze_run(root)
    assert {d.status for d in analysis.diffs} == {UNCHANGED}
    assert all(not d.causes and d.perf_delta_pct == 0.0 for d in analysis.diffs)
    assert {r.status for r in analysis.rows} == {UNCHANGED}


def test_base_instead_of_pgo(tmp_path: Path) -> None:
    root = standard_run_root(tmp_path / "b", candidate_name="default")
    analysis = analyze_run(root)
    assert (analysis.sides.default.label, analysis.sides.candidate.label) == ("base", "default")
    assert analysis.diffs[0].name == "Op3" and analysis.diffs[0].status == CHANGED


def test_a_side_without_att_logs_is_an_input_error(tmp_path: Path) -> None:
    root = write_run_root(tmp_path / "r", SHAPE, [RunLogSpec("logs/a.log", [0])], [], extras=False)
    (root / "pgo" / "readme.txt").write_text("nothing here\n")
    with pytest.raises(InputError, match=r"No ATT log in the candidate run .*\(1 file\(s\) that could hold logs"):
        analyze_run(root)


def test_hostile_lines_are_named_and_the_rest_goes_on(tmp_path: Path) -> None:
    root = standard_run_root(tmp_path / "h", changes={}, extra_candidate_op=False)
    log = root / "default" / "logs" / "att.log"
    huge = "9" * 5001
    with log.open("ab") as handle:
        handle.write(f"[Op0] [PROF]Among the templates, tiling case {huge} of graph0_result0_g0 is the best choice.\n"
                     .encode())
        handle.write(b"[Op0] bad bytes \xff\xfe here\n")
        handle.write(f"[Op9] [PROF]The value of ub_size is {huge} in graph0_result0_g0_0.\n".encode())
    (root / "pgo" / "broken.log.gz").write_bytes(gzip.compress(b"[Op0] [PROF]x\n")[:12])
    analysis = analyze_run(root)
    notes = " ".join(analysis.side_notes("default"))
    lines = log.read_bytes().count(b"\n")
    assert f"default/logs/att.log:{lines - 2}: an id of 5001 digits is too long (at most 19); the line is skipped" in notes
    assert f"default/logs/att.log:{lines - 1}: 1 line(s) with invalid UTF-8" in notes
    assert any("'pgo/broken.log.gz' could not be read" in n for n in analysis.side_notes("candidate"))
    diffs = {d.name: d for d in analysis.diffs}
    assert diffs["Op0"].status == UNCHANGED  # the huge case id was ignored, not taken
    assert diffs["Op9"].status == ONLY_DEFAULT


def test_a_link_pointing_outside_is_never_followed(tmp_path: Path) -> None:
    root = standard_run_root(tmp_path / "l", changes={}, extra_candidate_op=False)
    outside = tmp_path / "outside.log"
    outside.write_text("[Secret] [PROF]Among all schedule results, graph0_result0 is the best choice.\n")
    (root / "pgo" / "linked.log").symlink_to(outside)
    analysis = analyze_run(root)
    assert "Secret" not in {d.name for d in analysis.diffs}
    assert any("'pgo/linked.log' is a symbolic link" in n and "not followed" in n
               for n in analysis.side_notes("candidate"))


def test_the_run_root_is_only_read(run_root: Path) -> None:
    before = tree_state(run_root)
    run_root.chmod(0o555)
    try:
        analyze_run(run_root)
    finally:
        run_root.chmod(0o755)
    after = tree_state(run_root)
    after["."] = before["."]  # only our own chmod changed the root's mode
    assert after == before
