"""Generated graphs of widely varied shapes, and a digest of their display graphs and layouts.

Shared by the layout-equivalence tests and by the script that wrote their expected digests with the
layout code before issue 15's speed-ups (tests/core/data/graph_layouts_before.json).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import numpy as np

from autofuse_studio.core.ge.model import Graph, InputRef, Model, Op
from autofuse_studio.core.graphview import ViewOptions, build_display_graph, compute_layout
from autofuse_studio.core.graphview.build import scopes

# n ops, seed, fan-in, how far back an input reaches, share of inputs pointing forward (cycles), share of sources
KNOBS = [
    (1, 0, 1, 1, 0.0, 0.0), (2, 1, 1, 1, 0.0, 0.0), (5, 2, 2, 3, 0.2, 0.0), (40, 3, 3, 40, 0.0, 0.1),
    (120, 4, 1, 2, 0.0, 0.0), (120, 5, 6, 5, 0.05, 0.3), (300, 6, 3, 200, 0.02, 0.05), (300, 7, 2, 8, 0.0, 0.5),
    (600, 8, 4, 60, 0.01, 0.1), (800, 9, 1, 1, 0.0, 0.0), (1000, 10, 3, 1000, 0.1, 0.2), (1500, 11, 5, 15, 0.0, 0.02),
]
TYPES = ("Add", "Mul", "Conv2D", "Const")


def knob_model(n: int, seed: int, fan_in: int, span: int, back: float, sources: float) -> Model:
    """A one-graph model: scoped names, up to fan_in inputs reaching `span` ops back, some forward, some none."""
    rng = np.random.default_rng(seed)
    names = [f"s{i % 3}/b{i % 5}/n{i}" for i in range(n)]
    ops = [Op(name, TYPES[i % len(TYPES)], "g", i) for i, name in enumerate(names)]
    for i in range(1, n):
        if rng.random() < sources:
            continue
        for _ in range(int(rng.integers(1, fan_in + 1))):
            j = max(0, i - int(rng.integers(1, span + 1)))
            if rng.random() < back:
                j = min(n - 1, i + int(rng.integers(1, span + 1)))
            ops[i].inputs.append(InputRef(names[j], int(rng.integers(0, 2))))
        if rng.random() < 0.1:
            ops[i].control_inputs.append(names[int(rng.integers(0, n))])
    return Model("mem", [Graph("g", ops)])


def knob_groups(model: Model, seed: int) -> dict[str, tuple[str, ...]]:
    """Fusion groups over a model's ops: half contiguous runs, half scattered (not convex)."""
    names = [op.name for op in model.ops_in_order()]
    rng = np.random.default_rng(seed)
    groups = {}
    for number in range(len(names) // 8):
        start, size = int(rng.integers(0, len(names) - 3)), int(rng.integers(1, 6))
        groups[f"f{number}"] = (tuple(names[start:start + size]) if number % 2
                                else tuple(names[int(k)] for k in rng.integers(0, len(names), size)))
    return groups


def shapes() -> Iterator[tuple[str, Model, ViewOptions]]:
    """(name, model, options) of every generated case: plain, overlay, folded groups, scopes, no control."""
    for n, seed, fan_in, span, back, sources in KNOBS:
        model = knob_model(n, seed, fan_in, span, back, sources)
        name = f"knob{n}-{seed}"
        yield name, model, ViewOptions()
        if n >= 40:
            groups = knob_groups(model, seed)
            yield f"{name}-overlay", model, ViewOptions(fusion_groups=groups)
            yield f"{name}-folded", model, ViewOptions(fusion_groups=groups,
                                                       collapsed_groups=frozenset(list(groups)[::2]))
            yield f"{name}-scopes", model, ViewOptions(collapsed_scopes=frozenset(scopes(model, 2)))
            yield f"{name}-nocontrol", model, ViewOptions(show_control=False)


def digest(model: Model, options: ViewOptions) -> str:
    """SHA-256 of the display graph (nodes, edges, clusters) and of its layout rounded to 1e-6."""
    graph = build_display_graph(model, options)
    layout = compute_layout(graph)
    text = repr(([(n.key, n.label, n.type, n.kind, n.ops, n.cluster) for n in graph.nodes],
                 [(e.src, e.dst, e.src_op, e.src_port, e.dst_op, e.dst_port, e.control) for e in graph.edges],
                 [(c.key, c.label, c.kind, c.parent) for c in graph.clusters], layout.size))
    hasher = hashlib.sha256(text.encode())
    for array in (layout.x, layout.y, layout.width, layout.height, layout.points, layout.cluster_box):
        hasher.update(np.round(np.asarray(array, dtype=np.float64), 6).tobytes())
    for array in (layout.layer, layout.edge_src, layout.edge_dst, layout.edge_back, layout.offsets):
        hasher.update(np.asarray(array, dtype=np.int64).tobytes())
    return hasher.hexdigest()
