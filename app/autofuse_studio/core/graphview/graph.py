"""DisplayGraph: the nodes, edges and compound boxes (clusters) one graph pane draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from autofuse_studio.core.ge.model import TensorDesc

__all__ = [
    "CLUSTER_FUSION", "CLUSTER_SUBGRAPH", "NODE_FUSION", "NODE_OP", "NODE_SCOPE",
    "Cluster", "DisplayGraph", "Edge", "Node",
]

NODE_OP = "op"  # one GE op
NODE_FUSION = "fusion"  # a collapsed fusion group (overlay mode): stands for the original ops it replaced
NODE_SCOPE = "scope"  # a collapsed name scope `a/b`: stands for every op named `a/b/...`
CLUSTER_SUBGRAPH = "subgraph"  # the ops of an expanded subgraph, boxed under its call op's name
CLUSTER_FUSION = "fusion"  # an expanded fusion group: the original ops one fused op replaced


@dataclass(slots=True)
class Node:
    """One drawn box; `ops` are the GE op names it stands for (one for a plain op)."""

    key: str
    label: str
    type: str
    kind: str
    ops: tuple[str, ...]
    cluster: int = -1  # innermost cluster holding it, -1 for none


@dataclass(slots=True)
class Edge:
    """A data (or control) edge between two nodes; desc is the tensor it carries when known."""

    src: int
    dst: int
    src_op: str
    src_port: int
    dst_op: str
    dst_port: int
    control: bool = False
    # The producer's output descs and the consumer's input descs: `desc` picks one on first use, because
    # parsing (or even indexing) a desc for each of 100k+ edges would dominate the build of a big graph.
    out_descs: Sequence[TensorDesc] = field(default=(), repr=False, compare=False)
    in_descs: Sequence[TensorDesc] = field(default=(), repr=False, compare=False)

    @property
    def desc(self) -> TensorDesc | None:
        """The tensor on this edge: the producer's output desc, else the consumer's input desc."""
        for descs, index in ((self.out_descs, self.src_port), (self.in_descs, self.dst_port)):
            if 0 <= index < len(descs):
                found = descs[index]
                if found is not None:
                    return found
        return None


@dataclass(slots=True)
class Cluster:
    """A compound box around its member nodes (and nested clusters)."""

    key: str
    label: str
    kind: str
    parent: int = -1


@dataclass
class DisplayGraph:
    """Nodes in a deterministic order (execution order), edges, clusters and name look-ups."""

    nodes: list[Node]
    edges: list[Edge]
    clusters: list[Cluster] = field(default_factory=list)
    _by_key: dict[str, int] = field(default_factory=dict, repr=False)
    _by_op: dict[str, int] = field(default_factory=dict, repr=False)
    _pairs: tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None = field(default=None, repr=False)
    _collapsed: NDArray[np.int64] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # Built in reverse so that the first node of a key (or op) wins, as setdefault would. Comprehensions,
        # not dict(zip(...)): as fast, and dict() is one C call that kept the GIL for 20-70 ms at 100k nodes
        # (the window froze while a worker built the graph); a comprehension lets other threads in.
        count = len(self.nodes)
        self._by_key = {node.key: number for number, node in zip(range(count - 1, -1, -1),
                                                                     reversed(self.nodes), strict=True)}
        ops = [(op, number) for number, node in enumerate(self.nodes) for op in node.ops]
        self._by_op = {op: number for op, number in reversed(ops)}  # noqa: C416 - not dict(): see above

    def collapsed_nodes(self) -> NDArray[np.int64]:
        """Ids of the collapsed group and scope nodes (drawn with a second border), worked out once."""
        if self._collapsed is None:
            self._collapsed = np.asarray([number for number, node in enumerate(self.nodes)
                                          if node.kind in (NODE_FUSION, NODE_SCOPE)], dtype=np.int64)
        return self._collapsed

    def __len__(self) -> int:
        return len(self.nodes)

    def node_of_key(self, key: str) -> int | None:
        """The node whose key is `key` (op name, `fusion:<name>`, `scope:<prefix>`), or None."""
        return self._by_key.get(key)

    def node_of_op(self, op_name: str) -> int | None:
        """The node that shows GE op `op_name` (itself or a collapsed group holding it), or None."""
        return self._by_op.get(op_name)

    def pairs(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """Unique (src, dst) node pairs without self loops, and for every edge its pair index (-1: loop)."""
        if self._pairs is None:
            self._pairs = self._unique_pairs()
        return self._pairs

    def _unique_pairs(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        if not self.edges:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.full(0, -1, dtype=np.int64)
        src = np.fromiter((e.src for e in self.edges), dtype=np.int64, count=len(self.edges))
        dst = np.fromiter((e.dst for e in self.edges), dtype=np.int64, count=len(self.edges))
        code = src * max(len(self.nodes), 1) + dst
        unique, inverse = np.unique(code, return_inverse=True)
        pair_src, pair_dst = unique // max(len(self.nodes), 1), unique % max(len(self.nodes), 1)
        keep = pair_src != pair_dst
        # Re-number the kept pairs; self loops (a group feeding itself) map to -1.
        new_index = np.cumsum(keep) - 1
        edge_pair = np.where(keep[inverse], new_index[inverse], -1)
        return pair_src[keep], pair_dst[keep], edge_pair.astype(np.int64)

    def adjacency(self) -> tuple[list[list[int]], list[list[int]]]:
        """(successors, predecessors) of every node over unique pairs."""
        succ: list[list[int]] = [[] for _ in self.nodes]
        pred: list[list[int]] = [[] for _ in self.nodes]
        src, dst, _ = self.pairs()
        for s, d in zip(src.tolist(), dst.tolist(), strict=True):
            succ[s].append(d)
            pred[d].append(s)
        return succ, pred

    def cluster_members(self) -> list[list[int]]:
        """Node ids directly inside each cluster."""
        members: list[list[int]] = [[] for _ in self.clusters]
        for number, node in enumerate(self.nodes):
            if node.cluster >= 0:
                members[node.cluster].append(number)
        return members

    def subgraph(self, keep: set[int] | list[int]) -> DisplayGraph:
        """A new graph with only the `keep` nodes, the edges between them and the clusters they use."""
        kept = sorted(set(keep))
        renumber = {old: new for new, old in enumerate(kept)}
        used: set[int] = set()
        for old in kept:
            cluster = self.nodes[old].cluster
            while cluster >= 0 and cluster not in used:
                used.add(cluster)
                cluster = self.clusters[cluster].parent
        cluster_ids = sorted(used)
        cluster_map = {old: new for new, old in enumerate(cluster_ids)}
        clusters = [Cluster(c.key, c.label, c.kind, cluster_map.get(c.parent, -1))
                    for c in (self.clusters[i] for i in cluster_ids)]
        nodes = [Node(n.key, n.label, n.type, n.kind, n.ops, cluster_map.get(n.cluster, -1))
                 for n in (self.nodes[i] for i in kept)]
        edges = [Edge(renumber[e.src], renumber[e.dst], e.src_op, e.src_port, e.dst_op, e.dst_port, e.control,
                      e.out_descs, e.in_descs)
                 for e in self.edges if e.src in renumber and e.dst in renumber]
        return DisplayGraph(nodes, edges, clusters)

    def edges_between(self, src: int, dst: int) -> list[Edge]:
        """Every edge from node src to node dst (for tooltips of one drawn line)."""
        return [e for e in self.edges if e.src == src and e.dst == dst]
