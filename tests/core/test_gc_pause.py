"""gc_paused(): counted across threads, restores the caller's GC state, survives exceptions."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from autofuse_studio.core.gc_pause import gc_paused


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
