"""Freeing in chunks: containers are emptied, what others still hold lives on, nothing else changes."""

from __future__ import annotations

import gc
import json
import weakref

import pytest

from autofuse_studio.core.ge.build import build_model
from autofuse_studio.core.ge.fast_json import decode_typed
from autofuse_studio.core.ge.load import release_document
from autofuse_studio.core.release import RELEASE_CHUNK, dismantle, empty_in_chunks, release_in_chunks


class Thing:
    """A weak-referenceable object with a payload."""

    def __init__(self, payload: object = None) -> None:
        self.payload = payload


@pytest.mark.parametrize("count", [0, 1, RELEASE_CHUNK - 1, RELEASE_CHUNK, 3 * RELEASE_CHUNK + 7])
def test_empty_in_chunks_empties_lists_and_dicts_and_frees_their_items(count: int) -> None:
    items = [Thing() for _ in range(count)]
    refs = [weakref.ref(item) for item in items]
    listed, mapped = list(items), dict(enumerate(items))
    kept = items[: count // 3]  # some are still used elsewhere
    del items
    empty_in_chunks(listed, mapped)
    assert listed == [] and mapped == {}
    alive = [ref() for ref in refs]
    assert alive[: count // 3] == kept
    assert all(item is None for item in alive[count // 3:])


def test_release_in_chunks_frees_what_only_it_holds_and_leaves_shared_things_whole() -> None:
    sole = {"rows": [Thing() for _ in range(3 * RELEASE_CHUNK)], "more": [[Thing()] for _ in range(10)]}
    shared_list = [Thing() for _ in range(5)]
    shared = Thing(shared_list)
    refs = [weakref.ref(thing) for thing in sole["rows"]]
    still_used = shared
    dropped: list[object] = [sole, shared]
    del sole, shared
    gc.collect()
    release_in_chunks(dropped)
    assert dropped == []
    assert all(ref() is None for ref in refs)
    assert still_used.payload is shared_list and len(shared_list) == 5  # untouched: someone holds it


def test_dismantle_keeps_nested_containers_someone_else_holds() -> None:
    inner = [1, 2, 3]
    outer = {"inner": inner, "own": [Thing() for _ in range(RELEASE_CHUNK + 1)]}
    dismantle(outer)
    assert outer == {} and inner == [1, 2, 3]


@pytest.mark.parametrize("typed", [True, False])
def test_a_released_document_leaves_its_model_whole(typed: bool) -> None:
    graphs = [{"name": f"g{number}", "op": [{"name": f"g{number}_op{op}", "type": "Add", "input": [f"g{number}_op{op - 1}:0"]}
                                             for op in range(1200)]} for number in range(3)]
    data = json.dumps({"graph": graphs}).encode()
    document = decode_typed(data) if typed else json.loads(data)
    assert document is not None
    model = build_model(document, "m.json")
    expected = build_model(decode_typed(data) if typed else json.loads(data), "m.json")
    release_document(document)
    assert all(not graph.get("op") for graph in document["graph"])  # emptied
    assert [op.name for op in model.ops_in_order()] == [op.name for op in expected.ops_in_order()]
    assert model.op("g1_op5").inputs == expected.op("g1_op5").inputs
    release_document({"graph": None, "op": [1, 2]})  # other shapes: nothing to do or a bare op list
    release_document([1, 2])
