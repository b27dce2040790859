"""The stepwise graph decoder gives exactly what the one-call decoder gives, on every shape and byte pattern."""

from __future__ import annotations

import json
import random
import tracemalloc
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.ge import stepwise_json
from autofuse_studio.core.ge.fast_json import decode_typed
from autofuse_studio.core.ge.load import model_from_bytes
from autofuse_studio.core.ge.native_brackets import native_bracket_positions, native_shallow_brackets

# Strings that try to fool a bracket scan: brackets, quotes, escapes and backslash runs of every parity.
TRICKY = ['{', '}', '[', ']', '"', '\\', '\\\\', '\\"', '"}]', 'a\\\\"b', '{"op": [', ',"op":[{', '\u4e2d\u6587',
          '\\\\\\', 'x' * 70, '', ' ', '\n', 'op', 'graph']


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(TRICKY) for _ in range(rng.randrange(4)))


def _value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return _text(rng)
    if kind == 1:
        return rng.choice([0, -3, 2**40, 1.5e-7, True, False, None])
    if kind == 2:
        return rng.randrange(100)
    if kind == 3:
        return _text(rng) + str(rng.random())
    if kind == 4:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {_text(rng) or "k": _value(rng, depth + 1) for _ in range(rng.randrange(4))}


def _op(rng: random.Random, number: int) -> dict[str, Any]:
    op: dict[str, Any] = {"name": f"op{number}{_text(rng)}", "type": rng.choice(["Add", "AscBackend", _text(rng)])}
    if rng.random() < 0.8:
        op["input"] = [f"op{rng.randrange(number + 1)}:0" for _ in range(rng.randrange(3))]
    if rng.random() < 0.7:
        op["attr"] = [{"key": _text(rng) or "a", "value": {"s": _value(rng, 2)}} for _ in range(rng.randrange(3))]
    if rng.random() < 0.7:
        op["output_desc"] = [{"dtype": "DT_FLOAT16", "shape": {"dim": [1, rng.randrange(9)]},
                              "attr": [{"key": "k", "value": _value(rng, 2)}]}]
    if rng.random() < 0.2:
        op["extra"] = _value(rng, 1)
    return op


def _usual_document(rng: random.Random) -> Any:
    graphs: list[Any] = []
    for number in range(rng.randrange(1, 5)):
        graph: dict[str, Any] = {"name": f"g{number}{_text(rng)}"}
        if rng.random() < 0.3:
            graph["attr"] = [{"key": "x", "value": _value(rng, 1)}]
        choice = rng.random()
        if choice < 0.8:
            graph["op"] = [_op(rng, n) for n in range(rng.randrange(0, 30))]
        elif choice < 0.9:
            graph["op"] = None
        graphs.append(graph)
        if rng.random() < 0.1:
            graphs.append(None)
    if rng.random() < 0.2:
        return {"name": "bare", "op": [_op(rng, n) for n in range(rng.randrange(1, 20))]}
    document: dict[str, Any] = {"graph": graphs}
    if rng.random() < 0.3:
        document = {"name": "model", "version": _value(rng, 1), **document, "tail": _value(rng, 1)}
    return document


def _dump(rng: random.Random, document: Any) -> bytes:
    text = json.dumps(document, indent=rng.choice([None, 1, 2, 4]), ensure_ascii=rng.random() < 0.5,
                      separators=rng.choice([None, (",", ":"), (" , ", " : ")]))
    return (rng.choice(["", " ", "\n\t"]) + text + rng.choice(["", "\n", "  \r\n"])).encode()


SCANS = [5, 64, 4096, 1 << 22, "native"]  # numpy scan chunks, or the native scan


@pytest.fixture(params=SCANS, ids=[str(scan) for scan in SCANS])
def chunk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    scan = request.param
    size = 1 << 22 if scan == "native" else scan
    if scan != "native":  # the numpy scan, in chunks of this size
        monkeypatch.setattr(stepwise_json, "native_bracket_positions", lambda _data: None)
    monkeypatch.setattr(stepwise_json, "CHUNK_BYTES", size)
    monkeypatch.setattr(stepwise_json, "GATHER_CHUNK", max(1, size // 4))  # gathers in steps too
    monkeypatch.setattr(stepwise_json, "SUM_CHUNK", max(1, size // 8))  # and running sums
    return int(size)


@pytest.mark.parametrize("seed", range(40))
def test_usual_documents_are_decoded_stepwise_and_equal(seed: int, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed * 7 + chunk)
    data = _dump(rng, _usual_document(rng))
    expected = decode_typed(data)
    assert expected is not None
    # The usual shapes must not need the one-call fallback (else this test could not fail).
    monkeypatch.setattr(stepwise_json, "decode_typed", lambda _data: pytest.fail("fell back"))
    assert stepwise_json.decode_typed_stepwise(data) == expected


@pytest.mark.parametrize("step", [1, 3, 64, 1 << 18])
def test_the_stepwise_running_sum_equals_numpys(step: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stepwise_json, "SUM_CHUNK", step)
    rng = np.random.default_rng(step)
    for size in (0, 1, 2, step - 1, step, step + 1, 5 * step + 7, 1000):
        values = rng.choice(np.array([-1, 1, 0], dtype=np.int8), size=max(0, size))
        assert np.array_equal(stepwise_json.running_sum(values), np.cumsum(values, dtype=np.int32))


UNUSUAL = [
    b'{"graph": [{"name": "g", "op": [null, {"name": "a"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}, 3]}]}',
    b'{"graph": [{"name": "g", "op": [[1], {"name": "a"}]}]}',
    b'{"graph": [{"name": "g", "o\\u0070": [{"name": "a"}]}]}',
    b'{"graph": [{"name": "g", "o\\u0070": []}, {"name": "h", "op": [{"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}], "op": [{"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}]}], "op": [{"name": "b"}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}]}], "graph": []}',
    b'{"gr\\u0061ph": [{"name": "g", "op": [{"name": "a"}]}]}',
    b'[{"name": "g", "op": [{"name": "a"}]}]',
    b'{"graph": [1, {"name": "g", "op": []}]}',
    b'{"graph": {"name": "g", "op": [{"name": "a"}]}}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"},]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"} {"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}{"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"},,{"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"} ,\n , {"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}, null, {"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"} ;{"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"},\f{"name": "b"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}, {"name": 1, "input": {"x"}}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}]}]} trailing',
    b'{"graph": [{"name": "g", "op": [{"name": "a", "input_desc": 5}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a\\"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a\\\\"}]}]}',
    b'{"graph": [{"name": "g", "op": [{"name": "a"}]}',
    b'{"name": "bare", "op": [{"name": "a"}], "graph": null}',
    b'{"name": "bare", "op": []}',
    b'{}',
    b'{"graph": []}',
    b'{"graph": [{"x": "\\\\\\"{["}, {"op": [{"name": "\\\\\\\\"}]}]}',
]


@pytest.mark.parametrize("data", UNUSUAL)
def test_unusual_and_broken_documents_give_what_the_one_call_decoder_gives(data: bytes, chunk: int) -> None:
    assert stepwise_json.decode_typed_stepwise(data) == decode_typed(data)


def test_models_built_stepwise_equal_the_one_call_models(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    data = _dump(rng, {"graph": [{"name": "g", "op": [_op(rng, n) for n in range(200)]}]})
    plain = model_from_bytes(data, "g.json")
    stepwise_json.prefer_short_gil_holds(True)
    try:
        stepwise = model_from_bytes(data, "g.json")
    finally:
        stepwise_json.prefer_short_gil_holds(False)
    assert [op.name for op in stepwise.graphs[0].ops] == [op.name for op in plain.graphs[0].ops]
    assert stepwise.warnings == plain.warnings


def test_short_gil_holds_stop_numpy_huge_page_advice_until_turned_off() -> None:
    switch = stepwise_json._madvise_switch()
    if switch is None:
        pytest.skip("this numpy has no huge-page switch")
    before = switch(True)
    try:
        stepwise_json.prefer_short_gil_holds(True)
        assert switch(False) is False  # advice off while short holds are preferred
        stepwise_json.prefer_short_gil_holds(False)
        assert switch(True) is True  # numpy's setting from before is back
    finally:
        stepwise_json.prefer_short_gil_holds(False)
        switch(before)


BRACKET_ALPHABET = [b"{", b"}", b"[", b"]", b'"', b"\\", b"a", b" ", b":", b",", b"\\\\", b'\\"', b"\xe4\xb8\xad"]


@pytest.mark.parametrize("seed", range(60))
def test_the_native_bracket_scan_agrees_with_numpy_on_any_bytes(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    data = b"".join(rng.choice(BRACKET_ALPHABET) for _ in range(rng.randrange(0, 3000)))
    native = native_bracket_positions(data)
    if native is None:
        pytest.skip("the native kernel is not built here")
    monkeypatch.setattr(stepwise_json, "CHUNK_BYTES", rng.choice([3, 17, 256, 1 << 22]))
    assert native.tolist() == stepwise_json.numpy_bracket_positions(data).tolist()


def test_the_native_scan_grows_its_output_when_brackets_are_dense() -> None:
    data = b"[" * 5000 + b"]" * 5000  # far more than the first guess of one bracket per 16 bytes
    native = native_bracket_positions(data)
    if native is None:
        pytest.skip("the native kernel is not built here")
    assert native.tolist() == list(range(10000))


@pytest.mark.parametrize("indent", [None, 2])
def test_the_decoded_ops_keep_no_copy_of_the_document(indent: int | None) -> None:
    """The descs are zero-copy Raw slices: of the document itself, never of a copy of its text kept alive.

    Each op keeps one memoryview of the document (~200 bytes); a copy of the text would keep ~1.4 kB per op here.
    """
    rng = random.Random(11)
    desc = {"dtype": "DT_FLOAT", "attr": [{"key": "x" * 40, "value": {"s": "y" * 200}}]}
    ops = [{**_op(rng, n), "input_desc": [desc] * 4} for n in range(2000)]
    data = json.dumps({"graph": [{"name": "g", "op": ops}]}, indent=indent).encode()
    kept = []
    for decode in (decode_typed, stepwise_json.decode_typed_stepwise):
        tracemalloc.start()
        try:
            decoded = decode(data)
            kept.append(tracemalloc.get_traced_memory()[0])
        finally:
            tracemalloc.stop()
        assert decoded is not None and len(decoded["graph"][0].op) == len(ops)
    one_call, stepwise = kept
    assert len(data) > 1000 * len(ops)
    assert stepwise < one_call + 400 * len(ops)  # a kept copy of the ops' text would add the document's size


def _levels_and_depths(data: bytes) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(every bracket's offset, its level, the least depth after any bracket, the final depth), by numpy."""
    positions = stepwise_json.numpy_bracket_positions(data)
    delta = np.where(np.isin(np.frombuffer(data, dtype=np.uint8)[positions], list(b"{[")), 1, -1)
    depth = np.cumsum(delta)
    return positions, depth - (delta > 0), int(depth.min()) if depth.size else 2**63 - 1, int(depth[-1:].sum())


@pytest.mark.parametrize("seed", range(30))
def test_the_shallow_native_scan_keeps_exactly_the_brackets_up_to_a_level(seed: int) -> None:
    rng = random.Random(seed)
    documents = [_dump(rng, _usual_document(rng)), *UNUSUAL[seed % 3::3],
                 bytes(rng.choice(b'{}[]"\\ ,ax') for _ in range(rng.randrange(200)))]
    for data in documents:
        positions, levels, least, final = _levels_and_depths(data)
        for max_level in range(6):
            shallow = native_shallow_brackets(data, max_level)
            if shallow is None:
                pytest.skip("the native kernel is not built")
            kept, got_least, got_final = shallow
            assert kept.tolist() == positions[levels <= max_level].tolist(), (data, max_level)
            assert (got_least, got_final) == (least, final)


def test_documents_decode_alike_with_and_without_the_shallow_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    documents = [_dump(rng, _usual_document(rng)) for _ in range(40)] + UNUSUAL
    shallow = [stepwise_json.decode_typed_stepwise(data) for data in documents]
    monkeypatch.setattr(stepwise_json, "native_shallow_brackets", lambda _data, _level: None)
    assert [stepwise_json.decode_typed_stepwise(data) for data in documents] == shallow
    assert shallow == [decode_typed(data) for data in documents]
