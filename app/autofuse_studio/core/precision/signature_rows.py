"""Signatures of a finished result's rows after its verdicts changed (new thresholds in the GUI), Qt-free.

A run signs its failing rows (CULPRIT and PROPAGATED) compared by value (engine.sign_failing). When the
thresholds change, the rows' signatures are made to match what a fresh run with those thresholds would give:
rows that no longer fail drop theirs, rows that now fail get one. settle_signatures() does the cheap part at once
(dropping, and restoring signatures worked out before, kept in a cache per result); sign_pairs() is the costly
part (reading the pairs again), meant for a worker thread. sign_row() signs any row compared by value, whatever
its verdict (the GUI's tensor panel, on demand).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.precision.engine import SIGNED_VERDICTS, pair_signature, signed_pair
from autofuse_studio.core.precision.pair import PairSide
from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress

# id(row) -> (row, its signature or None when it has none): what was worked out for the rows of one result. The
# row is kept so its id is not reused by another object while the cache lives.
SignatureCache = dict[int, tuple[PrecisionRow, Signature | None]]


def signable(row: PrecisionRow) -> bool:
    """True when a run would sign the row: its verdict fails and it was compared by value from two files."""
    return row.verdict in SIGNED_VERDICTS and signable_on_demand(row)


def signable_on_demand(row: PrecisionRow) -> bool:
    """True when the row can be signed whatever its verdict (the GUI, on demand): it was compared by value from
    two files."""
    return row.metrics is not None and bool(row.fused_file) and bool(row.origin_file)


def sign_row(row: PrecisionRow, *, progress: Progress | None = None, cancel: CancelToken = NEVER_CANCELLED
             ) -> tuple[Signature | None, str]:
    """The row's signature from its two files, and why there is none (engine.signed_pair's reasons): the GUI's
    on-demand signature of any row compared by value, a TaskRunner task body (one pair: not stopped midway)."""
    del progress
    cancel.check()
    return signed_pair(*row_sides(row))


def row_sides(row: PrecisionRow) -> tuple[PairSide, PairSide]:
    """The two sides of a row's comparison, as the run opened them (files, layouts, a bf16 graph dtype)."""
    def side(path: str | None, layout: LayoutInfo | None, label: str, dtype: str) -> PairSide:
        return PairSide(Path(path) if path else None, layout, label, "DT_BF16" if dtype == "bfloat16" else None)

    return (side(row.fused_file, row.fused_layout, row.fused_op, row.fused_dtype),
            side(row.origin_file, row.origin_layout, row.origin_op or "", row.origin_dtype))


def settle_signatures(rows: Sequence[PrecisionRow], cache: SignatureCache) -> list[PrecisionRow]:
    """Make the rows' signatures follow their verdicts now, without reading any file: a row that no longer fails
    drops its signature (kept in `cache`), a failing row known to `cache` gets its signature back. Returns the
    failing rows still to be signed (sign_pairs, then apply_signed)."""
    todo = []
    for row in rows:
        if row.signature is not None and row.verdict not in SIGNED_VERDICTS:
            cache[id(row)] = (row, row.signature)
            row.signature = None
        elif row.signature is None and signable(row):
            known = cache.get(id(row))
            if known is not None and known[0] is row:
                row.signature = known[1]
            else:
                todo.append(row)
    return todo


def sign_pairs(pairs: Sequence[tuple[PairSide, PairSide]], *, progress: Progress | None = None,
               cancel: CancelToken = NEVER_CANCELLED) -> list[Signature | None]:
    """The signature of each pair (None when it cannot be read again or is too big): a TaskRunner task body."""
    signed: list[Signature | None] = []
    for number, (fused, origin) in enumerate(pairs):
        cancel.check()
        signed.append(pair_signature(fused, origin))
        if progress is not None:
            progress(number + 1, len(pairs), "")
    return signed


def apply_signed(rows: Sequence[PrecisionRow], signed: Sequence[Signature | None], cache: SignatureCache
                 ) -> list[PrecisionRow]:
    """Give the rows (settle_signatures' todo) their signatures from sign_pairs, when they still fail and have
    none; all are remembered in `cache`. Returns the rows whose signature changed."""
    changed = []
    for row, found in zip(rows, signed, strict=True):
        cache[id(row)] = (row, found)
        if found is not None and row.signature is None and signable(row):
            row.signature = found
            changed.append(row)
    return changed
