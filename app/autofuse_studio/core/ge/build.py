"""Turn a parsed GE document (atc JSON, json_format style or our pbtxt parser's output) into a Model."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import msgspec

from autofuse_studio.core.errors import GraphParseError
from autofuse_studio.core.ge.attrs import attr_dict, attr_value, to_int
from autofuse_studio.core.ge.fast_json import JsonOp, decode_desc, is_record
from autofuse_studio.core.ge.model import DescList, Graph, InputRef, Model, Op, TensorDesc
from autofuse_studio.core.printable import excerpt
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken

# proto DataType numbers, for json_format files that print enums as ints.
_DTYPE_NAMES = (
    "DT_UNDEFINED", "DT_FLOAT", "DT_FLOAT16", "DT_INT8", "DT_UINT8", "DT_INT16", "DT_UINT16", "DT_INT32",
    "DT_INT64", "DT_UINT32", "DT_UINT64", "DT_BOOL", "DT_DOUBLE", "DT_STRING", "DT_DUAL_SUB_INT8",
    "DT_DUAL_SUB_UINT8", "DT_COMPLEX64", "DT_COMPLEX128", "DT_QINT8", "DT_QINT16", "DT_QINT32",
    "DT_QUINT8", "DT_QUINT16", "DT_RESOURCE", "DT_STRING_REF", "DT_DUAL", "DT_VARIANT", "DT_BF16",
    "DT_INT4", "DT_UINT1", "DT_INT2", "DT_UINT2", "DT_COMPLEX32", "DT_HIFLOAT8", "DT_FLOAT8_E5M2",
    "DT_FLOAT8_E4M3FN", "DT_FLOAT8_E8M0", "DT_FLOAT6_E3M2", "DT_FLOAT6_E2M3", "DT_FLOAT4_E2M1",
    "DT_FLOAT4_E1M2", "DT_HIFLOAT4",
)
_WARNINGS_PER_KIND = 50
_OPS_PER_CANCEL_CHECK = 2048


_DIM_MIN = -(1 << 63)
_ID_END = 1 << 64  # to_int's range: int64 and uint64 ids
_PORTS = {str(n): n for n in range(256)}  # port text -> int for the usual ports
# The one empty list of every typed op without control inputs or subgraphs (most ops: 2 x 56 bytes each
# saved). Op lists are never mutated after the build (see model.Op).
_NONE: list[Any] = []
_MAX_PORT_DIGITS = 9  # '²' passes isdigit() and a 5000-digit port passes it too; neither is an int port


class _Warnings:
    """Collects warnings, keeping at most a few per kind so a broken 100k-op file stays readable."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self._counts: dict[str, int] = {}

    def add(self, kind: str, message: str) -> None:
        count = self._counts.get(kind, 0) + 1
        self._counts[kind] = count
        if count <= _WARNINGS_PER_KIND:
            self.messages.append(message)

    def finish(self) -> list[str]:
        for kind, count in self._counts.items():
            if count > _WARNINGS_PER_KIND:
                self.messages.append(f"... and {count - _WARNINGS_PER_KIND} more warnings of kind '{kind}'.")
        return self.messages


def _get(raw: dict[str, Any], snake: str, camel: str) -> Any:
    """A field under its proto name, else its json_format camelCase name."""
    value = raw.get(snake)
    return raw.get(camel) if value is None else value


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def graph_dicts(doc: Any, path: str) -> list[Any]:
    """The raw graph entries of a ModelDef (graph list) or a bare GraphDef (op list)."""
    if isinstance(doc, dict):
        if isinstance(doc.get("graph"), list):
            return list(doc["graph"])
        if isinstance(doc.get("graph"), dict):
            return [doc["graph"]]
        if "op" in doc:
            return [doc]
    elif isinstance(doc, list) and doc and all(isinstance(g, dict) and "op" in g for g in doc):
        return doc
    raise GraphParseError.of("graph_no_ge_graph", path=path)


def build_model(doc: Any, path: str, cancel: CancelToken = NEVER_CANCELLED, consume: bool = False) -> Model:
    """Build the Model (ops, descs, execution order, subgraph parents) from a parsed document.

    With `consume`, each typed op record is dropped from its list once its Op is built (the caller is done
    with the document): a record and its op never all coexist, which lowers the peak of a big load.
    """
    warn = _Warnings()
    graphs: list[Graph] = []
    shared: dict[bytes, DescList] = {}  # see _shared_descs
    for index, raw in enumerate(graph_dicts(doc, path)):
        if not is_record(raw):
            warn.add("graph", f"{path}: graph entry {index} is empty (null) and was skipped.")
            continue
        graphs.append(_make_graph(raw, index, warn, cancel, consume, shared))
    if not graphs:
        raise GraphParseError.of("graph_no_graphs", path=path)
    names = [g.name for g in graphs]
    for name in {n for n in names if names.count(n) > 1}:
        warn.add("graph", f"graph name '{name}' occurs several times; look-ups use the first one.")
    _assign_order(graphs, warn)
    _check_duplicate_ops(graphs, warn)
    return Model(path, graphs, warn.finish())


def _make_graph(raw: Any, index: int, warn: _Warnings, cancel: CancelToken, consume: bool = False,
                shared: dict[bytes, DescList] | None = None) -> Graph:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        name = f"graph_{index}"
        warn.add("graph", f"graph entry {index} has no name; calling it '{name}'.")
    ops: list[Op] = []
    ids: list[int] = []
    # One str object per distinct op name and type: a name is also the source of every input that reads
    # the op, and a 100k-op graph has a few dozen types (decoded, each occurrence was its own string).
    strings: dict[str, str] = {}
    shared = {} if shared is None else shared
    records = _as_list(raw.get("op"))
    consume = consume and type(records) is list
    for i, raw_op in enumerate(records):
        if i % _OPS_PER_CANCEL_CHECK == 0:
            cancel.check()
        if type(raw_op) is JsonOp:  # the typed decoder's record: its fields read directly (see _make_op)
            if consume:
                records[i] = None
            ops.append(_make_typed_op(raw_op, name, i, warn, strings, shared))
            ident = raw_op.id
            ids.append(ident if type(ident) is int and _DIM_MIN <= ident < _ID_END else (to_int(ident) or 0))
            continue
        if not is_record(raw_op):
            warn.add("op", f"graph '{name}': op entry {i} is empty (null) and was skipped.")
            continue
        ops.append(_make_op(raw_op, name, i, warn))
        ids.append(to_int(raw_op.get("id")) or 0)
    if any(ids):
        # GE omits id 0 (proto3 default), so a missing id sorts first; sorted() is stable for ties.
        ops = [op for _, op in sorted(zip(ids, ops, strict=True), key=lambda pair: pair[0])]
    return Graph(name, ops)


def _make_op(raw: Any, graph: str, index: int, warn: _Warnings) -> Op:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        name = f"{graph}/op_{index}"
        warn.add("op", f"graph '{graph}': op entry {index} has no name; calling it '{name}'.")
    op_type = raw.get("type")
    inputs, controls = _parse_inputs(raw.get("input"), name, warn)
    return Op(
        name=name,
        type=op_type if isinstance(op_type, str) else "",
        graph=graph,
        order=-1,
        inputs=inputs,
        control_inputs=controls,
        input_descs=DescList(_as_list(_get(raw, "input_desc", "inputDesc")), make_desc),
        output_descs=DescList(_as_list(_get(raw, "output_desc", "outputDesc")), make_desc),
        attrs=attr_dict(raw.get("attr")),
        subgraph_names=[
            s for s in _as_list(_get(raw, "subgraph_name", "subgraphName")) if isinstance(s, str)
        ],
    )


def _make_typed_op(raw: JsonOp, graph: str, index: int, warn: _Warnings, strings: dict[str, str],
                   shared: dict[bytes, DescList]) -> Op:
    """_make_op for a JsonOp: the same Op and warnings, without a get() call per field (1.5M calls at 160k ops).

    A JsonOp's fields are None when absent or null (what get() mapped to its default); its desc lists are
    raw JSON texts (b"null" when null) or None.
    """
    name = raw.name
    if not isinstance(name, str) or not name:
        name = f"{graph}/op_{index}"
        warn.add("op", f"graph '{graph}': op entry {index} has no name; calling it '{name}'.")
    else:
        name = strings.setdefault(name, name)
    op_type = raw.type
    inputs, controls = _parse_inputs(raw.input, name, warn, strings)
    subgraphs = raw.subgraph_name if raw.subgraph_name is not None else raw.subgraphName
    return Op(
        name,
        strings.setdefault(op_type, op_type) if isinstance(op_type, str) else "",
        graph,
        -1,
        inputs,
        controls or _NONE,
        _shared_descs(_desc_text(raw.input_desc, raw.inputDesc), shared),
        _shared_descs(_desc_text(raw.output_desc, raw.outputDesc), shared),
        attr_dict(raw.attr),
        _NONE if subgraphs is None else [s for s in _as_list(subgraphs) if isinstance(s, str)] or _NONE,
    )


def _desc_text(snake: msgspec.Raw | None, camel: msgspec.Raw | None) -> bytes:
    """The JSON text of an op's desc list under its proto name, else its camelCase name (b"" for neither)."""
    for raw in (snake, camel):
        if raw is not None:
            text = bytes(raw)
            if text != b"null":  # null reads as absent, as in the generic path
                return text
    return b""


def _shared_descs(text: bytes, shared: dict[bytes, DescList]) -> DescList:
    """The DescList of a desc list's JSON text, one shared by every op of the model with the same text.

    A decoded Raw is a slice of the file and pins all of it (24 MB for a 60k-op graph) for the model's life;
    most ops of a graph repeat a few desc texts, so one copy per distinct text costs next to nothing, lets
    the file go and saves a list, a DescList and a Raw per desc. Sharing is safe: a TensorDesc is never
    mutated and equal texts parse to equal descs.
    """
    found = shared.get(text)
    if found is None:
        found = shared[text] = DescList((), make_desc, msgspec.Raw(text) if text else None)
    return found


def _parse_inputs(raw: Any, op_name: str, warn: _Warnings,
                  strings: dict[str, str] | None = None) -> tuple[list[InputRef | None], list[str]]:
    """'src:port' strings -> data inputs (None for '' and unresolvable ones) and control sources (':-1').

    With `strings`, equal source names share one str object (the dict maps each to its first one).
    """
    inputs: list[InputRef | None] = []
    controls: list[str] = []
    if raw is None:
        return inputs, controls
    for text in raw if type(raw) is list else _as_list(raw):
        if not text:
            inputs.append(None)
            continue
        # Op names may contain ':' themselves, so the port is after the last one.
        source, sep, port = (text if type(text) is str else str(text)).rpartition(":")
        number = _PORTS.get(port)  # the usual ports: one look-up (no separator leaves source empty)
        if number is not None and source:
            inputs.append(InputRef(source if strings is None else strings.setdefault(source, source), number))
        elif sep and port.isascii() and port.isdigit() and len(port) <= _MAX_PORT_DIGITS and source:
            inputs.append(InputRef(source if strings is None else strings.setdefault(source, source), int(port)))
        elif sep and port == "-1":
            controls.append(source)
        else:
            inputs.append(None)
            warn.add("input", f"op '{op_name}': input {excerpt(str(text))} has no integer port; it is left unresolved.")
    return inputs, controls


def make_desc(raw: Any) -> TensorDesc:
    """One TensorDescriptor (a dict, or raw JSON decoded here) -> TensorDesc (attr values kept raw)."""
    raw = decode_desc(raw)
    if not isinstance(raw, dict):
        return TensorDesc()
    attrs = attr_dict(raw.get("attr"))
    dtype = raw.get("dtype")
    if isinstance(dtype, int):
        dtype = _DTYPE_NAMES[dtype] if 0 <= dtype < len(_DTYPE_NAMES) else f"DT_{dtype}"
    shape = raw.get("shape")
    dims = shape.get("dim") if isinstance(shape, dict) else None
    layout = raw.get("layout")
    return TensorDesc(
        dtype=dtype if isinstance(dtype, str) else None,
        layout=layout if isinstance(layout, str) else None,
        # atc omits an empty ShapeDef (a scalar); without a dtype either (an absent optional input or a
        # hand-made desc) nothing is known about the shape.
        shape=_shape(dims) if dims else (() if dtype is not None else None),
        origin_format=_origin_format(attrs),
        origin_shape=_origin_shape(attrs),
        attrs=attrs,
    )


def _shape(dims: Any) -> tuple[int, ...] | None:
    """ShapeDef.dim (ints or int strings) -> tuple; () for a scalar; None when a dim is not an integer."""
    try:
        shape = tuple(map(int, dims))
        # int64 dims: a wider one is garbage (and a product of two 4000-digit dims cannot be printed).
        return shape if not shape or (min(shape) >= _DIM_MIN and max(shape) < -_DIM_MIN) else None
    except (TypeError, ValueError):
        values = [to_int(d) for d in _as_list(dims)]
        return None if any(v is None for v in values) else tuple(v for v in values if v is not None)


def _origin_format(attrs: dict[str, Any]) -> str | None:
    for key in ("origin_format", "_datadump_origin_format"):
        value = attrs.get(key)
        if value is not None:
            text = attr_value(attrs, key)
            if isinstance(text, str):
                return text
    return None


def _origin_shape(attrs: dict[str, Any]) -> tuple[int, ...] | None:
    raw = attrs.get("origin_shape")
    if raw is None:
        return None
    try:
        return tuple(map(int, raw["list"].get("i") or ()))
    except (TypeError, ValueError, KeyError, AttributeError):
        values = attr_value(attrs, "origin_shape")
        if isinstance(values, list) and all(isinstance(v, int) for v in values):
            return tuple(values)
        return None


def _assign_order(graphs: list[Graph], warn: _Warnings) -> None:
    """Global execution order: root ops in order, each op's subgraphs placed right after it (pre-order)."""
    by_name: dict[str, Graph] = {}
    for graph in graphs:
        by_name.setdefault(graph.name, graph)
    visited: set[str] = set()
    counter = 0
    for start in graphs:
        if start.name in visited:
            continue
        if start is not graphs[0]:
            warn.add("subgraph", f"graph '{start.name}' is not referenced by any op; it runs last.")
        visited.add(start.name)
        stack: list[Iterator[Op]] = [iter(start.ops)]
        while stack:
            op = next(stack[-1], None)
            if op is None:
                stack.pop()
                continue
            op.order = counter
            counter += 1
            if op.subgraph_names:
                children = _unvisited_children(op, by_name, visited, warn)
                if children:
                    stack.append(itertools.chain.from_iterable(g.ops for g in children))


def _unvisited_children(op: Op, by_name: dict[str, Graph], visited: set[str], warn: _Warnings) -> list[Graph]:
    children = []
    for name in op.subgraph_names:
        child = by_name.get(name)
        if child is None:
            warn.add("subgraph", f"op '{op.name}' names subgraph '{name}', which is not in the file.")
        elif name not in visited:
            visited.add(name)
            child.parent_op = op.name
            children.append(child)
    return children


def _check_duplicate_ops(graphs: list[Graph], warn: _Warnings) -> None:
    seen: set[str] = set()
    for graph in graphs:
        for op in graph.ops:
            if op.name in seen:
                warn.add("name", f"op name '{op.name}' occurs several times; global look-ups use the first.")
            seen.add(op.name)
