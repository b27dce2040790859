"""Compare many small pairs at once: the kernel reads all their files in one call and measures them in another.

compare_pair releases the GIL about ten times per pair (open, fstat, read and close of each file, then
the kernel); with two worker threads every release became a handoff between them, and two threads were
slower than one. Here a batch costs two releases. Everything between them is compare_pair's own code
(tensor_from_contents, prepare_pair, metrics_from), and every pair the fast path does not take - a missing,
unreadable, odd or big file, a broken header, more than one block - is compared by compare_pair itself,
so each result, message included, is the one compare_pair gives.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from autofuse_studio.core.blas import limit_blas_threads
from autofuse_studio.core.dumps.lazy import DEFAULT_BLOCK_ELEMENTS, LazyTensor
from autofuse_studio.core.dumps.npy import largest_read, tensor_from_contents
from autofuse_studio.core.dumps.tensors import RawRef, is_ffts_file, raw_ref, raw_tensor_from_contents
from autofuse_studio.core.errors import NpyLoadError
from autofuse_studio.core.precision import native, pair
from autofuse_studio.core.precision.metrics import EPSILON, PASS_RATIO_LIMITS, block_partial, metrics_from
from autofuse_studio.core.precision.pair import PairResult, PairSide, PreparedPair, compare_pair, prepare_pair
from autofuse_studio.core.precision.stats_pair import compare_stats_pair
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken

PairKey = tuple[PairSide, PairSide]
PairComparer = Callable[[PairSide, PairSide], PairResult]

# The per-thread buffer files are read into: a round of pairs takes as many as fit. Every single-block
# pair fits (2**18 elements of 8 bytes, twice, with headers), bigger files are left to compare_pair.
BUFFER_BYTES = 8 << 20
# Pairs per round: the cancel token is checked between rounds.
ROUND_PAIRS = 32
_READ_OK = 0
_STATS_SUFFIX = ".csv"


@functools.cache
def _reader() -> Any:
    """af_read_files with its prototype (a ctypes function), or None when the kernel is not built or predates it."""
    function = native.prototyped("af_read_files", ctypes.c_int64, [
        ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p])
    if function is None:
        return None
    # Reading no files answers AF_UNSUPPORTED (-1) where the kernel has no POSIX I/O (Windows).
    return function if function(None, 0, 0, None, 0, None, None, None) == 0 else None


class _Buffer(threading.local):
    """One read buffer per thread, reused round after round: a fresh one would page-fault every time."""

    def __init__(self) -> None:
        self.array = np.empty(0, dtype=np.uint8)

    def get(self) -> np.ndarray:
        """The thread's buffer of BUFFER_BYTES (allocated on first use)."""
        if self.array.size != BUFFER_BYTES:
            self.array = np.empty(BUFFER_BYTES, dtype=np.uint8)
        return self.array


_BUFFER = _Buffer()


def _file_of(path: str | Path | None, ref: RawRef | None) -> Path | str | None:
    """The file to read for a side: the NPY itself, the raw dump a raw tensor's name points into, or the
    statistics CSV a statistics tensor's name points into."""
    if ref is None:
        return path
    # The thread files of FFTS+ ops (merged from several files) go to compare_pair.
    return None if is_ffts_file(ref.path) else ref.path


def _is_stats(ref: RawRef | None) -> bool:
    return ref is not None and ref.path.endswith(_STATS_SUFFIX)


def _encoded(path: Path | str | None) -> bytes:
    encoded = os.fsencode(path) if path is not None else b""
    # C would read a NUL as the end of the path and open another file; "" fails to open, so compare_pair
    # gets the pair and does what it does with such a path.
    return b"" if b"\0" in encoded else encoded


def _read_files(paths: list[bytes], buffer: np.ndarray) -> list[tuple[int, int] | None]:
    """Read the leading files that fit in `buffer`: the (offset, size) of each, None where compare_pair must open it."""
    reader = _reader()
    assert reader is not None
    count = len(paths)
    offsets, sizes = np.empty(count, dtype=np.int64), np.empty(count, dtype=np.int64)
    statuses = np.empty(count, dtype=np.int32)
    # open_npy maps the files above largest_read: those go to compare_pair. Any two files that are read fit
    # in an empty buffer (with their alignment), so every round compares at least one pair.
    limit = min(largest_read(pair.READ_BELOW_BYTES), buffer.size // 2 - 64)
    done = reader((ctypes.c_char_p * count)(*paths), count, limit, native.data_address(buffer), buffer.size,
                  native.data_address(offsets), native.data_address(sizes), native.data_address(statuses))
    assert done >= 0, "af_read_files is unsupported here: _reader() returns None then"
    return [(offset, size) if status == _READ_OK else None
            for offset, size, status in zip(offsets[:done].tolist(), sizes[:done].tolist(), statuses[:done].tolist(),
                                            strict=True)]


def _single_blocks(prepared: PreparedPair) -> tuple[np.ndarray, np.ndarray] | None:
    """The pair's values as compare_tensors' one-block route takes them, or None when it takes another route."""
    fused, origin = prepared.fused, prepared.origin
    if not 0 < fused.size <= DEFAULT_BLOCK_ELEMENTS or fused.size != origin.size:
        return None
    try:
        return fused.materialize().reshape(-1), origin.materialize().reshape(-1)
    except (ValueError, OSError, MemoryError):
        return None  # measure() runs into the same error and reports it as compare_pair does


def _side_tensor(contents: memoryview, side: PairSide, ref: RawRef | None) -> tuple[LazyTensor, PairSide]:
    """The side's tensor from its file's contents (an NPY, or a raw dump holding it), with the side's layout
    completed from a raw header as compare_pair completes it."""
    assert side.path is not None
    if ref is None:
        return tensor_from_contents(contents, side.path), side
    tensor, stored = raw_tensor_from_contents(contents, ref)
    layout = pair.stored_layout(side.layout, stored)
    if layout == side.layout:  # the graph already said it all (the usual case): the same side
        return tensor, side
    return tensor, PairSide(side.path, layout, side.label, side.graph_dtype)


def _compare_round(keys: Sequence[PairKey], results: dict[PairKey, PairResult], fallback: PairComparer) -> int:
    """Compare the leading pairs of `keys` whose files fit in the buffer (at least one); returns how many."""
    buffer = _BUFFER.get()
    refs = [raw_ref(side.path) if side.path is not None else None for key in keys for side in key]
    spans = _read_files([_encoded(_file_of(side.path, ref)) for side, ref in
                         zip((side for key in keys for side in key), refs, strict=True)], buffer)
    contents = buffer.data.toreadonly()
    measured: list[tuple[PairKey, PreparedPair, tuple[np.ndarray, np.ndarray]]] = []
    for number in range(len(spans) // 2):
        key, fused_span, origin_span = keys[number], spans[2 * number], spans[2 * number + 1]
        if fused_span is None or origin_span is None:
            results[key] = fallback(*key)
            continue
        fused_side, origin_side = key
        fused_ref, origin_ref = refs[2 * number], refs[2 * number + 1]
        if _is_stats(fused_ref) or _is_stats(origin_ref):
            # Compared by their statistics (both CSVs here: from the bytes just read; else compare_pair).
            results[key] = compare_stats_pair(fused_side, origin_side, (
                bytes(contents[fused_span[0]:fused_span[0] + fused_span[1]]),
                bytes(contents[origin_span[0]:origin_span[0] + origin_span[1]])), (fused_ref, origin_ref)) \
                if _is_stats(fused_ref) and _is_stats(origin_ref) else fallback(*key)
            continue
        try:
            fused, fused_side = _side_tensor(contents[fused_span[0]:fused_span[0] + fused_span[1]], fused_side,
                                             fused_ref)
            origin, origin_side = _side_tensor(contents[origin_span[0]:origin_span[0] + origin_span[1]], origin_side,
                                               origin_ref)
        except NpyLoadError:
            results[key] = fallback(*key)  # compare_pair words the error (and which side it is on)
            continue
        prepared = prepare_pair(fused_side, origin_side, fused, origin)
        if isinstance(prepared, PairResult):
            results[key] = prepared
            continue
        blocks = _single_blocks(prepared)
        if blocks is None:
            results[key] = prepared.measure()
            continue
        measured.append((key, prepared, blocks))
    partials = native.native_partials([blocks for _, _, blocks in measured], PASS_RATIO_LIMITS, EPSILON)
    for (key, prepared, blocks), partial in zip(measured, partials, strict=True):
        # Where the kernel declined (sums that need rescaling), block_partial takes the numpy route as before.
        results[key] = prepared.result(metrics_from(partial if partial is not None else block_partial(*blocks)))
    return len(spans) // 2


def compare_pairs(keys: Sequence[PairKey], cancel: CancelToken = NEVER_CANCELLED,
                  fallback: PairComparer = compare_pair) -> dict[PairKey, PairResult]:
    """compare_pair's result of every pair; `fallback` (compare_pair) compares those the fast path does not take."""
    results: dict[PairKey, PairResult] = {}
    if not native.batch_enabled() or _reader() is None:
        for key in keys:
            cancel.check()
            results[key] = fallback(*key)
        return results
    limit_blas_threads()  # as compare_tensors does, for the pairs that take the numpy route
    start = 0
    while start < len(keys):
        cancel.check()
        start += _compare_round(keys[start:start + ROUND_PAIRS], results, fallback)
    return results
