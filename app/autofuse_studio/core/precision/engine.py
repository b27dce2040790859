"""Mode 1 (graphs + dump folders) and mode 2 (two NPY files) precision runs."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.errors import AppError, InputError
from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.ge.fusion import FusionMapping, build_fusion_mapping
from autofuse_studio.core.ge.load import load_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.notices import Notice, examples, on_side, plain_notices, plural
from autofuse_studio.core.precision.dump_pairs import CLOSE_SIDE, OPEN_SIDE, DumpPair, pair_dumps
from autofuse_studio.core.precision.explain import no_fused_ops_notice
from autofuse_studio.core.precision.loaded_case import LoadedCase as LoadedCase  # re-exported
from autofuse_studio.core.precision.pair import PairResult, PairSide, compare_pair, open_side, prepare_pair
from autofuse_studio.core.precision.plan import (
    Plan,
    PlannedRow,
    finalize_plan,
    plan_rows,
    producer_index,
    provisional_rows,
)
from autofuse_studio.core.precision.row_notices import row_notices
from autofuse_studio.core.precision.rows import (
    OUTPUT,
    VERDICT_CULPRIT,
    VERDICT_PROPAGATED,
    PrecisionResult,
    PrecisionRow,
)
from autofuse_studio.core.precision.scheduler import Delivery, PairScheduler
from autofuse_studio.core.precision.signature import MAX_ELEMENTS, Signature, signature
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.precision.verdict import assign_verdicts, first_divergence_by_rank, self_reference_notice
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.core.release import empty_in_chunks
from autofuse_studio.core.run.spec import RunSpec

RowSink = Callable[[list[PrecisionRow]], None]
EarlyPlan = tuple[list[DumpPair], Plan]  # the (rank, step) pairs and the provisional plan compared early


CaseSink = Callable[[LoadedCase], None]


def load_case(request: RunSpec, progress: Progress = no_progress,
              cancel: CancelToken = NEVER_CANCELLED) -> LoadedCase:
    """Parse both graphs and index both dump folders (each exactly once)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="index") as indexer:
        return _load(request, progress, cancel, indexer.submit, None)[0]


def _load(request: RunSpec, progress: Progress, cancel: CancelToken, submit: Callable[..., Future[Any]],
          scheduler: PairScheduler | None) -> tuple[LoadedCase, EarlyPlan | None]:
    """Index on a helper thread while parsing; with a scheduler, start comparing before the af-close graph."""
    for path, what in ((request.af_open_data, "af-open"), (request.af_close_data, "af-close")):
        if not Path(path).is_dir():
            raise InputError.of("side_dump_folder_missing", what=what, path=path)
    with gc_paused():
        # Indexing is mostly directory syscalls (no GIL): it runs beside the graph parsing.
        indexes = submit(_index_both, request, cancel)
        progress(0, 3, "parsing the fusion-enabled graph")
        af_open = load_model(Path(request.af_open_graph), cancel)
        mapping = build_fusion_mapping(af_open)
        cancel.check()
        progress(1, 3, "indexing the dump folders")
        open_index, close_index = indexes.result()
        early = None
        if scheduler is not None:
            early = _start_early(scheduler, request, af_open, mapping, (open_index, close_index))
        progress(2, 3, "parsing the fusion-disabled graph")
        af_close = load_model(Path(request.af_close_graph), cancel)
        cancel.check()
        # The models live for the whole run (and the GUI session). Without this every later collection
        # rescans all of their objects while holding the GIL: 1.7 s per full pass at 30k ops, a frozen
        # window in the GUI; and the first young collection after the pause would scan everything built
        # during it (20-50 ms even for a 300-op case). The objects stay refcounted (models hold no
        # cycles), so they are still freed when dropped.
        keep_long_lived()
    progress(3, 3, "indexed")
    return LoadedCase(af_open, af_close, mapping, open_index, close_index), early


def _start_early(scheduler: PairScheduler, request: RunSpec, af_open: Model, mapping: FusionMapping,
                 indexes: tuple[DumpIndex, DumpIndex]) -> EarlyPlan | None:
    """Compare the pairs the af-open side alone determines while the af-close graph is parsed."""
    try:
        pairs = pair_dumps(*indexes, request.step, request.ranks)
    except InputError:
        return None  # the real plan reports it, after the af-close graph was read as before
    provisional = provisional_rows(af_open, mapping, indexes, pairs, request.compare_input)
    scheduler.start_early(provisional.rows)
    return pairs, provisional


def _index_both(request: RunSpec, cancel: CancelToken) -> tuple[DumpIndex, DumpIndex]:
    return (DumpIndex.build(Path(request.af_open_data), cancel=cancel),
            DumpIndex.build(Path(request.af_close_data), cancel=cancel))


def _row_from(planned: PlannedRow, outcome: PairResult | None) -> PrecisionRow:
    row = planned.row
    if outcome is None:
        return row
    row.status = outcome.status
    row.metrics = outcome.metrics
    row.stats = outcome.stats
    row.message = outcome.message
    row.fused_dtype, row.origin_dtype = outcome.fused_dtype, outcome.origin_dtype
    row.fused_shape, row.origin_shape = outcome.fused_shape, outcome.origin_shape
    return row


def run_mode1(request: RunSpec, progress: Progress = no_progress,
              cancel: CancelToken = NEVER_CANCELLED, case: LoadedCase | None = None,
              on_rows: RowSink | None = None, on_case: CaseSink | None = None) -> PrecisionResult:
    """Compare every fused op output (and input with compare_input) against the origin run.

    Without `case`, the graphs and dumps are loaded here and comparing starts before the af-close graph
    is parsed; `on_case` then receives the loaded case (from this thread) once it is complete.
    `on_rows`, when given, receives finished rows (metrics and status, verdict not yet assigned) from
    this thread as they complete, first the uncompared ones in one batch; the returned result holds the
    same row objects with verdicts. (A caller's own look-ups over the loaded case run on its thread while
    the pool compares: see core.run's CaseLoaded event.)
    """
    # Planning and comparing build 100k+ acyclic objects (plans, rows, metrics): each collection during
    # the run rescanned them all while holding the GIL (40-180 ms, a frozen window in the GUI). Collect
    # nothing until the result exists, then freeze it like the models: it lives as long as they do.
    with gc_paused():
        result = _run_mode1(request, progress, cancel, case, on_rows, on_case)
        keep_long_lived()
    return result


def _run_mode1(request: RunSpec, progress: Progress, cancel: CancelToken, case: LoadedCase | None,
               on_rows: RowSink | None, on_case: CaseSink | None) -> PrecisionResult:
    with PairScheduler(request.workers, cancel) as scheduler:
        early = None
        if case is None:
            case, early = _load(request, progress, cancel, scheduler.submit, scheduler)
            if on_case is not None:
                on_case(case)
        notices = input_notices(case)
        pairs = pair_dumps(case.open_index, case.close_index, request.step, request.ranks, notices)
        if early is not None and early[0] == pairs:
            plan = finalize_plan(early[1], case.af_close)
        else:
            plan = plan_rows(case, pairs, request.compare_input)
        planned = plan.rows
        if on_rows is not None:
            on_rows([item.row for item in planned if item.fused is None])
        deliver = None if on_rows is None else deliverer(on_rows)
        loaded = case

        def meanwhile() -> None:
            # The verdicts need the producers of the af-open graph: work them out while the pool compares.
            producer_index(loaded.af_open)

        outcomes = scheduler.compare(planned, progress, deliver, meanwhile=meanwhile)
    result = assemble_result(request, case, pairs, plan, notices, outcomes, cancel)
    # What only this run used (plans, pairs, outcomes: 100k+ objects at 20k rows) goes in chunks: freed
    # with the frame, it was one 40-80 ms cascade holding the GIL while the window filled its table.
    empty_in_chunks(plan.rows, pairs, outcomes, *(() if early is None else (early[0], early[1].rows)))
    return result


def assemble_result(request: RunSpec, case: LoadedCase, pairs: list[DumpPair], plan: Plan,
                    notices: list[Notice], outcomes: dict[int, PairResult],
                    cancel: CancelToken = NEVER_CANCELLED) -> PrecisionResult:
    """The rows of a plan filled with their outcomes (by position), verdicts, the first divergence and the failing
    rows' signatures assigned."""
    rows = [_row_from(item, outcomes.get(number)) for number, item in enumerate(plan.rows)]
    if plan.from_headers:
        notices = [notice for notice in notices if notice.kind != "fusion_mapping"]
        notices += [*on_side(_mapping_notices(case.mapping, plan.from_headers), OPEN_SIDE),
                    _from_headers_notice(plan.from_headers)]
    producers = producer_index(case.af_open)
    notices = notices + plan.occurrences.notices() + row_notices(rows)
    looped = self_reference_notice(producers, (fused.op.name for fused in case.mapping.fused_ops))
    if looped is not None:
        notices.append(looped)
    first = assign_verdicts(rows, request.thresholds, producers)
    sign_failing(plan.rows, request.workers, cancel)
    return PrecisionResult(
        rows=rows, thresholds=request.thresholds, first_divergence=first, notices=notices,
        output_mappings=sum(len(fused.outputs) for fused in case.mapping.fused_ops),
        input_mappings=sum(len(fused.inputs) for fused in case.mapping.fused_ops),
        compare_input=request.compare_input, steps=list(dict.fromkeys(pair.step for pair in pairs)),
        ranks=[rank for rank in dict.fromkeys(pair.rank for pair in pairs) if rank is not None],
        first_divergence_by_rank=first_divergence_by_rank(rows),
    )


# Every row that fails its thresholds is signed: CULPRIT and PROPAGATED (a propagated row's signature tells
# whether it only carries its input's error along or adds a kind of its own). Mode 2 signs a failing pair.
SIGNED_VERDICTS = (VERDICT_CULPRIT, VERDICT_PROPAGATED)


def sign_failing(planned: list[PlannedRow], workers: int = 1, cancel: CancelToken = NEVER_CANCELLED) -> None:
    """Give failing rows (SIGNED_VERDICTS) compared by their values a signature, after the verdicts (no metric or
    verdict changes), on `workers` threads. Rows above signature.MAX_ELEMENTS, or whose files cannot be read
    again, get none."""
    todo = [item for item in planned if item.row.verdict in SIGNED_VERDICTS and item.row.metrics is not None
            and item.fused is not None and item.origin is not None]

    def sign(item: PlannedRow) -> None:
        cancel.check()
        assert item.fused is not None and item.origin is not None
        item.row.signature = pair_signature(item.fused, item.origin)

    if workers <= 1 or len(todo) <= 1:
        for item in todo:
            sign(item)
        return
    # The kernel and numpy's big passes let go of the GIL: a model with thousands of propagated rows signs
    # them on every core, as it compared them.
    with ThreadPoolExecutor(max_workers=min(workers, len(todo)), thread_name_prefix="sign") as pool:
        for done in [pool.submit(sign, item) for item in todo]:
            done.result()


def pair_signature(fused_side: PairSide, origin_side: PairSide) -> Signature | None:
    """Open a compared pair again (as compare_pair did) and name its signature; None when it cannot."""
    return signed_pair(fused_side, origin_side)[0]


# Why signed_pair gave no signature (the second item of its answer; "" when it gave one).
NO_FILES, TOO_BIG, UNREADABLE, NOT_COMPARABLE, NO_DIFFERENCE = (
    "no_files", "too_big", "unreadable", "not_comparable", "no_difference")


def signed_pair(fused_side: PairSide, origin_side: PairSide) -> tuple[Signature | None, str]:
    """A compared pair's signature, opened again as compare_pair did, with why there is none: NO_FILES,
    TOO_BIG (above signature.MAX_ELEMENTS), UNREADABLE, NOT_COMPARABLE or NO_DIFFERENCE (nothing differs
    beyond rounding)."""
    if fused_side.path is None or origin_side.path is None:
        return None, NO_FILES
    try:
        fused, fused_side = open_side(fused_side)
        if fused.size > MAX_ELEMENTS:
            return None, TOO_BIG
        origin, origin_side = open_side(origin_side)
        prepared = prepare_pair(fused_side, origin_side, fused, origin)
        if isinstance(prepared, PairResult) or prepared.fused.size != prepared.origin.size:
            return None, NOT_COMPARABLE
        if prepared.origin.size > MAX_ELEMENTS:
            return None, TOO_BIG
        found = signature(prepared.fused, prepared.origin, prepared.fused_dtype, prepared.origin_dtype)
    except (AppError, OSError, ValueError, MemoryError):
        return None, UNREADABLE
    return found, "" if found is not None else NO_DIFFERENCE


def input_notices(case: LoadedCase) -> list[Notice]:
    """What reading the graphs and indexing the dumps had to say, before any pairing."""
    empty = [Notice("no_dump_npys", f"The {side} dump folder {index.root} holds no dump files (raw dumps "
                    "named like {type}.{name}.{task}.{stream}.{timestamp}, their NPYs or statistics CSVs): nothing "
                    "of it can be compared.", side=side, params={"root": str(index.root)})
             for side, index in ((OPEN_SIDE, case.open_index), (CLOSE_SIDE, case.close_index))
             if index.files_found == 0]
    if not case.mapping.fused_ops:  # a valid graph of the wrong kind: say so instead of a silent 0 rows
        empty.insert(0, no_fused_ops_notice(case.af_open, case.af_close))
    return [*empty, *plain_notices("graph", case.af_open.warnings, OPEN_SIDE),
            *plain_notices("graph", case.af_close.warnings, CLOSE_SIDE),
            *on_side(_mapping_notices(case.mapping), OPEN_SIDE),
            *on_side(case.open_index.notices, OPEN_SIDE), *on_side(case.close_index.notices, CLOSE_SIDE)]


def _from_headers_notice(outputs: set[tuple[str, int]]) -> Notice:
    """'12 fused outputs have no origin attributes in the graph: paired by their raw dumps' original_op'."""
    named = [f"{op} output {index}" for op, index in sorted(outputs)]
    message = (f"{plural(len(outputs), 'fused operator output')} without _datadump_origin_name attributes in the "
               f"graph {'was' if len(outputs) == 1 else 'were'} paired with their origin by the original_op of their "
               f"raw dump headers (e.g. {examples(named)}).")
    return Notice("origin_from_dump_header", message, len(outputs), [{"output": text} for text in named],
                  side=OPEN_SIDE, params={"tensors": [(op, "output", index) for op, index in sorted(outputs)]})


def _mapping_notices(mapping: FusionMapping, paired: set[tuple[str, int]] | None = None) -> list[Notice]:
    """One notice for every fused output without a usable origin mapping (thousands in a broken graph).

    Outputs in `paired` found their origin in a raw dump's header and are left out.
    """
    paired = paired or set()
    left = [out for fused in mapping.fused_ops for out in fused.outputs
            if out.origin_op is None and (out.fused_op, out.index) not in paired]
    if not mapping.warnings or not left:
        return []
    unmapped = [f"{out.fused_op} output {out.index}" for out in left]
    count = len(left)
    message = (f"{plural(count, 'fused operator output')} {'has' if count == 1 else 'have'} no usable "
               f"_datadump_origin_name/_datadump_origin_output_index attributes and cannot be compared; "
               f"e.g. {examples(unmapped)}.")
    # The mapping's warnings name each output as "Fused op '{op}' output {index} …": keep those still unpaired.
    named = {f"Fused op '{op}' output {index}" for op, index in paired}
    still = [text for text in mapping.warnings if text.partition(" has no usable ")[0] not in named]
    return [Notice("fusion_mapping", message, count, [{"message": text} for text in still],
                   params={"tensors": [(out.fused_op, "output", out.index) for out in left]})]


def deliverer(on_rows: RowSink) -> Delivery:
    return lambda group: on_rows([_row_from(item, outcome) for _, item, outcome in group])


def mode2_sides(npy_a: str | Path, npy_b: str | Path) -> tuple[PairSide, PairSide]:
    """The two sides of a mode-2 comparison (no layouts)."""
    return PairSide(Path(npy_a), None, str(npy_a)), PairSide(Path(npy_b), None, str(npy_b))


def run_mode2(npy_a: Path, npy_b: Path) -> PairResult:
    """Compare two NPY files directly (no layouts), with block-level parallelism."""
    sides = mode2_sides(npy_a, npy_b)
    with ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, 8)) as pool:
        return compare_pair(sides[0], sides[1], pool)


def mode2_result(npy_a: str | Path, npy_b: str | Path, outcome: PairResult, thresholds: Thresholds,
                 signed: Signature | None = None) -> PrecisionResult:
    """A mode-2 outcome as a one-row result (npy_a on the fused side, names as given), with its verdict and
    `signed`, the pair's signature, when the row fails."""
    row = PrecisionRow(OUTPUT, str(npy_a), 0, str(npy_b), 0, outcome.status, metrics=outcome.metrics,
                       message=outcome.message, fused_file=str(npy_a), origin_file=str(npy_b),
                       fused_dtype=outcome.fused_dtype, origin_dtype=outcome.origin_dtype,
                       fused_shape=outcome.fused_shape, origin_shape=outcome.origin_shape)
    result = PrecisionResult([row], thresholds)
    result.first_divergence = assign_verdicts(result.rows, result.thresholds, {})
    if row.verdict in SIGNED_VERDICTS:
        row.signature = signed
    return result


def compare_two(npy_a: str | Path, npy_b: str | Path, thresholds: Thresholds) -> tuple[PairResult, PrecisionResult]:
    """Mode 2 whole: compare two tensor files, the one-row result with its verdict, first divergence and (when
    the row fails) its signature. Names are kept as given (they are the row's fused and origin names)."""
    outcome = run_mode2(Path(npy_a), Path(npy_b))
    result = mode2_result(npy_a, npy_b, outcome, thresholds)
    row = result.rows[0]
    if row.verdict in SIGNED_VERDICTS:
        row.signature = pair_signature(*mode2_sides(npy_a, npy_b))
    return outcome, result
