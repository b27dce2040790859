"""Freeing big structures in chunks, so that other threads (the GUI's) get the GIL in between.

Freeing 100k objects is one cascade of C deallocations that never gives the GIL away: a 100k-op model
takes 0.1-1 s, a finished run's plan and pairs 40-80 ms. Lists and dicts emptied a chunk at a time let
the interpreter switch threads between chunks.
"""

from __future__ import annotations

import sys
from typing import Any

RELEASE_CHUNK = 500  # items freed at a time: a chunk frees in 1-3 ms, then another thread may run
_HELD_ONCE = 3  # sys.getrefcount of a value with one holder: that holder, the local name, the call's argument


def empty_in_chunks(*containers: list[Any] | dict[Any, Any]) -> None:
    """Empty lists and dicts the caller owns, a chunk at a time; items no one else holds are freed on the way."""
    for container in containers:
        if isinstance(container, dict):
            values = list(container.values())
            container.clear()  # the keys go at once: the values, still held in `values`, go in chunks
            container = values
        while container:
            del container[-RELEASE_CHUNK:]


def release_in_chunks(dropped: list[object]) -> None:
    """Free what only `dropped` still holds, in chunks (see dismantle); anything used elsewhere lives on."""
    while dropped:
        thing = dropped.pop()
        if sys.getrefcount(thing) == _HELD_ONCE - 1:  # no holder left but this frame
            dismantle(thing, 0)
        del thing


def dismantle(thing: object, depth: int = 0) -> None:
    """Empty the lists and dicts `thing` solely owns (a few levels deep), a chunk at a time."""
    if depth > 4:
        return
    if isinstance(thing, dict):
        values = list(thing.values())
        thing.clear()
        dismantle(values, depth + 1)
    elif isinstance(thing, list):
        while thing:
            chunk = thing[-RELEASE_CHUNK:]
            del thing[-RELEASE_CHUNK:]
            for item in chunk:
                nested = isinstance(item, (list, dict)) or hasattr(item, "__dict__")
                if nested and sys.getrefcount(item) == _HELD_ONCE:  # held by the chunk only
                    dismantle(item, depth + 1)
            del chunk  # frees this chunk's items (those no one else holds)
    elif hasattr(thing, "__dict__") and not isinstance(thing, type):
        fields = vars(thing)
        for name in [key for key, value in fields.items() if isinstance(value, (list, dict))
                     or hasattr(value, "__dict__")]:
            value = fields[name]
            if sys.getrefcount(value) == _HELD_ONCE:  # held by this attribute only
                dismantle(value, depth + 1)
            del value
