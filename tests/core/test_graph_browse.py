"""Graphs without dumps: the case says it is for browsing and what is missing; load_graphs maps the fusion."""

from __future__ import annotations

from pathlib import Path

import pytest

import autofuse_studio.core.ge.model as model_module
from autofuse_studio.core.case import CaseFiles, detect_roles
from autofuse_studio.core.graphview.browse import load_graphs
from autofuse_studio.core.graphview.start import start_op

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def test_graphs_only_and_missing_roles(tmp_path: Path) -> None:
    graph = next((DEMO / "af_open").glob("*.json"))
    case = detect_roles([graph]).case
    assert case.af_open_graph == graph and case.graphs_only()
    assert case.missing_roles() == ["af_close_graph", "af_open_data", "af_close_data"]
    assert not CaseFiles().graphs_only()
    assert not CaseFiles(af_open_graph=graph, af_open_data=tmp_path).graphs_only()
    assert not CaseFiles(af_open_graph=graph, npy_a=tmp_path / "a.npy").graphs_only()


def test_load_graphs_maps_the_fusion_from_the_graphs() -> None:
    af_open, af_close = next((DEMO / "af_open").glob("*.json")), next((DEMO / "af_close").glob("*.json"))
    graphs = load_graphs(af_open, af_close)
    assert graphs.af_open is not None and graphs.af_close is not None and graphs.mapping is not None
    first = graphs.mapping.fused_ops[0]
    assert first.original_op_names and all(graphs.af_close.op(name) for name in first.original_op_names)
    assert start_op(graphs.af_open, graphs.af_close, graphs.mapping, None) == (first.op.name, True)
    alone = load_graphs(None, af_close)
    assert alone.af_open is None and alone.mapping is None
    assert start_op(None, alone.af_close, None, None) == (alone.af_close.ops_in_order()[0].name, False)


def test_load_graphs_sorts_the_ops_so_the_tab_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Graph tab opens a graph alone on its first op by order: sorted by the loader (a worker), the tab's own
    look-up (on the GUI thread) sorts nothing."""
    af_open, af_close = next((DEMO / "af_open").glob("*.json")), next((DEMO / "af_close").glob("*.json"))
    graphs = load_graphs(af_open, af_close)

    def no_sort(*_args: object, **_kwargs: object) -> list[object]:
        raise AssertionError("the ops were sorted again after loading")

    monkeypatch.setattr(model_module, "sorted", no_sort, raising=False)  # found before the builtin
    for model in (graphs.af_open, graphs.af_close):
        assert model is not None and model.ops_in_order()
    assert start_op(None, graphs.af_close, None, None) is not None
