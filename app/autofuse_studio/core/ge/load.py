"""load_model(): read a GE dump graph file (atc JSON or protobuf text, detected by content) into a Model."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import msgspec

from autofuse_studio.core.errors import GraphParseError, InputError
from autofuse_studio.core.gc_pause import gc_paused, keep_long_lived
from autofuse_studio.core.ge.build import build_model
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.ge.pbtxt import parse_pbtxt
from autofuse_studio.core.ge.stepwise_json import decode_graph_document
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken
from autofuse_studio.core.release import empty_in_chunks

log = logging.getLogger(__name__)
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")
# Control bytes that never occur in JSON or protobuf text (tab, newlines, form feed and ESC aside).
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
# Not ASCII whitespace (what bytes.strip() removes). Searched rather than stripped: stripping copied the
# whole file twice (2 x 78 MB for a big graph, 90-160 ms each with the GIL held, the window frozen).
_NOT_BLANK = re.compile(rb"[^ \t\n\r\x0b\x0c]")
# Integers with more digits than Python converts from text (sys.get_int_max_str_digits' default).
MAX_INT_DIGITS = 4300
NEWLINE = b"\n"
_LONG_DIGITS = re.compile(rb"(?<![\w.])\d{%d,}" % (MAX_INT_DIGITS + 1))


def load_model(path: str | Path, cancel: CancelToken = NEVER_CANCELLED) -> Model:
    """Read a GE dump graph (atc JSON, ModelDef/GraphDef protobuf text) with all its subgraphs.

    `cancel` is checked between the stages and every few thousand ops (a JSON document itself is
    decoded in one C call: a 230 MB file takes ~5 s that cannot be interrupted).
    """
    file = Path(path)
    data = _read_bytes(file)
    cancel.check()
    notes: list[str] = []
    with gc_paused():
        document = parse_document(data, str(file), cancel, notes)
        # The file's bytes (hundreds of MB for a big model) are not needed while the model is built.
        del data
        cancel.check()
        model = build_model(document, str(file), cancel, consume=True)
        release_document(document)
        del document
        # The model lives for the run or the GUI session: frozen (where the application allows it), the
        # collection the end of the pause would start need not scan its 100k+ ops (~120 ms with the GIL held).
        keep_long_lived()
    model.warnings[:0] = notes
    log.debug("loaded %s: %d graphs, %d warnings", file, len(model.graphs), len(model.warnings))
    return model


def model_from_bytes(data: bytes, path: str, cancel: CancelToken = NEVER_CANCELLED) -> Model:
    """Parse file contents already in memory; `path` is only used in messages."""
    notes: list[str] = []
    with gc_paused():
        document = parse_document(data, path, cancel, notes)
        cancel.check()
        model = build_model(document, path, cancel)
    model.warnings[:0] = notes
    return model


def _read_bytes(file: Path) -> bytes:
    if not file.exists():
        raise InputError.of("graph_file_missing", path=file)
    if file.is_dir():
        raise InputError.of("graph_file_is_folder", path=file)
    try:
        return file.read_bytes()
    except OSError as exc:
        raise InputError.of("graph_file_unreadable", path=file, reason=exc.strerror or str(exc)) from exc


def _after_blanks(data: bytes, start: int = 0) -> int:
    """The position of the first byte at or after `start` that is not ASCII whitespace (len(data) if none)."""
    found = _NOT_BLANK.search(data, start)
    return len(data) if found is None else found.start()


def detect_dialect(data: bytes) -> str:
    """'json' when the content starts like JSON ({ [ " digit -), 'pbtxt' otherwise (field names, comments)."""
    position = _after_blanks(data)
    for bom in _BOMS:
        if data.startswith(bom, position):
            position = _after_blanks(data, position + len(bom))
    first = data[position:position + 1]
    return "json" if first in (b"{", b"[", b'"', b"-") or first.isdigit() else "pbtxt"


def release_document(document: Any) -> None:
    """Free a parsed document's op lists a chunk at a time (core.release), once its model is built.

    Freed with the last reference, a 100k-op document was one cascade of deallocations holding the
    GIL for 30-50 ms: a frozen window while the GUI loads a big model.
    """
    if not isinstance(document, dict):
        return
    graphs = document.get("graph")
    for graph in [*(graphs if isinstance(graphs, list) else [graphs]), document]:
        # A dict from the standard path, or the typed decoder's graph object, which answers get() too.
        ops = graph.get("op") if hasattr(graph, "get") else None
        if isinstance(ops, list):
            empty_in_chunks(ops)


def parse_document(data: bytes, path: str, cancel: CancelToken = NEVER_CANCELLED,
                   notes: list[str] | None = None) -> Any:
    """File bytes -> atc-JSON-shaped document; GraphParseError naming the file (and line) when unreadable.

    Values that were dropped (integers with thousands of digits) are described in `notes`.
    """
    notes = [] if notes is None else notes
    if _after_blanks(data) == len(data):
        raise GraphParseError.of("graph_empty", path=path)
    if _BINARY_BYTES.search(data, 0, 4096):
        raise GraphParseError.of("graph_binary", path=path)
    if detect_dialect(data) == "json":
        return _parse_json(data, path, notes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise GraphParseError.of("graph_not_utf8", path=path, line=line) from exc
    try:
        return parse_pbtxt(text, path, cancel, notes)
    except RecursionError as exc:
        raise GraphParseError.of("graph_pbtxt_too_deep", path=path) from exc


def _parse_json(data: bytes, path: str, notes: list[str]) -> Any:
    try:
        # Typed records with raw descs when the document has the usual shape (see fast_json); else
        # msgspec decodes the same documents to the same objects about 4x faster than the standard
        # library; whatever it refuses (NaN literals, huge numbers, lone surrogates, broken text) goes
        # through the standard library, which accepts what it always accepted and words the errors.
        typed = decode_graph_document(data)
        if typed is not None:
            return typed
        return msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError):
        pass
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        complete = data.rstrip()[-1:] in (b"}", b"]")
        raise GraphParseError.of("graph_not_json" if complete else "graph_json_truncated", path=path,
                                 reason=exc.msg, line=exc.lineno, column=exc.colno) from exc
    except UnicodeDecodeError as exc:
        raise GraphParseError.of("graph_json_not_utf8", path=path, reason=exc.reason) from exc
    except RecursionError as exc:
        raise GraphParseError.of("graph_json_too_deep", path=path) from exc
    except ValueError as exc:
        if "digits" not in str(exc):
            raise
        # An integer literal beyond Python's int-from-str digit limit: parse again (only then, the hook
        # costs a call per integer), dropping those numbers.
        return _parse_json_long_ints(data, path, notes)


def _parse_json_long_ints(data: bytes, path: str, notes: list[str]) -> Any:
    """json.loads with integers of more than MAX_INT_DIGITS digits turned into None, described in `notes`."""
    dropped: list[int] = []

    def parse_int(text: str) -> int | None:
        if len(text.lstrip("-")) <= MAX_INT_DIGITS:
            return int(text)
        dropped.append(len(text.lstrip("-")))
        return None

    document = json.loads(data, parse_int=parse_int)
    if dropped:
        first = _LONG_DIGITS.search(data)
        where = f" line {data.count(NEWLINE, 0, first.start()) + 1}:" if first else ""
        more = f" (and {len(dropped) - 1} more)" if len(dropped) > 1 else ""
        notes.append(f"{path}:{where} an integer of {dropped[0]} digits{more} is out of range for any field; "
                     "it was ignored.")
    return document
