"""gc_paused() and the freezing policy: counted across threads, restore the caller's GC state, survive exceptions."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from autofuse_studio.core.gc_pause import (
    OwnerThreadCollection,
    freezing_allowed,
    gc_paused,
    keep_long_lived,
    long_lived_freezing,
    long_lived_result,
)


@pytest.fixture(autouse=True)
def _gc_enabled(automatic_gc: None) -> None:
    """These tests start with automatic collection on."""


def test_overlapping_pauses_in_two_threads_keep_gc_off_until_the_last_ends() -> None:
    entered, release = threading.Event(), threading.Event()

    def other() -> None:
        with gc_paused():
            entered.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    with gc_paused():
        thread.start()
        assert entered.wait(5)
    # This thread's pause ended first; the other thread is still parsing.
    assert not gc.isenabled()
    release.set()
    thread.join(5)
    assert gc.isenabled()


def test_a_disabled_gc_stays_disabled() -> None:
    gc.disable()
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_gc_comes_back_after_an_exception() -> None:
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_keep_long_lived_freezes_only_where_the_application_opted_in() -> None:
    kept = [[index] for index in range(1000)]  # tracked containers a freeze would move
    with long_lived_freezing(False):
        before = gc.get_freeze_count()
        keep_long_lived()
        assert gc.get_freeze_count() == before
        with long_lived_freezing():
            keep_long_lived()
            assert gc.get_freeze_count() >= before + len(kept)
        assert not freezing_allowed()  # the inner opt-in ended with its block


def test_the_opt_in_ends_after_an_exception() -> None:
    seen = []

    def run() -> None:
        with long_lived_freezing():
            seen.append(freezing_allowed())
            raise RuntimeError("boom")

    with long_lived_freezing(False):
        with pytest.raises(RuntimeError):
            run()
        assert seen == [True]
        assert not freezing_allowed()


def test_a_loaded_graph_is_frozen_only_where_the_application_allows() -> None:
    """load_model ends its pause with the model frozen (app layer): the collection that follows need not scan it."""
    from pathlib import Path

    from autofuse_studio.core.ge.load import load_model

    graph = next((Path(__file__).parents[2] / "resources" / "demo" / "af_close").glob("*.json"))
    with long_lived_freezing(False):
        before = gc.get_freeze_count()
        load_model(graph)
        assert gc.get_freeze_count() == before  # library use: the caller's GC is left alone
    with long_lived_freezing():
        load_model(graph)
        assert gc.get_freeze_count() > before


def test_a_long_lived_result_is_built_with_gc_off_and_frozen_after() -> None:
    seen: list[bool] = []

    @long_lived_result
    def build(count: int) -> list[list[int]]:
        """Docstring kept by the wrapper."""
        seen.append(gc.isenabled())
        return [[index] for index in range(count)]

    with long_lived_freezing():
        before = gc.get_freeze_count()
        built = build(2000)
        assert gc.get_freeze_count() >= before + len(built)  # the result left the young generation
    assert seen == [False] and gc.isenabled()
    assert build.__doc__ == "Docstring kept by the wrapper."
    with pytest.raises(ZeroDivisionError):
        long_lived_result(lambda: 1 // 0)()
    assert gc.isenabled()


def _dropped_cycle(finalized_on: list[int]) -> None:
    """Cyclic garbage whose collection records the thread that freed it."""
    node: dict[str, object] = {}
    node["me"] = node
    holder = threading.Event()  # weakref-able stand-in for a wrapped Qt object in the cycle
    node["holder"] = holder
    holder.node = node  # type: ignore[attr-defined]
    weakref.finalize(holder, lambda: finalized_on.append(threading.get_ident()))


def _allocate_in_a_thread(containers: int) -> list[list[int]]:
    """Containers enough for many automatic young collections, made (and kept) by another thread."""
    kept: list[list[int]] = []
    worker = threading.Thread(target=lambda: kept.extend([index] for index in range(containers)))
    worker.start()
    worker.join()
    return kept


def test_owner_thread_collection_keeps_other_threads_from_collecting() -> None:
    collection = OwnerThreadCollection()
    collection.start()
    try:
        assert not gc.isenabled()
        finalized_on: list[int] = []
        _dropped_cycle(finalized_on)
        kept = _allocate_in_a_thread(50 * gc.get_threshold()[0])
        assert finalized_on == []  # with automatic collection on, the thread's collections freed it
        assert collection.collect_due() >= 0
        assert finalized_on == [threading.get_ident()]
        assert collection.collect_due() == -1 and kept  # nothing due right after
    finally:
        collection.stop()
    assert gc.isenabled()


def test_owner_thread_collection_waits_for_pauses_and_a_zero_threshold() -> None:
    collection = OwnerThreadCollection()
    collection.start()
    threshold = gc.get_threshold()
    try:
        kept = _allocate_in_a_thread(10 * threshold[0])
        with gc_paused():
            assert collection.collect_due() == -1
        gc.set_threshold(0)
        assert collection.collect_due() == -1
        gc.set_threshold(*threshold)
        assert collection.collect_due() >= 0 and kept
    finally:
        gc.set_threshold(*threshold)
        collection.stop()


def test_owner_thread_collection_spaces_full_collections() -> None:
    collection = OwnerThreadCollection(full_share=1e-12)  # a full collection may take this share of the time
    collection.start()
    try:
        collected = []
        for _ in range(2):
            for _ in range(gc.get_threshold()[2] + 1):
                gc.collect(1)  # each collection of the younger two counts towards the next full one
            collected.append(collection.collect_due())
        assert collected[0] == 2 and collected[1] != 2
    finally:
        collection.stop()


def test_a_pause_running_when_owner_collection_starts_or_stops_ends_in_its_state() -> None:
    collection = OwnerThreadCollection()
    with gc_paused():
        collection.start()
    assert not gc.isenabled()
    with gc_paused():
        collection.stop()
        assert not gc.isenabled()
    assert gc.isenabled()
