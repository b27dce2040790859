"""One line per thing a notice covers (`nwa --verbose-warnings`): each operator dumped several times, each row ...

A notice says a kind of problem once, with a count and a few examples; its items (also in the JSON output)
name every operator, row, file or rank it covers. These lines word each item on its own, as the reference
tool printed one WARNING line per operator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autofuse_studio.core.notices import Notice


def _where(item: dict[str, Any]) -> str:
    """' in step 0 on rank 3' from an item's step and rank (either may be absent)."""
    text = f" in step {item['step']}" if item.get("step") not in (None, "") else ""
    return text + (f" on rank {item['rank']}" if item.get("rank") is not None else "")


def _several_times(item: dict[str, Any]) -> str:
    return (f"Operator {item.get('fused_op')}{_where(item)} was dumped several times ({item.get('af_open_dumps')} "
            f"dumps on the af-open side, {item.get('af_close_dumps')} on the af-close side): using the newest of each.")


def _paired(item: dict[str, Any]) -> str:
    return (f"Operator {item.get('fused_op')}{_where(item)} was dumped {item.get('occurrences')} times on both "
            "sides: the k-th dump is compared with the k-th in timestamp order.")


def _generic(kind: str) -> Callable[[dict[str, Any]], str]:
    def line(item: dict[str, Any]) -> str:
        message = item.get("message")
        if isinstance(message, str):
            return message + (f" ({_where(item).strip()})" if _where(item) else "")
        parts = [f"{key.replace('_', ' ')} {value}" for key, value in item.items() if value not in (None, "", [])]
        return f"{kind.replace('_', ' ').capitalize()}: {'; '.join(parts)}."
    return line


# Items that name one row each come several per operator (outputs, inputs): one line per operator and place.
_PER_OPERATOR = {"dumped_several_times": _several_times, "occurrences_paired": _paired}


def notice_item_lines(notice: Notice) -> list[str]:
    """One sentence per item of `notice` (per operator for repeated dumps); [] when it has no items."""
    if notice.kind in _PER_OPERATOR:
        word = _PER_OPERATOR[notice.kind]
        firsts: dict[tuple[Any, Any, Any], dict[str, Any]] = {}
        for item in notice.items:
            firsts.setdefault((item.get("fused_op"), item.get("rank"), item.get("step")), item)
        return [word(item) for item in firsts.values()]
    line = _generic(notice.kind)
    return [line(item) for item in notice.items if isinstance(item, dict)]
