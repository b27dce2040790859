"""Typed decoding of atc JSON graphs: ops become small records, their tensor descs stay raw JSON until read.

A 100k-op graph decoded into dicts costs ~6 bytes of Python objects per byte of file, almost all of it in
tensor descriptors that a comparison never reads. Here msgspec decodes only what every op needs (name,
type, id, inputs, attrs, subgraph names) and keeps each desc list as a zero-copy `msgspec.Raw` slice of the
file (build.py keeps one copy per distinct text; `split_descs` splits it and `decode_desc` decodes a desc on
first access). Anything the schema does not describe (a graph given as one dict, an op that is not an
object...) fails validation and the caller decodes the whole document generically instead, so results never
depend on which path ran.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

# An op's desc list is kept as the raw JSON text of the whole list (null included: build.py reads b"null" as
# absent); build.py shares one copy per distinct text and DescList splits it on first use (split_descs).
_RawText = msgspec.Raw


class JsonOp(msgspec.Struct):
    """One op of an atc JSON graph; `get` answers like a dict so build.py reads both kinds alike."""

    name: Any = None
    type: Any = None
    id: Any = None
    input: Any = None
    attr: Any = None
    input_desc: _RawText = None  # type: ignore[assignment]  # None when absent (msgspec keeps defaults as given)
    output_desc: _RawText = None  # type: ignore[assignment]
    inputDesc: _RawText = None  # type: ignore[assignment]
    outputDesc: _RawText = None  # type: ignore[assignment]
    subgraph_name: Any = None
    subgraphName: Any = None

    def get(self, key: str, default: Any = None) -> Any:
        """The field `key`, or `default` when it is absent (null)."""
        value = getattr(self, key, None)
        return default if value is None else value


class JsonGraph(msgspec.Struct):
    """One graph: its name and ops."""

    name: Any = None
    op: list[JsonOp | None] | None = None

    def get(self, key: str, default: Any = None) -> Any:
        """The field `key`, or `default` when it is absent (null)."""
        value = getattr(self, key, None)
        return default if value is None else value


class JsonModel(msgspec.Struct):
    """A ModelDef (`graph` list) or a bare GraphDef (`name` + `op`)."""

    graph: list[JsonGraph | None] | None = None
    name: Any = None
    op: list[JsonOp | None] | None = None


_DECODER = msgspec.json.Decoder(JsonModel)


def decode_typed(data: bytes) -> dict[str, Any] | None:
    """The document in the shape build_model reads ({"graph": [...]}) or None when the schema does not fit."""
    try:
        model = _DECODER.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return None
    if model.graph is not None and model.op is None:
        return {"graph": model.graph}
    if model.op is not None and model.graph is None:
        return {"graph": [JsonGraph(model.name, model.op)]}
    return None  # neither or both: let the generic path report it exactly as before


def is_record(value: Any) -> bool:
    """True for a dict or one of the typed records above (what build.py treats as an entry)."""
    return isinstance(value, (dict, JsonOp, JsonGraph))


def decode_desc(raw: Any) -> Any:
    """A desc as build.py reads it: a raw JSON slice decoded to a dict, anything else unchanged."""
    if isinstance(raw, msgspec.Raw):
        return msgspec.json.decode(raw)
    return raw


_SPLITTER = msgspec.json.Decoder(list[msgspec.Raw])


def split_descs(text: msgspec.Raw) -> tuple[msgspec.Raw, ...]:
    """The raw descs of a desc list's JSON text; any other value is one desc (as build._as_list treats it)."""
    if memoryview(text)[:1].tobytes() == b"[":
        return tuple(_SPLITTER.decode(text))
    return (text,)


_MENTIONS: dict[str, re.Pattern[bytes]] = {}


def raw_mentions(raw: msgspec.Raw, key: str) -> bool:
    """True when the raw JSON text contains the string "key" (a cheap pre-check before decoding)."""
    pattern = _MENTIONS.get(key)
    if pattern is None:
        pattern = _MENTIONS[key] = re.compile(re.escape(f'"{key}"').encode())
    return pattern.search(memoryview(raw)) is not None
