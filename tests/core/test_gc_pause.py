"""gc_paused() and the freezing policy: counted across threads, restore the caller's GC state, survive exceptions."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from autofuse_studio.core.gc_pause import (
    freezing_allowed,
    gc_paused,
    keep_long_lived,
    long_lived_freezing,
    long_lived_result,
)


@pytest.fixture(autouse=True)
def _gc_enabled() -> Iterator[None]:
    gc.enable()
    yield
    gc.enable()


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
