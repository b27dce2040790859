"""Graphs opened without dumps (as a model is opened in Netron): parse them and map the fusion from the graphs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.ge.fusion import FusionMapping, build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

__all__ = ["BrowsedGraphs", "load_graphs"]


@dataclass
class BrowsedGraphs:
    """One or two parsed graphs and the fusion mapping of the af-open one (None without an af-open graph)."""

    af_open: Model | None
    af_close: Model | None
    mapping: FusionMapping | None


def load_graphs(af_open: Path | None, af_close: Path | None, *, progress: Progress = no_progress,
                cancel: CancelToken = NEVER_CANCELLED) -> BrowsedGraphs:
    """Parse the given graphs; the mapping (fused op -> original ops) comes from the af-open graph's attributes."""
    total = (af_open is not None) + (af_close is not None)
    progress(0, total, "parsing graphs")
    open_model = load_model(af_open, cancel) if af_open is not None else None
    progress(int(open_model is not None), total, "parsing graphs")
    close_model = load_model(af_close, cancel) if af_close is not None else None
    cancel.check()
    mapping = build_fusion_mapping(open_model) if open_model is not None else None
    for model in (open_model, close_model):
        if model is not None:
            # Sorted here (cached on the model): the Graph tab opens a graph alone on its first op, and that
            # sort of 100k ops took the GUI thread 15-35 ms.
            model.ops_in_order()
    progress(total, total, "parsing graphs")
    return BrowsedGraphs(open_model, close_model, mapping)
