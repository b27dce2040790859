"""The worker task: compare a batch of pairs with the local engine code, where the NPYs are; return metrics only.

The reply is msgpack bytes (wire.CompareReply), an error a wire.TaskFailed record: the task never returns a
Python object nor raises, so nothing the client receives from it needs unpickling.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace

from autofuse_studio.core.cluster.pathmap import PathMap, WorkerId
from autofuse_studio.core.cluster.scan import current_worker
from autofuse_studio.core.cluster.wire import decode_pairs, encode_compare, encode_failure
from autofuse_studio.core.precision.packed_sides import PackedSide, unpack_side
from autofuse_studio.core.precision.pair import PairResult, PairSide
from autofuse_studio.core.precision.pair_batch import compare_pairs

# Tests only: seconds each task sleeps before comparing, so a worker can be killed while tasks are running.
DELAY_ENV = "AUTOFUSE_STUDIO_TEST_TASK_DELAY"


def _unpack(side: PackedSide, path_map: PathMap, worker: WorkerId) -> PairSide:
    return unpack_side(side, None if side[0] is None else path_map.to_local(side[0], worker))


def _client_message(result: PairResult, path_map: PathMap, worker: WorkerId) -> PairResult:
    """Messages name files as the client does (an NPY load error quotes the path it opened)."""
    if not result.message:
        return result
    message = result.message
    for local, client in path_map.local_texts(worker):
        message = message.replace(local, client)
    return replace(result, message=message) if message != result.message else result


def compare_batch(packed: bytes, path_map: PathMap) -> bytes:
    """Worker task: every pair of the batch (wire.encode_pairs') compared on this worker, in order, as msgpack
    bytes."""
    from autofuse_studio import __version__

    try:
        delay = os.environ.get(DELAY_ENV)
        if delay:
            time.sleep(float(delay))
        worker = current_worker()
        path_map = path_map.for_worker(worker)  # the entries naming this worker, looked up once per batch
        keys = [(_unpack(fused, path_map, worker), _unpack(origin, path_map, worker))
                for fused, origin in decode_pairs(packed)]
        # The local pool's batched path (a round's files read in one native call, its pairs measured in
        # another), so a worker compares exactly as a local run does.
        outcomes = compare_pairs(keys)
        return encode_compare([_client_message(outcomes[key], path_map, worker) for key in keys])
    except Exception as error:  # noqa: BLE001  (every error travels as text)
        return encode_failure(__version__, error)
