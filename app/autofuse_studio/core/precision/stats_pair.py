"""Statistics-mode pairs: a fused tensor judged by its statistics against the origin's (a stats CSV on either side).

A statistics-only dump side names each tensor like a raw dump's: `{op dump}.csv/{input|output}.{i}.npy`. When
one side has statistics and the other tensors, the tensors' statistics are computed (in their origin layout,
without the device padding) and compared with the CSV's, so a stats run can be checked against a tensor run.
"""

from __future__ import annotations

import os
from pathlib import Path

from autofuse_studio.core.dumps.layout import is_private_format, to_origin_layout
from autofuse_studio.core.dumps.lru import LockedLru
from autofuse_studio.core.dumps.stats_csv import StatsFile, TensorStats, read_stats_file, stats_file_from_contents
from autofuse_studio.core.dumps.tensors import RawRef, raw_ref
from autofuse_studio.core.errors import FormatConversionError, FormatUnsupported, NpyLoadError
from autofuse_studio.core.precision.pair import (
    FILE_NOT_FOUND,
    FORMAT_CONVERSION_ERROR,
    NPY_LOAD_ERROR,
    OK,
    PairResult,
    PairSide,
    open_side,
)
from autofuse_studio.core.precision.stats import canonical_dtype, compare_stats, tensor_statistics

_STATS_SUFFIX = ".csv"
_CACHED_FILES = 1024
DTYPE_CAST = "DTYPE_CAST"


def stats_ref(path: str | Path | None) -> RawRef | None:
    """The statistics CSV, kind and index a tensor name stands for; None when it names no CSV's tensor."""
    if path is None:
        return None
    ref = raw_ref(path)
    return ref if ref is not None and ref.path.endswith(_STATS_SUFFIX) else None


# The last parsed statistics CSVs: a fused op's inputs and outputs are read from one file, row by row.
_CSVS: LockedLru[tuple[str, int, int], StatsFile] = LockedLru(_CACHED_FILES)


def _read_csv(path: Path) -> StatsFile:
    """The parsed CSV, from the cache while the file's size and mtime are unchanged."""
    try:
        info = os.stat(path)
    except OSError:
        return read_stats_file(path)  # says what is wrong with it
    key = (os.fspath(path), info.st_size, info.st_mtime_ns)
    found = _CSVS.get(key)
    if found is None:
        found = read_stats_file(path)
        _CSVS.put(key, found)
    return found


class _SideProblem(Exception):
    """A side whose statistics cannot be had: the row's status and message."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# Statistics CSVs parsed from contents the batch reader read (pair_batch): kept by path and contents, so a hit
# is the same bytes, with no stat call to tell a changed file.
_CONTENTS: LockedLru[tuple[str, bytes], StatsFile] = LockedLru(_CACHED_FILES)


def _parsed(ref: RawRef, contents: bytes) -> StatsFile:
    """The CSV `ref` points into parsed from `contents`, from the cache when the same file had the same bytes."""
    key = (ref.path, contents)  # the name as the index wrote it: no Path made for a hit
    found = _CONTENTS.get(key)
    if found is None:
        found = stats_file_from_contents(ref.path, contents)  # a Path only where a sentence needs one
        _CONTENTS.put(key, found)
    return found


def _csv_statistics(ref: RawRef, side: PairSide, contents: bytes | None = None) -> TensorStats:
    try:
        dump = _read_csv(ref.file) if contents is None else _parsed(ref, contents)
    except NpyLoadError as error:
        raise _SideProblem(NPY_LOAD_ERROR, f"Statistics load failed - {side.label}: {error}") from None
    stats = dump.tensor(ref.kind, ref.index)
    if stats is None:
        raise _SideProblem(FILE_NOT_FOUND, f"Statistics CSV {ref.file} has no {ref.kind} {ref.index}: {side.label}")
    return stats


def _tensor_statistics(side: PairSide) -> TensorStats:
    """Statistics of a tensor in its origin layout (the device padding would skew every statistic)."""
    try:
        tensor, side = open_side(side)
    except NpyLoadError as error:
        raise _SideProblem(NPY_LOAD_ERROR, f"NPY Load failed - {side.label}: {error}") from None
    layout = side.layout
    if layout is not None and is_private_format(layout.layout):
        try:
            tensor, _converted = to_origin_layout(tensor, layout, layout.origin_format)
        except (FormatUnsupported, FormatConversionError) as error:
            raise _SideProblem(FORMAT_CONVERSION_ERROR, f"Format conversion failed - {side.label}: {error}") from None
    ref = raw_ref(side.path) if side.path is not None else None
    kind, index = (ref.kind, ref.index) if ref is not None else ("output", 0)
    return tensor_statistics(tensor, kind, index, data_format=(layout.origin_format or "ND") if layout else "ND")


def _statistics(side: PairSide, contents: bytes | None, ref: RawRef | None) -> TensorStats:
    ref = ref if ref is not None else stats_ref(side.path)
    return _csv_statistics(ref, side, contents) if ref is not None else _tensor_statistics(side)


def compare_stats_pair(fused_side: PairSide, origin_side: PairSide,
                       contents: tuple[bytes | None, bytes | None] = (None, None),
                       refs: tuple[RawRef | None, RawRef | None] = (None, None)) -> PairResult:
    """Compare two sides by their statistics (at least one of them a statistics CSV's tensor); `contents`: the
    CSVs' bytes where the caller read them already (pair_batch reads a round's files in one call), `refs` the
    sides' stats_ref() where it has them."""
    try:
        fused = _statistics(fused_side, contents[0], refs[0])
        origin = _statistics(origin_side, contents[1], refs[1])
    except _SideProblem as problem:
        return PairResult(problem.status, message=problem.message)
    comparison = compare_stats(fused, origin)
    fused_dtype, origin_dtype = canonical_dtype(fused.dtype), canonical_dtype(origin.dtype)
    status = DTYPE_CAST if fused_dtype and origin_dtype and fused_dtype != origin_dtype else OK
    message = comparison.problem or comparison.mismatch or ""
    return PairResult(status, None, message, fused_dtype, origin_dtype, fused.shape, origin.shape, stats=comparison)
