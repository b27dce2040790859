"""Streaming precision metrics: the reference's three plus the usual extras, block by block.

Formulas follow fusion_precision_analyzer.py exactly (cosine = a.b / (|a||b| + 1e-8), max abs error,
max relative error over max(|a|, |b|) + 1e-8), accumulated in float64 over blocks so a pair of any size
needs only a few MB. Sums of squares are kept with a power-of-two scale so values near 1e200 do not
overflow, and integer pairs get their absolute differences exactly (uint64), even above 2**53.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np

from autofuse_studio.core.blas import limit_blas_threads
from autofuse_studio.core.dumps.lazy import DEFAULT_BLOCK_ELEMENTS, LazyTensor, iter_aligned_pairs
from autofuse_studio.core.precision.native import native_partial
from autofuse_studio.core.precision.partial import Partial
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken

EPSILON = 1e-8
# Rescale a block only when its magnitude could overflow float64 sums of squares: 2**480 squared is
# 2**960, leaving 2**64 elements of headroom. Ordinary data is never rescaled, so it matches the
# reference bit for bit.
_SCALE_EXPONENT_LIMIT = 480
PASS_RATIO_LIMITS = (0.001, 0.005)


@dataclass(frozen=True, slots=True)
class Metrics:
    """Every number we report for one compared pair (a = fused side, b = origin side); slots, as PrecisionRow's."""

    cosine: float
    max_abs_err: float
    max_rel_err: float
    mean_abs_err: float
    rmse: float
    rel_euclidean: float
    one_thousandth_ratio: float
    five_thousandth_ratio: float
    elements: int
    nan_fused: int
    inf_fused: int
    nan_origin: int
    inf_origin: int
    nonfinite_mismatch: int = 0  # positions where only one side is NaN/Inf, or the Infs differ


def _scale_exponent(values: np.ndarray) -> int:
    if values.size == 0:
        return 0
    peak = float(np.max(np.abs(values)))
    if not math.isfinite(peak):
        return 0
    exponent = math.frexp(peak)[1]
    return exponent if exponent > _SCALE_EXPONENT_LIMIT else 0


def _exact_abs_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b| for integer/bool blocks, exact (computed in uint64), returned as float64."""
    a_kind, b_kind = a.dtype.kind, b.dtype.kind
    if (a_kind == "u" and a.dtype.itemsize == 8 and b_kind == "i") or (
        b_kind == "u" and b.dtype.itemsize == 8 and a_kind == "i"
    ):
        # int64 vs uint64 has no common exact numpy type: fall back to Python integers.
        diffs = [abs(int(x) - int(y)) for x, y in zip(a.tolist(), b.tolist(), strict=True)]
        return np.array(diffs, dtype=np.float64)
    wide = np.uint64 if {a_kind, b_kind} <= {"u", "b"} else np.int64
    a_wide, b_wide = a.astype(wide), b.astype(wide)
    a_bits, b_bits = a_wide.view(np.uint64), b_wide.view(np.uint64)
    # Modular subtraction in uint64 is exact whenever the true difference is in [0, 2**64).
    diff = np.where(a_wide >= b_wide, a_bits - b_bits, b_bits - a_bits)
    return diff.astype(np.float64)


def _count_nonfinite(values: np.ndarray) -> tuple[int, int]:
    if values.dtype.kind not in "fc":
        return 0, 0
    nan_count = int(np.count_nonzero(np.isnan(values)))
    inf_count = int(np.count_nonzero(np.isinf(values)))
    return nan_count, inf_count


class _Workspace(threading.local):
    """Per-thread scratch buffers: reusing them avoids a page-faulting allocation per block."""

    def __init__(self) -> None:
        self.size = 0
        self.buffers: list[np.ndarray] = []
        self.flags = np.empty(0, dtype=bool)

    def get(self, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Three float64 buffers and one bool buffer of `count` elements."""
        if count > self.size:
            self.size = count
            self.buffers = [np.empty(count, dtype=np.float64) for _ in range(3)]
            self.flags = np.empty(count, dtype=bool)
        first, second, third = (buffer[:count] for buffer in self.buffers)
        return first, second, third, self.flags[:count]


_WORKSPACE = _Workspace()


def block_partial(a_block: np.ndarray, b_block: np.ndarray) -> Partial:
    """Partial sums of one pair of equally long 1-D blocks."""
    # The native kernel does it in one pass without the GIL; it declines (None) for blocks that need
    # rescaling, unsupported dtypes or when it is not built, and _block_partial stays the reference.
    partial = native_partial(a_block, b_block, PASS_RATIO_LIMITS, EPSILON)
    if partial is not None:
        return partial
    # NaN and Inf are data here, not errors: they propagate into the metrics as in the reference.
    with np.errstate(all="ignore"):
        return _block_partial(a_block, b_block)


def _scaled_dots(partial: Partial, a: np.ndarray, b: np.ndarray) -> None:
    partial.dot_ab = float(np.dot(a, b))
    partial.sum_aa = float(np.dot(a, a))
    partial.sum_bb = float(np.dot(b, b))
    if math.isfinite(partial.sum_aa) and math.isfinite(partial.sum_bb):
        return  # common case: no NaN, no Inf, no overflow, nothing more to look at
    partial.nan_a, partial.inf_a = _count_nonfinite(a)
    partial.nan_b, partial.inf_b = _count_nonfinite(b)
    if partial.nan_a or partial.inf_a or partial.nan_b or partial.inf_b:
        nan_a, nan_b = np.isnan(a), np.isnan(b)
        inf_differs = (np.isinf(a) | np.isinf(b)) & (a != b)
        partial.nonfinite_mismatch = int(np.count_nonzero(nan_a != nan_b) + np.count_nonzero(inf_differs))
    partial.exp_a, partial.exp_b = _scale_exponent(a), _scale_exponent(b)
    if partial.exp_a or partial.exp_b:
        a_scaled, b_scaled = np.ldexp(a, -partial.exp_a), np.ldexp(b, -partial.exp_b)
        partial.dot_ab = float(np.dot(a_scaled, b_scaled))
        partial.sum_aa = float(np.dot(a_scaled, a_scaled))
        partial.sum_bb = float(np.dot(b_scaled, b_scaled))


def _block_partial(a_block: np.ndarray, b_block: np.ndarray) -> Partial:
    count = int(a_block.size)
    partial = Partial(count=count)
    a, b, abs_diff, flags = _WORKSPACE.get(count)
    np.copyto(a, a_block, casting="unsafe")
    np.copyto(b, b_block, casting="unsafe")
    _scaled_dots(partial, a, b)
    if a_block.dtype.kind in "biu" and b_block.dtype.kind in "biu":
        np.copyto(abs_diff, _exact_abs_diff(a_block, b_block))
    else:
        np.subtract(a, b, out=abs_diff)
        np.abs(abs_diff, out=abs_diff)
    partial.max_abs = float(np.max(abs_diff))
    partial.sum_abs = float(np.sum(abs_diff))
    partial.sum_dd = float(np.dot(abs_diff, abs_diff))
    if not math.isfinite(partial.sum_dd) and math.isfinite(partial.max_abs):
        partial.exp_d = _scale_exponent(abs_diff)
        diff_scaled = np.ldexp(abs_diff, -partial.exp_d)
        partial.sum_dd = float(np.dot(diff_scaled, diff_scaled))
    # a and b are not needed any more: reuse them for the relative error.
    np.abs(a, out=a)
    np.abs(b, out=b)
    denominator = np.maximum(a, b, out=a)
    denominator += EPSILON
    relative = np.divide(abs_diff, denominator, out=b)
    partial.max_rel = float(np.max(relative))
    passes = []
    for limit in PASS_RATIO_LIMITS:
        np.less(relative, limit, out=flags)
        passes.append(int(np.count_nonzero(flags)))
    partial.passes = passes
    return partial


def metrics_from(total: Partial) -> Metrics:
    """The Metrics of a pair from its merged partial sums."""
    count = total.count
    norm_a, norm_b = math.sqrt(total.sum_aa), math.sqrt(total.sum_bb)
    scaled_epsilon = math.ldexp(EPSILON, -(total.exp_a + total.exp_b))
    with np.errstate(all="ignore"):
        cosine = float(np.float64(total.dot_ab) / (np.float64(norm_a) * norm_b + scaled_epsilon))
    diff_norm = math.ldexp(math.sqrt(total.sum_dd), total.exp_d) if math.isfinite(total.sum_dd) else math.nan
    origin_norm = math.ldexp(norm_b, total.exp_b) if math.isfinite(norm_b) else math.nan
    if origin_norm > 0:
        rel_euclidean = diff_norm / origin_norm
    else:
        rel_euclidean = 0.0 if diff_norm == 0 else math.nan
    return Metrics(
        cosine=cosine,
        max_abs_err=total.max_abs,
        max_rel_err=total.max_rel,
        mean_abs_err=total.sum_abs / count,
        rmse=diff_norm / math.sqrt(count),
        rel_euclidean=rel_euclidean,
        one_thousandth_ratio=total.passes[0] / count,
        five_thousandth_ratio=total.passes[1] / count,
        elements=count,
        nan_fused=total.nan_a,
        inf_fused=total.inf_a,
        nan_origin=total.nan_b,
        inf_origin=total.inf_b,
        nonfinite_mismatch=total.nonfinite_mismatch,
    )


def _bounded_map(
    executor: Executor, pairs: Iterable[tuple[np.ndarray, np.ndarray]], in_flight: int
) -> Iterator[Partial]:
    """executor.map with at most `in_flight` pending blocks, so memory stays bounded."""
    pending = []
    for a_block, b_block in pairs:
        pending.append(executor.submit(block_partial, a_block, b_block))
        if len(pending) >= in_flight:
            yield pending.pop(0).result()
    for future in pending:
        yield future.result()


def compare_tensors(
    fused: LazyTensor,
    origin: LazyTensor,
    *,
    executor: Executor | None = None,
    block_elements: int = DEFAULT_BLOCK_ELEMENTS,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Metrics:
    """Metrics of two tensors of equal size, compared element by element in C order."""
    limit_blas_threads()
    if fused.size == 0:
        raise ValueError("the tensors are empty")
    if fused.size <= block_elements and fused.size == origin.size:
        # One block (most dump tensors): no block iterators, no merging.
        return metrics_from(block_partial(fused.materialize().reshape(-1), origin.materialize().reshape(-1)))
    pairs = iter_aligned_pairs(fused, origin, block_elements)
    partials: Iterable[Partial]
    if executor is None:
        partials = (block_partial(a_block, b_block) for a_block, b_block in pairs)
    else:
        partials = _bounded_map(executor, pairs, in_flight=4)
    total = Partial()
    for partial in partials:
        cancel.check()
        total.merge(partial)
    return metrics_from(total)
