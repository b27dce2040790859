"""open_npy: memory-mapped, never unpickles, clear errors for broken files, bf16 and Fortran order."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import iter_blocks
from autofuse_studio.core.dumps.npy import is_memory_mapped, open_npy
from autofuse_studio.core.errors import NpyLoadError
from tests.conftest import samples_dir


class _Payload:
    """An object whose unpickling creates a marker file: proof that a pickle was executed."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.mkdir, (str(self.marker),)


def _write_raw(path: Path, header: dict[str, object], data: bytes) -> Path:
    """An NPY with a hand-made header (for descriptors np.save cannot write)."""
    with path.open("wb") as handle:
        np.lib.format.write_array_header_1_0(handle, header)
        handle.write(data)
    return path


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int64", "uint8", "bool", ">f4"])
def test_values_and_memory_map(tmp_path: Path, dtype: str) -> None:
    data = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    path = tmp_path / "a.npy"
    np.save(path, data)
    tensor = open_npy(path)
    assert is_memory_mapped(tensor.view)
    assert tensor.shape == (2, 3, 4)
    np.testing.assert_array_equal(tensor.materialize(), data)


def test_memory_map_reflects_the_file(tmp_path: Path) -> None:
    path = tmp_path / "a.npy"
    np.save(path, np.zeros(16, dtype=np.float32))
    tensor = open_npy(path)
    writer = np.load(path, mmap_mode="r+")
    writer[3] = 7.0
    writer.flush()
    del writer
    # A copy made at open time would still read 0.
    assert tensor.view[3] == 7.0
    assert not tensor.view.flags.writeable


def test_fortran_order_is_a_transposed_map(tmp_path: Path) -> None:
    data = np.asfortranarray(np.arange(12, dtype=np.int32).reshape(3, 4))
    path = tmp_path / "f.npy"
    np.save(path, data)
    tensor = open_npy(path)
    assert is_memory_mapped(tensor.view)
    assert tensor.shape == (3, 4)
    np.testing.assert_array_equal(tensor.materialize(), data)
    np.testing.assert_array_equal(np.concatenate(list(iter_blocks(tensor, 5))), data.reshape(-1))


def test_zero_dimensional_and_empty_arrays(tmp_path: Path) -> None:
    np.save(tmp_path / "s.npy", np.float32(3.5))
    np.save(tmp_path / "e.npy", np.zeros((0, 3), dtype=np.float16))
    scalar = open_npy(tmp_path / "s.npy")
    assert scalar.shape == ()
    np.testing.assert_array_equal(scalar.materialize(), np.float32(3.5))
    empty = open_npy(tmp_path / "e.npy")
    assert empty.shape == (0, 3)
    assert list(iter_blocks(empty)) == []


def test_version_2_header(tmp_path: Path) -> None:
    data = np.arange(5, dtype=np.float64)
    path = tmp_path / "v2.npy"
    with path.open("wb") as handle:
        np.lib.format.write_array(handle, data, version=(2, 0))
    np.testing.assert_array_equal(open_npy(path).materialize(), data)


@pytest.mark.parametrize("descr", ["<V2", "|V2"])
def test_bf16_void_is_decoded(tmp_path: Path, descr: str) -> None:
    values = np.array([[1.0, -2.5], [3.140625, 0.0]], dtype=np.float32)
    bits = (values.view(np.uint32) >> 16).astype("<u2")
    path = _write_raw(
        tmp_path / "bf16.npy", {"descr": descr, "fortran_order": False, "shape": (2, 2)}, bits.tobytes()
    )
    tensor = open_npy(path)
    assert tensor.dtype_name == "bfloat16"
    assert tensor.dtype == np.float32
    np.testing.assert_array_equal(tensor.materialize(), values)


def test_object_array_never_unpickles(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.npy"
    np.save(path, np.array([_Payload(marker)], dtype=object), allow_pickle=True)
    with pytest.raises(NpyLoadError, match="holds Python objects") as info:
        open_npy(path)
    assert str(path) in str(info.value)
    assert not marker.exists()
    # The payload is real: unpickling it on purpose does create the marker.
    np.load(path, allow_pickle=True)
    assert marker.exists()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "is empty"),
        (b"not an npy file", "not an NPY file"),
        (b"\x93NUMPY\x01\x00\x40\x00{'descr': '<f4', 'fortr", "broken NPY header"),
        (b"\x93NUMPY\x01\x00\x10\x00{'descr': 1}   \n", "broken NPY header"),
        (b"\x93NUMPY\x09\x00\x10\x00{}             \n", "version 9.0, which is not supported"),
    ],
)
def test_garbage_files(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "bad.npy"
    path.write_bytes(content)
    with pytest.raises(NpyLoadError, match=reason) as info:
        open_npy(path)
    assert info.value.path == str(path)


def test_truncated_data(tmp_path: Path) -> None:
    path = tmp_path / "t.npy"
    np.save(path, np.arange(100, dtype=np.float32))
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(NpyLoadError, match=r"truncated.*400 bytes.*390 bytes"):
        open_npy(path)


@pytest.mark.parametrize(
    ("descr", "reason"),
    [
        ("|V1", r"unsupported dtype \|V1 \(1-byte opaque"),
        ("<c8", "unsupported dtype <c8"),
        ("<U3", "unsupported dtype <U3"),
        ("|S4", "unsupported dtype"),
        ("<M8[s]", "unsupported dtype"),
        ([("a", "<f4"), ("b", "<i4")], "structured"),
        ("<f1", "broken NPY header"),  # ml_dtypes float8_e5m2: not a numpy descriptor
    ],
)
def test_unsupported_dtypes(tmp_path: Path, descr: object, reason: str) -> None:
    path = _write_raw(tmp_path / "u.npy", {"descr": descr, "fortran_order": False, "shape": (2,)}, b"\0" * 64)
    with pytest.raises(NpyLoadError, match=reason):
        open_npy(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(NpyLoadError, match="Cannot read"):
        open_npy(tmp_path / "absent.npy")
    with pytest.raises(NpyLoadError, match="Cannot read"):
        open_npy(tmp_path)


def test_sample_files() -> None:
    folder = samples_dir("nwa-small")
    with pytest.raises(NpyLoadError, match="not an NPY file"):
        open_npy(folder / "m2_garbage.npy")
    with pytest.raises(NpyLoadError, match="holds Python objects"):
        open_npy(folder / "m2_obj.npy")
    for path in sorted(folder.glob("af_*_data/*.npy")):
        expected = np.load(path)
        np.testing.assert_array_equal(open_npy(path).materialize(), expected)


@pytest.mark.parametrize(
    ("shape", "dtype", "order"),
    [((500, 520), "<f2", "C"), ((), "<f4", "C"), ((7,), "|b1", "C"), ((3, 4), "<i8", "F"), ((2, 0, 3), ">f4", "C")],
)
def test_fast_header_path_agrees_with_numpy(tmp_path: Path, shape: tuple[int, ...], dtype: str, order: str) -> None:
    data = (np.arange(int(np.prod(shape))) % 2).astype(dtype).reshape(shape, order=order)
    path = tmp_path / "x.npy"
    np.save(path, data)
    tensor = open_npy(path)
    assert tensor.shape == data.shape
    np.testing.assert_array_equal(tensor.materialize(), data)


READ_WHOLE = 1 << 20  # read_below large enough to read every test file instead of mapping it


@pytest.mark.parametrize("dtype", ["float16", "<f4", ">f4", "int64", "bool"])
def test_small_files_read_whole_are_read_only_copies(tmp_path: Path, dtype: str) -> None:
    data = np.asfortranarray((np.arange(24).reshape(4, 6) % 5).astype(dtype))
    path = tmp_path / "r.npy"
    np.save(path, data)
    tensor = open_npy(path, read_below=READ_WHOLE)
    assert not is_memory_mapped(tensor.view)
    assert not tensor.view.flags.writeable
    np.testing.assert_array_equal(tensor.materialize(), data)


def test_files_above_the_read_limit_are_still_mapped(tmp_path: Path) -> None:
    path = tmp_path / "big.npy"
    np.save(path, np.zeros(20_000, dtype=np.float32))  # 80 kB
    assert is_memory_mapped(open_npy(path, read_below=1024).view)
    assert not is_memory_mapped(open_npy(path, read_below=200_000).view)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"not an npy file", "not an NPY file"),
        (b"\x93NUMPY\x01\x00\x40\x00{'descr': '<f4', 'fortr", "broken NPY header"),
        (b"\x93NUMPY\x09\x00\x10\x00{}             \n", "version 9.0, which is not supported"),
    ],
)
def test_garbage_read_whole_gives_the_same_errors(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "bad.npy"
    path.write_bytes(content)
    with pytest.raises(NpyLoadError, match=reason):
        open_npy(path, read_below=READ_WHOLE)


def test_truncated_and_pickled_read_whole(tmp_path: Path) -> None:
    truncated = tmp_path / "t.npy"
    np.save(truncated, np.arange(100, dtype=np.float32))
    truncated.write_bytes(truncated.read_bytes()[:-10])
    with pytest.raises(NpyLoadError, match=r"truncated.*400 bytes.*390 bytes"):
        open_npy(truncated, read_below=READ_WHOLE)
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil.npy"
    np.save(evil, np.array([_Payload(marker)], dtype=object), allow_pickle=True)
    with pytest.raises(NpyLoadError, match="holds Python objects"):
        open_npy(evil, read_below=READ_WHOLE)
    assert not marker.exists()


@pytest.mark.parametrize(("dtype", "order", "shape"), [("float16", "C", (3, 5)), ("<V2", "C", (4,)),
                                                       ("float32", "F", (2, 3, 4)), ("int8", "C", ())])
def test_a_header_read_before_gives_the_same_tensor(dtype: str, order: str, shape: tuple[int, ...]) -> None:
    import io

    from autofuse_studio.core.dumps.npy import _KNOWN_HEADERS, tensor_from_contents

    def npy(values: np.ndarray) -> bytes:
        buffer = io.BytesIO()
        np.lib.format.write_array(buffer, values, allow_pickle=False)
        return buffer.getvalue()

    rng = np.random.default_rng(4)
    first, second = (np.asarray(rng.integers(0, 100, shape), order=order).astype(dtype, order=order)
                     for _ in range(2))
    tensor_from_contents(npy(first), Path("first.npy"))
    assert any(header.startswith(b"\x93NUMPY") for header in _KNOWN_HEADERS)
    contents = npy(second)
    again = tensor_from_contents(contents, Path("second.npy"))
    reference = open_npy_bytes(contents)
    assert again.shape == reference.shape and again.logical_dtype == reference.logical_dtype
    assert np.array_equal(again.materialize(), reference.materialize(), equal_nan=True)
    # The same header over too few or too many bytes is still refused, with read_header's sentence.
    if np.prod(shape) > 0:
        with pytest.raises(NpyLoadError, match=r"second\.npy"):
            tensor_from_contents(contents[:-1], Path("second.npy"))
    with pytest.raises(NpyLoadError, match=r"second\.npy"):
        tensor_from_contents(contents + b"\0", Path("second.npy"))


def open_npy_bytes(contents: bytes) -> object:
    """The tensor read through the checked route alone (a header not seen before: the cache emptied)."""
    from autofuse_studio.core.dumps import npy

    saved = dict(npy._KNOWN_HEADERS)
    npy._KNOWN_HEADERS.clear()
    try:
        return npy.tensor_from_contents(contents, Path("reference.npy"))
    finally:
        npy._KNOWN_HEADERS.update(saved)
