"""file_contains_any (core/ge/native_find.py): the native search and the `in` fallback agree on any bytes."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.ge.native_find import _finder, file_contains_any
from autofuse_studio.core.precision import native

MARKERS = (b"AscBackend", b"_datadump_origin_name")


def _bytes(rng: np.random.Generator, size: int) -> bytes:
    """Text-like bytes that often hold marker prefixes (the near misses a search must pass over)."""
    alphabet = np.frombuffer(b'AscBkend_datumpoigrn"{}: ,', dtype=np.uint8)
    data = bytearray(rng.choice(alphabet, size=size).tobytes())
    for _ in range(int(rng.integers(0, 6))):  # near misses: a marker cut short
        marker = MARKERS[int(rng.integers(0, 2))]
        at = int(rng.integers(0, max(1, size - len(marker))))
        data[at:at + len(marker) - 1] = marker[:-1]
    return bytes(data)


@pytest.mark.parametrize("seed", range(40))
def test_native_and_fallback_agree_with_in_at_any_chunk_size(seed: int, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(0, 3000))
    data = bytearray(_bytes(rng, size))
    if size > 30 and rng.random() < 0.5:  # a whole marker somewhere, at chunk edges as often as not
        marker = MARKERS[int(rng.integers(0, 2))]
        at = int(rng.integers(0, size - len(marker)))
        data[at:at + len(marker)] = marker
    path = tmp_path / "graph.json"
    path.write_bytes(bytes(data))
    expected = any(marker in data for marker in MARKERS)
    for chunk in (1, 7, int(rng.integers(1, 64)), 1 << 12):
        assert file_contains_any(path, MARKERS, chunk_bytes=chunk) == expected, chunk
        monkeypatch.setenv(native.DISABLE_ENV, "1")
        assert file_contains_any(path, MARKERS, chunk_bytes=chunk) == expected, chunk
        monkeypatch.delenv(native.DISABLE_ENV)


def test_the_native_search_is_built_and_finds_the_first_of_several_needles() -> None:
    find = _finder()
    assert find is not None  # the kernel is built by every install (setup.py)
    search = b"xx_datadump_origin_name AscBackend"
    buffer = ctypes.create_string_buffer(search, len(search))
    needles = (ctypes.c_char_p * 2)(*MARKERS)
    lengths = (ctypes.c_int64 * 2)(*map(len, MARKERS))
    assert find(ctypes.addressof(buffer), len(search), needles, lengths, 2) == 2
    assert find(ctypes.addressof(buffer), len(search) - 1, needles, lengths, 1) == -1  # 'AscBackend' cut short


def test_an_unreadable_or_missing_file_holds_nothing(tmp_path: Path) -> None:
    assert not file_contains_any(tmp_path / "gone.json", MARKERS)
    assert not file_contains_any(tmp_path, MARKERS)  # a folder
