"""Why a run found nothing, and which files each notice concerns (core/precision/explain.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.precision.explain import (
    EMPTY_REASONS,
    NO_COMMON_STEPS,
    NO_FUSED_OPS,
    NOTHING_COMPARED,
    CasePaths,
    empty_reason,
    item_line,
    notice_files,
)
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.precision.thresholds import Thresholds
from tests.core.conftest import mode1_request

PATHS = CasePaths({"af-open": "/g/open.json", "af-close": "/g/close.json"},
                  {"af-open": "/d/open", "af-close": "/d/close"})


def _plain_graph(path: Path) -> Path:
    """A valid GE graph JSON without a single fused op."""
    path.write_text(json.dumps({"graph": [{"name": "g", "op": [{"name": "a", "type": "Add"}]}]}), encoding="utf-8")
    return path


def test_a_graph_without_fused_ops_says_so(coverage_case: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    root, manifest = coverage_case
    request = replace(mode1_request(root, manifest), af_open_graph=_plain_graph(tmp_path / "plain.json"))
    result = run_mode1(request)
    assert result.rows == []
    notice = next(notice for notice in result.notices if notice.kind == NO_FUSED_OPS)
    assert notice.side == "af-open" and "plain.json has no fused operators" in notice.message
    assert "swapped" not in notice.message  # the af-close graph of this case has no fused ops either
    assert notice_files(notice, PATHS) == [str(tmp_path / "plain.json")]
    assert empty_reason(result) == NO_FUSED_OPS
    assert EMPTY_REASONS[NO_FUSED_OPS].startswith("0 rows: the af-open graph has no fused operators")


def test_swapped_graphs_get_a_hint(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    request = mode1_request(root, manifest)
    swapped = replace(request, af_open_graph=request.af_close_graph, af_close_graph=request.af_open_graph)
    notice = next(notice for notice in run_mode1(swapped).notices if notice.kind == NO_FUSED_OPS)
    assert "were the two graphs swapped?" in notice.message


def test_a_normal_run_has_no_empty_reason(coverage_case: tuple[Path, dict[str, Any]]) -> None:
    root, manifest = coverage_case
    result = run_mode1(mode1_request(root, manifest))
    assert empty_reason(result) is None
    assert not any(notice.kind == NO_FUSED_OPS for notice in result.notices)
    rows_notice = next(notice for notice in result.notices if notice.kind.startswith("row_"))
    files = notice_files(rows_notice, PATHS)
    named = {file for item in rows_notice.items for file in (item["fused_file"], item["origin_file"]) if file}
    assert files and set(files) <= named
    assert item_line(rows_notice.items[0]).startswith(rows_notice.items[0]["fused_op"])


@pytest.mark.parametrize(("steps", "expected"), [([], NO_COMMON_STEPS), (["0"], NOTHING_COMPARED)])
def test_empty_reasons_without_a_notice(steps: list[str], expected: str) -> None:
    assert empty_reason(PrecisionResult([], Thresholds(), steps=steps)) == expected


@pytest.mark.parametrize(("notice", "files"), [
    (Notice("graph", "bad attr", side="af-close"), ["/g/close.json"]),
    (Notice("older_runs_ignored", "runs", side="af-open"), ["/d/open"]),
    (Notice("dumped_several_times", "twice"), ["/d/open", "/d/close"]),
    (Notice("unreadable_folder", "x", items=[{"path": "/d/open/x", "reason": "denied"}]), ["/d/open/x"]),
])
def test_notice_files(notice: Notice, files: list[str]) -> None:
    assert notice_files(notice, PATHS) == files


@pytest.mark.parametrize(("item", "line"), [
    ({"fused_op": "f", "kind": "output", "fused_index": 0, "rank": "3", "step": "1", "message": "gone"},
     "f output 0 (rank 3, step 1): gone"),
    ({"message": "Fused op 'f' output 1 has no usable attributes"}, "Fused op 'f' output 1 has no usable attributes"),
    ({"rank": "2", "used": "t2", "ignored": ["t0", "t1"]}, "rank: 2, used: t2, ignored: t0, t1"),
])
def test_item_lines(item: dict[str, Any], line: str) -> None:
    assert item_line(item) == line
