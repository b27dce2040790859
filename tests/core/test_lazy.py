"""LazyTensor: blocks of a merged, cropped, transposed view equal the materialised tensor."""

from __future__ import annotations

import numpy as np
import pytest

from autofuse_studio.core.dumps.lazy import LazyTensor, decode_bf16, iter_aligned_pairs, iter_blocks, rechunk


def _nc1hwc0_to_nchw(n: int, c: int, h: int, w: int, c0: int = 16) -> tuple[LazyTensor, np.ndarray]:
    rng = np.random.default_rng(0)
    c1 = -(-c // c0)
    device = rng.standard_normal((n, c1, h, w, c0)).astype(np.float32)
    view = device.transpose(0, 1, 4, 2, 3)  # n, c1, c0, h, w
    expected = view.reshape(n, c1 * c0, h, w)[:, :c]
    return LazyTensor(view, (1, 2, 1, 1), (n, c, h, w)), np.ascontiguousarray(expected)


@pytest.mark.parametrize("max_elements", [1, 7, 64, 1000, 10**6])
def test_blocks_concatenate_to_the_materialised_tensor(max_elements: int) -> None:
    tensor, expected = _nc1hwc0_to_nchw(2, 23, 3, 5)
    np.testing.assert_array_equal(tensor.materialize(), expected)
    blocks = list(iter_blocks(tensor, max_elements))
    np.testing.assert_array_equal(np.concatenate(blocks), expected.reshape(-1))
    assert all(block.size <= max(max_elements, 5) for block in blocks)


def test_rows_over_a_merged_first_axis() -> None:
    data = np.arange(3 * 16 * 4, dtype=np.int32).reshape(3, 16, 4)
    tensor = LazyTensor(data, (2, 1), (40, 4))
    expected = data.reshape(48, 4)[:40]
    np.testing.assert_array_equal(tensor.rows(5, 37), expected[5:37])
    np.testing.assert_array_equal(tensor.sub(17).materialize(), expected[17])


def test_aligned_pairs_of_different_shapes_same_size() -> None:
    left = LazyTensor.plain(np.arange(60.0).reshape(6, 10))
    right = LazyTensor.plain(np.arange(60.0).reshape(3, 4, 5))
    pairs = list(iter_aligned_pairs(left, right, max_elements=8))
    for a, b in pairs:
        np.testing.assert_array_equal(a, b)
    assert sum(a.size for a, _ in pairs) == 60


def test_rechunk_exact_sizes() -> None:
    blocks = [np.arange(5), np.arange(5, 7), np.arange(7, 20)]
    chunks = list(rechunk(iter(blocks), 6))
    assert [c.size for c in chunks] == [6, 6, 6, 2]
    np.testing.assert_array_equal(np.concatenate(chunks), np.arange(20))


def test_bf16_decoding() -> None:
    values = np.array([1.0, -2.5, 3.140625], dtype=np.float32)
    bits = (values.view(np.uint32) >> 16).astype(np.uint16)
    tensor = LazyTensor.plain(bits.view("V2"), decode=decode_bf16, logical_dtype="bfloat16")
    np.testing.assert_array_equal(tensor.materialize(), values)
    assert tensor.dtype == np.float32
    assert tensor.dtype_name == "bfloat16"
