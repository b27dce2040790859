"""A coarser GIL switch interval while a run loads its case (the window's own, ui.app's, is 0.1 ms).

While a mode-1 run loads its case, three of its threads run Python at once (the graphs' parse, the dump index,
the first compares) and the window only shows progress. At the window's 0.1 ms interval they forced switches among
themselves every 0.1 ms: the big model's compact-lean graphs loaded in 3.3-3.4 s in the window against 2.3 s in
the CLI (5 ms). At 1 ms the window's run of that case took 4.13-4.36 s instead of 4.49-4.70 s (5 alternated
pairs), with no GUI-thread block over 100 ms; at 2 ms blocks of 102-126 ms came back. On a slower machine 1 ms
still left a 102-221 ms block 300-400 ms into many compact-heavy runs (12 of 22; the GUI thread asleep for the GIL
most of it): at 0.5 ms, none in 15 runs alone and 1 in 9 of the GUI benchmark, and the runs took as long (GUI/CLI
1.06-1.14x). The compares after the load keep 0.1 ms: the table fills beside them and each of its repaints takes
the GIL hundreds of times.
"""

from __future__ import annotations

import sys
import threading

LOADING_SWITCH_INTERVAL = 0.0005

_lock = threading.Lock()
_loading = 0  # runs between their start and their loaded case
_saved = 0.0  # the interval before the first of them


class LoadingInterval:
    """Held from a run's start until its case is loaded (`end`, called again harmlessly, also on failure):
    the interval is LOADING_SWITCH_INTERVAL (never shorter than it was) while any run loads."""

    def __init__(self) -> None:
        global _loading, _saved
        with _lock:
            if _loading == 0:
                _saved = sys.getswitchinterval()
                sys.setswitchinterval(max(_saved, LOADING_SWITCH_INTERVAL))
            _loading += 1
        self._held = True

    def end(self) -> None:
        """Give the interval back (the one before the first loading run, once none is loading)."""
        global _loading
        with _lock:
            if not self._held:
                return
            self._held = False
            _loading -= 1
            if _loading == 0:
                sys.setswitchinterval(_saved)
