"""The worker task: compare a batch of pairs with the local engine code, where the NPYs are; return metrics only."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

from autofuse_studio.core.cluster.pathmap import PathMap, WorkerId
from autofuse_studio.core.cluster.scan import current_worker
from autofuse_studio.core.precision.pair import PairResult, PairSide, compare_pair

# Tests only: seconds each task sleeps before comparing, so a worker can be killed while tasks are running.
DELAY_ENV = "AUTOFUSE_STUDIO_TEST_TASK_DELAY"

Pair = tuple[PairSide, PairSide]


def _local(side: PairSide, path_map: PathMap, worker: WorkerId) -> PairSide:
    if side.path is None:
        return side
    return replace(side, path=Path(path_map.to_local(str(side.path), worker)))


def _client_message(result: PairResult, path_map: PathMap, worker: WorkerId) -> PairResult:
    """Messages name files as the client does (an NPY load error quotes the path it opened)."""
    if not result.message:
        return result
    message = result.message
    for local, client in path_map.local_texts(worker):
        message = message.replace(local, client)
    return replace(result, message=message) if message != result.message else result


def compare_batch(pairs: list[Pair], path_map: PathMap) -> list[PairResult]:
    """Worker task: every pair of the batch compared on this worker, in order."""
    delay = os.environ.get(DELAY_ENV)
    if delay:
        time.sleep(float(delay))
    worker = current_worker()
    results = []
    for fused, origin in pairs:
        result = compare_pair(_local(fused, path_map, worker), _local(origin, path_map, worker))
        results.append(_client_message(result, path_map, worker))
    return results
