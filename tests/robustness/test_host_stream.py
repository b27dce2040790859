"""`nwa --host`: a hostile host's record stream is one sentence naming the host and a non-zero exit, never a
traceback, a hang or a run that succeeds; lines are read in linear time with a cap.

The host here is a fake `autofuse-studio` (tests/stub_sdk/remote_nwa.fake_command) that answers --version and
prints crafted records; ssh is replaced by /bin/sh (the gated command line is run as ssh would run it), except
in the end-to-end tests at the bottom, which go through a real sshd.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from autofuse_studio.cli import main
from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision import pair
from autofuse_studio.core.precision.metrics import Metrics
from autofuse_studio.core.precision.result_stream import ITEMS_PER_RECORD, ROWS_PER_RECORD, RowEmitter
from autofuse_studio.core.precision.row_stream import StreamError, encode_record
from autofuse_studio.core.precision.rows import VERDICTS, PrecisionResult, PrecisionRow
from autofuse_studio.core.precision.stats import StatsComparison
from autofuse_studio.core.precision.stream_schema import (
    KNOWN_STATUSES,
    KNOWN_VERDICTS,
    LayoutRecord,
    MetricsRecord,
    NoticeRecord,
    RowRecord,
    StatsRecord,
    parse_record,
)
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.remote import nwa_stream
from autofuse_studio.core.remote.nwa_emit import hello_record
from autofuse_studio.core.remote.nwa_stream import LineSplitter, LineTooLong, RecordReader, RemoteRunError
from autofuse_studio.core.remote.profiles import HostProfile, save_profiles
from autofuse_studio.core.run.runners import start
from autofuse_studio.core.run.spec import OnHost, mode1_spec
from tests.robustness.conftest import assert_no_traceback, run_cli
from tests.stub_sdk.remote_nwa import fake_command

HOST = "hostile"
PATHS = ["--af-open-graph", "/g/open.json", "--af-close-graph", "/g/close.json",
         "--af-open-data", "/d/open", "--af-close-data", "/d/close"]
Lines = list[str]


def _rows() -> list[PrecisionRow]:
    metrics = Metrics(math.nan, math.inf, -math.inf, -0.0, 5e-324, 0.1 + 0.2, 1.0, 0.5, 8, 1, 0, 2, 0, 1)
    return [PrecisionRow("output", "op\x1b[31m\u202e名", 0, "origin", 0, "OK", step="0", rank="1", metrics=metrics,
                         verdict="CULPRIT", fused_shape=(2, 4), origin_shape=(8,), fused_file="/d/a b.npy"),
            PrecisionRow("input", "op2", 1, "o2", 1, "FORMAT_CONVERTED_DTYPE_CAST_SHAPE_FLATTENED",
                         metrics=Metrics(1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 4, 0, 0, 0, 0), verdict="OK"),
            PrecisionRow("output", "op3", 0, None, None, "FILE_NOT_FOUND", message="Fused-side NPY not found: x")]


def _result() -> PrecisionResult:
    rows = _rows()
    notice = Notice("row_file_not_found", "1 row is FILE_NOT_FOUND", 1,
                    [{"index": i, "path": f"/d/{i}.npy", "ignored": ["a", None, 1.5], "at": {"rank": None}}
                     for i in range(4500)])
    return PrecisionResult(rows, Thresholds(), first_divergence=rows[0], notices=[notice], output_mappings=2,
                           input_mappings=1, compare_input=True, steps=["0"], ranks=["1"],
                           first_divergence_by_rank={"1": rows[0]})


def valid_lines() -> Lines:
    """What a real host sends for _result(): hello, progress, rows, notice items, result."""
    lines: Lines = []

    def write(record: dict[str, Any]) -> None:
        lines.append(encode_record(record).rstrip("\n"))

    write(hello_record())
    write({"type": "progress", "done": 1, "total": 3, "message": "indexing"})
    write({"type": "indexed", "files": 6, "af_open": "3 NPYs", "af_close": "3 NPYs", "difference": None})
    emitter = RowEmitter(write)
    result = _result()
    emitter.rows(result.rows)
    emitter.producers({"op": [("p", 0), None]})
    emitter.result(result)
    return lines


def _index(lines: Lines, kind: str) -> int:
    return next(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)


def edited(kind: str, change: Callable[[dict[str, Any]], None], lines: Lines | None = None) -> Lines:
    """valid_lines() with the first record of `kind` changed in place by `change`."""
    lines = list(lines or valid_lines())
    at = _index(lines, kind)
    record = json.loads(lines[at])
    change(record)
    lines[at] = json.dumps(record, allow_nan=True)
    return lines


def replaced(kind: str, old: str, new: str) -> Lines:
    """valid_lines() with text replaced in the first record of `kind` (for what json.dumps never writes)."""
    lines = valid_lines()
    at = _index(lines, kind)
    assert old in lines[at]
    lines[at] = lines[at].replace(old, new, 1)
    return lines


def _script(folder: Path, lines: Lines | bytes, tail: str = "") -> str:
    """A fake autofuse-studio answering --version, then printing `lines` (and running `tail`)."""
    stream = folder / "stream.jsonl"
    stream.write_bytes(lines if isinstance(lines, bytes) else "".join(line + "\n" for line in lines).encode())
    return fake_command(folder, "fake-studio", f'if [ "$1" = --version ]; then echo "Autofuse Studio 0.1.0"; exit 0; '
                        f'fi\ncat "{stream}"\n{tail}')


@pytest.fixture
def host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[int, str, str]]:
    """Run `nwa --host hostile` (in this process) against a fake host printing the given lines."""
    save_profiles([HostProfile(HOST, "user@192.0.2.1")])
    monkeypatch.setattr(nwa_stream, "ssh_argv", lambda _profile, command, _timeout: ["/bin/sh", "-c", command])
    monkeypatch.setattr(nwa_stream, "compressed", lambda argv: argv)

    def run(lines: Lines, *extra: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
        command = _script(tmp_path, lines)
        code = main(["nwa", "--host", HOST, "--remote-command", command, *PATHS, *extra])
        captured = capsys.readouterr()
        assert_no_traceback(captured.out + captured.err)
        return code, captured.out, captured.err

    return run


def one_sentence(code: int, out: str, err: str) -> str:
    """The one line a failed run printed (exit code non-zero), after a local run's `Parsing …` lines."""
    assert code != 0, out
    text = (out + err).strip()
    lines = [line for line in text.splitlines() if not line.startswith("Parsing fusion-")]
    assert len(lines) == 1, text
    text = lines[0]
    assert "Fatal Python error" not in text
    return text


# --- the stream as a real host writes it ---------------------------------------------------------------------

@pytest.mark.usefixtures("host")  # ssh replaced, the profile saved
def test_a_real_hosts_stream_round_trips_exactly(tmp_path: Path) -> None:
    spec = mode1_spec(["/g1", "/g2", "/d1", "/d2"], where=OnHost(HOST, _script(tmp_path, valid_lines())))
    outcome = start(spec, producers=True).wait()
    expected = _result()
    assert [repr(row) for row in outcome.result.rows] == [repr(row) for row in expected.rows]
    assert json.dumps(outcome.result.to_dict()) == json.dumps(expected.to_dict())  # 4500 items in three parts
    assert outcome.producers == {"op": [("p", 0), None]}
    assert outcome.files_indexed == 6


def test_rows_producers_and_notice_items_travel_in_bounded_parts() -> None:
    records: list[dict[str, Any]] = []
    emitter = RowEmitter(records.append)
    rows = [PrecisionRow("output", f"op{i}", 0, None, None, "NO_MAPPING") for i in range(2 * ROWS_PER_RECORD + 1)]
    emitter.rows(rows)
    emitter.producers({f"op{i}": [("p", 0)] for i in range(45_000)})
    emitter.result(PrecisionResult(rows, Thresholds(), notices=[Notice("k", "m", 1, [{"i": i} for i in range(
        2 * ITEMS_PER_RECORD)])]))
    sizes = [(record["type"], len(record.get("rows", record.get("index", record.get("items", []))))) for record in records]
    assert sizes == [("rows", ROWS_PER_RECORD), ("rows", ROWS_PER_RECORD), ("rows", 1), ("producers", 20_000),
                     ("producers", 20_000), ("producers", 5_000), ("notice_items", ITEMS_PER_RECORD),
                     ("result", 0)]
    assert len(records[-1]["notices"][0]["items"]) == ITEMS_PER_RECORD


def test_the_schema_follows_the_classes_it_carries() -> None:
    for record, kind in ((MetricsRecord, Metrics), (RowRecord, PrecisionRow), (StatsRecord, StatsComparison),
                         (LayoutRecord, LayoutInfo), (NoticeRecord, Notice)):
        # Every field travels, a Notice's params too (they fill its sentence in Chinese; checked on receipt).
        assert record.__struct_fields__ == tuple(item.name for item in fields(kind)), record
    assert set(VERDICTS) == KNOWN_VERDICTS
    statuses = {value for name, value in vars(pair).items() if isinstance(value, str) and value == name}
    assert statuses and statuses <= KNOWN_STATUSES  # a status added to the comparison must be known here too
    assert {"OK", "NO_WORKER", "RANK_NOT_FOUND", "DTYPE_UNSUPPORTED", "FORMAT_CONVERTED", "DTYPE_CAST_SHAPE_FLATTENED",
            "FORMAT_CONVERTED_DTYPE_CAST_SHAPE_FLATTENED", "SKIPPED_CONST_DATA"} <= KNOWN_STATUSES
    assert "DTYPE_CAST_FORMAT_CONVERTED" not in KNOWN_STATUSES  # the notes join in one order only


# --- error records can only fail the run ---------------------------------------------------------------------

def _error_stream(**fields: Any) -> Lines:
    return [valid_lines()[0], json.dumps({"type": "error", "message": "boom", **fields})]


@pytest.mark.parametrize(("exit_code", "expected"), [(0, 1), (1, 1), (2, 2), (3, 1), (-1, 1), (130, 1), (255, 1),
                                                     (2**63 - 1, 1)])
def test_an_error_record_never_makes_the_run_succeed(host: Callable[..., tuple[int, str, str]], exit_code: int,
                                                     expected: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = host(_error_stream(exit_code=exit_code), capsys=capsys)
    assert one_sentence(code, out, err) == f"ERROR: boom (on host '{HOST}')"
    assert code == expected


def test_an_error_record_cannot_pose_as_this_sides_own(host: Callable[..., tuple[int, str, str]],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = host(_error_stream(here=True, message="Wrote result.json"), capsys=capsys)
    assert one_sentence(code, out, err) == f"ERROR: Wrote result.json (on host '{HOST}')" and code == 1


# --- malformed records: one sentence naming the host ---------------------------------------------------------

def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.pop(key)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.__setitem__(key, value)


def _set_row(key: str, value: Any, row: int = 0) -> Callable[[dict[str, Any]], None]:
    return lambda record: record["rows"][row].__setitem__(key, value)


def _set_metric(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda record: record["rows"][0]["metrics"].__setitem__(key, value)


def _duplicate_row(record: dict[str, Any]) -> None:
    record["rows"][1]["id"] = record["rows"][0]["id"]


BROKEN: dict[str, tuple[Callable[[], Lines], str]] = {
    "error exit_code abc": (lambda: _error_stream(exit_code="abc"), "an invalid 'error' record"),
    "error exit_code float": (lambda: _error_stream(exit_code=0.0), "Expected `int`, got `float`"),
    "progress done x": (lambda: edited("progress", _set("done", "x")), "an invalid 'progress' record"),
    "progress done NaN": (lambda: edited("progress", _set("done", math.nan)), "not a JSON record"),
    "progress done negative": (lambda: edited("progress", _set("done", -1)), "Expected `int` >= 0"),
    "progress done huge": (lambda: replaced("progress", '"done":1', '"done":' + "9" * 5000), "out of range"),
    "progress total missing": (lambda: edited("progress", _drop("total")), "missing required field `total`"),
    "progress message number": (lambda: edited("progress", _set("message", 5)), "Expected `str`, got `int`"),
    "hello protocol text": (lambda: edited("hello", _set("protocol", "1")), "an invalid 'hello' record"),
    "indexed files text": (lambda: edited("indexed", _set("files", "6")), "Expected `int`, got `str`"),
    "row missing status": (lambda: edited("rows", lambda r: r["rows"][0].pop("status")), "`status`"),
    "row unknown status": (lambda: edited("rows", _set_row("status", "PWNED")), "the unknown status 'PWNED'"),
    "row mixed-up status": (lambda: edited("rows", _set_row("status", "DTYPE_CAST_FORMAT_CONVERTED")),
                            "the unknown status"),
    "row unknown verdict": (lambda: edited("rows", _set_row("verdict", "FINE")), "the unknown verdict 'FINE'"),
    "row unknown kind": (lambda: edited("rows", _set_row("kind", "both")), "unknown kind 'both'"),
    "row id negative": (lambda: edited("rows", _set_row("id", -3)), "Expected `int` >= 0"),
    "row id text": (lambda: edited("rows", _set_row("id", "0")), "Expected `int`, got `str`"),
    "row ids twice": (lambda: edited("rows", _duplicate_row), "row id 0 twice"),
    "row index text": (lambda: edited("rows", _set_row("fused_index", "0")), "Expected `int`, got `str`"),
    "row shape of text": (lambda: edited("rows", _set_row("fused_shape", ["2"])), "Expected `int`, got `str`"),
    "metric text": (lambda: edited("rows", _set_metric("cosine", "x")), "Invalid enum value 'x'"),
    "metric NaN token": (lambda: edited("rows", _set_metric("rmse", math.nan)), "not a JSON record"),
    "metric Infinity token": (lambda: edited("rows", _set_metric("rmse", math.inf)), "not a JSON record"),
    "metric 1e400": (lambda: replaced("rows", '"rmse":5e-324', '"rmse":1e400'), "Number out of range"),
    "metric bool": (lambda: edited("rows", _set_metric("rmse", True)), "got `bool`"),
    "metric count float": (lambda: edited("rows", _set_metric("elements", 8.0)), "Expected `int`, got `float`"),
    "metric missing": (lambda: edited("rows", lambda r: r["rows"][0]["metrics"].pop("cosine")), "`cosine`"),
    "metrics a list": (lambda: edited("rows", _set_row("metrics", [1, 2])), "Expected `object | null`"),
    "rows not a list": (lambda: edited("rows", _set("rows", {"0": 1})), "Expected `array`"),
    "producers port text": (lambda: edited("producers", _set("index", {"op": [["p", "0"]]})), "got `str`"),
    "result unknown verdict": (lambda: edited("result", lambda r: r["verdicts"].__setitem__(0, "SAFE")),
                               "the unknown verdict 'SAFE'"),
    "result row twice": (lambda: edited("result", lambda r: r["order"].__setitem__(1, r["order"][0])),
                         "lists row 0 twice"),
    "result unsent row": (lambda: edited("result", lambda r: r["order"].__setitem__(1, 99)), "row 99, never sent"),
    "result verdict count": (lambda: edited("result", lambda r: r["verdicts"].pop()), "different number"),
    "result first unsent": (lambda: edited("result", _set("first_divergence", 7)), "row 7, never sent"),
    "result missing field": (lambda: edited("result", _drop("thresholds")), "missing required field `thresholds`"),
    "result bad thresholds": (lambda: edited("result", lambda r: r["thresholds"]["default"].__setitem__("cosine", 5)),
                              "unusable thresholds"),
    "result compare_input text": (lambda: edited("result", _set("compare_input", "yes")), "got `str`"),
    "notice count text": (lambda: edited("result", lambda r: r["notices"][0].__setitem__("count", "1")),
                          "got `str`"),
    "notice items too deep": (lambda: replaced("result", '"items":[', '"items":[{"x":' + "[" * 5000 + "]" * 5000
                                               + "},"), "an invalid"),
    "notice item nested": (lambda: replaced("result", '"items":[', '"items":[{"x":[[1]]},'), "got `array`"),
    "notice items for no notice": (lambda: edited("notice_items", _set("notice", 5)), "notice 5"),
    "unknown record type": (lambda: [*valid_lines()[:2], '{"type":"shell","cmd":"rm -rf ~"}'], "'shell' record"),
    "type not a string": (lambda: [*valid_lines()[:2], '{"type":7}'], "an invalid record"),
    "not JSON": (lambda: [*valid_lines()[:2], '{"type": "progress", oops'], "not a JSON record"),
    "records before hello": (lambda: valid_lines()[1:], "records before its hello record"),
    "a second hello": (lambda: [valid_lines()[0], *valid_lines()], "a second hello record"),
    "no result": (lambda: valid_lines()[:-1], "before its result"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_record_is_one_sentence_naming_the_host(host: Callable[..., tuple[int, str, str]], case: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    lines, said = BROKEN[case]
    code, out, err = host(lines(), capsys=capsys)
    line = one_sentence(code, out, err)
    assert code == 1
    assert line.startswith(f"ERROR: Host '{HOST}' sent ") or case == "no result", line
    assert said in line, line
    assert len(line) < 600


def test_messages_of_a_host_are_escaped_and_cut(host: Callable[..., tuple[int, str, str]],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = host(edited("rows", _set_row("status", "\x1b[2J" + "A" * 10_000)), capsys=capsys)
    line = one_sentence(code, out, err)
    assert "\x1b" not in line and "\\x1b[2J" in line and len(line) < 300
    code, out, err = host(_error_stream(message="x" * 1_000_000), capsys=capsys)
    assert len(one_sentence(code, out, err)) < 4100
    code, out, err = host(_error_stream(message="\x1b]0;owned\x07\u202eboom"), capsys=capsys)
    assert one_sentence(code, out, err) == f"ERROR: \\x1b]0;owned\\x07\\u202eboom (on host '{HOST}')"


def test_the_gui_reader_says_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    reader = RecordReader(HOST)
    for line in valid_lines()[:3]:
        reader.take_line(line)
    with pytest.raises(StreamError, match=f"^Host '{HOST}' sent an invalid 'progress' record"):
        reader.take_line('{"type":"progress","done":"x","total":1}')
    with pytest.raises(RemoteRunError) as raised:
        RecordReader(HOST).take_line('{"type":"error","message":"boom","exit_code":0}')
    assert raised.value.exit_code == 1
    with pytest.raises(StreamError, match="row id 1 twice"):
        parse_record('{"type":"rows","rows":[' + ",".join([json.dumps({**json.loads(valid_lines()[3])["rows"][0],
                                                                        "id": 1})] * 2) + "]}")
    assert capsys.readouterr().out == ""


@pytest.mark.usefixtures("host")
def test_the_relay_passes_only_checked_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`nwa --host … --emit-jsonl` (what the GUI runs): a broken stream ends in this side's own error record."""
    for lines, sentence, exit_code in ((edited("progress", _set("done", "x")), "an invalid 'progress' record", 1),
                                       (_error_stream(exit_code=0), "boom", 1)):
        command = _script(tmp_path, lines)
        code = main(["nwa", "--host", HOST, "--remote-command", command, *PATHS, "--emit-jsonl"])
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert code == exit_code
        assert records[-1]["type"] == "error" and sentence in records[-1]["message"]
        assert records[-1].get("here", False) is (sentence != "boom")


# --- line length: a cap, read in linear time -----------------------------------------------------------------

def test_a_line_over_the_cap_is_one_sentence(host: Callable[..., tuple[int, str, str]],
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(nwa_stream, "MAX_LINE_BYTES", 1 << 20)
    lines = valid_lines()
    code, out, err = host([lines[0], '{"type":"progress","message":"' + "a" * (3 << 20)], capsys=capsys)
    assert one_sentence(code, out, err) == \
        f"ERROR: Host '{HOST}' sent a line longer than 1 MB; its comparison was stopped."
    code, out, err = host([lines[0], '{"type":"progress","message":"' + "a" * (3 << 20) + '"}'], capsys=capsys)
    assert "a line longer than 1 MB" in one_sentence(code, out, err)


def test_the_line_splitter_is_linear_and_capped() -> None:
    splitter = LineSplitter(b"\n", 64 << 20)
    chunk = b"x" * 65536
    start = time.monotonic()
    for _ in range(900):  # 59 MB in pipe-sized chunks: the old reader copied the buffer at every chunk
        assert splitter.feed(chunk) == []
    assert splitter.feed(b"y\nz") == [b"x" * (900 * 65536) + b"y"]
    assert splitter.rest() == b"z"
    assert time.monotonic() - start < 2
    for _ in range(1023):
        splitter.feed(chunk)
    with pytest.raises(LineTooLong):
        splitter.feed(chunk + b"x")  # one byte over 64 MB
    text = LineSplitter("\n")
    assert text.feed("a\nb") == ["a"] and text.feed("c\n\nd\n") == ["bc", "", "d"] and text.rest() == ""


def _cli_over_sh(tmp_path: Path, command: str) -> tuple[Any, float]:
    """`nwa --host hostile` in a fresh process, ssh replaced by /bin/sh there too; the run and its seconds."""
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(
        "from autofuse_studio.core.remote import nwa_stream\n"
        "nwa_stream.ssh_argv = lambda _profile, command, _timeout: ['/bin/sh', '-c', command]\n"
        "nwa_stream.compressed = lambda argv: argv\n")
    save_profiles([HostProfile(HOST, "user@192.0.2.1")])
    env = {"PYTHONPATH": os.pathsep.join([str(hook), *sys.path])}
    start = time.monotonic()
    run = run_cli("nwa", "--host", HOST, "--remote-command", command, *PATHS, env=env, timeout=60)
    assert "Fatal Python error" not in run.output
    return run, time.monotonic() - start


def test_a_300_mb_line_without_newline_stops_in_seconds_with_bounded_memory(tmp_path: Path) -> None:
    """The old reader re-copied the growing line at every chunk: 64 MB took 27 s, 300 MB did not end in 120 s."""
    command = _script(tmp_path, [valid_lines()[0]], tail="printf '{\"type\":\"progress\",\"message\":\"'\n"
                      "exec head -c 314572800 /dev/zero")
    run, elapsed = _cli_over_sh(tmp_path, command)
    assert one_sentence(run.returncode, run.stdout, run.stderr) == \
        f"ERROR: Host '{HOST}' sent a line longer than 64 MB; its comparison was stopped."
    assert run.returncode == 1
    print(f"300 MB line: {elapsed:.2f} s, peak {run.peak_mib:.0f} MiB")
    assert elapsed < 15, elapsed
    assert run.peak_mib < 250, run.peak_mib  # the 64 MB cap and the interpreter; no copy of the line


@pytest.mark.parametrize(("lines", "said"), [
    (lambda: edited("result", lambda r: r["order"].__setitem__(1, 99)), "names row 99, never sent"),
    (lambda: _error_stream(exit_code=0), "boom (on host"),
], ids=["result-names-an-unsent-row", "error-record"])
def test_a_host_that_hangs_after_a_refused_record_is_stopped(tmp_path: Path, lines: Callable[[], Lines],
                                                             said: str) -> None:
    """The record is refused outside the reading loop (by the assembler): the stream is still closed at once."""
    run, elapsed = _cli_over_sh(tmp_path, _script(tmp_path, lines(), tail="exec sleep 60"))
    assert said in one_sentence(run.returncode, run.stdout, run.stderr) and run.returncode == 1
    assert elapsed < 10, elapsed


# --- end to end, over a real sshd ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.stub_sdk.sshd import start_sshd

    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


@pytest.mark.parametrize(("lines", "expected"), [
    (_error_stream(exit_code=0), "ERROR: boom (on host 'testhost')"),
    (edited("progress", _set("done", "x")),
     "ERROR: Host 'testhost' sent an invalid 'progress' record (Expected `int`, got `str` - at `$.done`); its "
     "comparison was stopped."),
], ids=["error-record-exit-0", "progress-done-text"])
def test_end_to_end_over_ssh(sshd: Any, tmp_path: Path, lines: Lines, expected: str) -> None:
    """The original probes: exit 0 after ERROR:, and a traceback with 'Fatal Python error: _enter_buffered_busy'."""
    save_profiles([sshd.profile()])
    command = _script(tmp_path, lines)
    done = subprocess.run([sys.executable, "-m", "autofuse_studio", "nwa", "--host", "testhost", "--remote-command",
                           command, *PATHS], capture_output=True, text=True, timeout=120, check=False)
    assert_no_traceback(done.stdout + done.stderr)
    assert "Fatal Python error" not in done.stderr
    assert (done.returncode, one_sentence(done.returncode, done.stdout, done.stderr), done.stderr) == (1, expected, "")
