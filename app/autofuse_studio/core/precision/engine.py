"""Mode 1 (graphs + dump folders) and mode 2 (two NPY files) precision runs."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.ge.fusion import FusionMapping, build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.precision.pair import PairResult, PairSide, compare_pair
from autofuse_studio.core.precision.plan import PlannedRow, pair_steps, plan_rows, producer_index
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

RowSink = Callable[[list[PrecisionRow]], None]
# Pairs bigger than this are compared one at a time with block-level parallelism instead.
_LARGE_PAIR_BYTES = 64 << 20


@dataclass
class Mode1Request:
    """The inputs of a mode-1 run (the reference's arguments plus ours)."""

    af_open_graph: Path
    af_close_graph: Path
    af_open_data: Path
    af_close_data: Path
    compare_input: bool = False
    step: str | None = None
    jobs: int = field(default_factory=lambda: min(os.cpu_count() or 1, 8))
    thresholds: Thresholds = field(default_factory=Thresholds)


@dataclass
class LoadedCase:
    """Parsed graphs, fusion mapping and dump indexes, kept so the GUI can re-use them."""

    af_open: Model
    af_close: Model
    mapping: FusionMapping
    open_index: DumpIndex
    close_index: DumpIndex


def load_case(request: Mode1Request, progress: Progress = no_progress,
              cancel: CancelToken = NEVER_CANCELLED) -> LoadedCase:
    """Parse both graphs and index both dump folders (each exactly once)."""
    for path, what in ((request.af_open_data, "af-open"), (request.af_close_data, "af-close")):
        if not Path(path).is_dir():
            raise InputError(f"The {what} dump folder {path} does not exist or is not a folder.", path)
    # Indexing is mostly directory syscalls (no GIL): it runs beside the graph parsing.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="index") as indexer:
        indexes = indexer.submit(_index_both, request, cancel)
        progress(0, 3, "parsing the fusion-enabled graph")
        af_open = load_model(request.af_open_graph)
        cancel.check()
        progress(1, 3, "parsing the fusion-disabled graph")
        af_close = load_model(request.af_close_graph)
        mapping = build_fusion_mapping(af_open)
        cancel.check()
        progress(2, 3, "indexing the dump folders")
        open_index, close_index = indexes.result()
    progress(3, 3, "indexed")
    # The models live for the whole run (and the GUI session). Without this every later full collection
    # rescans all of their objects while holding the GIL: 1.7 s per pass at 30k ops, a frozen window in
    # the GUI. The objects stay refcounted (models hold no cycles), so they are still freed when dropped.
    gc.freeze()
    return LoadedCase(af_open, af_close, mapping, open_index, close_index)


def _index_both(request: Mode1Request, cancel: CancelToken) -> tuple[DumpIndex, DumpIndex]:
    return (DumpIndex.build(request.af_open_data, cancel=cancel),
            DumpIndex.build(request.af_close_data, cancel=cancel))


def _row_from(planned: PlannedRow, outcome: PairResult | None) -> PrecisionRow:
    row = planned.row
    if outcome is None:
        return row
    row.status = outcome.status
    row.metrics = outcome.metrics
    row.message = outcome.message
    row.fused_dtype, row.origin_dtype = outcome.fused_dtype, outcome.origin_dtype
    row.fused_shape, row.origin_shape = outcome.fused_shape, outcome.origin_shape
    return row


def _compare_all(planned: list[PlannedRow], jobs: int, progress: Progress, cancel: CancelToken,
                 on_rows: RowSink | None = None) -> dict[int, PairResult]:
    """Compare every planned pair: small ones concurrently, large ones one by one with block threads."""
    todo = [(number, item) for number, item in enumerate(planned) if item.fused is not None]
    large = [(n, item) for n, item in todo if item.size_bytes > _LARGE_PAIR_BYTES]
    small = [(n, item) for n, item in todo if item.size_bytes <= _LARGE_PAIR_BYTES]
    outcomes: dict[int, PairResult] = {}
    total = len(todo)
    # Small pairs go to the workers in batches: one future per pair cost more than a small pair's compare.
    batch = max(1, min(16, len(small) // (8 * max(1, jobs))))
    batches = [small[start:start + batch] for start in range(0, len(small), batch)]
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="pair") as pool:
        futures = [pool.submit(_compare_batch, chunk, cancel) for chunk in batches]
        for future in as_completed(futures):
            done = future.result()
            outcomes.update(done)
            if on_rows is not None:
                on_rows([_row_from(planned[number], outcome) for number, outcome in done.items()])
            progress(len(outcomes), total, "comparing")
        for number, item in large:
            outcomes[number] = _compare_one(item, pool, cancel)
            _deliver(on_rows, item, outcomes[number])
            progress(len(outcomes), total, "comparing")
    return outcomes


def _deliver(on_rows: RowSink | None, item: PlannedRow, outcome: PairResult) -> None:
    if on_rows is not None:
        on_rows([_row_from(item, outcome)])


def _compare_batch(chunk: list[tuple[int, PlannedRow]], cancel: CancelToken) -> dict[int, PairResult]:
    return {number: _compare_one(item, None, cancel) for number, item in chunk}


def _compare_one(item: PlannedRow, executor: Executor | None, cancel: CancelToken) -> PairResult:
    cancel.check()
    assert item.fused is not None and item.origin is not None
    return compare_pair(item.fused, item.origin, executor)


def run_mode1(request: Mode1Request, progress: Progress = no_progress,
              cancel: CancelToken = NEVER_CANCELLED, case: LoadedCase | None = None,
              on_rows: RowSink | None = None) -> PrecisionResult:
    """Compare every fused op output (and input with compare_input) against the origin run.

    `on_rows`, when given, receives finished rows (metrics and status, verdict not yet assigned) from
    the worker thread as they complete, first the uncompared ones in one batch; the returned result
    holds the same row objects with verdicts.
    """
    case = case or load_case(request, progress, cancel)
    warnings = [*case.af_open.warnings, *case.mapping.warnings, *case.open_index.warnings,
                *case.close_index.warnings]
    steps = pair_steps(case.open_index, case.close_index, request.step, warnings)
    planned = plan_rows(case, steps, request.compare_input)
    if on_rows is not None:
        on_rows([item.row for item in planned if item.fused is None])
    outcomes = _compare_all(planned, request.jobs, progress, cancel, on_rows)
    rows = [_row_from(item, outcomes.get(number)) for number, item in enumerate(planned)]
    warnings.extend(row.message for row in rows if row.message)
    first = assign_verdicts(rows, request.thresholds, producer_index(case.af_open))
    return PrecisionResult(
        rows=rows, thresholds=request.thresholds, first_divergence=first, warnings=warnings,
        output_mappings=sum(len(fused.outputs) for fused in case.mapping.fused_ops),
        input_mappings=sum(len(fused.inputs) for fused in case.mapping.fused_ops),
        compare_input=request.compare_input, steps=[open_step or "" for open_step, _ in steps],
    )


def run_mode2(npy_a: Path, npy_b: Path) -> PairResult:
    """Compare two NPY files directly (no layouts), with block-level parallelism."""
    sides = [PairSide(Path(path), None, str(path)) for path in (npy_a, npy_b)]
    with ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, 8)) as pool:
        return compare_pair(sides[0], sides[1], pool)
