"""A fast protobuf text-format parser for GE dump graphs (ge_proto_*.txt) that yields the atc JSON dialect."""

from __future__ import annotations

from typing import Any, NoReturn

from autofuse_studio.core.errors import GraphParseError
from autofuse_studio.core.ge.attrs import c_unescape
from autofuse_studio.core.ge.pbtxt_tokens import line_and_column, token_batches, token_offset
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken

_MAX_DEPTH = 100
_LISTED_NOTES = 20

# Field specs: name -> (message schema name or None for scalars, repeated?, string mode).
# String mode: "" = unescape, "raw" = keep C-escaped like atc JSON does for singular bytes, "drop" = skip.
_Spec = tuple[str | None, bool, str]
_ATTR: _Spec = ("AttrEntry", True, "")
_SCHEMAS: dict[str, dict[str, _Spec]] = {
    "Top": {"graph": ("GraphDef", True, ""), "op": ("OpDef", True, ""), "input": (None, True, ""),
            "output": (None, True, ""), "attr": _ATTR},
    "GraphDef": {"op": ("OpDef", True, ""), "input": (None, True, ""), "output": (None, True, ""),
                 "attr": _ATTR},
    "OpDef": {"input": (None, True, ""), "attr": _ATTR, "input_desc": ("TensorDescriptor", True, ""),
              "output_desc": ("TensorDescriptor", True, ""), "subgraph_name": (None, True, ""),
              **dict.fromkeys(
                  ("input_name", "src_name", "src_index", "dst_name", "dst_index", "input_i", "output_i",
                   "workspace", "workspace_bytes", "is_input_const"), (None, True, ""))},
    "TensorDescriptor": {"shape": ("ShapeDef", False, ""), "attr": _ATTR},
    "ShapeDef": {"dim": (None, True, "")},
    "AttrEntry": {"value": ("AttrDef", False, "")},
    "AttrDef": {"s": (None, False, "raw"), "bt": (None, False, "drop"), "expression": (None, False, "raw"),
                "list": ("ListValue", False, ""), "func": ("NamedAttrs", False, ""),
                "td": ("TensorDescriptor", False, ""), "g": ("GraphDef", False, ""),
                "list_list_int": ("ListListInt", False, ""), "list_list_float": ("ListListFloat", False, "")},
    "ListValue": {**dict.fromkeys(("s", "i", "f", "b", "dt"), (None, True, "")), "bt": (None, True, "drop"),
                  "td": ("TensorDescriptor", True, ""), "g": ("GraphDef", True, ""),
                  "na": ("NamedAttrs", True, "")},
    "NamedAttrs": {"attr": _ATTR},
    "ListListInt": {"list_list_i": ("ListInt", True, "")},
    "ListInt": {"list_i": (None, True, "")},
    "ListListFloat": {"list_list_f": ("ListFloat", True, "")},
    "ListFloat": {"list_f": (None, True, "")},
}
_NO_SCHEMA: dict[str, _Spec] = {}
_CLOSERS = {"{": "}", "<": ">"}
_WORDS = {"true": True, "True": True, "false": False, "False": False}
_FLOAT_WORDS = {"inf", "infinity", "nan"}


def parse_pbtxt(text: str, path: str, cancel: CancelToken = NEVER_CANCELLED,
                notes: list[str] | None = None) -> dict[str, Any]:
    """Parse a ModelDef or bare GraphDef in protobuf text format into atc-JSON-shaped dicts.

    Values that were dropped (integers with thousands of digits) are described in `notes`.
    """
    parser = _Parser(text, path, cancel)
    document = parser.parse()
    if notes is not None:
        notes.extend(parser.notes)
    return document


class _Parser:
    """Recursive descent over tokens read batch by batch; positions are recomputed only to report errors."""

    def __init__(self, text: str, path: str, cancel: CancelToken = NEVER_CANCELLED) -> None:
        self.text = text
        self.path = path
        self.cancel = cancel
        self._batches = token_batches(text)
        self.start = 0  # where the current batch's tokenising started
        self.tokens: list[str] = []
        self.pos = 0
        self.notes: list[str] = []

    def parse(self) -> dict[str, Any]:
        message = self._message(_SCHEMAS["Top"], None, 0)
        if not message:
            self._fail("contains no protobuf text fields")
        return message

    def _refill(self) -> bool:
        """Move on to the next non-empty batch; False at the end of the text."""
        for start, tokens in self._batches:
            if tokens:
                self.start, self.tokens, self.pos = start, tokens, 0
                return True
        self.start, self.tokens, self.pos = len(self.text), [], 0
        return False

    def _where(self, index: int) -> tuple[int, int]:
        return line_and_column(self.text, token_offset(self.text, self.start, index))

    def _fail(self, problem: str) -> NoReturn:
        if not self.text.strip():
            raise GraphParseError.of("pbtxt_unparsable", path=self.path, problem=problem)
        line, column = self._where(self.pos)
        raise GraphParseError.of("pbtxt_unparsable_at", path=self.path, line=line, column=column, problem=problem)

    def _next(self) -> str:
        if self.pos >= len(self.tokens) and not self._refill():
            self._fail("unexpected end of file")
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def _peek(self) -> str | None:
        if self.pos >= len(self.tokens) and not self._refill():
            return None
        return self.tokens[self.pos]

    def _message(self, schema: dict[str, _Spec], closer: str | None, depth: int) -> dict[str, Any]:
        if depth > _MAX_DEPTH:
            self._fail("messages are nested too deeply")
        if depth <= 2:  # a graph or an op: often enough to stop a big file promptly, rarely enough to cost nothing
            self.cancel.check()
        message: dict[str, Any] = {}
        tokens = self.tokens
        while True:
            if self.pos >= len(tokens):
                if self._refill():
                    tokens = self.tokens
                    continue
                if closer is not None:
                    self._fail(f"unexpected end of file, '{closer}' is missing (truncated file?)")
                return message
            name = tokens[self.pos]
            self.pos += 1
            if name == closer:
                return message
            if name in (";", ","):
                continue
            if not (name[0].isalpha() or name[0] == "_"):
                self.pos -= 1
                self._fail(f"expected a field name, found {name[:40]!r}")
            self._field(message, name, schema.get(name), depth)
            tokens = self.tokens  # the field may have moved on to the next batch

    def _field(self, message: dict[str, Any], name: str, spec: _Spec | None, depth: int) -> None:
        child, repeated, mode = spec if spec is not None else (None, False, "")
        token = self._next()
        if token == ":":
            token = self._next()
        if token in _CLOSERS:
            value: Any = self._message(_SCHEMAS.get(child or "", _NO_SCHEMA), _CLOSERS[token], depth + 1)
            if child == "AttrDef" and _only_empty_member(value):
                value = None  # atc prints an AttrDef holding just an empty message as null
        elif token == "[":
            values = self._list(child, mode, depth)
            if mode != "drop":
                self._store_many(message, name, values)
            return
        else:
            value = self._scalar(token, mode)
        if mode != "drop":
            self._store(message, name, value, repeated, spec is not None)

    def _list(self, child: str | None, mode: str, depth: int) -> list[Any]:
        values: list[Any] = []
        while True:
            token = self._next()
            if token == "]":
                return values
            if token == ",":
                continue
            if token in _CLOSERS:
                schema = _SCHEMAS.get(child or "", _NO_SCHEMA)
                values.append(self._message(schema, _CLOSERS[token], depth + 1))
            else:
                values.append(self._scalar(token, mode))

    def _scalar(self, token: str, mode: str) -> Any:
        first = token[0]
        if first in "\"'":
            if len(token) == 1:
                self.pos -= 1
                self._fail("unterminated string (a quote without its closing quote on the same line)")
            parts = [token[1:-1]]
            # Adjacent string literals concatenate, as in C.
            while (following := self._peek()) is not None and following[0] in "\"'":
                parts.append(following[1:-1])
                self.pos += 1
            text = "".join(parts)
            return text if mode else c_unescape(text)
        if first.isdigit() or first in "+-.":
            if token == "-" or token == "+":
                return self._signed_word(token)
            return self._number(token)
        if first.isalpha() or first == "_":
            if token in _WORDS:
                return _WORDS[token]
            return float(token) if token.lower() in _FLOAT_WORDS else token
        self.pos -= 1
        self._fail(f"expected a value, found {token[:40]!r}")

    def _signed_word(self, sign: str) -> float:
        word = self._next()
        if word.lower() not in _FLOAT_WORDS:
            self.pos -= 1
            self._fail(f"expected a number after '{sign}', found {word[:40]!r}")
        return float(sign + word)

    def _number(self, token: str) -> int | float | None:
        try:
            return int(token)
        except ValueError:
            if token.lstrip("+-").isdigit():  # beyond Python's int-from-str digit limit
                self._note_long_integer(token)
                return None
        try:
            return int(token, 0) if token.lower().lstrip("+-").startswith("0x") else float(token.rstrip("fF"))
        except ValueError:
            self.pos -= 1
            self._fail(f"{token[:40]!r} is not a number")

    def _note_long_integer(self, token: str) -> None:
        """Drop an integer of thousands of digits (no field holds one), with a note giving its place."""
        if len(self.notes) < _LISTED_NOTES:
            line, column = self._where(self.pos - 1)
            self.notes.append(f"{self.path}: line {line}, column {column}: an integer of "
                              f"{len(token.lstrip('+-'))} digits is out of range for any field; it was ignored.")

    @staticmethod
    def _store(message: dict[str, Any], name: str, value: Any, repeated: bool, known: bool) -> None:
        if repeated:
            message.setdefault(name, []).append(value)
        elif known or name not in message:
            message[name] = value
        else:
            # An unknown field seen twice is repeated: keep every value.
            old = message[name]
            message[name] = [*old, value] if isinstance(old, list) else [old, value]

    @staticmethod
    def _store_many(message: dict[str, Any], name: str, values: list[Any]) -> None:
        old = message.get(name)
        if old is None:
            message[name] = values
        else:
            message[name] = [*(old if isinstance(old, list) else [old]), *values]


def _only_empty_member(message: dict[str, Any]) -> bool:
    """True for {"list_list_int": {}} and the like."""
    if len(message) != 1:
        return False
    member = next(iter(message.values()))
    return isinstance(member, dict) and not member
