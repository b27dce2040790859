"""Natural order for step and rank names: '2' before '10', and None (no rank) first."""

from __future__ import annotations

import re

NaturalKey = list[tuple[int, int | str]]


def natural_key(text: str | None) -> NaturalKey:
    """Sort key that orders '2' before '10' (and None first)."""
    if text is None:
        return []
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part]
