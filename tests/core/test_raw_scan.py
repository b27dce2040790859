"""The C raw-header scanner (_rawscan.c) answers as protobuf does: the same tensor, None or error sentence for every
input and output of generated headers (packed and unpacked dims, unknown fields, repeated fields, big and
negative enums, non-ASCII names) and of the same headers mutated, truncated and resized; where it is not sure it
says so and protobuf answers. Well-formed headers take the fast path."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from autofuse_studio.core.dumps import raw_header
from autofuse_studio.core.dumps.raw_header import RawDumpError, locate_tensor

scanner = raw_header._RAWSCAN
pytestmark = pytest.mark.skipif(scanner is None, reason="the _rawscan extension is not built")


def varint(value: int) -> bytes:
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def tag(field: int, wire: int) -> bytes:
    return varint(field << 3 | wire)


_ODD_VARINTS = random.Random(31)


def scalar(field: int, value: int) -> bytes:
    """A varint field; now and then written the long way (padded to 10 bytes, or with bits past 64 set)."""
    text = varint(value)
    odd = _ODD_VARINTS.random()
    if odd < 0.03 and len(text) < 10:
        text = bytes(byte | 0x80 for byte in text) + b"\x80" * (9 - len(text)) + b"\x00"
    elif odd < 0.04:
        text = bytes(byte | 0x80 for byte in varint(value | 1 << 63)[:9]) + bytes([_ODD_VARINTS.choice([2, 0x7F])])
    return tag(field, 0) + text


def chunk(field: int, payload: bytes) -> bytes:
    return tag(field, 2) + varint(len(payload)) + payload


def shape(rng: random.Random, dims: list[int]) -> bytes:
    """A Shape message: dims packed, unpacked, or split in several runs of either."""
    style = rng.random()
    if style < 0.5:
        return chunk(1, b"".join(varint(dim) for dim in dims)) if dims or rng.random() < 0.3 else b""
    if style < 0.8:
        return b"".join(scalar(1, dim) for dim in dims)
    cut = rng.randint(0, len(dims))
    return chunk(1, b"".join(varint(dim) for dim in dims[:cut])) + b"".join(scalar(1, dim) for dim in dims[cut:])


def unknown(rng: random.Random) -> bytes:
    """A field this schema does not know, of any wire type (numbers above every message's own)."""
    field = rng.choice([13, 20, 99, 5000, (1 << 29) - 1])
    wire = rng.choice([0, 1, 2, 5])
    if wire == 0:
        return scalar(field, rng.getrandbits(rng.choice([7, 32, 64])))
    if wire == 1:
        return tag(field, 1) + rng.randbytes(8)
    if wire == 5:
        return tag(field, 5) + rng.randbytes(4)
    return chunk(field, rng.randbytes(rng.randint(0, 12)))


def name(rng: random.Random) -> bytes:
    return rng.choice([b"", b"Add_1", b"model/layer_0/Mul_1", "算子".encode(), b"\xff\xfe", b"a" * 300])


def tensor(rng: random.Random, output: bool, size: int) -> bytes:
    """One OpOutput / OpInput with a random subset of its fields, in a random order."""
    dtype = rng.choice([0, 1, 2, 3, 9, 27, -1, 1 << 31, (1 << 32) + 1, 1 << 63])
    dims = [rng.choice([0, 1, 3, 25, 40, 1 << 33, (1 << 64) - 1]) for _ in range(rng.choice([0, 1, 2, 4, 5, 40]))]
    numbers = {"data_type": 1, "format": 2, "shape": 3, "size": 6 if output else 5,
               "original_shape": 7 if output else 6, "sub_format": 8 if output else 7, "data": 5 if output else 4}
    fields = [scalar(numbers["data_type"], dtype), scalar(numbers["format"], rng.choice([2, 0, 3, 29, 0x1F03, -5])),
              chunk(numbers["shape"], shape(rng, dims)), scalar(numbers["size"], size),
              scalar(numbers["sub_format"], rng.choice([0, 1, -3]))]
    if rng.random() < 0.6:
        fields.append(chunk(numbers["original_shape"], shape(rng, dims[: rng.randint(0, len(dims))])))
    if output and rng.random() < 0.7:
        origin = chunk(1, name(rng)) + scalar(2, rng.choice([0, 1, 1 << 32 | 7]))
        fields.append(chunk(4, origin + (scalar(3, 1) if rng.random() < 0.3 else b"")))
    if rng.random() < 0.2:
        fields.append(chunk(numbers["data"], rng.randbytes(3)))
    if output and rng.random() < 0.2:
        fields.append(chunk(10, scalar(1, 0) + scalar(2, 4)))  # a dim_range
    if rng.random() < 0.2:
        fields.append(scalar(9 if output else 8, rng.getrandbits(40)))  # the address
    if rng.random() < 0.3:
        fields.append(unknown(rng))
    if rng.random() < 0.1:  # a field given twice: the last scalar wins, repeated messages merge
        fields.append(rng.choice([scalar(numbers["size"], size), chunk(numbers["shape"], shape(rng, [2]))]))
    rng.shuffle(fields)
    return b"".join(fields)


def contents(rng: random.Random) -> tuple[bytes, int, int]:
    """A raw dump file: header length, DumpData, then the tensors' bytes (sometimes too few, sometimes more)."""
    inputs, outputs = rng.randint(0, 4), rng.randint(0, 4)
    sizes = [rng.choice([0, 4, 100, 2000]) for _ in range(inputs + outputs)]
    fields = [chunk(4, tensor(rng, False, size)) for size in sizes[:inputs]]
    fields += [chunk(3, tensor(rng, True, size)) for size in sizes[inputs:]]
    extra = 0
    if rng.random() < 0.3:
        extra = rng.choice([0, 16])
        fields.append(chunk(5, scalar(1, 1) + scalar(3, extra)))  # a buffer
    if rng.random() < 0.3:
        fields.append(chunk(8, scalar(1, 0) + scalar(3, 8)))  # a workspace
        extra += 8
    if rng.random() < 0.5:
        fields.append(chunk(6, name(rng)))  # op_name
    if rng.random() < 0.3:
        fields.append(chunk(7, chunk(1, b"slice") + chunk(2, name(rng))))  # an attr
    if rng.random() < 0.3:
        fields += [chunk(1, b"2.0"), scalar(2, rng.getrandbits(50))]  # version, dump_time
    if rng.random() < 0.2:
        fields.append(unknown(rng))
    rng.shuffle(fields)
    header = b"".join(fields)
    body = rng.randbytes(sum(sizes) + extra + rng.choice([0, 0, 0, 3, -1]) if sum(sizes) + extra else 0)
    return len(header).to_bytes(8, "little") + header + body, inputs, outputs


def answer(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except RawDumpError as exc:
        return ("error", str(exc))


def both_ways(data: bytes, kind: str, index: int) -> tuple[Any, Any]:
    view = memoryview(data)
    fast = answer(lambda: locate_tensor("f.dump", view, kind, index))
    reference = answer(lambda: raw_header._locate_by_protobuf("f.dump", view, kind, index))
    return fast, reference


def mutated(rng: random.Random, data: bytes) -> bytes:
    """The file with a few bytes changed, cut, or inserted (in the header mostly)."""
    data = bytearray(data)
    header_end = min(len(data), 8 + int.from_bytes(data[:8], "little"))
    for _ in range(rng.randint(1, 3)):
        where = rng.randrange(8, max(9, header_end)) if rng.random() < 0.9 else rng.randrange(0, len(data) or 1)
        action = rng.random()
        if action < 0.5 and where < len(data):
            data[where] = rng.getrandbits(8)
        elif action < 0.7:
            del data[where:]
        else:
            data[where:where] = rng.randbytes(rng.randint(1, 3))
    return bytes(data)


@pytest.mark.parametrize("seed", range(4))
def test_the_scanner_answers_as_protobuf(seed: int) -> None:
    rng = random.Random(seed)
    fast_answers = 0
    for _ in range(250):
        data, inputs, outputs = contents(rng)
        for candidate in (data, mutated(rng, data), mutated(rng, data)):
            for kind, count in (("input", inputs), ("output", outputs)):
                for index in range(-1, count + 2):
                    fast, reference = both_ways(candidate, kind, index)
                    assert fast == reference, (candidate.hex(), kind, index)
                    fast_answers += isinstance(scanner.locate(candidate, kind == "output", index), tuple)
    assert fast_answers > 150, "well-formed headers take the C path"


def test_plain_headers_take_the_fast_path() -> None:
    from autofuse_studio.core.dumps.raw_proto import encode_dump_data

    header = encode_dump_data({
        "op_name": "autofuse_3_Mul_Add", "dump_time": 123,
        "input": [{"data_type": 1, "format": 2, "shape": {"dim": [4, 8]}, "size": 64}],
        "output": [{"data_type": 1, "format": 3, "shape": {"dim": [4, 8]}, "size": 64,
                    "original_shape": {"dim": [32]}, "original_op": {"name": "Mul_1", "output_index": 2}},
                   {"data_type": 0, "format": 2, "shape": {"dim": [2]}, "size": 8}],
    })
    data = len(header).to_bytes(8, "little") + header + bytes(136)
    found = scanner.locate(data, True, 0)
    assert found == (1, 3, (4, 8), (32,), 0, 8 + len(header) + 64, 64, "Mul_1", 2)
    assert scanner.locate(data, True, 1)[5] == 8 + len(header) + 128
    assert scanner.locate(data, False, 0)[5:9] == (8 + len(header), 64, None, None)
    assert scanner.locate(data, True, 2) is False
    assert scanner.locate(data[:-1], True, 0) is None  # the last output runs past the end: protobuf says so
    with pytest.raises(RawDumpError, match="runs past the end"):
        locate_tensor("f.dump", data[:-1], "output", 0)
    assert locate_tensor("f.dump", data, "output", 0) == raw_header._locate_by_protobuf("f.dump", data, "output", 0)


def test_without_the_scanner_protobuf_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = raw_header._locate_by_protobuf
    monkeypatch.setattr(raw_header, "_locate_by_protobuf", lambda *args: calls.append(1) or real(*args))
    data, _, _ = contents(random.Random(3))
    monkeypatch.setenv("AUTOFUSE_STUDIO_NO_NATIVE", "1")
    answer(lambda: locate_tensor("f.dump", data, "output", 0))
    assert calls
