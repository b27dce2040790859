"""Notices: warnings summarised per kind (one short sentence with a count and a few examples) plus full detail."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

EXAMPLES_SHOWN = 3
_EXAMPLE_WIDTH = 60
_SCALARS = (str, int, float, bool, type(None))


@dataclass
class Notice:
    """One kind of warning: the sentence a user reads, how many things it covers, and each of them.

    `kind` is the notice's code and `params` the values that fill its sentence in another language
    (core/messages.py renders it); the JSON form keeps only the English sentence.
    """

    kind: str
    message: str
    count: int = 1
    items: list[dict[str, Any]] = field(default_factory=list)
    side: str | None = None  # "af-open" / "af-close" for what one dump folder or graph said
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def code(self) -> str:
        """The stable code of the sentence (the kind), the key of the message catalogue."""
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: kind, side, message, count and the structured items."""
        return {"kind": self.kind, "side": self.side, "message": self.message, "count": self.count,
                "items": self.items}


def _plain(value: Any, depth: int = 0) -> Any:
    """value when it is a JSON scalar or a list of them (lists of such lists too, e.g. (op, kind, index)
    triples), else a _Dropped marker."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple)) and depth < 2:
        items = [_plain(item, depth + 1) for item in value]
        return _DROPPED if any(item is _DROPPED for item in items) else items
    return _DROPPED


_DROPPED = object()


def wire_params(params: Any) -> dict[str, Any]:
    """The part of a notice's params that may travel (the host stream, the cluster wire) and be trusted on
    receipt: text keys whose values are str/int/float/bool/None or lists of those (or of lists of those);
    anything else is dropped, never evaluated. Not a dict at all: no params (the English sentence is shown)."""
    if not isinstance(params, dict):
        return {}
    kept = {key: _plain(value) for key, value in params.items() if isinstance(key, str)}
    return {key: value for key, value in kept.items() if value is not _DROPPED}


def shorten(text: str, width: int = _EXAMPLE_WIDTH) -> str:
    """`text`, cut in the middle with '…' when longer than `width` characters."""
    if len(text) <= width:
        return text
    half = (width - 1) // 2
    return f"{text[:half]}…{text[-(width - 1 - half):]}"


def clip(text: str, width: int) -> str:
    """`text` cut at `width` characters with '…' (the start of a message says the most)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def examples(names: Iterable[str], limit: int = EXAMPLES_SHOWN) -> str:
    """'a, b, c' with at most `limit` names (each shortened), '…' when there are more."""
    shown: list[str] = []
    more = False
    for name in dict.fromkeys(names):
        if len(shown) == limit:
            more = True
            break
        shown.append(shorten(name))
    return ", ".join(shown) + (", …" if more else "")


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """'1 operator', '412 operators' (thousands separated)."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count:,} {word}"


def join_names(names: Sequence[str], limit: int = 8) -> str:
    """'0, 1, 3' or '0, 1, 2, …, 63 (64 in all)' for rank and step lists."""
    if len(names) <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit - 1])}, …, {names[-1]} ({len(names)} in all)"


def plain_notices(kind: str, messages: Iterable[str], side: str | None = None) -> list[Notice]:
    """Wrap already-written sentences (graph and mapping warnings) as notices of one kind each."""
    return [Notice(kind, message, side=side, params={"message": message}) for message in messages]


def on_side(notices: Iterable[Notice], side: str) -> list[Notice]:
    """The notices, marked as said about one side's input."""
    marked = list(notices)
    for notice in marked:
        notice.side = side
    return marked
