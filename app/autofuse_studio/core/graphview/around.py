"""around_graph(): a neighbourhood view without building the whole display graph first.

The Graph tab opens on 2 hops around the first divergence. Building the display graph of a 100k-op model
only to keep a dozen of its nodes took most of a second per pane; when every op is drawn as itself (no
subgraphs, fusion boxes, folded groups or scopes) the neighbourhood can be walked on the ops directly and
only its ops built: the result is the same graph as neighbourhood_graph(build_display_graph(...)).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable

from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.build import ViewOptions, build_display_graph
from autofuse_studio.core.graphview.filters import BOTH, DOWN, UP
from autofuse_studio.core.graphview.graph import DisplayGraph

__all__ = ["around_graph"]


class _OpGraph:
    """Ops of a one-graph model by number with their predecessors and successors (data and control)."""

    def __init__(self, model: Model, control: bool) -> None:
        ops = model.root.ops
        self.names = [op.name for op in ops]
        self.number = {name: index for index, name in enumerate(self.names)}
        self.plain = len(model.graphs) == 1 and len(self.number) == len(ops) and not any(
            op.subgraph_names for op in ops)
        self.pred: list[set[int]] = [set() for _ in ops]
        self.succ: list[set[int]] = [set() for _ in ops]
        for index, op in enumerate(ops):
            sources = [ref.source for ref in op.inputs if ref is not None]
            for source in [*sources, *op.control_inputs] if control else sources:
                other = self.number.get(source)
                if other is not None and other != index:  # self loops are no display edges
                    self.pred[index].add(other)
                    self.succ[other].add(index)


_CACHE: weakref.WeakKeyDictionary[Model, dict[bool, _OpGraph]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()  # both panes' workers may ask at once


def _op_graph(model: Model, control: bool) -> _OpGraph:
    """The op graph of a model, built once (a pass over every op, ~0.1 s at 100k ops)."""
    with _LOCK:
        found = _CACHE.setdefault(model, {}).get(control)
    if found is None:
        found = _OpGraph(model, control)
        with _LOCK:
            _CACHE[model][control] = found
    return found


def _simple(options: ViewOptions) -> bool:
    """True when the options draw every op as its own node (no boxes, no folding)."""
    return not (options.fusion_groups or options.collapsed_groups or options.collapsed_scopes)


def around_graph(model: Model, options: ViewOptions, seed_ops: Iterable[str], hops: int | None,
                 direction: str = BOTH) -> DisplayGraph | None:
    """The graph of the ops within `hops` of the seeds, or None when this shortcut does not apply.

    None: options or model draw some ops otherwise than as themselves, no seed is in the graph, or the
    walk is unlimited (the caller then builds the whole graph and filters it).
    """
    if hops is None or not _simple(options):
        return None
    ops = _op_graph(model, options.show_control)
    if not ops.plain:
        return None
    start = {number for number in (ops.number.get(op) for op in seed_ops) if number is not None}
    if not start:
        return None
    found = set(start)
    for neighbours, wanted in ((ops.pred, UP), (ops.succ, DOWN)):
        if direction not in (wanted, BOTH):
            continue
        reached, frontier = set(start), set(start)  # each direction walks on its own, as filters.neighbourhood
        for _ in range(hops):
            frontier = {other for node in frontier for other in neighbours[node]} - reached
            reached |= frontier
        found |= reached
    return build_display_graph(model, options, only=frozenset(ops.names[number] for number in found))
