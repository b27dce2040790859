"""GE AttrDef values (as atc JSON, protobuf json_format or our pbtxt parser give them) -> Python values."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# Escapes as written by protobuf's CEscape / text format: \n \t ... \ooo \xHH.
_C_ESCAPE = re.compile(rb"\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|(.))", re.S)
_SIMPLE_ESCAPES = {
    b"n": b"\n", b"t": b"\t", b"r": b"\r", b"a": b"\a", b"b": b"\b", b"f": b"\f", b"v": b"\v",
    b"\\": b"\\", b"'": b"'", b'"': b'"', b"?": b"?",
}
# Keys of a ListValue that carry values, in the order we look at them; both spellings are accepted.
_LIST_VALUE_KEYS = ("s", "i", "f", "b", "dt", "td", "t", "g", "na", "bt")


def _unescape_match(match: re.Match[bytes]) -> bytes:
    octal, hexa, other = match.groups()
    if octal is not None:
        return bytes((int(octal, 8) & 0xFF,))
    if hexa is not None:
        return bytes((int(hexa, 16),))
    return _SIMPLE_ESCAPES.get(other, b"\\" + other)


def c_unescape(text: str) -> str:
    """Undo C escapes (`\\346\\226\\207` -> UTF-8 text); undecodable bytes become U+FFFD."""
    if "\\" not in text:
        return text
    raw = _C_ESCAPE.sub(_unescape_match, text.encode("utf-8", "surrogateescape"))
    return raw.decode("utf-8", "replace")


_INT_MIN, _UINT_END = -(1 << 63), 1 << 64
_MAX_INT_TEXT = 40  # longer than any int64 / uint64 in decimal or hex, with sign and blanks


def to_int(value: Any) -> int | None:
    """An int64 field given as a JSON number or a numeric string ("12"); None when not integral or out of range."""
    if isinstance(value, bool):
        return None  # JSON true/false in an int64 field is garbage, not 1/0
    number: int | None = None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        number = _int_from_text(value)
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    # int64 and uint64 fields: anything wider is garbage, and printing a 4300+ digit int raises.
    return number if number is not None and _INT_MIN <= number < _UINT_END else None


def _int_from_text(value: str) -> int | None:
    text = value.strip()
    if len(text) > _MAX_INT_TEXT:
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return int(text, 0)  # hex ("0x1f") as a last resort
    except ValueError:
        return None


def to_float(value: Any) -> float | None:
    """A float field that may be a number or a %g string ("1e-05", "inf", "nan")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            return float(text)
        except ValueError:
            pass
        if text[-1:] in ("f", "F"):
            try:
                return float(text[:-1])  # C-style "0.5f"
            except ValueError:
                return None
        return None
    return None


def to_bool(value: Any) -> bool | None:
    """A bool field: JSON true/false, 0/1 or the strings "true"/"false"."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("true", "t", "1"):
            return True
        if low in ("false", "f", "0"):
            return False
    return None


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _list_value(lst: Mapping[str, Any]) -> list[Any]:
    """A ListValue -> Python list (typed by its values; an empty list when it only has val_type)."""
    for key in _LIST_VALUE_KEYS:
        items = lst.get(key)
        if items is None:
            continue
        items = _as_list(items)
        if key == "i":
            return [to_int(v) for v in items]
        if key == "f":
            return [to_float(v) for v in items]
        if key == "b":
            return [to_bool(v) for v in items]
        if key == "s":
            return [v if isinstance(v, str) else str(v) for v in items]
        return items
    return []


def _list_list(value: Any, outer: str, inner: str, convert: Any) -> list[list[Any]]:
    """ListListInt / ListListFloat -> list of lists (null or {} -> [])."""
    if not isinstance(value, dict):
        return []
    rows = _as_list(value.get(outer, value.get(_camel(outer))))
    result = []
    for row in rows:
        cells = _as_list(row.get(inner, row.get(_camel(inner)))) if isinstance(row, dict) else []
        result.append([convert(c) for c in cells])
    return result


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def convert_attr(value: Any) -> Any:
    """One AttrDef (dict with a single oneof member) -> str / int / float / bool / list / raw dict / None."""
    if not isinstance(value, dict):
        return value
    if "s" in value:
        s = value["s"]
        return c_unescape(s) if isinstance(s, str) else s
    if "i" in value:
        return to_int(value["i"])
    if "f" in value:
        return to_float(value["f"])
    if "b" in value:
        return to_bool(value["b"])
    if "list" in value:
        lst = value["list"]
        return _list_value(lst) if isinstance(lst, dict) else []
    if "dt" in value:
        return value["dt"]
    for outer, inner, key, conv in (
        ("list_list_i", "list_i", "list_list_int", to_int),
        ("list_list_f", "list_f", "list_list_float", to_float),
    ):
        if key in value or _camel(key) in value:
            return _list_list(value.get(key, value.get(_camel(key))), outer, inner, conv)
    for key in ("expression", "bt"):
        if key in value:
            raw = value[key]
            return c_unescape(raw) if isinstance(raw, str) else raw
    # func / td / t / g and unknown members are returned as the raw message.
    return next(iter(value.values()), None)


def attr_value(attrs: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """The Python value of attribute `key` (str for s, int for i, float for f, bool, list for list.*)."""
    raw = attrs.get(key)
    if raw is None:
        return default
    value = convert_attr(raw)
    return default if value is None else value


def attr_dict(entries: Any) -> dict[str, Any]:
    """GE attr map (list of {"key","value"} or a json_format dict) -> {key: raw AttrDef}; nulls tolerated."""
    if not entries:
        return {}
    if isinstance(entries, dict):
        return entries
    try:
        return {entry["key"]: entry.get("value") for entry in entries}
    except (TypeError, KeyError, AttributeError):
        return _attr_dict_slow(entries)


def _attr_dict_slow(entries: Any) -> dict[str, Any]:
    """The tolerant path: skips null entries, entries without a key and non-string keys."""
    result: dict[str, Any] = {}
    if not isinstance(entries, list):
        return result
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("key"), str):
            result[entry["key"]] = entry.get("value")
    return result

