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

from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.graphview.build import ViewOptions, build_display_graph
from autofuse_studio.core.graphview.filters import BOTH, DOWN, UP
from autofuse_studio.core.graphview.graph import DisplayGraph

__all__ = ["around_graph", "plain_facts"]


class _Plain:
    """Whether a model draws every op as itself, its root ops' positions and who waits for whom (control).

    Data successors are found by a pass over the inputs per hop: cheaper than building the model's whole
    consumer index first (118k tuples at 100k ops), which would delay the first paint.
    """

    def __init__(self, model: Model) -> None:
        ops = model.root.ops
        # A comprehension, not dict(zip(...)): the one C call kept the GIL for 20-70 ms at 100k ops (see graph.py).
        self.position = {op.name: number for number, op in enumerate(ops)}
        self.plain = len(model.graphs) == 1 and len(self.position) == len(ops) and not any(
            op.subgraph_names for op in ops)
        self.waiting: dict[str, list[str]] = {}  # control source -> ops with a control input from it
        for op in ops:
            for source in op.control_inputs:
                self.waiting.setdefault(source, []).append(op.name)


_CACHE: weakref.WeakKeyDictionary[Model, _Plain] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()  # both panes' workers may ask at once


def plain_facts(model: Model) -> _Plain:
    """The facts above, worked out once per model (a pass over its ops; call it early to warm the cache)."""
    with _LOCK:
        found = _CACHE.get(model)
    if found is None:
        with gc_paused():
            found = _Plain(model)
            keep_long_lived()  # it lives as long as the model, like it (see build_display_graph)
        with _LOCK:
            _CACHE[model] = found
    return found


def _step(model: Model, facts: _Plain, frontier: set[str], up: bool, control: bool) -> set[str]:
    """The ops one display edge away from the frontier: their producers (up) or their consumers."""
    found: set[str] = set()
    if up:
        for op in (model.op(name) for name in frontier):
            if op is not None:
                found.update(ref.source for ref in op.inputs if ref is not None and ref.source != op.name)
                if control:
                    found.update(source for source in op.control_inputs if source != op.name)
    else:
        for op in model.root.ops:
            if any(ref is not None and ref.source in frontier and ref.source != op.name for ref in op.inputs):
                found.add(op.name)
        if control:
            for name in frontier:
                found.update(other for other in facts.waiting.get(name, ()) if other != name)
    return {other for other in found if other in facts.position}


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
    facts = plain_facts(model)
    if not facts.plain:
        return None
    start = {op for op in seed_ops if op in facts.position}
    if not start:
        return None
    found = set(start)
    for up, wanted in ((True, UP), (False, DOWN)):
        if direction not in (wanted, BOTH):
            continue
        reached, frontier = set(start), set(start)  # each direction walks on its own, as filters.neighbourhood
        for _ in range(hops):
            frontier = _step(model, facts, frontier, up, options.show_control) - reached
            if not frontier:
                break
            reached |= frontier
        found |= reached
    position = facts.position
    ops = [op for op in (model.op(name) for name in sorted(found, key=position.__getitem__)) if op is not None]
    return build_display_graph(model, options, only=ops)
