"""convert_dumps: raw/nano dump files back to msaccucmp's NPYs, value for value and name for name."""

from __future__ import annotations

import os
import struct
import tracemalloc
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.convert import (
    LAYOUT_NOT_CONVERTED,
    UNREADABLE_FILE,
    UNREADABLE_TENSOR,
    UNRESOLVED_NAME,
    ConvertResult,
    convert_dumps,
    npy_name,
    short_name,
)
from autofuse_studio.core.dumps.dump_dtypes import dump_dtype
from autofuse_studio.core.dumps.sniff import NANO, RAW, sniff_file
from autofuse_studio.core.errors import Cancelled, InputError
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.progress import CancelToken
from tests.core.conftest import mode1_request
from tests.synth.raw_twin import twin_case
from tests.synth.raw_writer import RawDumpSpec, RawTensorSpec, write_raw_dump

SIDES = ("af_open", "af_close")
STAMP = 1736172181001234


def _real_names(root: Path) -> dict[str, Path]:
    """Every file under root by its relative path with the real name (mapping.csv resolved), mapping.csv left out."""
    found = {}
    for folder, _, names in os.walk(root):
        mapping = {}
        if "mapping.csv" in names:
            lines = (Path(folder) / "mapping.csv").read_text(encoding="utf-8").splitlines()
            mapping = dict(line.split(",", 1) for line in lines if line)
        for name in names:
            if name != "mapping.csv":
                relative = os.path.relpath(Path(folder) / mapping.get(name, name), root)
                found[relative] = Path(folder) / name
    return found


def _values(path: Path) -> np.ndarray:
    """np.load of an NPY, bf16 bit patterns ('<V2', as the case writes them) decoded to float32."""
    array: np.ndarray = np.load(path, allow_pickle=False)
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        decoded: np.ndarray = (array.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        return decoded
    return array


def _loadable(path: Path) -> bool:
    try:
        np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError):
        return False
    return True


@pytest.fixture(scope="module")
def converted(coverage_case: tuple[Path, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
              ) -> dict[str, Any]:
    root, manifest = coverage_case
    work = tmp_path_factory.mktemp("convert")
    raw = twin_case(root, work / "raw", "raw", nano_every=3)
    results = {side: convert_dumps(raw[side], work / "npy" / side) for side in SIDES}
    return {"root": root, "manifest": manifest, "raw": raw, "results": results,
            "npy": {side: work / "npy" / side for side in SIDES}}


def test_the_twin_has_raw_and_nano_files(converted: dict[str, Any]) -> None:
    kinds = {sniff_file(path) for side in SIDES for path in _real_names(converted["raw"][side]).values()}
    assert {RAW, NANO} <= kinds


def test_every_npy_equals_the_original(converted: dict[str, Any]) -> None:
    root, manifest = converted["root"], converted["manifest"]
    compared = bf16 = 0
    for side in SIDES:
        original = _real_names(root / manifest["data"][side])
        ours = _real_names(converted["npy"][side])
        usable = {name for name, path in original.items() if name.endswith(".npy") and _loadable(path)}
        assert set(ours) == usable
        for name, path in ours.items():
            mine, theirs = np.load(path, allow_pickle=False), _values(original[name])
            bf16 += theirs.dtype != np.load(original[name]).dtype
            assert mine.dtype == theirs.dtype, name
            assert mine.shape == theirs.shape, name
            assert np.array_equal(mine, theirs, equal_nan=True), name
            compared += 1
    assert compared > 400 and bf16 > 0


def test_long_names_are_hashed_as_msaccucmp_hashes_them(converted: dict[str, Any]) -> None:
    root, manifest = converted["root"], converted["manifest"]
    hashed = 0
    for side in SIDES:
        for folder, _, names in os.walk(root / manifest["data"][side]):
            if "mapping.csv" not in names:
                continue
            relative = os.path.relpath(folder, root / manifest["data"][side])
            expected = set((Path(folder) / "mapping.csv").read_text(encoding="utf-8").splitlines())
            mine = converted["npy"][side] / relative / "mapping.csv"
            assert set(mine.read_text(encoding="utf-8").splitlines()) == expected
            for line in expected:
                new, old = line.split(",", 1)
                assert new == uuid.uuid3(uuid.NAMESPACE_DNS, old).hex + ".npy" == short_name(old)
                assert (converted["npy"][side] / relative / new).is_file()
                hashed += 1
    assert hashed >= 2


def test_counts_and_the_skipped_broken_tensors(converted: dict[str, Any]) -> None:
    for side in SIDES:
        result: ConvertResult = converted["results"][side]
        assert result.files_read == result.files_found > 0
        assert result.tensors_written == len(result.written) == len(_real_names(converted["npy"][side]))
        assert result.bytes_written == sum(path.stat().st_size for path in result.written)
    broken = converted["results"]["af_open"]
    assert broken.tensors_skipped == 4  # the garbage and pickled NPYs of the case: sizes that do not fit
    (notice,) = broken.notices
    assert notice.kind == UNREADABLE_TENSOR and notice.count == 4
    assert "4 tensors could not be read" in notice.message and "DT_FLOAT takes 16" in notice.message


@pytest.mark.parametrize("compare_input", [False, True])
def test_mode1_on_the_converted_npys_gives_the_npy_rows(converted: dict[str, Any], compare_input: bool) -> None:
    root, manifest = converted["root"], converted["manifest"]
    npy = run_mode1(mode1_request(root, manifest, compare_input=compare_input, jobs=2))
    request = mode1_request(root, manifest, compare_input=compare_input, jobs=2)
    request = replace(request, af_open_data=converted["npy"]["af_open"], af_close_data=converted["npy"]["af_close"])
    ours = run_mode1(request)
    assert [row.key for row in npy.rows] == [row.key for row in ours.rows]
    same = broken = 0
    for mine, theirs in zip(ours.rows, npy.rows, strict=True):
        left, right = mine.to_dict(), theirs.to_dict()
        for row in (left, right):
            row.pop("fused_file"), row.pop("origin_file"), row.pop("message")
        if theirs.status == "NPY_LOAD_ERROR":
            # The case's garbage and pickled NPYs have no twin tensor to convert: not found, as skipped.
            assert mine.status == "FILE_NOT_FOUND"
            broken += 1
            continue
        assert left == right, theirs.key
        same += 1
    assert broken == 4 and same > 60
    assert ours.first_divergence is not None and npy.first_divergence is not None
    assert ours.first_divergence.key == npy.first_divergence.key


def _file(folder: Path, name: str, *tensors: RawTensorSpec, variant: str = "raw") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    op_name = name.split(".")[1] if "." in name else "hashed"
    write_raw_dump(path, RawDumpSpec(op_name, outputs=list(tensors), dump_time=STAMP), variant)
    return path


def _dump_name(op: str, stamp: int = STAMP) -> str:
    return f"Add.{op}.3.4.{stamp}"


def _ok_tensor(seed: int = 0) -> RawTensorSpec:
    return RawTensorSpec.of(np.random.default_rng(seed).standard_normal((3, 5)).astype(np.float16))


def test_hostile_files_are_skipped_with_one_warning_each_kind(tmp_path: Path) -> None:
    source = tmp_path / "in"
    good = _file(source / "0", _dump_name("good"), _ok_tensor(), _ok_tensor(1))
    truncated = _file(source / "0", _dump_name("cut"), _ok_tensor(2))
    truncated.write_bytes(truncated.read_bytes()[:-7])
    past_end = source / "0" / _dump_name("hostile")
    past_end.write_bytes(struct.pack("<Q", 1 << 40) + b"\x0a\x032.0" + bytes(20))
    bad_dtype = RawTensorSpec(b"\x01\x02", 29, (16,))  # UINT1: no documented bit order
    _file(source / "1", _dump_name("mixed"), bad_dtype, _ok_tensor(3))
    result = convert_dumps(source, tmp_path / "out")
    assert result.files_found == 4 and result.files_read == 2
    assert result.tensors_written == 3 and result.tensors_skipped == 1
    kinds = {notice.kind: notice for notice in result.notices}
    assert set(kinds) == {UNREADABLE_FILE, UNREADABLE_TENSOR}
    assert kinds[UNREADABLE_FILE].count == 2
    assert "2 dump files under" in kinds[UNREADABLE_FILE].message
    assert {item["path"] for item in kinds[UNREADABLE_FILE].items} == {f"0/{_dump_name('cut')}",
                                                                       f"0/{_dump_name('hostile')}"}
    assert "DT_UINT1" in kinds[UNREADABLE_TENSOR].message
    written = sorted(path.name for path in result.written)
    assert written == sorted([npy_name(good.name, "output", 0), npy_name(good.name, "output", 1),
                              npy_name(_dump_name("mixed"), "output", 1)])
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "0" / npy_name(good.name, "output", 1)),
                                  np.frombuffer(_ok_tensor(1).data, np.float16).reshape(3, 5))


def test_nothing_to_convert_is_an_input_error(tmp_path: Path) -> None:
    source = tmp_path / "npys"
    source.mkdir()
    np.save(source / "Add.op.1.2.3.output.0.npy", np.zeros(3))
    with pytest.raises(InputError, match="holds 1 NPY file: nothing to convert"):
        convert_dumps(source, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_dtypes_are_written_as_msaccucmp_writes_them(tmp_path: Path) -> None:
    codes = np.arange(256, dtype=np.uint8)
    tensors = [RawTensorSpec(codes.tobytes(), code, (256,)) for code in (33, 34, 35)]  # HiFloat8, fp8 e5m2, e4m3
    bf16 = np.array([0x3F80, 0xC000, 0x7FC0, 0x0001], dtype=np.uint16)
    tensors.append(RawTensorSpec(bf16.tobytes(), 27, (4,)))
    tensors.append(RawTensorSpec(bytes([0x21, 0xF8, 0x07]), 28, (5,)))  # int4, low nibble first
    tensors.append(RawTensorSpec(np.array([True, False]).tobytes(), 11, (2,)))
    name = _dump_name("dtypes")
    _file(tmp_path / "in", name, *tensors)
    result = convert_dumps(tmp_path / "in", tmp_path / "out")
    assert result.tensors_written == 6 and not result.notices
    loaded = [np.load(tmp_path / "out" / npy_name(name, "output", index)) for index in range(6)]
    assert [array.dtype.str for array in loaded] == ["<f4", "<f4", "<f4", "<f4", "|i1", "|b1"]
    for index, code in enumerate((33, 34, 35)):
        decode = dump_dtype(code).decode
        assert decode is not None
        np.testing.assert_array_equal(loaded[index], decode(codes), strict=True)
    np.testing.assert_array_equal(loaded[3], [1.0, -2.0, np.nan, 2.0 ** -133])
    np.testing.assert_array_equal(loaded[4], np.array([1, 2, -8, -1, 7], dtype=np.int8))
    np.testing.assert_array_equal(loaded[5], [True, False])


def _nc1hwc0(nhwc: np.ndarray) -> np.ndarray:
    """The NC1HWC0 device array (C0 = 16, zero padded) of an NHWC array."""
    n, h, w, c = nhwc.shape
    c1 = -(-c // 16)
    padded = np.zeros((n, h, w, c1 * 16), dtype=nhwc.dtype)
    padded[..., :c] = nhwc
    return np.ascontiguousarray(padded.reshape(n, h, w, c1, 16).transpose(0, 3, 1, 2, 4))


def _fractal_nz(matrix: np.ndarray) -> np.ndarray:
    """The FRACTAL_NZ device array (W1, H1, H0, W0) of an (H, W) matrix, 16x16 fractals, zero padded."""
    h, w = matrix.shape
    h1, w1 = -(-h // 16), -(-w // 16)
    padded = np.zeros((h1 * 16, w1 * 16), dtype=matrix.dtype)
    padded[:h, :w] = matrix
    return np.ascontiguousarray(padded.reshape(h1, 16, w1, 16).transpose(2, 0, 1, 3))


def test_origin_layout_restores_shapes_and_names_them(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    nhwc = rng.standard_normal((2, 3, 4, 20)).astype(np.float16)
    matrix = rng.standard_normal((5, 20)).astype(np.float32)
    plain = rng.integers(0, 9, (7,)).astype(np.int32)
    tensors = [RawTensorSpec.of(_nc1hwc0(nhwc), "NC1HWC0", nhwc.shape),
               RawTensorSpec.of(_fractal_nz(matrix), "FRACTAL_NZ", matrix.shape), RawTensorSpec.of(plain)]
    broken = RawTensorSpec.of(np.zeros((1, 1, 2, 2, 16), np.float16), "NC1HWC0", (1, 2, 2, 99))  # C 99 > 16
    name = _dump_name("layouts")
    _file(tmp_path / "in" / "a", name, *tensors, broken)
    _file(tmp_path / "in" / "b", name, *tensors, variant="nano")
    result = convert_dumps(tmp_path / "in", tmp_path / "out", origin_layout=True)
    assert result.tensors_written == 6 and result.tensors_skipped == 1
    (notice,) = result.notices
    assert notice.kind == LAYOUT_NOT_CONVERTED and "output 3" in notice.message
    for folder in ("a", "b"):
        out = tmp_path / "out" / folder
        expected_arrays: list[np.ndarray] = [nhwc, matrix, plain]
        for index, expected in enumerate(expected_arrays):
            shape = "x".join(map(str, expected.shape))
            written = out / f"{name}.output.{index}.{shape}.npy"
            np.testing.assert_array_equal(np.load(written), expected, strict=True)
    # Without the option the same files are written as stored, with no shape in their names.
    stored = convert_dumps(tmp_path / "in", tmp_path / "stored")
    assert stored.tensors_written == 7
    np.testing.assert_array_equal(np.load(tmp_path / "stored" / "a" / npy_name(name, "output", 0)), _nc1hwc0(nhwc))


def test_names_resolve_through_mapping_csv_and_near_limit_names_are_written(tmp_path: Path) -> None:
    source = tmp_path / "in"
    long_name = _dump_name("x" * 300)
    _file(source, "123456789", _ok_tensor())
    (source / "mapping.csv").write_text(f"123456789,{long_name}\n", encoding="utf-8")
    near = _dump_name("n" * (254 - len(_dump_name("")) - len(".output.0.npy")))
    assert len(npy_name(near, "output", 0)) == 254
    _file(source, near, _ok_tensor())
    _file(source, "987654321", _ok_tensor())  # a hash no mapping.csv line resolves
    result = convert_dumps(source, tmp_path / "out")
    assert result.tensors_written == 3
    assert [notice.kind for notice in result.notices] == [UNRESOLVED_NAME]
    full = npy_name(long_name, "output", 0)
    names = {path.name for path in result.written}
    assert names == {short_name(full), npy_name(near, "output", 0), "987654321.output.0.npy"}
    assert (tmp_path / "out" / "mapping.csv").read_text(encoding="utf-8") == f"{short_name(full)},{full}\n"
    assert not [path for path in (tmp_path / "out").iterdir() if path.name.startswith(".")]


def test_force_replaces_only_our_files_and_keeps_mapping_lines_once(tmp_path: Path) -> None:
    source, out = tmp_path / "in", tmp_path / "out"
    _file(source, _dump_name("y" * 225), _ok_tensor())  # the NPY name passes 255
    convert_dumps(source, out)
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "mapping.csv").write_text("other.npy,kept line\n" + (out / "mapping.csv").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    with pytest.raises(InputError, match="is not empty; use --force"):
        convert_dumps(source, out)
    result = convert_dumps(source, out, force=True)
    assert result.tensors_written == 1
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    lines = (out / "mapping.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "other.npy,kept line" and len(lines) == 2


@pytest.mark.parametrize("where", ["inside", "same", "around"])
def test_overlapping_folders_are_refused(tmp_path: Path, where: str) -> None:
    source = tmp_path / "in"
    _file(source, _dump_name("z"), _ok_tensor())
    target = {"inside": source / "npy", "same": source, "around": tmp_path}[where]
    with pytest.raises(InputError, match=r"inside the input folder|contains the input folder"):
        convert_dumps(source, target, force=True)
    assert not (source / "npy").exists()


def test_links_out_of_the_input_are_not_followed(tmp_path: Path) -> None:
    source, outside = tmp_path / "in", tmp_path / "elsewhere"
    _file(source, _dump_name("inside"), _ok_tensor())
    foreign = _file(outside, _dump_name("foreign"), _ok_tensor())
    (source / "linked").symlink_to(outside, target_is_directory=True)
    (source / _dump_name("file_link")).symlink_to(foreign)
    result = convert_dumps(source, tmp_path / "out")
    assert [path.name for path in result.written] == [npy_name(_dump_name("inside"), "output", 0)]
    (notice,) = result.notices
    assert notice.kind == "link_outside_root" and notice.count == 2


def test_a_link_in_the_output_never_leads_writes_outside(tmp_path: Path) -> None:
    from autofuse_studio.core.errors import OutputError

    source, out, elsewhere = tmp_path / "in", tmp_path / "out", tmp_path / "elsewhere"
    _file(source / "sub", _dump_name("w"), _ok_tensor())
    out.mkdir()
    elsewhere.mkdir()
    (out / "sub").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutputError, match="leads outside the output folder"):
        convert_dumps(source, out, force=True)
    assert list(elsewhere.iterdir()) == []


def test_big_tensors_stream(tmp_path: Path) -> None:
    values = np.arange(4 << 20, dtype=np.float32).reshape(1024, 4096)
    name = _dump_name("big")
    _file(tmp_path / "in", name, RawTensorSpec.of(values))
    del values
    tracemalloc.start()
    try:
        result = convert_dumps(tmp_path / "in", tmp_path / "out")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.bytes_written > 16 << 20
    assert peak < 4 << 20  # a 16 MB tensor goes through in blocks of 1 MB
    loaded = np.load(tmp_path / "out" / npy_name(name, "output", 0), mmap_mode="r")
    assert loaded.shape == (1024, 4096) and float(loaded[-1, -1]) == (4 << 20) - 1


def test_progress_and_cancel(tmp_path: Path) -> None:
    for number in range(3):
        _file(tmp_path / "in", _dump_name(f"op{number}"), _ok_tensor(number))
    seen: list[tuple[int, int]] = []
    convert_dumps(tmp_path / "in", tmp_path / "out", progress=lambda done, total, message="": seen.append(
        (done, total)))
    assert seen[-1] == (3, 3)
    token = CancelToken()

    def cancel_after_first(done: int, total: int, message: str = "") -> None:
        if done == 1 and message.startswith("Converting"):
            token.cancel()

    with pytest.raises(Cancelled):
        convert_dumps(tmp_path / "in", tmp_path / "again", progress=cancel_after_first, cancel=token)
    assert len(list((tmp_path / "again").iterdir())) == 1  # the first file; no temp file left behind


def test_npy_header_is_the_one_np_save_writes(tmp_path: Path) -> None:
    values = np.random.default_rng(5).standard_normal((2, 3, 4)).astype(np.float16)
    name = _dump_name("bytes")
    _file(tmp_path / "in", name, RawTensorSpec.of(values))
    convert_dumps(tmp_path / "in", tmp_path / "out")
    np.save(tmp_path / "expected.npy", values)
    assert (tmp_path / "out" / npy_name(name, "output", 0)).read_bytes() == (tmp_path / "expected.npy").read_bytes()
