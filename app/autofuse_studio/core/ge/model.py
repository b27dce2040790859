"""The GE graph Model: graphs, ops, tensor descs, name look-ups and data-edge resolution across subgraphs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import msgspec

from autofuse_studio.core.ge.attrs import attr_value
from autofuse_studio.core.ge.fast_json import decode_desc, raw_mentions, split_descs

__all__ = ["FUSED_TYPES", "Graph", "InputRef", "Model", "Op", "TensorDesc", "attr_value"]

# Op types whose outputs GE produces through a fused compute graph; producer() never descends into them.
FUSED_TYPES = frozenset({"AscBackend", "FusedAscBackend"})
# Deep enough for any real nesting (If inside While inside PartitionedCall ...), bounded against cycles.
_MAX_HOPS = 256


@dataclass(slots=True)
class TensorDesc:
    """One input or output tensor descriptor; attrs holds raw AttrDefs (read them with attr_value)."""

    dtype: str | None = None
    layout: str | None = None
    shape: tuple[int, ...] | None = None
    origin_format: str | None = None
    origin_shape: tuple[int, ...] | None = None
    attrs: dict[str, Any] = field(default_factory=dict)


def _raw_has_attr(raw: Any, key: str) -> bool:
    """True when a raw TensorDescriptor's attr map (key/value list or dict) holds `key`."""
    if isinstance(raw, msgspec.Raw):
        if not raw_mentions(raw, key):
            return False  # most descs: no decoding at all
        raw = decode_desc(raw)
    attrs = raw.get("attr") if isinstance(raw, dict) else None
    if isinstance(attrs, dict):
        return key in attrs
    if isinstance(attrs, list):
        return any(isinstance(entry, dict) and entry.get("key") == key for entry in attrs)
    return False


class DescList(Sequence[TensorDesc]):
    """An op's descs, each parsed on first access: most descs of a big graph are never read.

    Given `text` (the raw JSON of the whole list, from the typed decoder), the list is split into its raw
    descs on first use; ops whose desc lists have the same text may share one DescList (build._shared_descs).
    """

    __slots__ = ("_made", "_parse", "_raw", "_text")

    def __init__(self, raw: Sequence[Any], parse: Callable[[Any], TensorDesc],
                 text: msgspec.Raw | None = None) -> None:
        self._raw = raw
        self._parse = parse
        self._made: list[TensorDesc | None] | None = None  # made on first access: most lists never are
        self._text = text

    def _items(self) -> Sequence[Any]:
        """The raw descs (the list's text split on first call)."""
        text = self._text
        if text is not None:
            self._raw = split_descs(text)
            self._text = None  # after _raw is set: another thread seeing None also sees the split
        return self._raw

    def __len__(self) -> int:
        return len(self._items())

    def any_has_attr(self, key: str) -> bool:
        """True when some desc carries attribute `key`, checked on the raw descs (nothing is parsed)."""
        text = self._text
        if text is not None and not raw_mentions(text, key):
            return False  # most lists: one search over the list's text, nothing split
        return any(_raw_has_attr(raw, key) for raw in self._items())

    def _one(self, index: int) -> TensorDesc:
        raws = self._items()
        cache = self._made
        if cache is None:
            cache = self._made = [None] * len(raws)
        made = cache[index]
        if made is None:
            made = cache[index] = self._parse(raws[index])
        return made

    @overload
    def __getitem__(self, index: int) -> TensorDesc: ...

    @overload
    def __getitem__(self, index: slice) -> list[TensorDesc]: ...

    def __getitem__(self, index: int | slice) -> TensorDesc | list[TensorDesc]:
        if isinstance(index, slice):
            return [self._one(i) for i in range(len(self))[index]]
        return self._one(range(len(self))[index])  # range() normalises negatives and raises IndexError

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"DescList({list(self)!r})"


@dataclass(slots=True, frozen=True)
class InputRef:
    """A data edge end: output `port` of op `source`."""

    source: str
    port: int


@dataclass(slots=True)
class Op:
    """One GE op; inputs[i] (None for an unconnected optional input) pairs with input_descs[i].

    Read-only once built: empty lists may be one object shared by many ops (build._NONE).
    """

    name: str
    type: str
    graph: str
    order: int
    inputs: list[InputRef | None] = field(default_factory=list)
    control_inputs: list[str] = field(default_factory=list)
    input_descs: Sequence[TensorDesc] = field(default_factory=list)
    output_descs: Sequence[TensorDesc] = field(default_factory=list)
    attrs: dict[str, Any] = field(default_factory=dict)
    subgraph_names: list[str] = field(default_factory=list)


@dataclass
class Graph:
    """One (sub)graph; ops are in execution order; parent_op names the op that calls it (None for root)."""

    name: str
    ops: list[Op]
    parent_op: str | None = None


class Model:
    """All graphs of one GE dump file with per-graph and global op look-ups."""

    def __init__(self, path: str, graphs: list[Graph], warnings: list[str] | None = None) -> None:
        self.path = path
        self.graphs = graphs
        self.warnings: list[str] = warnings if warnings is not None else []
        self._graph_by_name: dict[str, Graph] = {}
        self._ops_by_graph: dict[str, dict[str, Op]] = {}
        self._ops: dict[str, Op] = {}
        self._consumers: dict[str, list[tuple[Op, int]]] | None = None
        self._ordered: list[Op] | None = None
        for graph in graphs:
            self._graph_by_name.setdefault(graph.name, graph)
            local = self._ops_by_graph.setdefault(graph.name, {})
            for op in graph.ops:
                local.setdefault(op.name, op)
                self._ops.setdefault(op.name, op)

    def __repr__(self) -> str:
        return f"Model({self.path!r}, graphs={len(self.graphs)}, ops={len(self._ops)})"

    @property
    def root(self) -> Graph:
        """The main graph (graph[0])."""
        return self.graphs[0]

    def graph(self, name: str) -> Graph | None:
        """The graph called `name`, or None."""
        return self._graph_by_name.get(name)

    def op(self, name: str, graph: str | None = None) -> Op | None:
        """The op called `name`, looked up in `graph` first, then in the whole model."""
        if graph is not None:
            local = self._ops_by_graph.get(graph)
            if local is not None:
                found = local.get(name)
                if found is not None:
                    return found
        return self._ops.get(name)

    def ops_in_order(self) -> list[Op]:
        """Every op of every graph by global execution order."""
        if self._ordered is None:
            self._ordered = sorted((op for g in self.graphs for op in g.ops), key=lambda op: op.order)
        return list(self._ordered)

    def producer(self, op: Op, input_index: int) -> tuple[Op, int] | None:
        """The op and output port feeding op's data input `input_index`, across subgraph boundaries."""
        if not 0 <= input_index < len(op.inputs):
            return None
        ref = op.inputs[input_index]
        if ref is None:
            return None
        source = self.op(ref.source, op.graph)
        if source is None:
            return None
        return self._resolve_output(source, ref.port)

    def _resolve_output(self, source: Op, port: int) -> tuple[Op, int] | None:
        """Follow subgraph Data ops outwards and call ops (PartitionedCall ...) inwards to the producer."""
        for _ in range(_MAX_HOPS):
            step = self._step_out_of_data(source) or self._step_into_call(source, port)
            if step is None:
                return source, port
            source, port = step
        return source, port

    def _step_out_of_data(self, data: Op) -> tuple[Op, int] | None:
        """A subgraph Data op with _parent_node_index k -> the producer of the parent op's input k."""
        if data.type not in ("Data", "RefData"):
            return None
        index = attr_value(data.attrs, "_parent_node_index")
        graph = self._graph_by_name.get(data.graph)
        if not isinstance(index, int) or graph is None or graph.parent_op is None:
            return None
        parent = self.op(graph.parent_op)
        if parent is None or not 0 <= index < len(parent.inputs):
            return None
        ref = parent.inputs[index]
        source = self.op(ref.source, parent.graph) if ref is not None else None
        return (source, ref.port) if source is not None and ref is not None else None

    def _step_into_call(self, call: Op, port: int) -> tuple[Op, int] | None:
        """Output k of an op with subgraphs -> producer of its NetOutput input tagged k (first subgraph)."""
        if not call.subgraph_names or call.type in FUSED_TYPES:
            return None
        for name in call.subgraph_names:
            graph = self._graph_by_name.get(name)
            if graph is None:
                continue
            for inner in graph.ops:
                if inner.type == "NetOutput":
                    position = _net_output_position(inner, port)
                    ref = inner.inputs[position] if position is not None else None
                    if ref is None:
                        return None
                    source = self.op(ref.source, inner.graph)
                    return (source, ref.port) if source is not None else None
        return None

    def consumers(self, op_name: str) -> list[tuple[Op, int]]:
        """(consumer op, data input index) pairs reading any output of `op_name` (same-name edges only)."""
        if self._consumers is None:
            index: dict[str, list[tuple[Op, int]]] = {}
            for graph in self.graphs:
                for op in graph.ops:
                    for i, ref in enumerate(op.inputs):
                        if ref is not None:
                            index.setdefault(ref.source, []).append((op, i))
            self._consumers = index
        return list(self._consumers.get(op_name, ()))


def _net_output_position(net_output: Op, port: int) -> int | None:
    """The NetOutput input whose desc has _parent_node_index == port, else input position `port`."""
    tagged = False
    for i, desc in enumerate(net_output.input_descs):
        index = attr_value(desc.attrs, "_parent_node_index")
        if isinstance(index, int):
            tagged = True
            if index == port and i < len(net_output.inputs):
                return i
    if tagged or not 0 <= port < len(net_output.inputs):
        return None
    return port
