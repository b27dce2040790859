"""What the worker tasks send (wire.py) and how the client reads Dask's messages (safe_client.py), without a cluster.

Exact round trips (repr-equal, NaN, -0.0 and int-or-float kept), strict decoding (anything else is a WireError
with the reason), errors described from their pickle's opcodes without running them, and the guard that makes
Dask's unpickling functions refuse while a client is open.
"""

from __future__ import annotations

import math
import os
import pickle
from dataclasses import fields, replace
from pathlib import Path

import msgspec
import pytest

from autofuse_studio.core.cluster import wire
from autofuse_studio.core.cluster.pathmap import PathMap
from autofuse_studio.core.cluster.scan import scan_sides
from autofuse_studio.core.cluster.tasks import compare_batch
from autofuse_studio.core.dumps.index import TreeScan, scan_tree
from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.pair import PairResult
from autofuse_studio.core.precision.stats import ItemComparison, StatsComparison
from tests.cluster.local_cluster import require_dask
from tests.synth import CaseManifest

NOT_SENT: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> list[str]:
    return [item.name for item in fields(cls)]  # type: ignore[arg-type]


@pytest.mark.parametrize(("record", "dataclass"), [
    (wire.MetricsRecord, Metrics), (wire.ItemRecord, ItemComparison), (wire.StatsRecord, StatsComparison),
    (wire.PairRecord, PairResult), (wire.NoticeRecord, Notice),
])
def test_every_field_of_the_engine_types_travels(record: type[msgspec.Struct], dataclass: type) -> None:
    """A field added to PairResult, Metrics, … must be added to its record (else the rows would differ).

    A Notice's `params` (what fills its sentence in another language) travel too, checked on receipt by
    notices.wire_params (tests/core/test_relayed_notice_params.py).
    """
    assert list(record.__struct_fields__) == [name for name in _names(dataclass)
                                              if not name.startswith("_") and name not in NOT_SENT.get(record, ())]


def _results() -> list[PairResult]:
    metrics = Metrics(math.nan, math.inf, -math.inf, -0.0, 1e-300, 5e-324, 0.5, 1.0, 4096, 1, 2, 3, 4, 5)
    stats = StatsComparison("output", 0, "float16", "bfloat16", (2, 3), None,
                            (ItemComparison("count", 6, 6, 0, 0.0), ItemComparison("max", 1.5, math.nan, math.nan,
                                                                                    math.inf)),
                            ("l2norm",), True, False, "a problem")
    return [PairResult("OK", metrics, "", "float16", "float16", (1, 2, 3), (6,)),
            PairResult("NPY_LOAD_ERROR", None, "NPY Load failed - a / b: \x1b[2J bad", "", "", None, None),
            PairResult("OK", None, "", "float32", "float32", (2, 3), (2, 3), stats),
            PairResult("FORMAT_CONVERTED_DTYPE_CAST", metrics, "", "", "", (), ())]


def test_compare_replies_round_trip_exactly() -> None:
    results = _results()
    decoded = wire.decode_compare(wire.encode_compare(results), len(results))
    assert isinstance(decoded, list)
    assert [repr(result) for result in decoded] == [repr(result) for result in results]
    assert math.copysign(1, decoded[0].metrics.mean_abs_err) == -1  # type: ignore[union-attr]
    assert type(decoded[2].stats.items[0].fused) is int  # type: ignore[union-attr]


def test_scan_replies_round_trip_exactly(case: tuple[Path, CaseManifest]) -> None:
    root, manifest = case
    scans: list[TreeScan | None] = [scan_tree(root / manifest.data["af_open"]), None]
    scans[0].notices.append(Notice("unreadable_mapping", "Cannot read x", items=[{"path": "/x", "n": 1}]))  # type: ignore[union-attr]
    decoded = wire.decode_scan(wire.encode_scan("1.2.3", scans, ["nodeA: a problem"]), "1.2.3", 2)
    assert not isinstance(decoded, wire.TaskFailed)
    version, sides, problems = decoded
    assert (version, problems, sides[1]) == ("1.2.3", ["nodeA: a problem"], None)
    assert repr(sides[0]) == repr(scans[0])


@pytest.mark.parametrize(("payload", "reason"), [
    ({"results": []}, "it sent a dict where autofuse-studio sends bytes"),
    ("text", "it sent a str where autofuse-studio sends bytes"),
    (b"\xc1", "not an autofuse-studio comparison reply"),
    (msgspec.msgpack.encode(["compare", [["OK"]]]), "not an autofuse-studio comparison reply"),
    (msgspec.msgpack.encode(["scan", "0.1.0", [], []]), "not an autofuse-studio comparison reply"),
    (msgspec.msgpack.encode(["compare", [], "an extra field"]), "not an autofuse-studio comparison reply"),
    (msgspec.msgpack.encode(["compare", [["OK", None, "", "", "", [True], None, None]]]),
     "not an autofuse-studio comparison reply"),
    (msgspec.msgpack.encode(["compare", []]), "0 results for a batch of 1 pairs"),
])
def test_anything_else_is_refused_with_the_reason(payload: object, reason: str) -> None:
    with pytest.raises(wire.WireError) as raised:
        wire.decode_compare(payload, 1)
    assert reason in str(raised.value)


def test_a_tasks_pairs_travel_as_bytes_and_come_back_as_they_were() -> None:
    # Bytes: Dask neither walks nor pickles a nested list per pair (issue 29); decoded strictly on the worker.
    pairs = [(("/open/a.npy", ("NC1HWC0", "NCHW", (1, 2, 3, 4)), "a:output:0", "DT_FLOAT16"),
              ("/close/a.npy", None, "a:output:0", None)),
             ((None, None, "b:input:1", "DT_BF16"), ("/close/b é.npy", (None, None, None), "b:input:1", None))]
    packed = wire.encode_pairs(pairs)
    assert isinstance(packed, bytes) and wire.decode_pairs(packed) == pairs
    for wrong in ([[1, 2]], [pairs[0][0]], [[*pairs[0], pairs[0][0]]]):
        with pytest.raises(msgspec.ValidationError):
            wire.decode_pairs(msgspec.msgpack.encode(wrong))


def test_scan_replies_of_another_release_give_their_version() -> None:
    newer = msgspec.msgpack.encode(["scan", "9.9.9", [["a side of a newer shape"]], [], "more"])
    assert wire.decode_scan(newer, "0.1.0", 2) == ("9.9.9", [None, None], [])
    with pytest.raises(wire.WireError, match="not an autofuse-studio scan reply"):
        wire.decode_scan(newer.replace(b"9.9.9", b"0.1.0"), "0.1.0", 2)
    with pytest.raises(wire.WireError, match="1 dump folder scans where 2 were asked for"):
        wire.decode_scan(wire.encode_scan("0.1.0", [None], []), "0.1.0", 2)


def test_tasks_never_raise_they_send_the_error_as_text() -> None:
    """Outside a worker (get_worker() fails) both tasks still return bytes: a TaskFailed record."""
    require_dask()
    for reply in (scan_sides(["/a", "/b"], PathMap()), compare_batch(b"\x90", PathMap())):
        assert isinstance(reply, bytes)
        failed = wire.decode_scan(reply, "x", 2)
        assert isinstance(failed, wire.TaskFailed) and failed.error.startswith("ValueError: No worker found")


# --- safe_client -------------------------------------------------------------------------------------------


class _Evil:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, ...]:
        return (os.mkdir, (str(self.marker),))  # unpickling it creates the folder


def test_errors_are_described_without_unpickling(tmp_path: Path) -> None:
    require_dask()
    from distributed.core import error_message
    from distributed.protocol.serialize import Serialized, serialize
    from distributed.scheduler import KilledWorker

    from autofuse_studio.core.cluster.safe_client import describe_error

    def sent(error: Exception) -> Serialized:  # as a worker sends a task's exception
        try:
            raise error
        except Exception as raised:  # noqa: BLE001
            return bytes_sent(error_message(raised)["exception"].data)

    def bytes_sent(data: bytes) -> Serialized:
        return Serialized(*serialize(data))

    marker = tmp_path / "ran"
    assert describe_error(sent(ModuleNotFoundError("No module named 'autofuse_studio'"))).text == \
        "ModuleNotFoundError: No module named 'autofuse_studio'"
    assert describe_error(sent(KeyError("k"))).text == "KeyError: k"
    assert describe_error(sent(RuntimeError("a\x1b[2Jb"))).text == "RuntimeError: a\\x1b[2Jb"
    # error_message() would unpickle it to check it (a worker runs that check on its own exceptions).
    assert describe_error(bytes_sent(pickle.dumps(ValueError(_Evil(marker))))).text == "ValueError"
    killed = describe_error(pickle.dumps(KilledWorker("af-compare-x", "tcp://10.0.0.2:1", 3)))  # from the scheduler
    assert killed.killed and killed.text == "KilledWorker: af-compare-x"
    for blob in (pickle.dumps(_Evil(marker)), b"\x80\x05garbage", {"a": 1}, None):
        assert describe_error(blob).text == "an error this client does not unpickle (see the worker's log)"
    assert not marker.exists()


def test_the_guard_refuses_every_unpickling_while_a_client_is_open(tmp_path: Path) -> None:
    require_dask()
    import distributed.client
    import distributed.protocol.pickle as dask_pickle

    from autofuse_studio.core.cluster.safe_client import PickleRefused, refusals, refusing_pickles

    marker = tmp_path / "ran"
    evil = pickle.dumps(_Evil(marker))
    originals = (dask_pickle.loads, distributed.client.loads)
    before = refusals()
    with refusing_pickles():
        with refusing_pickles():  # re-entrant: a second client in the same process
            pass
        for loads in (dask_pickle.loads, distributed.client.loads):
            with pytest.raises(PickleRefused, match=r"a pickled object \(\d+ bytes\) came from the Dask cluster"):
                loads(evil)
    assert refusals() == before + 2
    assert (dask_pickle.loads, distributed.client.loads) == originals
    assert not marker.exists()
    dask_pickle.loads(evil)  # restored: it unpickles (and runs) again
    assert marker.is_dir()


def test_the_client_overrides_dask_methods_that_exist() -> None:
    """A Dask release that renames one of them would silently reopen a path: fail here instead."""
    require_dask()
    import distributed

    from autofuse_studio.core.cluster.safe_client import client_class

    overridden = {"start", "_ensure_connected", "_handle_task_erred", "_handle_key_in_memory", "_handle_event"}
    assert overridden <= set(vars(client_class()))
    assert all(callable(getattr(distributed.Client, name, None)) for name in overridden)
    assert {"print", "warn"} <= set(distributed.Client._default_event_handlers)


def test_an_unknown_status_is_refused() -> None:
    """A row's status decides what the table and the verdicts do with it: only the engine's own travel."""
    result = _results()[0]
    forged = wire.encode_compare([replace(result, status="OK; rm -rf /")])
    with pytest.raises(wire.WireError, match="status autofuse-studio does not know"):
        wire.decode_compare(forged, 1)
