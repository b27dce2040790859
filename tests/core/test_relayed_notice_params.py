"""A notice relayed from a host (JSON-lines stream) or a cluster worker (msgpack wire) keeps its params, so the
Chinese UI renders it in Chinese; params that are not plain JSON values are dropped, never evaluated."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from autofuse_studio.core.cluster import wire
from autofuse_studio.core.dumps.index import TreeScan
from autofuse_studio.core.messages import render
from autofuse_studio.core.notices import Notice, wire_params
from autofuse_studio.core.precision.result_stream import RowEmitter
from autofuse_studio.core.precision.row_stream import encode_record, notice_from_record
from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.thresholds import Thresholds
from tests.core.test_row_stream import reassembled

ROWS_NOTICE = Notice("row_file_not_found", "2 rows are FILE_NOT_FOUND: a output 0, b input 1", 2, [{"op": "a"}],
                     params={"status": "FILE_NOT_FOUND", "tensors": [("a", "output", 0), ("b", "input", 1)]})
MAPPING_NOTICE = Notice("unreadable_mapping", "Cannot read /d/mapping.csv: Permission denied; long file names there "
                        "stay unresolved.", side="af-open",
                        params={"path": "/d/mapping.csv", "reason": "Permission denied"})


def _through_stream(notices: list[Notice]) -> list[Notice]:
    lines: list[str] = []
    row = PrecisionRow("output", "a", 0, "origin", 0, "FILE_NOT_FOUND")
    emitter = RowEmitter(lambda record: lines.append(encode_record(record)))
    emitter.result(PrecisionResult([row], Thresholds(), notices=notices))
    return reassembled(lines).notices


def test_a_host_relayed_notice_keeps_its_params_and_renders_in_chinese() -> None:
    relayed = _through_stream([ROWS_NOTICE, MAPPING_NOTICE])
    assert [notice.params for notice in relayed] == [
        {"status": "FILE_NOT_FOUND", "tensors": [["a", "output", 0], ["b", "input", 1]]}, MAPPING_NOTICE.params]
    assert [notice.to_dict() for notice in relayed] == [ROWS_NOTICE.to_dict(), MAPPING_NOTICE.to_dict()]
    assert render(relayed[0], "zh_CN") == render(ROWS_NOTICE, "zh_CN") == "2 行为 FILE_NOT_FOUND：a 输出 0, b 输入 1"
    assert render(relayed[1], "zh_CN") == "无法读取 /d/mapping.csv：Permission denied；其中的长文件名无法还原。"


def test_the_stream_record_of_a_notice_without_params_is_as_before() -> None:
    plain = Notice("graph", "said", params={})
    lines: list[str] = []
    RowEmitter(lambda record: lines.append(encode_record(record))).result(
        PrecisionResult([], Thresholds(), notices=[plain]))
    assert "params" not in json.loads(lines[-1])["notices"][0]


@pytest.mark.parametrize("params", [
    "not an object", 7, ["a", "list"], None,
    {"tensors": [{"op": "x"}]},  # an object inside a list
    {"nested": {"a": 1}},
    {"deep": [[["a"]]]},
])
def test_malformed_params_of_a_host_are_dropped(params: object) -> None:
    record = {"kind": "unreadable_mapping", "message": "Cannot read x.", "count": 1, "items": [], "side": None,
              "params": params}
    notice = notice_from_record(record)
    assert notice.message == "Cannot read x." and notice.params == {}
    assert render(notice, "zh") == "Cannot read x."  # no params to fill the template: the English sentence


def test_an_older_host_sends_no_params() -> None:
    notice = notice_from_record({"kind": "graph", "message": "m", "count": 1, "items": [], "side": None})
    assert notice.params == {}


def test_wire_params_keeps_plain_values_only() -> None:
    kept = wire_params({"s": "x", "i": 1, "f": 1.5, "b": True, "n": None, "l": ["a", 1, None], "t": ("a", 2),
                        "ll": [("op", "output", 0)], "obj": object(), "d": {"a": 1}, 3: "key not text",
                        "lll": [[["x"]]], "bytes": b"x", "path": Path("/p")})
    assert kept == {"s": "x", "i": 1, "f": 1.5, "b": True, "n": None, "l": ["a", 1, None], "t": ["a", 2],
                    "ll": [["op", "output", 0]]}


def _scan(notices: list[Notice]) -> TreeScan:
    return TreeScan({}, notices=notices)


def test_a_cluster_wire_notice_keeps_its_params() -> None:
    payload = wire.encode_scan("1.0", [_scan([MAPPING_NOTICE, ROWS_NOTICE])], [])
    decoded = wire.decode_scan(payload, "1.0", 1)
    assert not isinstance(decoded, wire.TaskFailed)
    _, scans, _ = decoded
    assert scans[0] is not None
    relayed = scans[0].notices
    assert relayed[0].params == MAPPING_NOTICE.params
    assert relayed[1].params["tensors"] == [["a", "output", 0], ["b", "input", 1]]
    assert render(relayed[0], "zh_CN") == render(MAPPING_NOTICE, "zh_CN")
    assert render(relayed[0], "zh_CN").startswith("无法读取")


@pytest.mark.parametrize("params", [
    {"a": {"b": 1}}, [1, 2], "text", 5, {"x": msgspec.msgpack.Ext(1, b"\x00")}, {"ok": "kept", "no": {}},
    {"bin": b"raw bytes"},
])
def test_malformed_params_on_the_cluster_wire_are_dropped_and_the_run_goes_on(params: object) -> None:
    notice = ["unreadable_mapping", "Cannot read x.", 1, [], None, params]
    payload = msgspec.msgpack.encode(["scan", "1.0", [[[], [], [], [], [notice], []]], []])
    decoded = wire.decode_scan(payload, "1.0", 1)
    assert not isinstance(decoded, wire.TaskFailed)
    scan = decoded[1][0]
    assert scan is not None
    assert scan.notices[0].message == "Cannot read x."
    assert scan.notices[0].params == ({"ok": "kept"} if isinstance(params, dict) and "ok" in params else {})


def test_a_scan_reply_of_before_params_still_decodes() -> None:
    notice = ["unreadable_mapping", "Cannot read x.", 1, [], None]  # five fields: no params
    decoded = wire.decode_scan(msgspec.msgpack.encode(["scan", "1.0", [[[], [], [], [], [notice], []]], []]), "1.0", 1)
    assert not isinstance(decoded, wire.TaskFailed) and decoded[1][0] is not None
    assert decoded[1][0].notices[0].params == {}


def test_a_host_error_keeps_its_code_and_says_the_host_in_chinese(tmp_path: Path) -> None:
    from autofuse_studio.core.error_messages import render_error
    from autofuse_studio.core.errors import InputError, coded_fields
    from autofuse_studio.core.precision import stream_schema as schema
    from autofuse_studio.core.remote.nwa_stream import RemoteRunError

    error = InputError.of("dump_folder_missing", path="/data/open")
    line = json.dumps({"type": "error", "message": str(error), "exit_code": 1, **coded_fields(error)})
    record = schema.parse_record(line)
    assert isinstance(record, schema.Error) and record.code == "dump_folder_missing"
    relayed = RemoteRunError(f"{record.message} (on host 'box')", record.exit_code, code=record.code,
                             params=wire_params(record.params), on_host="box")
    assert render_error(relayed, "en") == "Dump folder /data/open does not exist. (on host 'box')"
    assert render_error(relayed, "zh_CN") == "dump 文件夹 /data/open 不存在。（在主机 'box' 上）"
    older = schema.parse_record(json.dumps({"type": "error", "message": "said", "exit_code": 2}))
    assert isinstance(older, schema.Error) and older.code is None and older.params is None
    bad = schema.parse_record(json.dumps({"type": "error", "message": "said", "code": "dump_folder_missing",
                                          "params": {"path": {"x": 1}}}))
    assert isinstance(bad, schema.Error)
    assert render_error(RemoteRunError("said", code=bad.code, params=wire_params(bad.params)), "zh") == "said"
