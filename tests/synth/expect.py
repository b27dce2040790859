"""Expected comparison rows, statuses and verdicts, derived from what the generator injected."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from tests.synth.dag import Dag, Group, Ref
from tests.synth.evaluate import StepValues
from tests.synth.numerics import cosine
from tests.synth.storage import CLOSE, OPEN, Desc, desc_of

THRESHOLD = 0.99  # a row fails when cosine < THRESHOLD
COMPARED_PARTS = frozenset({"FORMAT_CONVERTED", "DTYPE_CAST", "SHAPE_FLATTENED"})
CONVERTIBLE = {("NC1HWC0", "NCHW"): 5, ("FRACTAL_NZ", "ND"): 4}  # pair -> minimum device rank
FILE_STATUS = {"missing_npy": "FILE_NOT_FOUND", "garbage_npy": "NPY_LOAD_ERROR", "pickle_npy": "NPY_LOAD_ERROR"}


@dataclass
class Row:
    """One expected row of the comparison table."""

    step: str
    kind: str  # output | input
    fused_op: str
    fused_index: int
    origin_op: str | None
    origin_index: int | None
    expected_status: str
    expected_verdict: str = "UNKNOWN"
    expected_verdict_compare_input: str = "UNKNOWN"
    cosine: float | None = None
    notes: list[str] = field(default_factory=list)
    rank: str | None = None  # None unless a side dumps several ranks
    occurrence: int | None = None  # k-th dump of an op dumped as often on both sides (loops)

    @property
    def compared(self) -> bool:
        """True when the status leaves room for metrics."""
        return is_compared(self.expected_status)

    @property
    def fails(self) -> bool:
        """Compared and below the threshold."""
        return self.compared and self.cosine is not None and self.cosine < THRESHOLD

    def to_json(self) -> dict[str, Any]:
        """Manifest form."""
        return asdict(self)


def _parts(status: str) -> list[str]:
    """Split a joined status into its known parts (FORMAT_CONVERTED_DTYPE_CAST -> two parts)."""
    parts, rest = [], status
    for part in ("FORMAT_CONVERTED", "DTYPE_CAST", "SHAPE_FLATTENED"):
        if rest.startswith(part):
            parts.append(part)
            rest = rest[len(part):].lstrip("_")
    return parts + ([rest] if rest else [])


def is_compared(status: str) -> bool:
    """Statuses whose rows carry metrics: OK and any mix of FORMAT_CONVERTED, DTYPE_CAST, SHAPE_FLATTENED."""
    return status == "OK" or all(part in COMPARED_PARTS for part in _parts(status))


def pair_status(fused: Desc, origin: Desc) -> str:
    """Reference-vocabulary status of comparing a fused-side tensor with its original tensor."""
    parts: list[str] = []
    shape = fused.shape
    if fused.layout != origin.layout:
        rank = CONVERTIBLE.get((fused.layout, origin.layout))
        if rank is None:
            return "FORMAT_CONVERSION_ERROR" if fused.layout == "NC1HWC0" else "FORMAT_UNSUPPORTED"
        if len(fused.shape) < rank:
            return "FORMAT_CONVERSION_ERROR"
        parts.append("FORMAT_CONVERTED")
        shape = fused.origin_shape
    if fused.loaded_dtype != origin.loaded_dtype:
        parts.append("DTYPE_CAST")
    if shape != origin.shape:
        if math.prod(shape) != math.prod(origin.shape):
            return "_".join([*parts, "SHAPE_MISMATCH"])
        parts.append("SHAPE_FLATTENED")
    if math.prod(origin.shape) == 0:
        return "_".join([*parts, "COMPUTE_ERROR"])
    return "_".join(parts) or "OK"


def _notes(dag: Dag, ref: Ref, values: StepValues, consumer: Group | None = None) -> list[str]:
    """Feature tags explaining a row about tensor `ref` (read by `consumer` for input rows)."""
    info = dag.info(ref)
    producer = dag.group_of.get(ref.op)
    notes = sorted(producer.defects) if producer is not None and consumer is None else []
    notes += [info.open_storage] if producer is not None and info.open_storage != "plain" else []
    regions = {dag.ops[ref.op].region, consumer.region if consumer else "root"}
    notes += ["subgraph"] if "sub" in regions else []
    notes += ["culprit_injected"] if producer is not None and producer.culprit and consumer is None else []
    notes += ["bf16"] if info.dtype == "bfloat16" else []
    notes += ["int32"] if info.dtype == "int32" else []
    notes += ["long_name"] if len(ref.op) > 200 else []
    value = values.open[ref]
    notes += ["nan_inf"] if value.dtype.kind == "f" and not np.isfinite(value).all() else []
    return notes


def _compare(dag: Dag, ref: Ref, values: StepValues) -> tuple[str, float | None]:
    """Status and cosine of the af-open tensor vs the af-close tensor of `ref`."""
    status = pair_status(desc_of(dag, OPEN, ref), desc_of(dag, CLOSE, ref))
    if is_compared(status):
        return status, round(cosine(values.open[ref], values.close[ref]), 10)
    return status, None


def step_rows(dag: Dag, step: int, values: StepValues) -> list[Row]:
    """Output rows then input rows of every fused op, in execution order."""
    groups = [u for u in dag.units() if isinstance(u, Group)]
    outputs, inputs = [], []
    for g in groups:
        for k, ref in enumerate(g.outputs):
            row = Row(str(step), "output", g.name, k, ref.op, ref.port, "OK", notes=_notes(dag, ref, values))
            file_defect = next((FILE_STATUS[d] for d in sorted(g.defects) if d in FILE_STATUS), None)
            if "no_mapping" in g.defects:
                row.origin_op, row.origin_index, row.expected_status = None, None, "NO_MAPPING"
            elif file_defect:
                row.expected_status = file_defect
            else:
                row.expected_status, row.cosine = _compare(dag, ref, values)
            outputs.append(row)
        for i, ref in enumerate(g.inputs):
            row = Row(str(step), "input", g.name, i, ref.op, ref.port, "OK", notes=_notes(dag, ref, values, g))
            if dag.ops[ref.op].type in ("Data", "Const"):
                row.expected_status = "SKIPPED_CONST_DATA"
            else:
                row.expected_status, row.cosine = _compare(dag, ref, values)
            inputs.append(row)
    _verdicts(dag, outputs, inputs)
    return outputs + inputs


def _verdicts(dag: Dag, outputs: list[Row], inputs: list[Row]) -> None:
    """Fill both verdict columns (without and with --compare-input)."""
    by_output = {(r.fused_op, r.fused_index): r for r in outputs}
    inputs_of: dict[str, list[Row]] = {}
    for r in inputs:
        inputs_of.setdefault(r.fused_op, []).append(r)
        verdict = "UNKNOWN" if not r.compared else ("PROPAGATED" if r.fails else "OK")
        r.expected_verdict = r.expected_verdict_compare_input = verdict
    memo: dict[Ref, bool] = {}
    group_named = {g.name: g for g in dag.groups}

    def upstream_fails(ref: Ref) -> bool:
        """Nearest compared fused outputs upstream of `ref` fail (walking through uncompared ops)."""
        if ref not in memo:
            memo[ref] = False  # cycle guard; the DAG has none
            unit = dag.producer(ref)
            if isinstance(unit, Group):
                row = by_output[(unit.name, unit.outputs.index(ref))]
                memo[ref] = row.fails if row.compared else any(upstream_fails(r) for r in unit.inputs)
            else:
                memo[ref] = any(upstream_fails(r) for r in unit.inputs)
        return memo[ref]

    for r in outputs:
        if not r.compared:
            continue
        walked = any(upstream_fails(ref) for ref in group_named[r.fused_op].inputs)
        direct = any(i.fails for i in inputs_of.get(r.fused_op, []))
        r.expected_verdict = "OK" if not r.fails else ("PROPAGATED" if walked else "CULPRIT")
        r.expected_verdict_compare_input = "OK" if not r.fails else ("PROPAGATED" if direct else "CULPRIT")


def first_divergence(rows: list[Row]) -> dict[str, Any] | None:
    """The first CULPRIT output row in (step, execution, rank) order; rows are grouped by (rank, step)."""
    position: dict[tuple[str | None, str], int] = {}
    best: tuple[tuple[int, int, int], Row] | None = None
    for r in rows:
        number = position[(r.rank, r.step)] = position.get((r.rank, r.step), -1) + 1
        if r.kind == "output" and r.expected_verdict == "CULPRIT" and r.occurrence in (None, 0):
            key = (int(r.step), number, int(r.rank or 0))
            if best is None or key < best[0]:
                best = (key, r)
    if best is None:
        return None
    r = best[1]
    found = {"step": r.step, "fused_op": r.fused_op, "fused_index": r.fused_index, "kind": r.kind}
    return found if r.rank is None else {**found, "rank": r.rank}


def first_divergence_by_rank(rows: list[Row]) -> dict[str, dict[str, Any] | None]:
    """The first divergence of every rank ({} when rows carry no rank)."""
    ranks = list(dict.fromkeys(r.rank for r in rows if r.rank is not None))
    return {rank: first_divergence([r for r in rows if r.rank == rank]) for rank in ranks}


def unpaired_rows(rows: list[Row]) -> list[Row]:
    """Rows of a rank dumped on one side only: not compared (RANK_NOT_FOUND) unless known without files."""
    for r in rows:
        if r.expected_status not in ("NO_MAPPING", "SKIPPED_CONST_DATA"):
            r.expected_status, r.cosine = "RANK_NOT_FOUND", None
        r.expected_verdict = r.expected_verdict_compare_input = "UNKNOWN"
    return rows


def occurrence_rows(rows: list[Row], group: str, count: int, cosines: dict[tuple[int, int], float]) -> list[Row]:
    """Each output row of the looped group once per occurrence (k-th dump against k-th), cosines given."""
    expanded: list[Row] = []
    for r in rows:
        if r.kind != "output" or r.fused_op != group or not r.compared:
            expanded.append(r)
            continue
        for number in range(count):
            cosine = cosines.get((r.fused_index, number), r.cosine)
            copy = Row(**{**asdict(r), "occurrence": number, "cosine": cosine, "notes": [*r.notes, "loop"]})
            expanded.append(copy)
    return expanded
