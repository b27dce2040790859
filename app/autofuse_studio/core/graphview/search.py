"""Fuzzy search over op names and types: substring hits first, then in-order subsequence matches."""

from __future__ import annotations

import re
from dataclasses import dataclass

from autofuse_studio.core.ge.model import Model

__all__ = ["SearchHit", "fuzzy_search"]


@dataclass(frozen=True)
class SearchHit:
    """One match: the op, its type, and a score (lower is better)."""

    name: str
    type: str
    score: float


def _score(query: str, pattern: re.Pattern[str], name: str, type_name: str) -> float | None:
    lowered = name.lower()
    tail = lowered.rpartition("/")[2]
    if tail == query or lowered == query:
        return 0.0
    if tail.startswith(query):
        return 1.0 + len(tail) / 1000
    position = lowered.find(query)
    if position >= 0:
        return 2.0 + position / 1000 + len(lowered) / 100000
    if type_name.lower() == query:
        return 3.0
    if query in type_name.lower():
        return 3.5
    match = pattern.search(lowered)
    if match is not None:
        # Tighter subsequence matches (fewer skipped characters) rank higher.
        return 4.0 + (match.end() - match.start() - len(query)) / 100
    return None


def fuzzy_search(model: Model, query: str, limit: int = 50) -> list[SearchHit]:
    """Ops whose name or type matches `query` (case-insensitive), best first; ties keep execution order."""
    text = query.strip().lower()
    if not text:
        return []
    pattern = re.compile(".*?".join(re.escape(char) for char in text))
    hits: list[tuple[float, int, SearchHit]] = []
    for position, op in enumerate(model.ops_in_order()):
        score = _score(text, pattern, op.name, op.type)
        if score is not None:
            hits.append((score, position, SearchHit(op.name, op.type, score)))
    hits.sort(key=lambda item: (item[0], item[1]))
    return [hit for _, _, hit in hits[:limit]]
