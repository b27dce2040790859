"""Raw dump files as the NPU writes them: the big protobuf header, the nano TLV layout, dtypes, hostile bytes."""

from __future__ import annotations

import ast
import os
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.dump_dtypes import dump_dtype, hifloat8_table
from autofuse_studio.core.dumps.raw_header import RawDumpError
from autofuse_studio.core.dumps.sniff import NANO, NPY, RAW, STATS_CSV, UNKNOWN, sniff_file
from autofuse_studio.core.dumps.tensors import (
    MissingTensor,
    choose_tensor,
    open_dump_tensor,
    raw_ref,
    read_raw_dump,
    tensor_path,
)
from autofuse_studio.core.errors import InputError, NpyLoadError
from tests.synth.raw_writer import (
    BF16,
    RawDumpSpec,
    RawTensorSpec,
    big_dump_bytes,
    nano_dump_bytes,
    write_raw_dump,
)

STAMP = 1736172181000000
MIRROR = Path(os.environ.get("AUTOFUSE_MSPROBE_MIRROR", "/work/.mirror/Ascend+msprobe/repo"))
SAMPLE = "test/msprobe_test/msaccucmp_ut/resource/concatV2D.py"


def _write(tmp_path: Path, spec: RawDumpSpec, variant: str = "raw", name: str = "") -> Path:
    path = tmp_path / (name or f"AscBackend.{spec.op_name.replace('/', '_')}.3.44.{STAMP}")
    write_raw_dump(path, spec, variant)
    return path


def _read(path: Path, kind: str, index: int) -> np.ndarray:
    tensor, _layout = open_dump_tensor(tensor_path(path, kind, index))
    return tensor.materialize()


@pytest.mark.parametrize("variant", ["raw", "nano"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "int8", "uint8", "int16", "int32", "int64", "bool",
                                   "float64", "uint64"])
def test_every_plain_dtype_round_trips(tmp_path: Path, variant: str, dtype: str) -> None:
    rng = np.random.default_rng(len(dtype))
    values = (rng.standard_normal((3, 5, 7)) * 50).astype(dtype)
    other = rng.integers(0, 9, 11).astype(np.int32)
    path = _write(tmp_path, RawDumpSpec("op", [RawTensorSpec.of(other)], [RawTensorSpec.of(values)]), variant)
    np.testing.assert_array_equal(_read(path, "output", 0), values)
    np.testing.assert_array_equal(_read(path, "input", 0), other)
    assert _read(path, "output", 0).dtype == values.dtype


@pytest.mark.parametrize("variant", ["raw", "nano"])
def test_several_tensors_inputs_first_on_disk(tmp_path: Path, variant: str) -> None:
    """`output` is field 3 and `input` field 4, but the data area holds the inputs first."""
    arrays = [np.full((4, 4), number, dtype=np.float32) for number in range(5)]
    spec = RawDumpSpec("multi", [RawTensorSpec.of(a) for a in arrays[:3]], [RawTensorSpec.of(a) for a in arrays[3:]],
                       buffers=[b"\xff" * 64] if variant == "raw" else [], workspaces=[b"\xee" * 32] if variant == "raw"
                       else [])
    path = _write(tmp_path, spec, variant)
    dump = read_raw_dump(path)
    assert (dump.count("input"), dump.count("output")) == (3, 2)
    for number in range(3):
        np.testing.assert_array_equal(_read(path, "input", number), arrays[number])
    for number in range(2):
        np.testing.assert_array_equal(_read(path, "output", number), arrays[3 + number])


def test_header_fields_of_every_version(tmp_path: Path) -> None:
    """Unknown fields of newer writers are skipped; field 11 is read whatever it means; origin ops are kept."""
    values = np.arange(12, dtype=np.float16).reshape(3, 4)
    output = RawTensorSpec.of(values, "NCHW", (3, 4), origin_op="model/blocks.0/Add", origin_index=2)
    spec = RawDumpSpec("model/fused.op 1", [], [output], dump_time=STAMP, newer_fields=True,
                       field_11_as_arg_index=True, slicing={"threadMode": True, "slice_instance_num": 2})
    path = _write(tmp_path, spec)
    dump = read_raw_dump(path)
    assert dump.op_name == "model/fused.op 1"
    assert dump.dump_time == STAMP
    assert dump.slicing == {"threadMode": True, "slice_instance_num": 2}
    tensor = dump.tensors[0]
    assert (tensor.origin_op, tensor.origin_index, tensor.format, tensor.original_shape) == (
        "model/blocks.0/Add", 2, "NCHW", (3, 4))
    np.testing.assert_array_equal(_read(path, "output", 0), values)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, wire: int, payload: bytes) -> bytes:
    return _varint(number << 3 | wire) + payload


def _delimited(number: int, payload: bytes) -> bytes:
    return _field(number, 2, _varint(len(payload)) + payload)


def test_unpacked_dims_are_read_like_packed_ones(tmp_path: Path) -> None:
    """Old writers repeat `dim` as one varint field per value (proto2 style)."""
    shape = b"".join(_field(1, 0, _varint(dim)) for dim in (2, 3))
    output = _field(1, 0, _varint(1)) + _field(2, 0, _varint(2)) + _delimited(3, shape) + _field(6, 0, _varint(24))
    header = _delimited(1, b"2.0") + _delimited(3, output) + _delimited(6, b"conv")
    data = np.arange(6, dtype=np.float32).tobytes()
    path = tmp_path / f"Conv2D.conv.1.2.{STAMP}"
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)
    np.testing.assert_array_equal(_read(path, "output", 0), np.arange(6, dtype=np.float32).reshape(2, 3))


def test_bf16_fp8_hifloat8_and_int4(tmp_path: Path) -> None:
    import ml_dtypes

    bf16 = np.array([1.5, -2.25, 3.0e38, 0.0], dtype=ml_dtypes.bfloat16)
    e4m3 = np.array([0.5, -448.0, 1.0], dtype=ml_dtypes.float8_e4m3fn)
    e5m2 = np.array([57344.0, -0.25], dtype=ml_dtypes.float8_e5m2)
    int4 = bytes([0x7F, 0x98, 0x01])
    tensors = [RawTensorSpec(bf16.tobytes(), BF16, (4,)), RawTensorSpec(e4m3.tobytes(), 35, (3,)),
               RawTensorSpec(e5m2.tobytes(), 34, (2,)), RawTensorSpec(int4, 28, (5,)),
               RawTensorSpec(bytes([0x00, 0x08, 0x09, 0x80, 0x6F, 0xEF, 0x88]), 33, (7,))]
    path = _write(tmp_path, RawDumpSpec("types", [], tensors))
    np.testing.assert_array_equal(_read(path, "output", 0), bf16.astype(np.float32))
    np.testing.assert_array_equal(_read(path, "output", 1), e4m3.astype(np.float32))
    np.testing.assert_array_equal(_read(path, "output", 2), e5m2.astype(np.float32))
    # Two's-complement nibbles, low nibble first: 0x7F -> 15 (-1), 7; 0x98 -> 8 (-8), 9 (-7); 0x01 -> 1.
    np.testing.assert_array_equal(_read(path, "output", 3), np.array([-1, 7, -8, -7, 1], dtype=np.int8))
    hif8 = _read(path, "output", 4)
    assert hif8[0] == 0 and hif8[1] == 1.0 and hif8[2] == 1.125 and np.isnan(hif8[3])
    assert hif8[4] == np.inf and hif8[5] == -np.inf and hif8[6] == -1.0
    assert open_dump_tensor(tensor_path(path, "output", 0))[0].dtype_name == "bfloat16"


@pytest.mark.parametrize(("code", "value"), [
    (0x01, 2.0 ** -22), (0x07, 2.0 ** -16),  # 0000 prefix: denormals 2^(m-23)
    (0x08, 1.0), (0x0F, 1.875),  # 0001: D=0, exponent 0, three mantissa bits
    (0x10, 2.0), (0x18, 0.5),  # 001: D=1, one sign-magnitude exponent bit
    (0x20, 4.0), (0x28, 8.0), (0x30, 0.25),  # 01: D=2
    (0x40, 16.0), (0x60, 256.0), (0x6E, 32768.0),  # 10: D=3; 11: D=4
    (0x90, -2.0), (0xE0, -256.0),
])
def test_hifloat8_follows_cann(code: int, value: float) -> None:
    """CANN's HiFloat8::GetValue (msaccucmp's decoder differs on every D=0 and D=1 code)."""
    assert hifloat8_table()[code] == value


def test_hifloat8_codes_are_distinct_numbers() -> None:
    table = hifloat8_table()
    finite = table[np.isfinite(table)]
    assert len(finite) == 253  # all but NaN, +inf and -inf
    assert len(np.unique(finite)) == 253 - 0  # zero appears once (0x00): 0x80 is NaN, not -0


def test_unsupported_dtypes_are_a_sentence_on_the_tensor_alone(tmp_path: Path) -> None:
    good = np.ones(4, dtype=np.float32)
    spec = RawDumpSpec("odd", [RawTensorSpec(b"\x01\x02", 29, (16,))], [RawTensorSpec.of(good)])
    path = _write(tmp_path, spec)
    with pytest.raises(NpyLoadError, match="DT_UINT1 cannot be decoded"):
        _read(path, "input", 0)
    np.testing.assert_array_equal(_read(path, "output", 0), good)
    assert not dump_dtype(99).supported and "newer" in dump_dtype(99).why_not


def test_missing_tensor_and_tensor_names(tmp_path: Path) -> None:
    path = _write(tmp_path, RawDumpSpec("one", [], [RawTensorSpec.of(np.zeros(3, np.float16))]))
    with pytest.raises(MissingTensor, match="has 1 output"):
        _read(path, "output", 1)
    ref = raw_ref(tensor_path(path, "output", 7))
    assert ref is not None and (ref.file, ref.kind, ref.index) == (path, "output", 7)
    assert raw_ref(str(path)) is None


def test_tensor_names_cannot_be_real_files(tmp_path: Path) -> None:
    """A raw tensor is named as a file inside the raw file: no NPY on disk can have that name."""
    path = _write(tmp_path, RawDumpSpec("both", [], [RawTensorSpec.of(np.zeros(3, np.float32))]))
    name = tensor_path(path, "output", 0)
    assert name == str(path / "output.0.npy")
    with pytest.raises(OSError):
        np.save(name, np.ones(3))
    plain = tmp_path / "folder"
    plain.mkdir()
    np.save(plain / "output.0.npy", np.ones(3, np.float32))  # a real NPY of that bare name in a real folder
    tensor, layout = open_dump_tensor(plain / "output.0.npy")
    assert layout is None and tensor.materialize().tolist() == [1.0, 1.0, 1.0]


def test_big_tensors_are_mapped_not_read(tmp_path: Path) -> None:
    values = np.arange(1 << 20, dtype=np.float32)
    path = _write(tmp_path, RawDumpSpec("big", [], [RawTensorSpec.of(values)]))
    tensor, _ = open_dump_tensor(tensor_path(path, "output", 0), read_below=1024)
    from autofuse_studio.core.dumps.npy import is_memory_mapped

    assert is_memory_mapped(tensor.view)
    np.testing.assert_array_equal(tensor.materialize(), values)


@pytest.mark.parametrize(("content", "match"), [
    (b"\x01\x02", "fewer than the 8"),
    (struct.pack("<Q", 1000) + b"\x0a\x03", "runs past the end"),
    (struct.pack("<Q", 11) + b"\x10" + b"\xff" * 10, "not a DumpData protobuf"),  # an 11-byte varint
    (struct.pack("<Q", 4) + b"\xff\xff\xff\xff", "not a DumpData protobuf"),
])
def test_hostile_headers(tmp_path: Path, content: bytes, match: str) -> None:
    path = tmp_path / f"Add.add.1.2.{STAMP}"
    path.write_bytes(content)
    with pytest.raises(RawDumpError, match=match) as error:
        _read(path, "output", 0)
    assert str(path) in str(error.value)


def test_sizes_that_overrun_the_file(tmp_path: Path) -> None:
    spec = RawDumpSpec("overrun", [], [RawTensorSpec(b"\0" * 16, 1, (4,), size=1 << 40)])
    path = _write(tmp_path, spec)
    with pytest.raises(RawDumpError, match="runs past the end"):
        read_raw_dump(path)


@pytest.mark.parametrize(("shape", "size", "match"), [
    ((4,), 12, "header says 12 bytes"),  # dtype / size mismatch
    ((2 ** 63, 2 ** 63), 16, "header says 16 bytes"),  # huge dims (a negative int64 written as uint64)
    ((1,) * 40, 4, "40 dims"),
])
def test_absurd_dims_mark_the_tensor(tmp_path: Path, shape: tuple[int, ...], size: int, match: str) -> None:
    spec = RawDumpSpec("absurd", [], [RawTensorSpec(b"\0" * size, 1, shape)])
    path = _write(tmp_path, spec)
    with pytest.raises(RawDumpError, match=match):
        _read(path, "output", 0)


def test_a_huge_sparse_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / f"Add.sparse.1.2.{STAMP}"
    with path.open("wb") as handle:
        handle.write(struct.pack("<Q", 5 << 30))
        handle.truncate(10 << 30)
    with pytest.raises(RawDumpError, match="not plausible"):
        read_raw_dump(path)


def test_a_fifo_never_blocks(tmp_path: Path) -> None:
    path = tmp_path / f"Add.fifo.1.2.{STAMP}"
    os.mkfifo(path)
    with pytest.raises(NpyLoadError, match="not a regular file"):
        _read(path, "output", 0)
    assert sniff_file(path) == UNKNOWN


@pytest.mark.parametrize("cut", [20, 60, 100])
def test_truncated_nano_headers(tmp_path: Path, cut: int) -> None:
    spec = RawDumpSpec("n", [RawTensorSpec.of(np.ones(3, np.float16))], [RawTensorSpec.of(np.ones(3, np.float16))])
    data = bytearray(nano_dump_bytes(spec))
    length = struct.unpack_from("<Q", data)[0]
    data[:8] = struct.pack("<Q", min(length, cut))
    path = tmp_path / f"Add.nano.1.2.{STAMP}"
    path.write_bytes(bytes(data))
    with pytest.raises(RawDumpError):
        read_raw_dump(path)


def test_sniffing_by_content(tmp_path: Path) -> None:
    files = {
        NPY: (tmp_path / "a.npy", None),
        RAW: (tmp_path / "raw", big_dump_bytes(RawDumpSpec("x", [], [RawTensorSpec.of(np.ones(2, np.float32))]))),
        NANO: (tmp_path / "nano", nano_dump_bytes(RawDumpSpec("x", [], [RawTensorSpec.of(np.ones(2, np.float32))]))),
        STATS_CSV: (tmp_path / "s.csv", b"\xef\xbb\xbfInput/Output,Index,Data Size\n"),
        UNKNOWN: (tmp_path / "junk", b"hello world, this is not a dump"),
    }
    np.save(files[NPY][0], np.ones(2))
    for kind, (path, content) in files.items():
        if content is not None:
            path.write_bytes(content)
        assert sniff_file(path) == kind


def test_mode2_tensor_choice(tmp_path: Path) -> None:
    spec = RawDumpSpec("pick", [RawTensorSpec.of(np.ones(2, np.float32))], [RawTensorSpec.of(np.zeros(2, np.float32))])
    path = _write(tmp_path, spec)
    assert choose_tensor(path, "output:0") == tensor_path(path, "output", 0)
    with pytest.raises(InputError, match="choose one with --tensor"):
        choose_tensor(path, None)
    with pytest.raises(InputError, match="holds no output 3"):
        choose_tensor(path, "output:3")
    with pytest.raises(InputError, match="input:N or output:N"):
        choose_tensor(path, "out0")
    single = _write(tmp_path, RawDumpSpec("single", [], [RawTensorSpec.of(np.ones(2, np.float32))]))
    assert choose_tensor(single, None) == tensor_path(single, "output", 0)
    npy = tmp_path / "plain.npy"
    np.save(npy, np.ones(2))
    assert choose_tensor(npy, "output:0") == str(npy)


def _public_nano_sample() -> bytes | None:
    """The nano dump bytes of Ascend/msprobe's msaccucmp unit test (raw-dumps.md §3.3), when a copy is here."""
    try:
        source = subprocess.run(["git", "--git-dir", str(MIRROR), "show", f"HEAD:{SAMPLE}"], capture_output=True,
                                check=True, timeout=60).stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return None
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, bytes):
            return node.value.value
    return None


def test_public_nano_sample_byte_exactly(tmp_path: Path) -> None:
    sample = _public_nano_sample()
    if sample is None:
        pytest.skip("the Ascend/msprobe snapshot with the public nano sample is not on this machine")
    path = tmp_path / "ConcatV2D.concatv2.0.0.550288648"
    path.write_bytes(sample)
    dump = read_raw_dump(path)
    assert (dump.variant, len(sample), struct.unpack_from("<Q", sample)[0]) == ("nano", 59060, 324)
    shapes = [(item.kind, item.shape, item.size, item.format) for item in dump.tensors]
    assert shapes == [("input", (1, 14652), 29304, "NHWC"), ("input", (1, 30), 60, "NHWC"),
                      ("output", (1, 14682), 29364, "NHWC")]
    assert dump.tensors[2].origin_op == "concatv2"
    first, second, out = (_read(path, kind, index) for kind, index in (("input", 0), ("input", 1), ("output", 0)))
    assert out.dtype == np.float16
    np.testing.assert_array_equal(np.concatenate([first, second], axis=1), out)  # it is a ConcatV2D
    # Our writer, given the same tensors, writes the same bytes.
    inputs = [RawTensorSpec(first.tobytes(), 2, first.shape, 1, first.shape),
              RawTensorSpec(second.tobytes(), 2, second.shape, 1, second.shape)]
    output = RawTensorSpec(out.tobytes(), 2, out.shape, 1, out.shape, origin_op="concatv2")
    assert nano_dump_bytes(RawDumpSpec("concatv2", inputs, [output])) == sample


def test_batched_comparison_equals_one_by_one(tmp_path: Path) -> None:
    """pair_batch reads raw files whole and builds the one tensor: the same results as compare_pair, errors too."""
    from autofuse_studio.core.dumps.layout import LayoutInfo
    from autofuse_studio.core.precision.pair import PairSide, compare_pair
    from autofuse_studio.core.precision.pair_batch import compare_pairs

    rng = np.random.default_rng(5)
    good = rng.standard_normal((2, 3, 4, 16)).astype(np.float16)  # an NC1HWC0 tensor of a 2x40x3x4 NCHW one
    fused = _write(tmp_path, RawDumpSpec("f", [RawTensorSpec.of(good)], [
        RawTensorSpec.of(good, "NC1HWC0", (2, 30, 3, 4)), RawTensorSpec(b"\0" * 6, 1, (4,)),
        RawTensorSpec(b"\1\2", 29, (16,))]), name=f"A.f.1.2.{STAMP}")
    origin = _write(tmp_path, RawDumpSpec("o", [], [RawTensorSpec.of(good.copy())]), name=f"B.o.1.2.{STAMP}")
    truncated = tmp_path / f"C.t.1.2.{STAMP}"
    truncated.write_bytes(fused.read_bytes()[:200])
    npy = tmp_path / "plain.npy"
    np.save(npy, good)
    layout = LayoutInfo("NC1HWC0", "NCHW", (2, 30, 3, 4))
    sides = [PairSide(Path(tensor_path(fused, kind, index)), None, f"{kind}{index}")
             for kind, index in (("input", 0), ("output", 0), ("output", 1), ("output", 2), ("output", 9))]
    sides += [PairSide(Path(tensor_path(truncated, "output", 0)), None, "cut"), PairSide(npy, None, "npy"),
              PairSide(Path(tensor_path(fused, "output", 0)), layout, "5hd")]
    origins = [PairSide(Path(tensor_path(origin, "output", 0)), None, "origin"), PairSide(npy, None, "npy")]
    keys = [(side, other) for side in sides for other in origins]
    batched = compare_pairs(keys)
    one_by_one = {key: compare_pair(*key) for key in keys}
    assert batched == one_by_one
    statuses = {result.status for result in batched.values()}
    assert {"OK", "FILE_NOT_FOUND", "NPY_LOAD_ERROR", "DTYPE_UNSUPPORTED"} <= statuses


def test_the_header_layout_converts_when_the_graph_says_nothing(tmp_path: Path) -> None:
    """A padded NC1HWC0 raw tensor against a plain NCHW one, no graph layouts: the header's format and
    original shape bring it to NCHW without the padding."""
    from autofuse_studio.core.precision.pair import PairSide, compare_pair

    rng = np.random.default_rng(3)
    nchw = rng.standard_normal((2, 20, 3, 5)).astype(np.float32)  # C=20 -> C1=2 blocks of C0=16, 12 padded
    padded = np.full((2, 32, 3, 5), 7.0, dtype=np.float32)
    padded[:, :20] = nchw
    five_hd = np.ascontiguousarray(padded.reshape(2, 2, 16, 3, 5).transpose(0, 1, 3, 4, 2))  # N C1 H W C0
    fused = _write(tmp_path, RawDumpSpec("f", [], [RawTensorSpec.of(five_hd, "NC1HWC0", (2, 20, 3, 5))]),
                   name=f"A.f.1.2.{STAMP}")
    origin = _write(tmp_path, RawDumpSpec("o", [], [RawTensorSpec.of(nchw, "NCHW", (2, 20, 3, 5))]),
                    name=f"B.o.1.2.{STAMP}")
    result = compare_pair(PairSide(Path(tensor_path(fused, "output", 0)), None, "fused"),
                          PairSide(Path(tensor_path(origin, "output", 0)), None, "origin"))
    assert result.status == "FORMAT_CONVERTED"
    assert result.metrics is not None and result.metrics.max_abs_err == 0 and result.metrics.elements == nchw.size


def test_api_compares_a_raw_dumps_tensor(tmp_path: Path) -> None:
    from autofuse_studio.api import compare_npys

    values = np.linspace(-1, 1, 64, dtype=np.float32)
    raw = _write(tmp_path, RawDumpSpec("x", [RawTensorSpec.of(values * 2)], [RawTensorSpec.of(values)]))
    np.save(tmp_path / "same.npy", values)
    result = compare_npys(raw, tmp_path / "same.npy", tensor="output:0")
    assert result.passed
    assert not compare_npys(raw, tmp_path / "same.npy", tensor="input:0", max_abs=0.5).passed
    with pytest.raises(InputError, match="choose one with --tensor"):
        compare_npys(raw, tmp_path / "same.npy")
