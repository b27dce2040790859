"""Fusion mapping: which original op output each fused op output/input stands for (af-open graph side)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.ge.attrs import attr_value
from autofuse_studio.core.ge.model import FUSED_TYPES, DescList, InputRef, Model, Op, TensorDesc

__all__ = [
    "FUSED_TYPES",
    "FusedOp",
    "FusionMapping",
    "InputMapping",
    "OutputMapping",
    "build_fusion_mapping",
    "is_fused_op",
]

ORIGIN_NAME = "_datadump_origin_name"
ORIGIN_INDEX = "_datadump_origin_output_index"
ORIGINAL_NAMES = "_datadump_original_op_names"
ORIGINAL_TYPES = "_datadump_original_op_types"


@dataclass
class OutputMapping:
    """Fused output `index` -> output `origin_index` of original op `origin_op` (None when unmapped)."""

    fused_op: str
    index: int
    origin_op: str | None
    origin_index: int | None
    desc: TensorDesc


@dataclass
class InputMapping:
    """Fused data input `index`: its raw source, the producer type, and the original producer output."""

    fused_op: str
    index: int
    source: InputRef | None
    source_type: str
    origin_op: str | None
    origin_index: int | None
    # The fused op's input descs; `desc` picks this input's on first use (most runs never read it).
    descs: Sequence[TensorDesc] = field(default=(), repr=False, compare=False)

    @property
    def desc(self) -> TensorDesc:
        """The fused op's desc of this input (an empty one when the graph has none)."""
        return self.descs[self.index] if self.index < len(self.descs) else TensorDesc()


@dataclass
class FusedOp:
    """One fused op with its output and input mappings and the original ops it replaced."""

    op: Op
    outputs: list[OutputMapping] = field(default_factory=list)
    inputs: list[InputMapping] = field(default_factory=list)
    original_op_names: list[str] = field(default_factory=list)
    original_op_types: list[str] = field(default_factory=list)


@dataclass
class FusionMapping:
    """All fused ops of a model in execution order, with look-ups by name and by fused output."""

    fused_ops: list[FusedOp]
    warnings: list[str] = field(default_factory=list)
    _by_name: dict[str, FusedOp] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for fused in self.fused_ops:
            self._by_name.setdefault(fused.op.name, fused)

    def get(self, name: str) -> FusedOp | None:
        """The fused op called `name`, or None."""
        return self._by_name.get(name)

    def output_origin(self, op_name: str, port: int) -> tuple[str, int] | None:
        """(original op, output index) that fused output `port` of `op_name` stands for, if mapped."""
        fused = self._by_name.get(op_name)
        if fused is None or not 0 <= port < len(fused.outputs):
            return None
        out = fused.outputs[port]
        if out.origin_op is None or out.origin_index is None:
            return None
        return out.origin_op, out.origin_index


def is_fused_op(op: Op) -> bool:
    """AscBackend/FusedAscBackend, or any op (old UB fusion) whose outputs carry _datadump_origin_name."""
    descs = op.output_descs
    if isinstance(descs, DescList):  # ask the raw descs: parsing every op's descs cost most of the mapping
        return op.type in FUSED_TYPES or descs.any_has_attr(ORIGIN_NAME)
    return op.type in FUSED_TYPES or any(ORIGIN_NAME in desc.attrs for desc in descs)


def build_fusion_mapping(model: Model) -> FusionMapping:
    """Map every fused op's outputs (from desc attrs) and data inputs (through producers) to original ops."""
    with gc_paused():
        mapping = _build(model)
        keep_long_lived()  # it lives as long as its model: the collection after the pause need not scan it
        return mapping


def _build(model: Model) -> FusionMapping:
    warnings: list[str] = []
    fused_ops = [
        FusedOp(
            op=op,
            outputs=_output_mappings(op, warnings),
            original_op_names=_string_list(op, ORIGINAL_NAMES),
            original_op_types=_string_list(op, ORIGINAL_TYPES),
        )
        for op in model.ops_in_order()
        if is_fused_op(op)
    ]
    mapping = FusionMapping(fused_ops, warnings)
    # Inputs need every fused op's outputs first: a fused producer is mapped through its output mapping.
    for fused in fused_ops:
        fused.inputs = _input_mappings(model, mapping, fused.op)
    return mapping


def _string_list(op: Op, key: str) -> list[str]:
    value = attr_value(op.attrs, key, [])
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _output_mappings(op: Op, warnings: list[str]) -> list[OutputMapping]:
    outputs = []
    for index, desc in enumerate(op.output_descs):
        name = attr_value(desc.attrs, ORIGIN_NAME)
        origin_index = attr_value(desc.attrs, ORIGIN_INDEX)
        if origin_index is None and isinstance(name, str) and op.type not in FUSED_TYPES:
            # Old UB fusion may omit the index: msaccucmp then uses the desc position.
            origin_index = index
        if isinstance(name, str) and name and type(origin_index) is int:
            outputs.append(OutputMapping(op.name, index, name, origin_index, desc))
            continue
        outputs.append(OutputMapping(op.name, index, None, None, desc))
        warnings.append(
            f"Fused op '{op.name}' output {index} has no usable {ORIGIN_NAME}/{ORIGIN_INDEX} attributes; "
            "it cannot be compared."
        )
    return outputs


def _input_mappings(model: Model, mapping: FusionMapping, op: Op) -> list[InputMapping]:
    inputs = []
    for index, ref in enumerate(op.inputs):
        source_type, origin = _resolve_input(model, mapping, op, index, ref)
        origin_op, origin_index = origin if origin is not None else (None, None)
        inputs.append(InputMapping(op.name, index, ref, source_type, origin_op, origin_index, op.input_descs))
    return inputs


def _resolve_input(
    model: Model, mapping: FusionMapping, op: Op, index: int, ref: InputRef | None
) -> tuple[str, tuple[str, int] | None]:
    """(producer type or "Fused" or "", origin (op, output index)) for one data input."""
    if ref is None:
        return "", None
    produced = model.producer(op, index)
    if produced is None:
        # Unknown producer: keep the raw reference, the af-close graph may still know it.
        return "", (ref.source, ref.port)
    producer, port = produced
    origin = mapping.output_origin(producer.name, port)
    if origin is not None:
        return "Fused", origin
    return producer.type, (producer.name, port)
