"""build_display_graph(): a GE Model -> DisplayGraph, with subgraphs in place and collapsed groups or scopes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.ge.attrs import attr_value
from autofuse_studio.core.ge.model import FUSED_TYPES, Model, Op
from autofuse_studio.core.graphview.graph import (
    CLUSTER_FUSION,
    CLUSTER_SUBGRAPH,
    NODE_FUSION,
    NODE_OP,
    NODE_SCOPE,
    Cluster,
    DisplayGraph,
    Edge,
    Node,
)

__all__ = ["ViewOptions", "build_display_graph", "expandable_ops", "scope_of", "scopes"]


@dataclass(frozen=True)
class ViewOptions:
    """What one pane shows: expanded subgraphs, fusion groups (overlay) and collapsed groups or scopes."""

    expand_subgraphs: bool = True  # draw every subgraph in place ...
    toggled_subgraphs: frozenset[str] = frozenset()  # ... except these call ops (or only these when False)
    fusion_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # fused op -> original ops
    collapsed_groups: frozenset[str] = frozenset()  # fused op names drawn as one node
    collapsed_scopes: frozenset[str] = frozenset()  # scope prefixes `a/b` drawn as one node
    show_control: bool = True


def scope_of(name: str) -> str:
    """The name scope of an op (`a/b/c` -> `a/b`), empty when the name has none."""
    return name.rpartition("/")[0]


def scopes(model: Model, depth: int | None = None) -> dict[str, int]:
    """Every scope prefix (optionally only those with `depth` components) -> number of ops inside."""
    counted: dict[str, int] = {}
    for op in model.ops_in_order():
        parts = op.name.split("/")[:-1]
        for end in range(1, len(parts) + 1):
            if depth is None or end == depth:
                prefix = "/".join(parts[:end])
                counted[prefix] = counted.get(prefix, 0) + 1
    return counted


def expandable_ops(model: Model) -> list[str]:
    """Call ops (PartitionedCall, If, While ...) whose subgraphs can be drawn in place."""
    return [op.name for op in model.ops_in_order() if op.subgraph_names and op.type not in FUSED_TYPES]


class _Builder:
    """One build: visible ops, the node each op is drawn as, then edges through the redirections."""

    def __init__(self, model: Model, options: ViewOptions, local: bool = True) -> None:
        self.model = model
        self.options = options
        self.local = local  # per-graph name look-ups for the edges: worth building for a whole graph only
        self.nodes: list[Node] = []
        self.clusters: list[Cluster] = []
        self.node_of: dict[str, int] = {}  # visible op name -> node id
        self.group_of: dict[str, str] = {}
        for fused, members in options.fusion_groups.items():
            for member in members:
                self.group_of.setdefault(member, fused)
        self.group_node: dict[str, int] = {}
        self.group_cluster: dict[str, int] = {}
        self.scope_node: dict[str, int] = {}
        self.calls: list[str] = []  # expanded call ops: not drawn, but their inputs still need edges

    def expanded(self, op: Op) -> bool:
        if not op.subgraph_names or op.type in FUSED_TYPES:
            return False
        return self.options.expand_subgraphs != (op.name in self.options.toggled_subgraphs)

    def visible_ops(self, graph_name: str, cluster: int) -> Iterator[tuple[Op, int]]:
        graph = self.model.graph(graph_name)
        if graph is None:
            return
        for op in graph.ops:
            if self.expanded(op):
                self.calls.append(op.name)
                self.clusters.append(Cluster(f"subgraph:{op.name}", f"{op.name} ({op.type})", CLUSTER_SUBGRAPH,
                                             cluster))
                inner = len(self.clusters) - 1
                for name in op.subgraph_names:
                    yield from self.visible_ops(name, inner)
            else:
                yield op, cluster

    def add_op(self, op: Op, cluster: int) -> None:
        fused = self.group_of.get(op.name)
        if fused is not None and fused in self.options.collapsed_groups:
            self.node_of[op.name] = self._group_node(fused, op, cluster)
            return
        if fused is not None:
            cluster = self._group_cluster(fused, cluster)
        scope = self._collapsed_scope(op.name)
        if scope is not None:
            self.node_of[op.name] = self._scope_node(scope, op, cluster)
            return
        self.node_of[op.name] = self._new(Node(op.name, op.name.rpartition("/")[2], op.type, NODE_OP, (op.name,),
                                               cluster))

    def _new(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def _group_node(self, fused: str, op: Op, cluster: int) -> int:
        number = self.group_node.get(fused)
        if number is None:
            members = self.options.fusion_groups[fused]
            number = self._new(Node(f"fusion:{fused}", fused, f"fused ({len(members)} ops)", NODE_FUSION, (fused,),
                                    cluster))
            self.group_node[fused] = number
        node = self.nodes[number]
        node.ops = (*node.ops, op.name)
        return number

    def _group_cluster(self, fused: str, parent: int) -> int:
        number = self.group_cluster.get(fused)
        if number is None:
            self.clusters.append(Cluster(f"fusion:{fused}", fused, CLUSTER_FUSION, parent))
            number = self.group_cluster[fused] = len(self.clusters) - 1
        return number

    def _collapsed_scope(self, name: str) -> str | None:
        collapsed = self.options.collapsed_scopes
        if not collapsed:
            return None
        parts = name.split("/")[:-1]
        for end in range(1, len(parts) + 1):  # the outermost collapsed scope wins
            prefix = "/".join(parts[:end])
            if prefix in collapsed:
                return prefix
        return None

    def _scope_node(self, scope: str, op: Op, cluster: int) -> int:
        number = self.scope_node.get(scope)
        if number is None:
            number = self._new(Node(f"scope:{scope}", scope + "/", "scope", NODE_SCOPE, (), cluster))
            self.scope_node[scope] = number
        node = self.nodes[number]
        node.ops = (*node.ops, op.name)
        node.type = f"scope ({len(node.ops)} ops)"
        return number

    def edges(self) -> list[Edge]:
        edges: list[Edge] = []
        model, node_of, control = self.model, self.node_of, self.options.show_control
        # Per-graph name look-ups as Model.op does them (the first op of a name wins), without its call per edge.
        local = {graph.name: {op.name: op for op in reversed(graph.ops)} for graph in model.graphs} if self.local \
            else {}
        for name in [*self.node_of, *self.calls]:
            op = model.op(name)
            if op is None:
                continue
            ops_here = local.get(op.graph, {})
            dst = node_of.get(name)
            for index, ref in enumerate(op.inputs):
                if ref is None:
                    continue
                src_op = ops_here.get(ref.source) or model.op(ref.source)
                if src_op is None:
                    continue
                # The common case inline (both ends drawn as themselves): one look-up, one Edge.
                src = node_of.get(ref.source)
                if src is not None and dst is not None:
                    if src != dst:
                        edges.append(Edge(src, dst, ref.source, ref.port, name, index, False, src_op.output_descs,
                                          op.input_descs))
                else:
                    self._add_edge(edges, op, index, src_op, ref.port, False)
            if control:
                for source in op.control_inputs:
                    src_op = ops_here.get(source) or model.op(source)
                    if src_op is not None:
                        self._add_edge(edges, op, -1, src_op, -1, True)
        return edges

    def _add_edge(self, edges: list[Edge], op: Op, index: int, src_op: Op, port: int, control: bool) -> None:
        """Edges from output `port` of `src_op` to input `index` of `op`, through expanded subgraphs."""
        starts = self._outputs_of(src_op, port)
        ends = self._inputs_of(op, index)
        for start in starts:
            for end in ends:
                src, dst = self.node_of.get(start), self.node_of.get(end)
                if src is not None and dst is not None and src != dst:
                    edges.append(Edge(src, dst, src_op.name, port, op.name, index, control, src_op.output_descs,
                                      op.input_descs))

    def _outputs_of(self, op: Op, port: int) -> list[str]:
        """Ops drawing output `port` of `op`: itself, or the NetOutput of each subgraph when expanded."""
        if op.name in self.node_of or not self.expanded(op):
            return [op.name]
        found = []
        for inner in self._subgraph_ops(op):
            if inner.type == "NetOutput":
                found += self._outputs_of(inner, port)
        return found

    def _inputs_of(self, op: Op, index: int) -> list[str]:
        """Ops receiving input `index` of `op`: itself, or each subgraph's Data op tagged with that index."""
        if op.name in self.node_of or not self.expanded(op):
            return [op.name]
        found = []
        for inner in self._subgraph_ops(op):
            if inner.type in ("Data", "RefData") and attr_value(inner.attrs, "_parent_node_index") == index:
                found += self._inputs_of(inner, index)
        return found

    def _subgraph_ops(self, op: Op) -> Iterator[Op]:
        """The ops of every subgraph `op` calls."""
        for name in op.subgraph_names:
            graph = self.model.graph(name)
            if graph is not None:
                yield from graph.ops


def build_display_graph(model: Model, options: ViewOptions | None = None,
                        only: Sequence[Op] | None = None) -> DisplayGraph:
    """The nodes, edges and clusters for `model` under `options` (deterministic, O(ops + edges)).

    `only`: draw just these root-graph ops, in this order, and the edges between them (around.py: for a
    model and options that draw every op as itself, so the result is the whole graph's subgraph).
    """
    builder = _Builder(model, options or ViewOptions(), local=only is None)
    # Millions of small acyclic objects: without the pause every GC pass rescans the whole model.
    with gc_paused():
        for op, cluster in list(builder.visible_ops(model.root.name, -1)) if only is None else [(o, -1) for o in only]:
            builder.add_op(op, cluster)
        graph = DisplayGraph(builder.nodes, builder.edges(), builder.clusters)
        # The graph lives as long as its pane shows it. Unfrozen, the first young collection after the pause
        # scans all of it and later full ones rescan it, each holding the GIL: 0.5-0.9 s GUI stalls per pass
        # at 100k ops. Frozen objects stay refcounted (a graph holds no cycles), so a dropped graph is freed.
        keep_long_lived()
        return graph
