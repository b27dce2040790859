"""Path maps and scheduler addresses of cluster runs: strict grammars, prefix translation both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.cluster.address import parse_scheduler_address
from autofuse_studio.core.cluster.pathmap import PathMap, WorkerId, load_path_map, parse_entry
from autofuse_studio.core.errors import InputError, UsageError

NODE2 = WorkerId("tcp://10.0.0.2:40001", "node2", "10.0.0.2")


@pytest.mark.parametrize(("text", "expected"), [
    ("tcp://node1:8786", "tcp://node1:8786"), ("tls://sched.example.com:1", "tls://sched.example.com:1"),
    ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"), ("tcp://[::1]:8786", "tcp://[::1]:8786"),
    (" tcp://node1:8786 ", "tcp://node1:8786"),
])
def test_good_addresses(text: str, expected: str) -> None:
    assert str(parse_scheduler_address(text)) == expected


@pytest.mark.parametrize("text", ["node1:8786", "tcp://node1", "tcp://node1:70000", "tcp://-node:1", "tcp://a b:1",
                                  "tcp://node1:8786;rm", "ucx://node1:1", "tcp://256.1.1.1:1", "tcp://[xyz]:1", ""])
def test_bad_addresses(text: str) -> None:
    with pytest.raises(UsageError, match="--scheduler takes a Dask scheduler address"):
        parse_scheduler_address(text)


def test_prefixes_translate_both_ways_longest_first() -> None:
    path_map = PathMap((parse_entry("node2:/data=/mnt/a"), parse_entry("node2:/data/dumps/=/ssd/dumps"),
                        parse_entry("node3:/data=/elsewhere"), parse_entry("*:/shared=/nfs/shared")))
    assert path_map.to_local("/data/dumps/rank2/x.npy", NODE2) == "/ssd/dumps/rank2/x.npy"
    assert path_map.to_local("/data/other", NODE2) == "/mnt/a/other"
    assert path_map.to_local("/data", NODE2) == "/mnt/a"
    assert path_map.to_local("/database/x", NODE2) == "/database/x"  # a prefix is whole path components
    assert path_map.to_local("/shared/x", NODE2) == "/nfs/shared/x"
    assert path_map.to_client("/ssd/dumps/rank2/x.npy", NODE2) == "/data/dumps/rank2/x.npy"
    assert path_map.to_client("/unmapped/x", NODE2) == "/unmapped/x"
    by_host = PathMap((parse_entry("10.0.0.2:/data=/mnt/a"),))
    assert by_host.to_local("/data/x", NODE2) == "/mnt/a/x"


@pytest.mark.parametrize("text", ["node2=/a", "node2:/a", "node2:a=/b", "node2:/a=b", "no de:/a=/b", ":/a=/b",
                                  "node2:/a=/b\x01"])
def test_bad_entries_are_one_sentence(text: str) -> None:
    with pytest.raises(UsageError, match="--path-map"):
        parse_entry(text)


def test_path_map_file(tmp_path: Path) -> None:
    file = tmp_path / "map.txt"
    file.write_text("# node2's local disk\nnode2:/data/#1=/mnt/#1\n\n", encoding="utf-8")
    path_map = load_path_map(["node3:/x=/y"], str(file))
    assert path_map.to_local("/data/#1/a", NODE2) == "/mnt/#1/a"
    file.write_text("node2 /a /b\n", encoding="utf-8")
    with pytest.raises(UsageError, match=r"map.txt line 1 takes WORKER:CLIENT_PREFIX=LOCAL_PREFIX"):
        load_path_map([], str(file))
    with pytest.raises(InputError, match=r"The path map file .*missing\.txt cannot be read"):
        load_path_map([], str(tmp_path / "missing.txt"))


def test_path_map_file_is_a_capped_regular_file(tmp_path: Path) -> None:
    """A FIFO is named, never opened (it would hang the run); /dev/zero never fills the memory."""
    import os

    fifo = tmp_path / "map.fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a named pipe"):
        load_path_map([], str(fifo))
    if Path("/dev/zero").exists():
        with pytest.raises(InputError, match="not a file"):
            load_path_map([], "/dev/zero")
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:
        handle.truncate(200 << 20)  # sparse: 200 MB of zeros costs nothing on disk
    with pytest.raises(InputError, match="larger than 1 MB"):
        load_path_map([], str(big))
