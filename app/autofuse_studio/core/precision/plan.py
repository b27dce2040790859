"""Pairing plan: which fused-side file is compared with which origin-side file, step by step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autofuse_studio.core.dumps.index import DumpIndex, Lookup
from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model, TensorDesc
from autofuse_studio.core.precision.pair import NO_MAPPING, SKIPPED_CONST_DATA, PairSide
from autofuse_studio.core.precision.rows import INPUT, OUTPUT, PrecisionRow
from autofuse_studio.core.precision.verdict import Port

if TYPE_CHECKING:
    from autofuse_studio.core.precision.engine import LoadedCase

# Inputs fed by these op types hold weights or graph inputs, not computed data: the reference skips
# Constant and Data; Const, RefData and Variable are the same thing under other names.
SKIPPED_SOURCE_TYPES = frozenset({"Const", "Constant", "Data", "RefData", "Variable", "VariableV2"})

StepPair = tuple[str | None, str | None]


@dataclass
class PlannedRow:
    """A row to fill in, with the two sides to compare (None when the status is already known)."""

    row: PrecisionRow
    fused: PairSide | None = None
    origin: PairSide | None = None
    size_bytes: int = 0


def pair_steps(open_index: DumpIndex, close_index: DumpIndex, step: str | None,
               warnings: list[str]) -> list[StepPair]:
    """The (af-open step, af-close step) pairs to compare: --step, else every step on both sides."""
    open_steps, close_steps = open_index.steps, close_index.steps
    if step is not None:
        if step not in open_steps or step not in close_steps:
            raise InputError(f"Step {step} is not in both dump folders (af-open has {open_steps or 'none'}, "
                             f"af-close has {close_steps or 'none'}).")
        return [(step, step)]
    common = [name for name in open_steps if name in close_steps]
    if common:
        only_one_side = sorted(set(open_steps) ^ set(close_steps))
        if only_one_side:
            warnings.append(f"Steps present on one side only are not compared: {', '.join(only_one_side)}")
        return [(name, name) for name in common]
    if len(open_steps) <= 1 and len(close_steps) <= 1:
        if open_steps and close_steps:
            warnings.append(f"Comparing af-open step {open_steps[0]} with af-close step {close_steps[0]}.")
        return [(open_steps[0] if open_steps else None, close_steps[0] if close_steps else None)]
    raise InputError(f"The dump folders have no step in common (af-open: {', '.join(open_steps)}; "
                     f"af-close: {', '.join(close_steps)}); choose one with --step.")


def _layout(desc: TensorDesc | None) -> LayoutInfo | None:
    if desc is None:
        return None
    return LayoutInfo(desc.layout, desc.origin_format, desc.origin_shape)


def _origin_desc(model: Model, op_name: str, index: int) -> TensorDesc | None:
    op = model.op(op_name)
    if op is None or not 0 <= index < len(op.output_descs):
        return None
    return op.output_descs[index]


def _side(lookup: Lookup, desc: TensorDesc | None, label: str) -> tuple[PairSide, int]:
    size = 0
    if lookup.path is not None:
        try:
            size = lookup.path.stat().st_size
        except OSError:
            size = 0
    return _described(lookup.path, desc, label), size


def _described(path: Path | None, desc: TensorDesc | None, label: str) -> PairSide:
    """A side whose layout and graph dtype come from `desc`."""
    return PairSide(path, _layout(desc), label, desc.dtype if desc else None)


# Where the origin side's desc comes from: (origin op, output index, the fused side's desc) -> desc.
OriginDesc = Callable[[str, int, TensorDesc | None], TensorDesc | None]


def _fill_sides(planned: PlannedRow, indexes: tuple[DumpIndex, DumpIndex], steps: StepPair,
                fused_desc: TensorDesc | None, origin_desc: OriginDesc) -> None:
    row = planned.row
    assert row.origin_op is not None and row.origin_index is not None
    fused_lookup = indexes[0].lookup(row.fused_op, row.kind, row.fused_index, steps[0])
    origin_lookup = indexes[1].lookup(row.origin_op, OUTPUT, row.origin_index, steps[1])
    planned.fused, fused_size = _side(fused_lookup, fused_desc, f"{row.fused_op} {row.kind} {row.fused_index}")
    planned.origin, origin_size = _side(origin_lookup, origin_desc(row.origin_op, row.origin_index, fused_desc),
                                        f"{row.origin_op} output {row.origin_index}")
    planned.size_bytes = fused_size + origin_size
    row.fused_layout, row.origin_layout = planned.fused.layout, planned.origin.layout
    row.fused_file = str(fused_lookup.path) if fused_lookup.path else None
    row.origin_file = str(origin_lookup.path) if origin_lookup.path else None


def plan_rows(case: LoadedCase, steps: list[StepPair], compare_input: bool) -> list[PlannedRow]:
    """Rows in the reference's table order (all outputs, then all inputs), step by step."""
    af_close = case.af_close
    return _plan(case.af_open, case.mapping, (case.open_index, case.close_index), steps, compare_input,
                 lambda op_name, index, _fused_desc: _origin_desc(af_close, op_name, index))


def provisional_rows(af_open: Model, mapping: FusionMapping, indexes: tuple[DumpIndex, DumpIndex],
                     steps: list[StepPair], compare_input: bool) -> list[PlannedRow]:
    """The plan before the af-close graph is read: each origin tensor is assumed described like its fused twin.

    Used to start comparing early; a pair whose real origin desc turns out different is compared again.
    """
    return _plan(af_open, mapping, indexes, steps, compare_input, lambda _op, _index, fused_desc: fused_desc)


def finalize_plan(provisional: list[PlannedRow], af_close: Model) -> list[PlannedRow]:
    """Turn a provisional plan into the final one in place: origin sides described by the af-close graph.

    Equal to plan_rows() for the same steps, without looking every file up and measuring it again.
    """
    for item in provisional:
        row, side = item.row, item.origin
        if side is None or row.origin_op is None or row.origin_index is None:
            continue
        item.origin = _described(side.path, _origin_desc(af_close, row.origin_op, row.origin_index), side.label)
        row.origin_layout = item.origin.layout
    return provisional


def _plan(af_open: Model, mapping: FusionMapping, indexes: tuple[DumpIndex, DumpIndex], steps: list[StepPair],
          compare_input: bool, origin_desc: OriginDesc) -> list[PlannedRow]:
    positions = {op.name: (graph_number, position)
                 for graph_number, graph in enumerate(af_open.graphs)
                 for position, op in enumerate(graph.ops)}
    fused_ops = sorted(mapping.fused_ops, key=lambda fused: positions.get(fused.op.name, (0, 0)))
    planned: list[PlannedRow] = []
    for step_pair in steps:
        step = step_pair[0] or ""
        for fused in fused_ops:
            for out in fused.outputs:
                row = PrecisionRow(OUTPUT, out.fused_op, out.index, out.origin_op, out.origin_index,
                                   status=NO_MAPPING, step=step, order=fused.op.order)
                item = PlannedRow(row)
                if out.origin_op is not None and out.origin_index is not None:
                    _fill_sides(item, indexes, step_pair, out.desc, origin_desc)
                planned.append(item)
        if not compare_input:
            continue
        for fused in fused_ops:
            for inp in fused.inputs:
                row = PrecisionRow(INPUT, inp.fused_op, inp.index, inp.origin_op, inp.origin_index,
                                   status=NO_MAPPING, step=step, order=fused.op.order,
                                   source_type=inp.source_type)
                item = PlannedRow(row)
                if inp.source_type in SKIPPED_SOURCE_TYPES:
                    row.status = SKIPPED_CONST_DATA
                elif inp.origin_op is not None and inp.origin_index is not None:
                    _fill_sides(item, indexes, step_pair, inp.desc, origin_desc)
                planned.append(item)
    for position, item in enumerate(planned):
        item.row.table_position = position
    return planned


def producer_index(model: Model) -> dict[str, list[Port | None]]:
    """For every op, the producer (op, port) of each data input, across subgraph boundaries."""
    index: dict[str, list[Port | None]] = {}
    for op in model.ops_in_order():
        producers: list[Port | None] = []
        for number in range(len(op.inputs)):
            found = model.producer(op, number)
            producers.append(None if found is None else (found[0].name, found[1]))
        index[op.name] = producers
    return index

