"""decode_typed in many short steps, so a GUI thread waiting for the GIL never waits long.

msgspec decodes a document in one C call that holds the GIL: a 230 MB graph froze the window for
0.4-0.7 s. Here numpy (which releases the GIL) finds the brackets outside strings, chunk by chunk; the
op objects of the usual shapes ({"graph": [{..., "op": [...]}]} and a bare {"name", "op": [...]}) are
then decoded one by one from zero-copy slices, and the rest of the document (the skeleton, with the op
arrays emptied) in one small call. Any shape this does not recognise, or any piece that fails, falls back
to the one-call decode_typed, so results never depend on which path ran (tests compare both).
"""

from __future__ import annotations

import contextlib
import importlib
import re
from typing import Any

import msgspec
import numpy as np

from autofuse_studio.core.ge.fast_json import JsonGraph, JsonOp, decode_typed
from autofuse_studio.core.ge.native_brackets import native_bracket_positions, native_shallow_brackets

MAX_LEVEL = 4  # {"graph": [{"op": [{...}]}]}: the op objects' level; a bare {"op": [...]} is shallower
CHUNK_BYTES = 1 << 22  # per numpy call: bounds each step and the temporaries
GATHER_CHUNK = 1 << 20  # indexes per fancy-index step (~5 ms with the GIL held)
SUM_CHUNK = 1 << 18  # values per running-sum step (~2.5 ms with the GIL held)
_QUOTE, _BACKSLASH, _COMMA = ord('"'), ord("\\"), ord(",")
_IS_BRACKET = np.zeros(256, dtype=bool)
_IS_BRACKET[[ord("{"), ord("}"), ord("["), ord("]")]] = True
_OPENS = np.zeros(256, dtype=np.int8)
_OPENS[[ord("{"), ord("[")]] = 1
_OPENS[[ord("}"), ord("]")]] = -1
_WHITESPACE = b" \t\n\r"
_KEY_BEFORE = re.compile(rb'[{,][ \t\n\r]*"(graph|op)"[ \t\n\r]*:[ \t\n\r]*\Z')
_MISSING: Any = object()
_OP_DECODER = msgspec.json.Decoder(JsonOp)
_SKELETON_DECODER = msgspec.json.Decoder(Any)


class _Unsupported(Exception):
    """A shape or piece the stepwise path does not handle: decode in one call instead."""


def _escaped(chunk: np.ndarray, quotes: np.ndarray, carried: int) -> np.ndarray:
    """True for quotes preceded by an odd number of backslashes (`carried`: the run ending the last chunk)."""
    run = np.zeros(quotes.size, dtype=np.int64)
    open_runs = np.ones(quotes.size, dtype=bool)
    step = 1
    while open_runs.any():
        at = quotes - step
        inside = at >= 0
        # A run reaching the chunk start continues with the previous chunk's trailing backslashes.
        reaches_start = open_runs & ~inside
        run[reaches_start] += carried
        open_runs &= inside
        hit = open_runs.copy()
        hit[open_runs] = chunk[at[open_runs]] == _BACKSLASH
        run[hit] += 1
        open_runs = hit
        step += 1
    return np.asarray((run % 2) == 1)


def _trailing_backslashes(chunk: np.ndarray, carried: int) -> int:
    """How many backslashes end the chunk (with the previous chunk's when all of it is backslashes)."""
    count = 0
    while count < chunk.size and chunk[chunk.size - 1 - count] == _BACKSLASH:
        count += 1
    return carried + count if count == chunk.size else count


def bracket_positions(data: bytes | memoryview) -> np.ndarray:
    """Offsets of every { } [ ] outside JSON strings, ascending (the native kernel's scan, else numpy's)."""
    found = native_bracket_positions(data)
    return found if found is not None else numpy_bracket_positions(data)


def numpy_bracket_positions(data: bytes | memoryview) -> np.ndarray:
    """bracket_positions with numpy, chunk by chunk (each step a short GIL hold)."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    found: list[np.ndarray] = []
    in_string, carried = 0, 0
    folded = np.empty(min(CHUNK_BYTES, buffer.size), dtype=np.uint8)
    mask = np.empty(folded.size, dtype=bool)
    for start in range(0, buffer.size, CHUNK_BYTES):
        chunk = buffer[start:start + CHUNK_BYTES]
        size = chunk.size
        np.equal(chunk, _QUOTE, out=mask[:size])
        quotes = np.flatnonzero(mask[:size])
        if quotes.size:
            # Only quotes right after a backslash can be escaped (rare): count their runs.
            after_backslash = np.flatnonzero(chunk[np.maximum(quotes - 1, 0)] == _BACKSLASH)
            if quotes[0] == 0 and carried % 2 == 1:
                after_backslash = np.union1d(after_backslash, [0])
            if after_backslash.size:
                suspects = quotes[after_backslash]
                quotes = np.delete(quotes, after_backslash[_escaped(chunk, suspects, carried)])
        # [ ] { } are 0x5B 0x5D 0x7B 0x7D: OR-ing in 0x26 maps all four (and a few letters) to 0x7F,
        # two passes instead of four comparisons; the few other bytes are dropped below.
        np.bitwise_or(chunk, 0x26, out=folded[:size])
        np.equal(folded[:size], 0x7F, out=mask[:size])
        candidates = np.flatnonzero(mask[:size])
        brackets = candidates[_IS_BRACKET[chunk[candidates]]]
        quotes_before = np.searchsorted(quotes, brackets)
        found.append(brackets[((quotes_before + in_string) & 1) == 0] + start)
        in_string ^= quotes.size & 1
        carried = _trailing_backslashes(chunk, carried)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


def _gather(values: np.ndarray, indexes: np.ndarray) -> np.ndarray:
    """values[indexes] in steps: numpy holds the GIL for a whole fancy index (50-60 ms for a big graph's)."""
    gathered = np.empty(indexes.size, dtype=values.dtype)
    for start in range(0, indexes.size, GATHER_CHUNK):
        np.take(values, indexes[start:start + GATHER_CHUNK], out=gathered[start:start + GATHER_CHUNK])
    return gathered


def running_sum(values: np.ndarray) -> np.ndarray:
    """np.cumsum(values, dtype=int32) in steps: numpy's accumulate holds the GIL throughout (55 ms at 6M)."""
    total = np.empty(values.size, dtype=np.int32)
    carried = 0
    for start in range(0, values.size, SUM_CHUNK):
        part = total[start:start + SUM_CHUNK]
        np.cumsum(values[start:start + SUM_CHUNK], dtype=np.int32, out=part)
        if carried:
            part += carried
        carried = int(part[-1])
    return total


class _Brackets:
    """The brackets of a document with their nesting level (an open and its close share one).

    At one level the brackets alternate open, close, open, close... in document order (everything
    between a pair is deeper), so the k-th open of a level is closed by the k-th close of that level.
    """

    def __init__(self, data: bytes) -> None:
        # The decoder reads levels 0-MAX_LEVEL only (the document, its graph array, the graphs, their op arrays and
        # the ops): the native scan keeps just those, so a 130 MB attribute-heavy graph needs ~0.3M entries, not 8M.
        # Between two kept brackets the dropped ones are balanced, so the running sum below still gives each kept
        # one its level; the document's balance comes from the scan's depths over every bracket.
        shallow = native_shallow_brackets(data, MAX_LEVEL)
        if shallow is not None:
            self.positions, least, final = shallow
            if self.positions.size == 0 or least < 0 or final != 0:
                raise _Unsupported  # unbalanced: let the one-call decoder word it
        else:
            self.positions = bracket_positions(data)
        self.kinds = _gather(np.frombuffer(data, dtype=np.uint8), self.positions)
        delta = _gather(_OPENS, self.kinds)
        depth_after = running_sum(delta)
        self.level = depth_after - (delta > 0)
        if self.positions.size == 0 or depth_after.min() < 0 or depth_after[-1] != 0:
            raise _Unsupported  # unbalanced: let the one-call decoder word it
        self._levels: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def pairs(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        """(opens, closes): bracket indices of the pairs at `level`, in document order."""
        if level not in self._levels:
            at = np.flatnonzero(self.level == level)
            opens, closes = at[0::2], at[1::2]
            if opens.size != closes.size or (_OPENS[self.kinds[opens]] != 1).any() or \
                    (_OPENS[self.kinds[closes]] != -1).any():
                raise _Unsupported
            self._levels[level] = opens, closes
        return self._levels[level]

    def inside(self, level: int, outer: int) -> tuple[np.ndarray, np.ndarray]:
        """(opens, closes) of the pairs at `level` inside the pair opened at bracket index `outer`."""
        opens, closes = self.pairs(level)
        low, high = np.searchsorted(opens, [outer, self.closing(outer)])
        return opens[low:high], closes[low:high]

    def closing(self, index: int) -> int:
        """The index of the bracket closing the one at `index`."""
        opens, closes = self.pairs(int(self.level[index]))
        return int(closes[np.searchsorted(opens, index)])

    def char(self, index: int) -> int:
        """The bracket byte at `index`."""
        return int(self.kinds[index])


def _keyed(data: bytes, brackets: _Brackets, arrays: np.ndarray, key: bytes) -> list[int]:
    """The arrays (bracket indices) that are the value of `key`: the bytes before them end in {"key": or ,"key":."""
    chosen = []
    for index in arrays.tolist():
        if brackets.char(index) != ord("["):
            continue
        position = int(brackets.positions[index])
        match = _KEY_BEFORE.search(data, max(0, position - 64), position)
        if match is not None and match.group(1) == key:
            chosen.append(index)
    return chosen


def _ops_of(data: bytes, brackets: _Brackets, array: int) -> tuple[list[JsonOp | None], tuple[int, int]]:
    """The decoded op objects of the op array at bracket index `array`, and the byte span they cover."""
    array_open = int(brackets.positions[array])
    array_close = int(brackets.positions[brackets.closing(array)])
    opens, closes = brackets.inside(int(brackets.level[array]) + 1, array)
    if opens.size == 0:
        if data[array_open + 1:array_close].strip(_WHITESPACE):
            raise _Unsupported  # nulls or other values only: not the usual shape
        return [], (array_open + 1, array_open + 1)
    if (brackets.kinds[opens] != ord("{")).any():
        raise _Unsupported  # an array among the ops
    starts = brackets.positions[opens].tolist()
    stops = (brackets.positions[closes] + 1).tolist()
    if data[array_open + 1:starts[0]].strip(_WHITESPACE) or data[stops[-1]:array_close].strip(_WHITESPACE):
        raise _Unsupported  # something other than the op objects before the first or after the last
    if not _comma_separated(data, starts, stops):
        raise _Unsupported  # something other than one comma between two op objects: the one-call path words it
    # Each op object decoded alone from a slice of the document itself: no copy of the text (copies of 256 KB
    # batches, kept alive by the descs' zero-copy Raw slices, cost 300 MB and, on a VM whose fresh pages were
    # slow to fault in, seconds of system time on a 311 MB graph), and the GIL is held for one op at a time.
    view = memoryview(data)
    try:
        ops: list[JsonOp | None] = [_OP_DECODER.decode(view[start:stop])
                                    for start, stop in zip(starts, stops, strict=True)]
    except (msgspec.DecodeError, RecursionError) as exc:
        raise _Unsupported from exc
    return ops, (starts[0], stops[-1])


def _comma_separated(data: bytes, starts: list[int], stops: list[int]) -> bool:
    """True when exactly one comma (with JSON whitespace around it) separates each op object from the next."""
    if len(starts) < 2:
        return True
    begins, ends = np.asarray(stops[:-1]), np.asarray(starts[1:])
    tight = ends - begins == 1  # a compact document: the comma alone
    if not (np.frombuffer(data, dtype=np.uint8)[begins[tight]] == _COMMA).all():
        return False
    loose = np.flatnonzero(~tight)
    gaps = zip(begins[loose].tolist(), ends[loose].tolist(), strict=True)
    return all(data[begin:end].strip(_WHITESPACE) == b"," for begin, end in gaps)


def _op_arrays(data: bytes, brackets: _Brackets) -> tuple[str, list[int | None]]:
    """("graph", per graph object its op array or None) or ("op", [the bare GraphDef's op array])."""
    if brackets.char(0) != ord("{") or brackets.closing(0) != brackets.positions.size - 1 or \
            data[:brackets.positions[0]].strip(_WHITESPACE) or data[brackets.positions[-1] + 1:].strip(_WHITESPACE):
        raise _Unsupported
    top_arrays, _ = brackets.inside(1, 0)
    graph_arrays = _keyed(data, brackets, top_arrays, b"graph")
    bare_ops = _keyed(data, brackets, top_arrays, b"op")
    if len(graph_arrays) + len(bare_ops) != 1:
        raise _Unsupported  # neither, both or repeated keys: the one-call path decides
    if bare_ops:
        return "op", [bare_ops[0]]
    graphs, _ = brackets.inside(2, graph_arrays[0])
    per_graph: list[int | None] = []
    for graph in graphs.tolist():
        if brackets.char(graph) != ord("{"):
            raise _Unsupported
        ops = _keyed(data, brackets, brackets.inside(3, graph)[0], b"op")
        if len(ops) > 1:
            raise _Unsupported
        per_graph.append(ops[0] if ops else None)
    return "graph", per_graph


def _decode(data: bytes) -> dict[str, Any]:
    brackets = _Brackets(data)
    shape, arrays = _op_arrays(data, brackets)
    decoded = [None if array is None else _ops_of(data, brackets, array) for array in arrays]
    # The skeleton: the document with every op array emptied, decoded generically in one short call.
    pieces, cursor = [], 0
    for part in decoded:
        if part is not None:
            begin, stop = part[1]
            pieces.append(data[cursor:begin])
            cursor = stop
    pieces.append(data[cursor:])
    try:
        skeleton = _SKELETON_DECODER.decode(b"".join(pieces))
    except (msgspec.DecodeError, RecursionError) as exc:
        raise _Unsupported from exc
    return _assemble(skeleton, shape, [None if part is None else part[0] for part in decoded])


def _assemble(skeleton: Any, shape: str, op_lists: list[list[JsonOp | None] | None]) -> dict[str, Any]:
    """The document decode_typed returns, from the skeleton and each graph object's op list (None: none found)."""
    if not isinstance(skeleton, dict) or skeleton.get("op" if shape == "graph" else "graph") is not None:
        raise _Unsupported  # both shapes at once: decode_typed refuses it
    if shape == "op":
        if skeleton.get("op") != []:
            raise _Unsupported
        return {"graph": [JsonGraph(skeleton.get("name"), op_lists[0])]}
    graphs = skeleton.get("graph")
    if not isinstance(graphs, list):
        raise _Unsupported
    objects = iter(op_lists)
    result: list[JsonGraph | None] = []
    for graph in graphs:
        if graph is None:
            result.append(None)
            continue
        if not isinstance(graph, dict):
            raise _Unsupported
        ops = next(objects, _MISSING)
        if ops is _MISSING:
            raise _Unsupported
        # An op array found is empty in the skeleton; without one, "op" must be absent or null.
        if (ops is not None and graph.get("op") != []) or (ops is None and graph.get("op") is not None):
            raise _Unsupported
        result.append(JsonGraph(graph.get("name"), ops))
    if next(objects, _MISSING) is not _MISSING:
        raise _Unsupported
    return {"graph": result}


_STEPWISE = [False]


_HUGE_PAGES_BEFORE: list[bool] = []  # numpy's own setting while short holds are preferred


def prefer_short_gil_holds(on: bool = True) -> None:
    """Decode graphs stepwise from now on (the GUI: ~3x the decode time, no freeze); off: one fast call.

    On also stops numpy from advising huge pages for new big arrays (for the whole process); off restores it.
    """
    _STEPWISE[0] = on
    _allow_huge_pages(not on)


def _madvise_switch() -> Any:
    """numpy's _set_madvise_hugepage (returns the previous setting), or None where this numpy lacks it."""
    for module in ("numpy._core.multiarray", "numpy.core.multiarray"):
        with contextlib.suppress(ImportError):
            return getattr(importlib.import_module(module), "_set_madvise_hugepage", None)
    return None


def _allow_huge_pages(allowed: bool) -> None:
    """Let numpy madvise(MADV_HUGEPAGE) big arrays, or not.

    The first write to a huge page zeroes 2 MB, after compacting memory when none is free, inside the numpy call
    that writes it, and the chunked numpy steps here hold the GIL: in a fresh process on a busy machine the bracket
    arrays of a 220 MB graph cost 580 ms of system time that way (50 ms with 4 KB pages, no slower afterwards),
    and steps of ~1 ms held the GIL 30-100 ms while the GUI waited.
    """
    switch = _madvise_switch()
    if switch is None:
        return
    if not allowed:
        previous = bool(switch(False))
        if not _HUGE_PAGES_BEFORE:
            _HUGE_PAGES_BEFORE.append(previous)
    elif _HUGE_PAGES_BEFORE:
        switch(_HUGE_PAGES_BEFORE.pop())


def decode_graph_document(data: bytes) -> dict[str, Any] | None:
    """decode_typed, stepwise when prefer_short_gil_holds() was called."""
    return decode_typed_stepwise(data) if _STEPWISE[0] else decode_typed(data)


def decode_typed_stepwise(data: bytes) -> dict[str, Any] | None:
    """decode_typed(data), decoded in many short GIL holds when the document has the usual shape."""
    try:
        return _decode(data)
    except _Unsupported:
        return decode_typed(data)
