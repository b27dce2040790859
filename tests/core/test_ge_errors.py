"""Bad graph files give GraphParseError/InputError naming the file, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autofuse_studio.core.errors import AppError, Cancelled, GraphParseError, InputError
from autofuse_studio.core.ge import load_model
from autofuse_studio.core.progress import CancelToken
from tests.synth.ge_graph import synthetic_document

GOOD = json.dumps(synthetic_document(3), indent=2)


def _write(tmp_path: Path, data: bytes, name: str = "ge_proto_00000001_Build.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("data", "fragment"), [
    (GOOD[: len(GOOD) // 2].encode(), "truncated"),
    (b"", "empty"),
    (b"  \n\t ", "empty"),
    (bytes(range(256)) * 4, "binary"),
    (b"\x80\x81\x82 not utf-8 \xff", "not UTF-8"),
    (b"[1, 2, 3]", "no GE graph"),
    (b'{"name": "x"}', "no GE graph"),
    (b'"just a string"', "no GE graph"),
    (b'{"graph": []}', "no graphs"),
    (b'{"graph": [null]}', "no graphs"),
    (b"[" * 100_000, "nested too deeply"),
    (b"PK\x03\x04 zip file", "binary"),
    (b"\x89PNG\r\n\x1a\n", "binary"),
    (b"hello world", "expected"),
    (b"graph {", "missing"),
])
def test_bad_content_raises_graph_parse_error_naming_the_file(tmp_path: Path, data: bytes, fragment: str) -> None:
    path = _write(tmp_path, data)
    with pytest.raises(GraphParseError) as info:
        load_model(path)
    assert str(path) in str(info.value)
    assert fragment in str(info.value)
    assert info.value.path == str(path)


def test_truncated_json_reports_line(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD[:500].encode())
    with pytest.raises(GraphParseError) as info:
        load_model(path)
    assert info.value.line is not None and info.value.line > 1
    assert f"line {info.value.line}" in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(InputError, match="does not exist") as info:
        load_model(missing)
    assert str(missing) in str(info.value)


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder") as info:
        load_model(tmp_path)
    assert str(tmp_path) in str(info.value)


def test_every_failure_is_an_app_error(tmp_path: Path) -> None:
    for i, data in enumerate([b"{", b"\x00", b"op {", b"{}"]):
        with pytest.raises(AppError):
            load_model(_write(tmp_path, data, f"f{i}.json"))


def test_utf8_bom_json_loads(tmp_path: Path) -> None:
    model = load_model(_write(tmp_path, b"\xef\xbb\xbf" + GOOD.encode()))
    assert len(model.root.ops) == 3


def test_gc_is_enabled_again_after_success_and_failure(tmp_path: Path, automatic_gc: None) -> None:
    import gc

    assert gc.isenabled()
    load_model(_write(tmp_path, GOOD.encode(), "ok.json"))
    with pytest.raises(GraphParseError):
        load_model(_write(tmp_path, b"{", "bad.json"))
    assert gc.isenabled()


class _CancelAfter(CancelToken):
    """A token that is cancelled by its n-th check: proves a load checks while it works, not only at the end."""

    def __init__(self, checks: int) -> None:
        super().__init__()
        self.left = checks
        self.seen = 0

    def check(self) -> None:
        self.seen += 1
        self.left -= 1
        if self.left <= 0:
            self.cancel()
        super().check()


def _many_ops(count: int) -> dict[str, object]:
    return {"graph": [{"name": "g", "op": [{"name": f"op{i}", "type": "Relu", "input": [f"op{i - 1}:0"] if i else []}
                                          for i in range(count)]}]}


def test_a_big_json_load_can_be_cancelled_while_building(tmp_path: Path) -> None:
    path = _write(tmp_path, json.dumps(_many_ops(10_000)).encode(), "big.json")
    token = _CancelAfter(4)  # read, decode, op 0, op 2048
    with pytest.raises(Cancelled):
        load_model(path, token)
    assert token.seen == 4
    assert len(load_model(path).root.ops) == 10_000  # the same file loads without a cancel


def test_a_big_pbtxt_load_can_be_cancelled_while_parsing(tmp_path: Path) -> None:
    ops = "".join(f'op {{ name: "op{i}" type: "Relu" }}\n' for i in range(5_000))
    path = _write(tmp_path, f'graph {{ name: "g"\n{ops}}}\n'.encode(), "big.txt")
    token = _CancelAfter(50)
    with pytest.raises(Cancelled):
        load_model(path, token)
    assert token.seen == 50
    assert len(load_model(path).root.ops) == 5_000
