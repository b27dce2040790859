"""A small thread-safe LRU map: what a run has parsed once (raw headers, statistics CSVs, folder listings)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LockedLru(Generic[K, V]):
    """At most `capacity` entries, the least recently used dropped first; safe to share between threads."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._lock = threading.Lock()
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value of `key` (now the most recently used), None when it is not kept."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key`, dropping the least recently used entries beyond the capacity."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)
