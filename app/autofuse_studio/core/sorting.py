"""Natural order for step and rank names: '2' before '10', and None (no rank) first."""

from __future__ import annotations

import functools
import re

NaturalKey = tuple[tuple[int, int | str, str], ...]


@functools.lru_cache(maxsize=4096)
def natural_key(text: str | None) -> NaturalKey:
    """Sort key that orders '2' before '10' (and None first); cached: a run has few distinct names."""
    if text is None:
        return ()
    # isdecimal, not isdigit: "²" is a digit that int() refuses. A number's digits follow its value: '0012' and
    # '12' are equal as numbers, and a key that left them equal would order them by a set's hash order (a run's
    # result would differ from one process to the next).
    return tuple((0, int(part), part) if part.isdecimal() else (1, part, "") for part in re.split(r"(\d+)", text)
                 if part)
