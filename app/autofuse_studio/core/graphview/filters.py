"""Neighbourhood filters and traces over a DisplayGraph: N hops up/downstream, all inputs or outputs."""

from __future__ import annotations

from collections.abc import Iterable

from autofuse_studio.core.graphview.graph import DisplayGraph

__all__ = ["AROUND_HOPS", "BOTH", "DOWN", "UP", "neighbourhood", "neighbourhood_graph", "trace"]

UP = "up"  # producers (inputs)
DOWN = "down"  # consumers (outputs)
BOTH = "both"
AROUND_HOPS = 2  # the "around selection" view the Graph tab opens on, and the report's picture


def neighbourhood(graph: DisplayGraph, seeds: Iterable[int], hops: int | None, direction: str = BOTH) -> set[int]:
    """Nodes within `hops` edges of any seed (None: unlimited) following edges up, down or both ways."""
    succ, pred = graph.adjacency()
    start = {seed for seed in seeds if 0 <= seed < len(graph.nodes)}
    found = set(start)
    for neighbours, wanted in ((pred, UP), (succ, DOWN)):
        if direction in (wanted, BOTH):
            found |= _walk(neighbours, start, hops)
    return found


def _walk(neighbours: list[list[int]], start: set[int], hops: int | None) -> set[int]:
    """Breadth-first reach from `start` along one direction, at most `hops` steps."""
    reached = set(start)
    frontier = list(start)
    depth = 0
    while frontier and (hops is None or depth < hops):
        depth += 1
        step = []
        for node in frontier:
            for other in neighbours[node]:
                if other not in reached:
                    reached.add(other)
                    step.append(other)
        frontier = step
    return reached


def trace(graph: DisplayGraph, node: int, direction: str) -> set[int]:
    """Every node feeding `node` (UP) or fed by it (DOWN), transitively, including itself."""
    return neighbourhood(graph, [node], None, direction)


def neighbourhood_graph(graph: DisplayGraph, seeds: Iterable[int], hops: int | None,
                        direction: str = BOTH) -> DisplayGraph:
    """The subgraph keeping only the neighbourhood of the seeds (the pane's filter)."""
    return graph.subgraph(neighbourhood(graph, seeds, hops, direction))
