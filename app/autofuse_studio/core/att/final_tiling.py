"""FINAL_TILING records: envelope parsing, BEGIN/CHUNK/END framing with hash checks, validation."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any

from autofuse_studio.core.att.hashing import KNOWN_ALGORITHMS, payload_hash
from autofuse_studio.core.att.model import FinalTiling, FinalTilingSummary, SourceRef

# Checked in this order: the longer markers contain the shorter ones' prefixes.
MARKERS = (
    "[ATT][FINAL_TILING_SUMMARY_BEGIN]", "[ATT][FINAL_TILING_SUMMARY_CHUNK]",
    "[ATT][FINAL_TILING_SUMMARY_END]", "[ATT][FINAL_TILING_SUMMARY]",
    "[ATT][FINAL_TILING_BEGIN]", "[ATT][FINAL_TILING_CHUNK]", "[ATT][FINAL_TILING_END]",
    "[ATT][FINAL_TILING]",
)
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"'}
_PIPE_NAMES = {"M2": "AIV_MTE2", "M3": "AIV_MTE3", "V": "AIV_VEC"}
PIPE_KEYS = ("AIV_MTE2", "AIV_MTE3", "AIV_VEC")
# Nesting a payload may have: deeper JSON is refused like malformed JSON (a line of a million "[" ended
# in a RecursionError traceback, and slightly less deep values could not be written back out).
MAX_JSON_DEPTH = 100


def parse_envelope(text: str) -> dict[str, str]:
    """Split `key=value key="quoted \\"value\\""` into a dict; an unclosed quote empties it."""
    fields: dict[str, str] = {}
    pos, size = 0, len(text)
    while pos < size:
        while pos < size and text[pos].isspace():
            pos += 1
        start = pos
        while pos < size and not text[pos].isspace() and text[pos] != "=":
            pos += 1
        if pos >= size or text[pos] != "=":
            while pos < size and not text[pos].isspace():
                pos += 1  # a token without '=' is skipped
            continue
        name = text[start:pos]
        pos += 1
        if pos < size and text[pos] == '"':
            value, pos = _quoted(text, pos + 1)
            if value is None:
                return {}
        else:
            end = pos
            while end < size and not text[end].isspace():
                end += 1
            value, pos = text[pos:end], end
        if name:
            fields[name] = value
    return fields


def _quoted(text: str, pos: int) -> tuple[str | None, int]:
    parts: list[str] = []
    while pos < len(text):
        char = text[pos]
        if char == '"':
            return "".join(parts), pos + 1
        if char == "\\" and pos + 1 < len(text):
            nxt = text[pos + 1]
            parts.append(_ESCAPES.get(nxt, "\\" + nxt))
            pos += 2
            continue
        parts.append(char)
        pos += 1
    return None, pos


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def normalise_pipes(raw: Any) -> dict[str, float | None] | None:
    """Map M2/M3/V to canonical pipe names, always the three keys; None when malformed."""
    result: dict[str, float | None] = dict.fromkeys(PIPE_KEYS)
    if raw is None:
        return result
    if not isinstance(raw, dict):
        return None
    for name, value in sorted(raw.items(), key=lambda kv: kv[0] in _PIPE_NAMES):
        canonical = _PIPE_NAMES.get(name, name)
        if canonical not in result or (name in _PIPE_NAMES and result[canonical] is not None):
            continue  # unknown pipe, or the canonical spelling already gave a value
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return None
        result[canonical] = float(value)
    return result


def loads_bounded(text: str) -> Any:
    """json.loads, with JSON nested deeper than MAX_JSON_DEPTH refused as a ValueError like bad syntax."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > MAX_JSON_DEPTH:
                    raise ValueError("JSON nested too deeply")
                stack.append((child, depth + 1))
    return value


def _parse_repr(text: str | None, repr_kind: str | None) -> tuple[bool, Any]:
    """(ok, value) for a tiling_repr payload."""
    if text is None:
        return True, None
    try:
        return True, loads_bounded(text)
    except ValueError:
        if repr_kind == "full_json" and text:
            return True, text
        if repr_kind == "unavailable" and not text:
            return True, None
        return False, None


def repr_sha256(value: Any) -> str | None:
    """sha256 of a single-line record's repr: compact JSON, or the raw string."""
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"),
                                                           ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_record(fields: dict[str, str], repr_text: str | None, origin: SourceRef) -> FinalTiling:
    """Validate the fields of one record; status ok or invalid_final_tiling."""
    problems = []
    pipes_text = fields.get("pipe_estimates")
    pipes: dict[str, float | None] | None = dict.fromkeys(PIPE_KEYS)
    if pipes_text is not None and pipes_text != "null":
        try:
            pipes = normalise_pipes(loads_bounded(pipes_text))
        except ValueError:
            pipes = None
    if pipes is None:
        problems.append("pipe_estimates")
    repr_ok, repr_value = _parse_repr(repr_text, fields.get("repr_kind"))
    if not repr_ok:
        problems.append("tiling_repr")
    score = _int(fields.get("score"))
    if "score" in fields and score is None:
        problems.append("score")
    ints = {name: _int(fields.get(name)) for name in ("graph", "result", "group", "case_id", "tiling_key")}
    if any(v is None for v in ints.values()) or (ints["tiling_key"] or 0) < 0:
        problems.append("ids")
    if not fields.get("operator") or fields.get("schema") != "1":
        problems.append("header")
    return FinalTiling(
        operator=fields.get("operator", ""), graph=ints["graph"], result=ints["result"],
        group=ints["group"], case_id=ints["case_id"], tiling_key=ints["tiling_key"],
        source=fields.get("source"), selection_mode=fields.get("selection_mode"), score=score,
        sub_case_tag=fields.get("sub_case_tag"), template=fields.get("template"),
        repr_kind=fields.get("repr_kind"), pipe_estimates=pipes or dict.fromkeys(PIPE_KEYS),
        tiling_repr=repr_value if repr_ok else None,
        repr_hash=repr_sha256(repr_value) if repr_ok else None,
        status="invalid_final_tiling" if problems else "ok", origin=origin,
    )


def build_summary(fields: dict[str, str], groups_text: str | None, origin: SourceRef,
                  complete: bool = True) -> FinalTilingSummary:
    """Validate a FINAL_TILING_SUMMARY record."""
    groups: Any = None
    status = "ok"
    try:
        groups = loads_bounded(groups_text) if groups_text is not None else None
    except ValueError:
        groups = None
    graph, result = _int(fields.get("graph")), _int(fields.get("result"))
    if not complete:
        status, groups = "incomplete_final_tiling_summary", None
    elif (fields.get("schema") != "1" or not fields.get("operator") or graph is None or result is None
          or not isinstance(groups, dict)):
        status = "invalid_final_tiling_summary"
    return FinalTilingSummary(fields.get("operator", ""), graph, result, fields.get("source"),
                              fields.get("selection_mode"), groups, status, origin)


@dataclass
class PendingFrame:
    """A BEGIN seen, waiting for its chunks and END."""

    fields: dict[str, str]
    origin: SourceRef
    summary: bool
    chunks: list[str] = field(default_factory=list)
    bad: bool = False


def frame_problem(begin: dict[str, str], end: dict[str, str], chunks: list[str]) -> str | None:
    """Why a framed payload is not trustworthy, or None when it is valid."""
    payload = "".join(chunks).encode("utf-8")
    algorithm = begin.get("hash_alg", "sha256")
    if _int(begin.get("chunks")) != len(chunks) or begin.get("chunks") != end.get("chunks"):
        return "chunk count"
    if begin.get("len") != end.get("len") or _int(begin.get("len")) != len(payload):
        return "length"
    if end.get("hash_alg", algorithm) != algorithm or algorithm not in KNOWN_ALGORITHMS:
        return "hash algorithm"
    claimed = begin.get("hash", "")
    if not claimed or end.get("hash") != claimed or payload_hash(algorithm, payload) != claimed:
        return "hash"
    return None
