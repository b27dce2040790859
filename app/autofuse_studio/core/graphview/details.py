"""Details of one op for the details panel: tensors, attributes, fusion mapping and precision rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from autofuse_studio.core.ge.attrs import attr_value
from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model, TensorDesc
from autofuse_studio.core.graphview.sync import FusionIndex

__all__ = ["Section", "describe_op", "edge_text", "tensor_text"]

MAX_ATTR_CHARS = 160


@dataclass
class Section:
    """A titled table: header cells and rows of text cells."""

    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    wrap: tuple[int, ...] = ()  # columns of prose that may wrap at spaces; names, dtypes and shapes never do


def _shape(shape: tuple[int, ...] | None) -> str:
    return "?" if shape is None else "[" + ", ".join(map(str, shape)) + "]"


def tensor_text(desc: TensorDesc | None) -> str:
    """`DT_FLOAT16 NC1HWC0 [1, 4, 8, 8, 16] (origin NCHW [1, 64, 8, 8])` for tooltips."""
    if desc is None:
        return "no tensor description"
    text = f"{desc.dtype or '?'} {desc.layout or '?'} {_shape(desc.shape)}"
    if desc.origin_shape is not None or desc.origin_format:
        text += f" (origin {desc.origin_format or '?'} {_shape(desc.origin_shape)})"
    return text


def edge_text(src_op: str, src_port: int, dst_op: str, dst_port: int, desc: TensorDesc | None, control: bool) -> str:
    """One edge's tooltip line: endpoints, and the tensor's dtype, layout and shapes."""
    if control:
        return f"{src_op} -> {dst_op} (control)"
    return f"{src_op}:{src_port} -> {dst_op}:{dst_port}  {tensor_text(desc)}"


def _tensor_rows(model: Model, descs: Sequence[TensorDesc], sources: list[str]) -> list[list[str]]:
    return [[str(i), source, desc.dtype or "", desc.layout or "", _shape(desc.shape), desc.origin_format or "",
             _shape(desc.origin_shape)]
            for i, (desc, source) in enumerate(zip(descs, sources, strict=False))]


def _attr_text(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= MAX_ATTR_CHARS else text[:MAX_ATTR_CHARS] + "..."


def describe_op(model: Model, name: str, mapping: FusionMapping | None = None,
                index: FusionIndex | None = None, fused_side: bool = True) -> list[Section]:
    """Sections for op `name`: summary, inputs, outputs, attributes, fusion mapping and precision rows."""
    op = model.op(name)
    if op is None:
        return [Section(f"{name}: not in this graph", ["", ""])]
    tensor_headers = ["#", "from / to", "dtype", "layout", "shape", "origin format", "origin shape"]
    sources = [f"{ref.source}:{ref.port}" if ref is not None else "(none)" for ref in op.inputs]
    sources += [""] * (len(op.input_descs) - len(sources))
    consumers: dict[int, list[str]] = {}
    for consumer, i in model.consumers(op.name):
        ref = consumer.inputs[i]
        if ref is not None:
            consumers.setdefault(ref.port, []).append(consumer.name)
    targets = [", ".join(consumers.get(i, [])) for i in range(len(op.output_descs))]
    sections = [
        Section("Op", ["field", "value"], [["name", op.name], ["type", op.type], ["graph", op.graph],
                                           ["order", str(op.order)],
                                           ["subgraphs", ", ".join(op.subgraph_names)]]),
        Section("Inputs", tensor_headers, _tensor_rows(model, op.input_descs, sources)),
        Section("Outputs", tensor_headers, _tensor_rows(model, op.output_descs, targets)),
        Section("Attributes", ["name", "value"],
                [[key, _attr_text(attr_value(op.attrs, key))] for key in sorted(op.attrs)], wrap=(1,)),
    ]
    fused = mapping.get(name) if mapping is not None else None
    if fused is not None:
        rows = [[f"output {out.index}", f"{out.origin_op}:{out.origin_index}" if out.origin_op else "unmapped"]
                for out in fused.outputs]
        rows += [[f"input {inp.index}", f"{inp.origin_op}:{inp.origin_index} ({inp.source_type or '?'})"
                  if inp.origin_op else "unmapped"] for inp in fused.inputs]
        rows += [["original op", f"{n} ({t})"] for n, t in
                 zip(fused.original_op_names, fused.original_op_types + [""] * len(fused.original_op_names),
                     strict=False)]
        sections.append(Section("Fusion mapping", ["what", "original"], rows))
    elif index is not None and not fused_side and index.fused_of(name) != [name]:
        sections.append(Section("Fused into", ["fused op"], [[f] for f in index.fused_of(name)]))
    if index is not None and index.result is not None:  # graphs opened without dumps have no rows to list
        rows_of = index.rows_of_fused(name) if fused_side else index.rows_of_original(name)
        # Verdict and numbers first: the long op names come last, where a narrow panel scrolls to them.
        sections.append(Section("Precision rows", ["rank", "step", "kind", "verdict", "status", "cosine",
                                                   "max abs err", "fused", "origin"],
                                [[r.rank or "", r.step, r.kind, r.verdict, r.status, _metric(r.metric("cosine")),
                                  _metric(r.metric("max_abs_err")), f"{r.fused_op}:{r.fused_index}",
                                  f"{r.origin_op}:{r.origin_index}"]
                                 for r in rows_of]))
    return sections


def _metric(value: float | int | None) -> str:
    return "" if value is None else f"{value:.6g}"
