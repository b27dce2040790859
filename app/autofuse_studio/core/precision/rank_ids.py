"""Rank (device id) choices as users give them: `--rank 0,2,3`, or `ranks=[0, 2]` / `ranks="0,2"` in the API."""

from __future__ import annotations

from collections.abc import Iterable

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.printable import escape_controls, short_repr

# Device ids are small numbers; more digits than this is a typo (and int() refuses 4300+ digits).
MAX_RANK_DIGITS = 9


def rank_id(value: object) -> str | None:
    """A device id as the dump tree writes it ('007' and 7 -> '7'), or None when `value` is not one."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value) if 0 <= value < 10 ** MAX_RANK_DIGITS else None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit():
            digits = text.lstrip("0") or "0"
            return digits if len(digits) <= MAX_RANK_DIGITS else None
    return None


def rank_list(values: str | Iterable[object], where: str) -> list[str]:
    """The distinct device ids of `values` (a comma list, or an iterable of ids), in order; InputError otherwise."""
    items: list[object] = [part for part in values.split(",") if part.strip()] if isinstance(values, str) \
        else list(values) if isinstance(values, Iterable) else [values]
    ranks = [rank_id(item) for item in items]
    bad = next((item for item, rank in zip(items, ranks, strict=True) if rank is None), None)
    if not items or bad is not None:
        shown = escape_controls(short_repr(bad if bad is not None else values, 40))
        raise InputError.of("rank_ids_invalid", option=where, digits=MAX_RANK_DIGITS, value=shown)
    return list(dict.fromkeys(rank for rank in ranks if rank is not None))
