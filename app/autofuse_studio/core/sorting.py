"""Natural order for step and rank names: '2' before '10', and None (no rank) first."""

from __future__ import annotations

import functools
import re

NaturalKey = tuple[tuple[int, int | str], ...]


@functools.lru_cache(maxsize=4096)
def natural_key(text: str | None) -> NaturalKey:
    """Sort key that orders '2' before '10' (and None first); cached: a run has few distinct names."""
    if text is None:
        return ()
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part)
