"""One GUI run of the big model in a fresh process (run by test_bench_gui_big_model.py): prints JSON.

Opens the window, drops the case (as open_paths), waits until the result is shown (resultShown: table,
selection, tensors, graph), then shows the Graph tab. A 10 ms heartbeat timer on the GUI thread records
every gap over 100 ms (what a user feels as a freeze), with the phase (analyse: until the worker's result
arrives; show result: until it is shown; graph tab) and the garbage collections over 30 ms, so a regression
says where it blocks. GUI_SAMPLER=1 also samples the GUI thread's stack every 2 ms and prints, for each block, its most
frequent stacks (the sampler takes the GIL too: it makes blocks likelier, so use it to see them, not to count them).
"""

from __future__ import annotations

import gc
import json
import os
import sys
import threading
import time
import traceback
from typing import Any

# Run as a script: this folder is on sys.path.
from gil_watchdog import GilWatchdog  # type: ignore[import-not-found]
from PySide6.QtCore import QTimer

from autofuse_studio.core.gc_pause import long_lived_freezing
from autofuse_studio.ui.app import make_application, prefer_gui_thread
from autofuse_studio.ui.gui_gc import GuiThreadCollector

BLOCK_S = 0.1
SAMPLE_S = 0.002  # GUI_SAMPLER=1: how often the GUI thread's stack is sampled


class GuiSampler:
    """GUI_SAMPLER=1: a thread that records the GUI thread's innermost frames every SAMPLE_S (when it gets the
    GIL), so a block over 100 ms can say what the GUI thread was doing during it."""

    def __init__(self) -> None:
        self._gui = threading.get_ident()
        self.samples: list[tuple[float, str]] = []
        self._stop = threading.Event()
        threading.Thread(target=self._run, name="gui-sampler", daemon=True).start()

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            frame = sys._current_frames().get(self._gui)
            if frame is not None:
                stack = " < ".join(f"{os.path.basename(entry.filename)}:{entry.lineno}:{entry.name}"
                                   for entry in reversed(traceback.extract_stack(frame, limit=8)))
                self.samples.append((time.perf_counter(), stack))

    def during(self, since: float, until: float) -> list[tuple[int, str]]:
        """The stacks sampled between two perf_counter times, most frequent first, with their counts."""
        counts: dict[str, int] = {}
        for at, stack in self.samples:
            if since <= at <= until:
                counts[stack] = counts.get(stack, 0) + 1
        return sorted(((count, stack) for stack, count in counts.items()), reverse=True)[:6]

    def stop(self) -> None:
        """Stop sampling."""
        self._stop.set()
GRAPH_SETTLE_MS = int(sys.argv[2]) if len(sys.argv) > 2 else 4000


def _schedstat() -> tuple[int, int] | None:
    """This thread's nanoseconds on a CPU and waiting in the run queue so far (Linux), else None."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as stat:
            ran, queued, _slices = stat.read().split()
        return int(ran), int(queued)
    except (OSError, ValueError):
        return None


def main() -> None:
    """Run the case given as a JSON list of four paths in argv[1]; print the measurements as JSON."""
    app = make_application()
    prefer_gui_thread()
    GuiThreadCollector(app).install()  # as run_app: cyclic garbage collected on the GUI thread only
    from autofuse_studio.ui.main_window import MainWindow

    paths = json.loads(sys.argv[1])
    window = MainWindow()
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    state: dict[str, Any] = {"phase": "analyse", "last": time.perf_counter(), "blocks": [], "gc": [], "times": {},
                             "block_stacks": [], "longest": {}}
    sampler = GuiSampler() if os.environ.get("GUI_SAMPLER") else None
    start = time.perf_counter()

    scheduled = [_schedstat()]

    def beat() -> None:
        now, times = time.perf_counter(), _schedstat()
        gap, state["last"] = now - state["last"], now
        longest = state["longest"]
        longest[state["phase"]] = max(longest.get(state["phase"], 0), round(gap * 1000))
        if gap > BLOCK_S:
            # Of the gap: ms the GUI thread ran, ms it waited in the run queue for a core (the rest it slept:
            # the GIL, a lock, I/O); None where the kernel does not say.
            ran, queued = ((round((times[0] - scheduled[0][0]) / 1e6), round((times[1] - scheduled[0][1]) / 1e6))
                           if times and scheduled[0] else (None, None))
            state["blocks"].append([state["phase"], round((now - start) * 1000), round(gap * 1000), ran, queued])
            if sampler is not None:
                state["block_stacks"].append(sampler.during(now - gap, now))
        scheduled[0] = times

    collection = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collection[0] = time.perf_counter()
        elif (took := time.perf_counter() - collection[0]) > 0.03:
            state["gc"].append([info["generation"], round(took * 1000), threading.current_thread().name])

    gc.callbacks.append(on_gc)
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(beat)
    timer.start()

    def arrived(_analysis: object) -> None:
        state["phase"] = "show result"
        state["times"]["arrived"] = time.perf_counter() - start

    def finished(_analysis: object) -> None:
        state["times"]["analyse"] = time.perf_counter() - start
        QTimer.singleShot(300, show_graph)

    def show_graph() -> None:
        state["phase"] = "graph tab"
        window.tabs.setCurrentWidget(window.graph)
        QTimer.singleShot(GRAPH_SETTLE_MS, done)

    def done() -> None:
        result = window.workbench.result
        first = result.first_divergence if result is not None else None
        watchdog = state["watchdog"]
        if watchdog is not None:
            watchdog.stop()
        print(json.dumps({"seconds": state["times"]["analyse"], "arrived": state["times"]["arrived"], "blocks": state["blocks"], "gc": state["gc"],
                          "longest": state["longest"],
                          "rows": len(result.rows) if result is not None else 0,
                          "first": first.fused_op if first is not None else None,
                          **({"gil": watchdog.summary()} if watchdog is not None else {}),
                          **({"block_stacks": state["block_stacks"]} if sampler is not None else {})}), flush=True)
        app.quit()

    window.analysis.finished.connect(arrived)
    window.resultShown.connect(finished)
    window.analysis.failed.connect(lambda error: (print(json.dumps({"error": str(error)})), app.quit()))
    # GIL_WATCHDOG=1: also time a 1 ms sleeper thread, to tell GIL holds from waits for a CPU (gil_watchdog.py).
    watchdog = GilWatchdog().start() if os.environ.get("GIL_WATCHDOG") else None
    state["watchdog"] = watchdog
    window.open_paths(paths)
    app.exec()


if __name__ == "__main__":
    with long_lived_freezing():  # as run_app: the GUI freezes what lives for the session
        main()
