"""to_origin_layout against the explicit numpy formulas of ge-dump-formats.md §2.4, garbage padding."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.dumps.layout import (
    PLAIN_FORMATS,
    LayoutInfo,
    is_private_format,
    to_origin_layout,
)
from autofuse_studio.core.dumps.lazy import LazyTensor, decode_bf16, iter_blocks
from autofuse_studio.core.dumps.npy import open_npy
from autofuse_studio.core.errors import FormatConversionError, FormatUnsupported
from tests.conftest import samples_dir

Shape = tuple[int, ...]


def _garbage(shape: Shape, seed: int = 0) -> np.ndarray:
    """Every element random, so padding holds garbage that a missing crop would expose."""
    return np.random.default_rng(seed).uniform(-1e6, 1e6, size=shape).astype(np.float32)


# --- explicit formulas (ge-dump-formats.md §2.4, msaccucmp builtin_format_convert) ----------------
def f_5hd_nchw(a: np.ndarray, c: int) -> np.ndarray:
    n, c1, h, w, c0 = a.shape
    return a.reshape(n, c1, h, w, c0).transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)[:, :c]


def f_5hd_nhwc(a: np.ndarray, c: int) -> np.ndarray:
    n, c1, h, w, c0 = a.shape
    return a.reshape(n, c1, h, w, c0).transpose(0, 2, 3, 1, 4).reshape(n, h, w, c1 * c0)[..., :c]


def f_5hd_hwcn(a: np.ndarray, c: int) -> np.ndarray:
    n, c1, h, w, c0 = a.shape
    return a.reshape(n, c1, h, w, c0).transpose(2, 3, 1, 4, 0).reshape(h, w, c1 * c0, n)[:, :, :c, :]


def f_6hd_ncdhw(a: np.ndarray, c: int) -> np.ndarray:
    n, d, c1, h, w, c0 = a.shape
    return a.transpose(0, 2, 5, 1, 3, 4).reshape(n, c1 * c0, d, h, w)[:, :c]


def f_6hd_ndhwc(a: np.ndarray, c: int) -> np.ndarray:
    n, d, c1, h, w, c0 = a.shape
    return a.transpose(0, 1, 3, 4, 2, 5).reshape(n, d, h, w, c1 * c0)[..., :c]


def f_nz_nd(a: np.ndarray, batch: Shape, h: int, w: int) -> np.ndarray:
    c1, n1, n0, c0 = a.shape[-4:]
    b = math.prod(batch) or 1
    t = a.reshape(b, c1, n1, n0, c0).transpose(0, 2, 3, 1, 4).reshape(b, n1 * n0, c1 * c0)[:, :h, :w]
    return t.reshape(*batch, h, w)


def f_fz_nchw(a: np.ndarray, n: int, c: int, h: int, w: int) -> np.ndarray:
    _, n1, n0, c0 = a.shape
    c1 = a.shape[0] // (h * w)
    return a.reshape(c1, h, w, n1, n0, c0).transpose(3, 4, 0, 5, 1, 2).reshape(n1 * n0, c1 * c0, h, w)[:n, :c]


def f_fz_hwcn(a: np.ndarray, n: int, c: int, h: int, w: int) -> np.ndarray:
    _, n1, n0, c0 = a.shape
    c1 = a.shape[0] // (h * w)
    t = a.reshape(c1, h, w, n1, n0, c0).transpose(1, 2, 0, 5, 3, 4).reshape(h, w, c1 * c0, n1 * n0)
    return t[:, :, :c, :n]


def f_fz3d_ncdhw(a: np.ndarray, n: int, c: int, d: int, h: int, w: int) -> np.ndarray:
    # By analogy with FRACTAL_Z: (C1*D*H*W, N1, N0, C0).
    _, n1, n0, c0 = a.shape
    c1 = a.shape[0] // (d * h * w)
    t = a.reshape(c1, d, h, w, n1, n0, c0).transpose(4, 5, 0, 6, 1, 2, 3)
    return t.reshape(n1 * n0, c1 * c0, d, h, w)[:n, :c]


def _check(converted: LazyTensor, raw: np.ndarray, expected: np.ndarray) -> None:
    """Materialised and block-wise values equal the formula, and the view is still the raw memory."""
    assert np.shares_memory(converted.view, raw)
    assert converted.shape == expected.shape
    np.testing.assert_array_equal(converted.materialize(), expected)
    for max_elements in (1, 7, 50, 10**6):
        blocks = list(iter_blocks(converted, max_elements))
        np.testing.assert_array_equal(np.concatenate(blocks), expected.reshape(-1))


Case = tuple[str, Shape, str, Shape, str | None, Callable[[np.ndarray], np.ndarray]]
CASES: list[Case] = [
    # layout, device shape, origin format, origin shape, target, formula
    ("NC1HWC0", (1, 2, 1, 1804, 16), "NCHW", (1, 23, 1, 1804), "NCHW", lambda a: f_5hd_nchw(a, 23)),
    ("NC1HWC0", (2, 3, 4, 5, 16), "NCHW", (2, 40, 4, 5), "NHWC", lambda a: f_5hd_nhwc(a, 40)),
    ("NC1HWC0", (2, 3, 4, 5, 16), "NHWC", (2, 4, 5, 33), None, lambda a: f_5hd_nhwc(a, 33)),
    ("NC1HWC0", (2, 3, 4, 5, 16), "NCHW", (2, 48, 4, 5), "ND", lambda a: f_5hd_nchw(a, 48)),
    ("NC1HWC0", (2, 3, 4, 5, 16), "ND", (2, 4, 5, 35), "ND", lambda a: f_5hd_nhwc(a, 35)),
    ("NC1HWC0", (2, 3, 4, 5, 16), None, None, None, lambda a: f_5hd_nhwc(a, 48)),
    ("NC1HWC0", (3, 2, 4, 5, 16), "HWCN", (4, 5, 20, 3), "HWCN", lambda a: f_5hd_hwcn(a, 20)),
    ("NC1HWC0_C04", (2, 2, 3, 3, 4), "NCHW", (2, 7, 3, 3), "NCHW", lambda a: f_5hd_nchw(a, 7)),
    ("NC1HWC0", (2, 1, 3, 3, 32), "NCHW", (2, 17, 3, 3), "NCHW", lambda a: f_5hd_nchw(a, 17)),  # int8 C0
    ("NDC1HWC0", (2, 3, 2, 4, 5, 16), "NCDHW", (2, 20, 3, 4, 5), "NDHWC", lambda a: f_6hd_ndhwc(a, 20)),
    ("NDC1HWC0", (2, 3, 2, 4, 5, 16), "NCDHW", (2, 20, 3, 4, 5), None, lambda a: f_6hd_ncdhw(a, 20)),
    ("NDC1HWC0", (2, 3, 2, 4, 5, 16), "ND", (2, 3, 4, 5, 21), "ND", lambda a: f_6hd_ndhwc(a, 21)),
    ("NDC1HWC0", (2, 1, 2, 4, 5, 16), "NCHW", (2, 20, 4, 5), "NCHW", lambda a: f_6hd_ncdhw(a, 20)[:, :, 0]),
    ("FRACTAL_NZ", (2, 3, 3, 4, 16, 16), "ND", (2, 3, 50, 40), "ND", lambda a: f_nz_nd(a, (2, 3), 50, 40)),
    ("FRACTAL_NZ", (3, 4, 16, 16), "ND", (50, 40), None, lambda a: f_nz_nd(a, (), 50, 40)),
    ("FRACTAL_NZ", (188, 1, 16, 16), "ND", (3000,), "ND", lambda a: f_nz_nd(a, (), 1, 3000).reshape(3000)),
    ("FRACTAL_NZ", (5, 2, 4, 16, 16), "ND", (5, 60, 30), "ND", lambda a: f_nz_nd(a, (5,), 60, 30)),
    (
        "FRACTAL_NZ",
        (2, 3, 2, 4, 16, 16),
        "NCHW",
        (2, 3, 50, 30),
        "NHWC",
        lambda a: f_nz_nd(a, (2, 3), 50, 30).transpose(0, 2, 3, 1),
    ),
    ("FRACTAL_NZ_C0_32", (2, 2, 16, 32), "ND", (20, 40), "ND", lambda a: f_nz_nd(a, (), 20, 40)),
    ("FRACTAL_Z", (49, 4, 16, 16), "NCHW", (64, 3, 7, 7), "NCHW", lambda a: f_fz_nchw(a, 64, 3, 7, 7)),
    ("FRACTAL_Z", (10, 32, 16, 16), "NCHW", (512, 23, 1, 5), "NCHW", lambda a: f_fz_nchw(a, 512, 23, 1, 5)),
    ("FRACTAL_Z", (18, 2, 16, 16), "HWCN", (3, 3, 20, 30), None, lambda a: f_fz_hwcn(a, 30, 20, 3, 3)),
    ("FRACTAL_Z", (18, 2, 16, 16), "NCHW", (30, 20, 3, 3), "HWCN", lambda a: f_fz_hwcn(a, 30, 20, 3, 3)),
    (
        "FRACTAL_Z_3D",
        (24, 2, 16, 16),
        "NCDHW",
        (20, 17, 2, 2, 3),
        None,
        lambda a: f_fz3d_ncdhw(a, 20, 17, 2, 2, 3),
    ),
    # plain -> plain permutations
    ("NCHW", (2, 3, 4, 5), "NCHW", (2, 3, 4, 5), "NHWC", lambda a: a.transpose(0, 2, 3, 1)),
    ("NHWC", (2, 3, 4, 5), "NHWC", (2, 3, 4, 5), "NCHW", lambda a: a.transpose(0, 3, 1, 2)),
    ("HWCN", (2, 3, 4, 5), "HWCN", (2, 3, 4, 5), "NCHW", lambda a: a.transpose(3, 2, 0, 1)),
    ("HWCN", (2, 3, 4, 5), "HWCN", (2, 3, 4, 5), "NHWC", lambda a: a.transpose(3, 0, 1, 2)),
    ("NDHWC", (2, 3, 4, 5, 6), "NDHWC", None, "NCDHW", lambda a: a.transpose(0, 4, 1, 2, 3)),
    ("NCDHW", (2, 3, 4, 5, 6), "NCDHW", None, "NDHWC", lambda a: a.transpose(0, 2, 3, 4, 1)),
    (
        "NHWC",
        (2, 3, 4, 5),
        "NCHW",
        (2, 5, 3, 4),
        "ND",
        lambda a: a.transpose(0, 3, 1, 2),
    ),  # ND -> origin order
]


@pytest.mark.parametrize(("layout", "device", "origin_format", "origin", "target", "formula"), CASES)
def test_conversion_matches_the_formula(
    layout: str,
    device: Shape,
    origin_format: str | None,
    origin: Shape | None,
    target: str | None,
    formula: Callable[[np.ndarray], np.ndarray],
) -> None:
    raw = _garbage(device)
    converted, was_converted = to_origin_layout(
        LazyTensor.plain(raw), LayoutInfo(layout, origin_format, origin), target
    )
    assert was_converted
    _check(converted, raw, formula(raw))


def test_real_5hd_example_round_trip() -> None:
    """NCHW [1,23,1,1804] packed into 5HD [1,2,1,1804,16] with garbage padding comes back exactly."""
    origin = _garbage((1, 23, 1, 1804), seed=1)
    padded = np.concatenate([origin, _garbage((1, 9, 1, 1804), seed=2) + 1e9], axis=1)  # C 23 -> 32
    device = np.ascontiguousarray(padded.reshape(1, 2, 16, 1, 1804).transpose(0, 1, 3, 4, 2))
    assert device.shape == (1, 2, 1, 1804, 16)
    converted, _ = to_origin_layout(
        LazyTensor.plain(device), LayoutInfo("NC1HWC0", "NCHW", (1, 23, 1, 1804)), "NCHW"
    )
    _check(converted, device, origin)


def test_real_nz_example_round_trip() -> None:
    """ND [2,50,40] packed into NZ [2,3,4,16,16] with garbage padding comes back exactly."""
    origin = _garbage((2, 50, 40), seed=3)
    padded = _garbage((2, 64, 48), seed=4) + 1e9
    padded[:, :50, :40] = origin
    device = np.ascontiguousarray(padded.reshape(2, 4, 16, 3, 16).transpose(0, 3, 1, 2, 4))
    converted, _ = to_origin_layout(
        LazyTensor.plain(device), LayoutInfo("FRACTAL_NZ", "ND", (2, 50, 40)), None
    )
    _check(converted, device, origin)


def test_minus_one_in_origin_shape() -> None:
    raw = _garbage((2, 2, 3, 4, 16))
    info = LayoutInfo("NC1HWC0", "NCHW", (-1, 20, -1, 4))
    converted, _ = to_origin_layout(LazyTensor.plain(raw), info, "NCHW")
    _check(converted, raw, f_5hd_nchw(raw, 20))
    with pytest.raises(FormatConversionError, match=r"\[2, 2, 3, 4, 16\].*C is -1"):
        to_origin_layout(LazyTensor.plain(raw), LayoutInfo("NC1HWC0", "NCHW", (2, -1, 3, 4)), "NCHW")


def test_bf16_decoder_survives_the_conversion() -> None:
    values = _garbage((1, 1, 2, 2, 16))
    bits = (values.view(np.uint32) >> 16).astype(np.uint16).view("V2")
    tensor = LazyTensor.plain(bits, decode=decode_bf16, logical_dtype="bfloat16")
    converted, _ = to_origin_layout(tensor, LayoutInfo("NC1HWC0", "NCHW", (1, 5, 2, 2)), "NCHW")
    assert converted.dtype_name == "bfloat16"
    np.testing.assert_array_equal(converted.materialize(), f_5hd_nchw(decode_bf16(bits), 5))


@pytest.mark.parametrize(
    ("layout", "origin_format", "target"),
    [
        ("NCHW", "NCHW", "NCHW"),
        ("NC1HWC0", "NCHW", "NC1HWC0"),
        ("ND", "ND", "NCHW"),
        ("ND", None, None),
        (None, None, "NCHW"),
        ("NCHW", "NCHW", "ND"),
        ("NCHW", "ND", None),
        ("FORMAT_RESERVED", None, "ND"),
    ],
)
def test_nothing_to_do(layout: str | None, origin_format: str | None, target: str | None) -> None:
    tensor = LazyTensor.plain(_garbage((2, 3, 4, 5)))
    converted, was_converted = to_origin_layout(tensor, LayoutInfo(layout, origin_format, None), target)
    assert converted is tensor
    assert not was_converted


@pytest.mark.parametrize(
    ("layout", "device", "origin_format", "target"),
    [
        ("C1HWNCoC0", (1, 3, 3, 4, 16, 16), "HWCN", "HWCN"),
        ("FRACTAL_ZN_LSTM", (2, 2, 16, 16), "ND", "ND"),
        ("NCHW", (2, 3, 4, 5), "NCHW", "NDHWC"),
        ("NC1HWC0", (2, 3, 4, 5, 16), "NCHW", "NCDHW"),
    ],
)
def test_unsupported_conversions_name_both_layouts(
    layout: str, device: Shape, origin_format: str, target: str
) -> None:
    with pytest.raises(FormatUnsupported, match=f"{layout}.*{target}"):
        to_origin_layout(LazyTensor.plain(_garbage(device)), LayoutInfo(layout, origin_format, None), target)


@pytest.mark.parametrize(
    ("layout", "device", "origin_format", "origin", "message"),
    [
        ("NC1HWC0", (2, 3, 4, 16), "NCHW", (2, 40, 3, 4), r"\[2, 3, 4, 16\].*have rank 5, not 4"),
        ("NC1HWC0", (2, 2, 3, 4, 16), "NCHW", (2, 40, 3, 4), r"\[2, 2, 3, 4, 16\].*\[2, 40, 3, 4\].*C=40"),
        ("NC1HWC0", (2, 3, 3, 4, 16), "NCHW", (2, 40, 3, 5), r"W=5"),
        ("NC1HWC0", (2, 3, 3, 4, 16), "NCHW", (2, 40, 3), r"origin_shape has rank 3"),
        ("FRACTAL_NZ", (3, 4, 16, 16), "ND", (70, 40), r"=70"),
        ("FRACTAL_NZ", (3, 4, 16, 16), "ND", (2, 50, 40), r"rank 2"),
        ("FRACTAL_NZ", (2, 3, 4, 16, 16), "ND", (4, 50, 40), r"=4 does not fit"),
        ("FRACTAL_Z", (49, 4, 16, 16), "NCHW", None, r"needs a 4-D origin_shape"),
        ("FRACTAL_Z", (49, 4, 16, 16), "NCHW", (64, 3, 5, 5), r"not a multiple of 5\*5"),
        ("NCHW", (2, 3, 4), "NCHW", None, r"have rank 4, not 3"),
    ],
)
def test_inconsistent_shapes(
    layout: str, device: Shape, origin_format: str, origin: Shape | None, message: str
) -> None:
    target = "NHWC" if layout == "NCHW" else None
    with pytest.raises(FormatConversionError, match=message):
        to_origin_layout(
            LazyTensor.plain(_garbage(device)), LayoutInfo(layout, origin_format, origin), target
        )


def test_already_converted_tensors_are_refused() -> None:
    raw = _garbage((1, 2, 2, 2, 16))
    converted, _ = to_origin_layout(LazyTensor.plain(raw), LayoutInfo("NC1HWC0", "NCHW", (1, 20, 2, 2)), None)
    with pytest.raises(FormatConversionError, match="already converted"):
        to_origin_layout(converted, LayoutInfo("NC1HWC0", "NCHW", (1, 20, 2, 2)), None)


def test_private_and_plain_formats() -> None:
    assert is_private_format("NC1HWC0")
    assert is_private_format("FORMAT_FRACTAL_NZ")
    assert not is_private_format("NCHW")
    assert not is_private_format("ND")
    assert not is_private_format(None)
    assert not is_private_format("FORMAT_RESERVED")
    assert {"ND", "NCHW", "NHWC", "HWCN", "NDHWC", "NCDHW"} <= PLAIN_FORMATS


def test_sample_5hd_outputs_match_the_plain_side() -> None:
    """nwa-small: Pad (C=3 in C0=16) and Square (C=16) convert to the af-close NHWC data; 5dbad is 4-D."""
    fused = DumpIndex.build(samples_dir("nwa-small", "af_open_data"))
    plain = DumpIndex.build(samples_dir("nwa-small", "af_close_data"))
    for fused_op, origin_op in (("autofuse_12_Pad", "Pad_12"), ("autofuse_2_Square", "Square_2")):
        fused_path = fused.lookup(fused_op, "output", 0).path
        origin_path = plain.lookup(origin_op, "output", 0).path
        assert fused_path is not None
        assert origin_path is not None
        expected = open_npy(origin_path).materialize()
        info = LayoutInfo("NC1HWC0", None, expected.shape)
        converted, was_converted = to_origin_layout(open_npy(fused_path), info, "NHWC")
        assert was_converted
        np.testing.assert_allclose(converted.materialize(), expected, rtol=1e-6)
    bad = fused.lookup("autofuse_14_5dbad", "output", 0).path
    assert bad is not None
    with pytest.raises(FormatConversionError, match=r"\[1, 2, 2, 16\].*rank 5, not 4"):
        to_origin_layout(open_npy(bad), LayoutInfo("NC1HWC0", None, None), "NHWC")


def test_pair_messages_name_both_sides_like_the_reference(tmp_path: Path) -> None:
    from autofuse_studio.core.precision.pair import FORMAT_UNSUPPORTED, PairSide, compare_pair

    path = tmp_path / "a.npy"
    np.save(path, np.ones((2, 3, 4, 5), np.float32))
    result = compare_pair(PairSide(path, LayoutInfo("NCHW", None, None), "f output 0"),
                          PairSide(path, LayoutInfo("C1HWNCoC0", None, None), "o output 0"))
    assert result.status == FORMAT_UNSUPPORTED
    assert result.message.startswith("Unsupported format conversion - f output 0: NCHW vs o output 0: C1HWNCoC0 (")
