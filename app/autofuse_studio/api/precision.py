"""compare_case() and compare_npys(): the precision engine behind `nwa` mode 1 and mode 2, for scripts and notebooks."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from autofuse_studio.core.dumps.npy import not_a_file_error
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.rank_ids import rank_list
from autofuse_studio.core.precision.rows import VERDICT_CULPRIT, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import (
    Limits,
    Thresholds,
    check_dtype_name,
    check_limit,
    load_thresholds,
)
from autofuse_studio.core.printable import escape_controls, short_repr
from autofuse_studio.core.progress import Progress, no_progress
from autofuse_studio.core.resources import demo_case_dir
from autofuse_studio.core.run.runners import start
from autofuse_studio.core.run.spec import RunSpec, mode2_spec

if TYPE_CHECKING:
    import pandas as pd

PathLike = str | os.PathLike[str]
METRIC_NAMES = tuple(item.name for item in fields(Metrics))


class CasePaths(NamedTuple):
    """The four inputs of a mode-1 case, in compare_case()'s order."""

    af_open_graph: Path
    af_close_graph: Path
    af_open_data: Path
    af_close_data: Path


def demo_case() -> CasePaths:
    """The demo case shipped with the app (one fused op with a wrong constant): `compare_case(*demo_case())`."""
    root = demo_case_dir()
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    return CasePaths(root / manifest["graphs"]["af_open"], root / manifest["graphs"]["af_close"],
                     root / manifest["data"]["af_open"], root / manifest["data"]["af_close"])


def make_thresholds(cosine: float | None = None, max_abs: float | None = None, max_rel: float | None = None,
                    dtype_thresholds: Mapping[str, Mapping[str, float]] | None = None,
                    thresholds_file: PathLike | None = None) -> Thresholds:
    """Limits as `nwa` combines them: the TOML file (if any), then the keyword limits, then the per-dtype ones.

    dtype_thresholds maps a dtype name to limits, e.g. {"float16": {"cosine": 0.995}}.
    """
    base = load_thresholds(Path(thresholds_file)) if thresholds_file is not None else Thresholds()
    given = {"cosine": cosine, "max_abs": max_abs, "max_rel": max_rel}
    default = Limits(**{key: getattr(base.default, key) if value is None else check_limit(key, value, "argument")
                        for key, value in given.items()})
    per_dtype = dict(base.per_dtype)
    if dtype_thresholds is not None and not isinstance(dtype_thresholds, Mapping):
        raise InputError.of("api_dtype_thresholds_not_mapping", value=_shown(dtype_thresholds))
    for dtype, limits in (dtype_thresholds or {}).items():
        where = f"dtype_thresholds[{_shown(dtype)}]"
        check_dtype_name(dtype, where)
        if not isinstance(limits, Mapping):
            raise InputError.of("api_limits_not_mapping", place=where, value=_shown(limits))
        unknown = sorted(str(key) for key in set(limits) - set(given))
        if unknown:
            raise InputError.of("api_unknown_limit", place=where, key=_shown(unknown[0]))
        values = {key: check_limit(key, value, where) for key, value in limits.items()}
        per_dtype[dtype] = Limits(**{**per_dtype.get(dtype, default).as_dict(), **values})
    return Thresholds(default, per_dtype, base.stats)


def _shown(value: object) -> str:
    """A short quote of an argument for a message."""
    return escape_controls(short_repr(value, 60))


class PrecisionTable:
    """Rows of a precision run with pandas, JSON and file exports (the same columns as `nwa --output`)."""

    def __init__(self, result: PrecisionResult) -> None:
        self.result = result

    @property
    def rows(self) -> list[PrecisionRow]:
        """Every result row in table order (rank, step, occurrence, op, metrics, status, verdict ...)."""
        return self.result.rows

    def __len__(self) -> int:
        return len(self.result.rows)

    def counts(self, attribute: str = "verdict") -> dict[str, int]:
        """How many rows have each "verdict" (or "status")."""
        return self.result.counts(attribute)

    def to_dict(self) -> dict[str, Any]:
        """The document `nwa --output result.json` writes (NaN and Inf as None)."""
        return self.result.to_dict()

    def to_json(self, indent: int | None = 2) -> str:
        """to_dict() as JSON text (UTF-8 names kept, no NaN)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent, allow_nan=False)

    def save(self, path: PathLike) -> Path:
        """Write the result as .json, .csv or .xlsx (chosen by the suffix), atomically; returns the path."""
        from autofuse_studio.core.reports.precision_files import write_precision

        return write_precision(self.result, Path(path))

    def to_dataframe(self) -> pd.DataFrame:
        """One pandas row per result row; metrics keep NaN and Inf; shapes are tuples; counts nullable ints.

        The statistics columns (stat_*) are empty (None) for tensor rows; `signature` (the code) and
        `signature_sentence` are empty for rows without a signature (see core.precision.signature).
        """
        import pandas as pd  # lazy: pandas costs ~0.3 s and only this method needs it

        from autofuse_studio.core.precision.columns import INTEGER, export_columns
        from autofuse_studio.core.reports.precision_files import signature_cells, stats_cells

        records = [{**_record(row), **stats_cells(row, self.result.thresholds.stats), **signature_cells(row)}
                   for row in self.result.rows]
        columns = export_columns()  # the columns of `nwa --output rows.csv`, every one of them
        frame = pd.DataFrame.from_records(records, columns=[column.key for column in columns])
        for column in columns:
            if column.kind == INTEGER:  # counts and indexes: nullable integers stay integers with gaps
                frame[column.key] = frame[column.key].astype("Int64")
        return frame


def _record(row: PrecisionRow) -> dict[str, Any]:
    """A row's to_dict() with the raw metric values (NaN and Inf survive, NaN when not compared), shapes as tuples."""
    record = row.to_dict()
    record.update(asdict(row.metrics) if row.metrics is not None else dict.fromkeys(METRIC_NAMES, math.nan))
    record["fused_shape"], record["origin_shape"] = row.fused_shape, row.origin_shape
    return record


class CaseComparison(PrecisionTable):
    """What compare_case() found: rows with verdicts, the first divergence (overall and per rank), warnings."""

    @property
    def first_divergence(self) -> PrecisionRow | None:
        """The culprit that comes first in execution order, or None when nothing diverges."""
        return self.result.first_divergence

    @property
    def culprits(self) -> list[PrecisionRow]:
        """Rows that introduce error themselves (verdict CULPRIT), in table order."""
        return [row for row in self.result.rows if row.verdict == VERDICT_CULPRIT]

    @property
    def warnings(self) -> list[str]:
        """One sentence per kind of problem met while reading the graphs and dumps."""
        return self.result.warnings

    def __repr__(self) -> str:
        first = self.first_divergence
        where = "none" if first is None else f"{first.fused_op} {first.kind} {first.fused_index}"
        return f"<CaseComparison {len(self)} rows, {len(self.culprits)} culprit(s), first divergence: {where}>"


class NpyComparison(PrecisionTable):
    """What compare_npys() found: one row, its metrics, and whether it passes the limits."""

    @property
    def row(self) -> PrecisionRow:
        """The single comparison row (npy_a on the fused side, npy_b on the origin side)."""
        return self.result.rows[0]

    @property
    def status(self) -> str:
        """OK, DTYPE_CAST, SHAPE_MISMATCH, NPY_LOAD_ERROR ... (the reference tool's vocabulary)."""
        return self.row.status

    @property
    def metrics(self) -> dict[str, float | int] | None:
        """Every metric by name, or None when the files could not be compared."""
        return None if self.row.metrics is None else asdict(self.row.metrics)

    @property
    def violations(self) -> list[str]:
        """Each broken limit as 'cosine 0.95 < 0.99' (empty when the comparison passes)."""
        if self.row.metrics is None:
            return []
        limits = self.result.thresholds.limits_for(self.row.origin_dtype or self.row.fused_dtype or "")
        return limits.violations(self.row.metrics)

    @property
    def passed(self) -> bool | None:
        """True when compared within the limits, False when a limit is broken, None when not compared."""
        return None if self.row.metrics is None else not self.violations

    def __repr__(self) -> str:
        cosine = self.row.metric("cosine")
        shown = "n/a" if cosine is None else f"{cosine:.6g}"
        return f"<NpyComparison {self.status}, cosine {shown}, passed={self.passed}>"


def compare_case(af_open_graph: PathLike, af_close_graph: PathLike, af_open_data: PathLike, af_close_data: PathLike,
                 *, compare_input: bool = False, step: str | None = None,
                 ranks: str | Iterable[int | str] | None = None,
                 jobs: int | None = None, cosine: float | None = None, max_abs: float | None = None,
                 max_rel: float | None = None, dtype_thresholds: Mapping[str, Mapping[str, float]] | None = None,
                 thresholds_file: PathLike | None = None, progress: Progress | None = None) -> CaseComparison:
    """Compare every fused op of a case (graphs + dump folders), as `nwa --mode 1`; AppError on bad inputs."""
    for graph in (Path(af_open_graph), Path(af_close_graph)):
        if not graph.is_file():
            raise InputError.of("graph_missing", path=graph)
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)):
        raise InputError.of("api_jobs_not_int", value=_shown(jobs))
    spec = RunSpec(Path(af_open_graph), Path(af_close_graph), Path(af_open_data), Path(af_close_data),
                   compare_input=compare_input, step=step, ranks=None if ranks is None else rank_list(ranks, "ranks"),
                   jobs=None if jobs is None else max(1, jobs),
                   thresholds=make_thresholds(cosine, max_abs, max_rel, dtype_thresholds, thresholds_file))
    return CaseComparison(start(spec).wait(progress or no_progress).result)


def compare_npys(npy_a: PathLike, npy_b: PathLike, *, cosine: float | None = None, max_abs: float | None = None,
                 max_rel: float | None = None, dtype_thresholds: Mapping[str, Mapping[str, float]] | None = None,
                 thresholds_file: PathLike | None = None, tensor: str | None = None,
                 tensor_b: str | None = None) -> NpyComparison:
    """Compare two dumped tensors directly, as `nwa --mode 2`; the thresholds decide `passed` and the verdict.

    Each file is an NPY or a raw dump as the NPU writes it; `tensor` ('output:0') picks a raw dump's tensor
    (for npy_b too unless `tensor_b` is given).
    """
    for path in (Path(npy_a), Path(npy_b)):
        if not path.is_file():
            raise not_a_file_error(path) or InputError.of("npy_missing", path=path)
    spec = mode2_spec(os.fspath(npy_a), os.fspath(npy_b),
                      make_thresholds(cosine, max_abs, max_rel, dtype_thresholds, thresholds_file), tensor, tensor_b)
    return NpyComparison(start(spec).wait().result)
