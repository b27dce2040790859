"""Pairing plan: which fused-side file is compared with which origin-side file, rank by rank, step by step."""

from __future__ import annotations

import math
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.ge.fusion import FusionMapping
from autofuse_studio.core.ge.model import Model, TensorDesc
from autofuse_studio.core.precision.dump_pairs import DumpPair
from autofuse_studio.core.precision.loaded_case import LoadedCase
from autofuse_studio.core.precision.occurrences import OccurrenceLog
from autofuse_studio.core.precision.pair import NO_MAPPING, RANK_NOT_FOUND, SKIPPED_CONST_DATA, PairSide, pair_side
from autofuse_studio.core.precision.rows import INPUT, OUTPUT, PrecisionRow
from autofuse_studio.core.precision.verdict import Port

# Inputs fed by these op types hold weights or graph inputs, not computed data: the reference skips
# Constant and Data; Const, RefData and Variable are the same thing under other names.
SKIPPED_SOURCE_TYPES = frozenset({"Const", "Constant", "Data", "RefData", "Variable", "VariableV2"})


@dataclass
class PlannedRow:
    """A row to fill in, with the two sides to compare (None when the status is already known)."""

    row: PrecisionRow
    fused: PairSide | None = None
    origin: PairSide | None = None
    size_bytes: int = 0


@dataclass
class Plan:
    """The planned rows in table order and what the pairing of repeated dumps decided."""

    rows: list[PlannedRow]
    occurrences: OccurrenceLog = field(default_factory=OccurrenceLog)
    # Fused outputs without origin attributes, paired by their raw dumps' original_op instead.
    from_headers: set[tuple[str, int]] = field(default_factory=set)


def _layout(desc: TensorDesc | None) -> LayoutInfo | None:
    if desc is None:
        return None
    key = (desc.layout, desc.origin_format, desc.origin_shape)
    found = _LAYOUTS.get(key)
    if found is None:  # a model has few distinct layouts: one object each, not one per planned side
        if len(_LAYOUTS) >= _KEPT_LAYOUTS:
            _LAYOUTS.clear()
        found = _LAYOUTS[key] = LayoutInfo(*key)
    return found


_LAYOUTS: dict[tuple[str | None, str | None, tuple[int, ...] | None], LayoutInfo] = {}
_KEPT_LAYOUTS = 4096


def _origin_desc(model: Model, op_name: str, index: int) -> TensorDesc | None:
    op = model.op(op_name)
    if op is None or not 0 <= index < len(op.output_descs):
        return None
    return op.output_descs[index]


# Bytes per element by graph dtype, for scheduling only (unknown dtypes count as 4).
_DTYPE_BYTES = {"DT_FLOAT16": 2, "DT_BF16": 2, "DT_BFLOAT16": 2, "DT_INT16": 2, "DT_UINT16": 2, "DT_INT8": 1,
                "DT_UINT8": 1, "DT_BOOL": 1, "DT_DOUBLE": 8, "DT_INT64": 8, "DT_UINT64": 8}


def _size(path: str | None, desc: TensorDesc | None) -> int:
    """About how many bytes the file holds: from the desc's shape when known, else one stat.

    Only the scheduler reads it (big pairs are split over threads), and a big model has tens of
    thousands of small files, where a stat each is a good part of the run.
    """
    if path is None:
        return 0
    if desc is not None and desc.shape is not None:
        return math.prod(desc.shape) * _DTYPE_BYTES.get(desc.dtype or "", 4)
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _described(path: str | Path | None, desc: TensorDesc | None, label: str) -> PairSide:
    """A side whose layout and graph dtype come from `desc`."""
    return pair_side(path, _layout(desc), label, desc.dtype if desc else None)


# Where the origin side's desc comes from: (origin op, output index, the fused side's desc) -> desc.
OriginDesc = Callable[[str, int, TensorDesc | None], TensorDesc | None]


@dataclass
class _Planner:
    """Builds the planned rows of one plan; shared state of the helpers below."""

    indexes: tuple[DumpIndex, DumpIndex]
    origin_desc: OriginDesc
    log: OccurrenceLog = field(default_factory=OccurrenceLog)
    rows: list[PlannedRow] = field(default_factory=list)
    from_headers: set[tuple[str, int]] = field(default_factory=set)

    def origin_from_dump(self, row: PrecisionRow, pair: DumpPair) -> bool:
        """Pair an unmapped fused output by its raw dump's original_op; True when the header named it."""
        if pair.missing_side is not None:
            return False
        origin = self.indexes[0].origin_from_header(row.fused_op, row.fused_index, pair.open_step, pair.open_rank)
        if origin is None:
            return False
        row.origin_op, row.origin_index = origin
        self.from_headers.add((row.fused_op, row.fused_index))
        return True

    def add(self, row: PrecisionRow, pair: DumpPair, fused_desc: TensorDesc | None) -> None:
        """Plan one mapping of one (rank, step): one row, or one per occurrence of a repeated dump."""
        if pair.missing_side is not None:
            row.status = RANK_NOT_FOUND
            row.message = f"Rank {pair.rank} has no {pair.missing_side} dump"
            self.rows.append(PlannedRow(row))
            return
        assert row.origin_op is not None and row.origin_index is not None
        fused_paths = self.indexes[0].paths(row.fused_op, row.kind, row.fused_index, pair.open_step, pair.open_rank)
        origin_paths = self.indexes[1].paths(row.origin_op, OUTPUT, row.origin_index, pair.close_step,
                                             pair.close_rank)
        origin_desc = self.origin_desc(row.origin_op, row.origin_index, fused_desc)
        if len(fused_paths) == len(origin_paths) > 1:
            self.log.paired(row, len(fused_paths))
            # Index lists are newest first; occurrence 0 is the oldest dump on both sides.
            for number, (fused, origin) in enumerate(zip(reversed(fused_paths), reversed(origin_paths), strict=True)):
                self._append(replace(row, occurrence=number), fused, origin, fused_desc, origin_desc)
            return
        if len(fused_paths) > 1 or len(origin_paths) > 1:
            self.log.newest(row, len(fused_paths), len(origin_paths))
        self._append(row, fused_paths[0] if fused_paths else None, origin_paths[0] if origin_paths else None,
                     fused_desc, origin_desc)

    def _append(self, row: PrecisionRow, fused: str | None, origin: str | None, fused_desc: TensorDesc | None,
                origin_desc: TensorDesc | None) -> None:
        assert row.origin_op is not None
        item = PlannedRow(row)
        item.fused = _described(fused or None, fused_desc, f"{row.fused_op} {row.kind} {row.fused_index}")
        item.origin = _described(origin or None, origin_desc, f"{row.origin_op} output {row.origin_index}")
        item.size_bytes = _size(fused, fused_desc) + _size(origin, origin_desc)
        row.fused_layout, row.origin_layout = item.fused.layout, item.origin.layout
        row.fused_file, row.origin_file = fused, origin
        self.rows.append(item)


def plan_rows(case: LoadedCase, pairs: list[DumpPair], compare_input: bool) -> Plan:
    """Rows in the reference's table order (all outputs, then all inputs), rank by rank and step by step."""
    af_close = case.af_close
    return _plan(case.af_open, case.mapping, (case.open_index, case.close_index), pairs, compare_input,
                 lambda op_name, index, _fused_desc: _origin_desc(af_close, op_name, index))


def provisional_rows(af_open: Model, mapping: FusionMapping, indexes: tuple[DumpIndex, DumpIndex],
                     pairs: list[DumpPair], compare_input: bool) -> Plan:
    """The plan before the af-close graph is read: each origin tensor is assumed described like its fused twin.

    Used to start comparing early; a pair whose real origin desc turns out different is compared again.
    """
    return _plan(af_open, mapping, indexes, pairs, compare_input, lambda _op, _index, fused_desc: fused_desc)


def finalize_plan(provisional: Plan, af_close: Model) -> Plan:
    """Turn a provisional plan into the final one in place: origin sides described by the af-close graph.

    Equal to plan_rows() for the same pairs, without looking every file up and measuring it again.
    """
    for item in provisional.rows:
        row, side = item.row, item.origin
        if side is None or row.origin_op is None or row.origin_index is None:
            continue
        item.origin = _described(side.path, _origin_desc(af_close, row.origin_op, row.origin_index), side.label)
        row.origin_layout = item.origin.layout
    return provisional


def _plan(af_open: Model, mapping: FusionMapping, indexes: tuple[DumpIndex, DumpIndex], pairs: list[DumpPair],
          compare_input: bool, origin_desc: OriginDesc) -> Plan:
    positions = {op.name: (graph_number, position)
                 for graph_number, graph in enumerate(af_open.graphs)
                 for position, op in enumerate(graph.ops)}
    fused_ops = sorted(mapping.fused_ops, key=lambda fused: positions.get(fused.op.name, (0, 0)))
    planner = _Planner(indexes, origin_desc)
    for pair in pairs:
        for fused in fused_ops:
            for out in fused.outputs:
                row = PrecisionRow(OUTPUT, out.fused_op, out.index, out.origin_op, out.origin_index,
                                   status=NO_MAPPING, order=fused.op.order, step=pair.step, rank=pair.rank)
                if (out.origin_op is not None and out.origin_index is not None) or planner.origin_from_dump(row, pair):
                    planner.add(row, pair, out.desc)
                else:
                    planner.rows.append(PlannedRow(row))
        if not compare_input:
            continue
        for fused in fused_ops:
            for inp in fused.inputs:
                row = PrecisionRow(INPUT, inp.fused_op, inp.index, inp.origin_op, inp.origin_index,
                                   status=NO_MAPPING, order=fused.op.order, source_type=inp.source_type,
                                   step=pair.step, rank=pair.rank)
                if inp.source_type in SKIPPED_SOURCE_TYPES:
                    row.status = SKIPPED_CONST_DATA
                    planner.rows.append(PlannedRow(row))
                elif inp.origin_op is not None and inp.origin_index is not None:
                    planner.add(row, pair, inp.desc)
                else:
                    planner.rows.append(PlannedRow(row))
    for position, item in enumerate(planner.rows):
        item.row.table_position = position
    return Plan(planner.rows, planner.log, planner.from_headers)


def producer_index(model: Model) -> dict[str, list[Port | None]]:
    """For every op, the producer (op, port) of each data input, across subgraph boundaries (read-only).

    Worked out once per model: 150 ms of Python at 60k ops, which the result's verdicts and the window
    (threshold edits) both need.
    """
    with _PRODUCERS_LOCK:
        known = _PRODUCERS.get(model)
    if known is None:
        known = _producer_index(model)
        with _PRODUCERS_LOCK:
            _PRODUCERS[model] = known
    return known


_PRODUCERS: weakref.WeakKeyDictionary[Model, dict[str, list[Port | None]]] = weakref.WeakKeyDictionary()
_PRODUCERS_LOCK = threading.Lock()  # the engine and the window's worker may ask at once


def _producer_index(model: Model) -> dict[str, list[Port | None]]:
    index: dict[str, list[Port | None]] = {}
    for op in model.ops_in_order():
        producers: list[Port | None] = []
        for number in range(len(op.inputs)):
            found = model.producer(op, number)
            producers.append(None if found is None else (found[0].name, found[1]))
        index[op.name] = producers
    return index
