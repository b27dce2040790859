"""A rogue Dask worker (`dask worker --preload THIS_FILE`) for tests/robustness/test_cluster_rogue_worker.py.

What it does is chosen by AFS_ROGUE_MODE; every object it sends runs, when unpickled, code that appends a line
to AFS_ROGUE_MARKER in any process without AFS_ROGUE in its environment (the worker and the scheduler have
it; the client must never run it). The test fails when the marker file exists. Each rogue act appends a line
to AFS_ROGUE_SENT, so the test also knows the worker did try.
"""

from __future__ import annotations

import os
from typing import Any

MODE = os.environ.get("AFS_ROGUE_MODE", "")
MARKER = os.environ.get("AFS_ROGUE_MARKER", "/nonexistent/marker")
SENT = os.environ.get("AFS_ROGUE_SENT", "/nonexistent/sent")
_PAYLOAD = (f"__import__('os').environ.get('AFS_ROGUE') or "
            f"open({MARKER!r}, 'a').write('code ran in process %d\\n' % __import__('os').getpid())")


def _sent(what: str) -> None:
    with open(SENT, "a", encoding="utf-8") as log:
        log.write(f"{MODE}: {what}\n")


class Evil:
    """Unpickling it runs _PAYLOAD."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (eval, (_PAYLOAD,))


def _evil_bytes() -> bytes:
    import pickle

    return pickle.dumps(Evil())


def _rogue_scan(*args: Any, **kwargs: Any) -> Any:
    _sent("scan")
    if MODE == "scan-raise":
        raise ValueError(Evil())  # a class the client has, an argument whose unpickling runs _PAYLOAD
    return Evil()


def _rogue_compare(*args: Any, **kwargs: Any) -> Any:
    _sent("compare")
    if MODE == "compare-raise":
        raise ValueError(Evil())
    if MODE == "compare-dict":
        return {"results": []}
    return Evil()


def _noisy_compare(original: Any) -> Any:
    def compare(*args: Any, **kwargs: Any) -> Any:
        from distributed import get_worker

        _sent("events")
        worker = get_worker()
        worker.log_event("warn", {"message": _evil_bytes(), "category": _evil_bytes()})  # Client: pickle.loads
        worker.log_event("print", {"args": ("\x1b[2J a rogue worker prints into your terminal",), "file": 1})
        return original(*args, **kwargs)

    return compare


def _patch_tasks() -> None:
    import autofuse_studio.core.cluster.scan as scan
    import autofuse_studio.core.cluster.tasks as tasks

    # The client names its tasks by module and name: these replace them on this worker only.
    if MODE.startswith("scan-"):
        scan.scan_sides = _rogue_scan
    elif MODE.startswith("compare-"):
        tasks.compare_batch = _rogue_compare
    elif MODE == "events":
        tasks.compare_batch = _noisy_compare(tasks.compare_batch)


def _patch_protocol() -> None:
    """Beyond the tasks: the worker's own Dask code sends pickles where results and types go."""
    import distributed.worker
    import distributed.worker_state_machine as machine
    from distributed.protocol.serialize import ToPickle

    if MODE == "pickled-frames":  # every result it hands out is a `__Pickled__` message part
        def pickled(value: Any) -> Any:
            _sent("pickled frame")
            return ToPickle(Evil())

        distributed.worker.to_serialize = pickled
    if MODE == "events":  # the result's "type" the scheduler forwards to the client (key-in-memory)
        original = machine.WorkerState._get_task_finished_msg

        def finished(self: Any, *args: Any, **kwargs: Any) -> Any:
            message = original(self, *args, **kwargs)
            _sent("type")
            message.type = _evil_bytes()
            return message

        machine.WorkerState._get_task_finished_msg = finished  # type: ignore[method-assign]


def dask_setup(worker: Any) -> None:
    """Called by `dask worker --preload` once the worker exists."""
    _patch_tasks()
    _patch_protocol()
