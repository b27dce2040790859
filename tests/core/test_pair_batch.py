"""compare_pairs (files read and pairs measured in batches by the kernel) gives compare_pair's result for every pair."""

from __future__ import annotations

import dataclasses
import math
import os
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.dumps.layout import LayoutInfo
from autofuse_studio.core.dumps.lazy import DEFAULT_BLOCK_ELEMENTS
from autofuse_studio.core.errors import Cancelled
from autofuse_studio.core.precision import metrics, native, pair, pair_batch
from autofuse_studio.core.precision.metrics import EPSILON, PASS_RATIO_LIMITS
from autofuse_studio.core.precision.pair import PairResult, PairSide, compare_pair, pair_side
from autofuse_studio.core.precision.pair_batch import PairKey, compare_pairs
from autofuse_studio.core.progress import CancelToken
from tests.core.test_stats_rows import random_csv
from tests.synth.layouts import nc1hwc0_shape, nz_shape, to_nc1hwc0, to_nz, to_v2

NATIVE_BUILT = native.kernel_library() is not None
needs_kernel = pytest.mark.skipif(not NATIVE_BUILT, reason="native kernel not built: compare_pairs is compare_pair")

PLAIN = LayoutInfo("ND", "ND", None)
DEFAULT_STATS_HEADER = ("Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,"
                        "Nan Count,Negative Inf Count,Positive Inf Count")
DTYPES = ["float16", "float32", "float64", "bf16", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "bool", ">f4", ">i2"]


def _values(rng: np.random.Generator, dtype: str, shape: tuple[int, ...], base: np.ndarray | None = None
            ) -> np.ndarray:
    """Random values of `dtype` (near `base` when given, so the pair's errors are small but not zero)."""
    count = math.prod(shape)
    floats = rng.standard_normal(count) * 3 if base is None else base.reshape(-1).astype(np.float64)
    if base is not None and rng.random() < 0.8:
        floats = floats * (1 + rng.standard_normal(count) * 1e-3)
    if dtype == "bf16":
        return to_v2(floats.astype(np.float32)).reshape(shape)
    if dtype == "bool":
        return (floats > 0).reshape(shape)
    kind = np.dtype(dtype)
    if kind.kind in "iu":
        info = np.iinfo(kind)
        top = min(int(info.max), 1000)
        low = 0 if kind.kind == "u" else -top
        return np.clip(np.round(floats * top / 6), low, top).astype(kind).reshape(shape)
    return floats.astype(kind).reshape(shape)


def _float_view(values: np.ndarray) -> np.ndarray:
    return values.view(np.uint16) if values.dtype.kind == "V" else values


class _Files:
    """Writes the NPY files of a case under one folder, each with a new name."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0

    def path(self, suffix: str = ".npy") -> Path:
        """A fresh path in the folder."""
        self.count += 1
        return self.root / f"f{self.count}{suffix}"

    def save(self, array: np.ndarray) -> Path:
        """`array` as an NPY file (Fortran order kept when it is F-contiguous)."""
        path = self.path()
        np.save(path, array)
        return path

    def raw(self, contents: bytes) -> Path:
        """A file holding exactly `contents`."""
        path = self.path()
        path.write_bytes(contents)
        return path


def _side(path: Path | None, layout: LayoutInfo | None = PLAIN, graph_dtype: str | None = None) -> PairSide:
    return PairSide(path, layout, f"op {path.name if path else '?'}", graph_dtype)


def _random_pair(files: _Files, rng: np.random.Generator) -> PairKey:
    """A pair of valid files with random dtypes, shapes, orders, special values, layouts and graph dtypes."""
    fused_dtype = str(rng.choice(DTYPES))
    origin_dtype = fused_dtype if rng.random() < 0.6 else str(rng.choice(DTYPES))
    shape = tuple(int(dim) for dim in rng.integers(1, 9, size=int(rng.integers(0, 4))))
    relation = rng.choice(["equal", "equal", "equal", "flattened", "mismatch", "fortran", "empty"])
    if relation == "empty":
        shape = (0, *shape)
    if rng.random() < 0.05:  # around one block: one kernel call, or compare_tensors' block loop
        shape = (DEFAULT_BLOCK_ELEMENTS + int(rng.choice([-1, 0, 1, 3000, 7777])),)
    fused = _values(rng, fused_dtype, shape)
    base = _float_view(fused).astype(np.float64) if fused_dtype != "bf16" else None
    origin_shape = shape
    if relation == "flattened" and len(shape) > 0:
        origin_shape = (math.prod(shape),)
    elif relation == "mismatch":
        origin_shape, base = (math.prod(shape) + 1,), None
    origin = _values(rng, origin_dtype, origin_shape, base)
    if rng.random() < 0.15 and fused.dtype.kind == "f" and fused.size:
        fused.reshape(-1)[int(rng.integers(fused.size))] = rng.choice([np.nan, np.inf, -np.inf])
    if rng.random() < 0.1 and origin.dtype.kind == "f" and origin.size:
        origin.reshape(-1)[int(rng.integers(origin.size))] = rng.choice([np.nan, np.inf, -np.inf])
    if relation == "fortran" and fused.ndim > 1:
        fused = np.asfortranarray(fused)
    layouts = [PLAIN, PLAIN, None, LayoutInfo("NCHW", "NCHW", None), LayoutInfo(None, None, None)]
    graph_dtypes = [None, "DT_FLOAT16", "DT_BF16", "DT_FLOAT"]
    fused_layout = layouts[int(rng.integers(len(layouts)))]
    origin_layout = fused_layout if rng.random() < 0.7 else layouts[int(rng.integers(len(layouts)))]
    return (_side(files.save(fused), fused_layout, graph_dtypes[int(rng.integers(len(graph_dtypes)))]),
            _side(files.save(origin), origin_layout, graph_dtypes[int(rng.integers(len(graph_dtypes)))]))


def _good_pairs(files: _Files, rng: np.random.Generator) -> list[PairKey]:
    """Hand-picked readable pairs: conversions, the kernel's declines, bf16, scalars, the same file twice."""
    nchw = rng.standard_normal((2, 20, 3, 4)).astype(np.float16)
    nd = rng.standard_normal((3, 40, 20)).astype(np.float32)
    huge = rng.standard_normal(64) * 1e300  # sums of squares overflow: the kernel declines, numpy rescales
    plain = files.save(rng.standard_normal((16, 16)).astype(np.float16))
    nz = to_nz(nd, rng.uniform(100, 900, size=math.prod(nz_shape(nd.shape))))
    small_5hd = np.zeros(nc1hwc0_shape((1, 3, 2, 2)), np.float16)
    return [
        (_side(files.save(to_nc1hwc0(nchw, None)), LayoutInfo("NC1HWC0", "NCHW", nchw.shape)),
         _side(files.save(nchw), LayoutInfo("NCHW", "NCHW", nchw.shape))),
        (_side(files.save(nz), LayoutInfo("FRACTAL_NZ", "ND", nd.shape)),
         _side(files.save(nd), LayoutInfo("ND", "ND", nd.shape))),
        (_side(files.save(small_5hd), LayoutInfo("NC1HWC0", "NCHW", (1, 3, 9, 9))),  # conversion error
         _side(files.save(np.zeros((1, 3, 2, 2), np.float16)), LayoutInfo("NCHW", "NCHW", (1, 3, 2, 2)))),
        (_side(files.save(nchw), LayoutInfo("FRACTAL_Z_WEIRD", None, None)), _side(files.save(nchw))),
        (_side(files.save(huge)), _side(files.save(huge * (1 + 1e-6)))),
        (_side(files.save(np.full(64, np.inf, np.float32))), _side(files.save(huge))),
        (_side(files.save(np.float32(2.5))), _side(files.save(np.float16(2.5)))),
        (_side(files.save(rng.standard_normal(50).astype(np.float32)), graph_dtype="DT_BF16"),
         _side(files.save(to_v2(rng.standard_normal(50).astype(np.float32))), graph_dtype="DT_BF16")),
        (_side(files.save(np.array([np.nan, np.inf, -np.inf, 1.0]))),
         _side(files.save(np.array([np.nan, 1, -np.inf, 1])))),
        (_side(files.save(np.iinfo(np.int64).min + np.arange(8))),
         _side(files.save(np.arange(8, dtype=np.uint64)))),
        (_side(plain), _side(plain)),
    ]


def _bad_pairs(files: _Files, rng: np.random.Generator) -> list[PairKey]:
    """Pairs with a side the fast path cannot read or whose header is unusable: compare_pair takes them."""
    good = files.save(rng.standard_normal((4, 4)).astype(np.float16))
    valid = files.save(rng.standard_normal((4, 4)).astype(np.float16)).read_bytes()
    fifo = files.path(".fifo")
    os.mkfifo(fifo)
    folder = files.path(".dir")
    folder.mkdir()
    broken = [
        files.raw(b""),  # 0 bytes
        files.raw(valid[:-3]),  # truncated
        files.raw(valid + b"xx"),  # bytes after the data
        files.raw(b"not an npy file at all"),
        files.raw(valid[:8] + b"\xff\xff" + valid[10:]),  # header length beyond the file
        files.raw(valid.replace(b"'descr': '<f2'", b"'descr': '|O8'", 1)),  # pickled objects
        files.raw(valid.replace(b"'fortran_order': False", b"'fortran_order': 0    ", 1)),
        files.raw(valid[:6] + b"\x09\x00" + valid[8:]),  # format version 9.0
        fifo,
        folder,
        files.root / "missing.npy",
    ]
    pairs = []
    for path in broken:
        pairs += [(_side(path), _side(good)), (_side(good), _side(path))]
    pairs += [(_side(None), _side(good)), (_side(good), _side(None)), (_side(broken[0]), _side(broken[1]))]
    return pairs


@dataclasses.dataclass
class _Case:
    keys: list[PairKey]
    unreadable: set[PairKey]


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> _Case:
    """About 300 pairs: random valid ones, hand-picked ones, and pairs with a side compare_pair must word."""
    files = _Files(tmp_path_factory.mktemp("pairs"))
    rng = np.random.default_rng(20261202)
    good = [_random_pair(files, rng) for _ in range(240)] + _good_pairs(files, rng)
    bad = _bad_pairs(files, rng)
    keys = good + bad
    # Mixed, with a few repeats, so batches hold both kinds and rounds end anywhere.
    order = rng.permutation(len(keys))
    keys = [keys[number] for number in order] + keys[:5]
    return _Case(keys, set(bad))


def _comparable(result: PairResult) -> tuple[PairResult, tuple[object, ...] | None]:
    """The result without its metrics, and the metrics with every float as its hex: bitwise, NaN equal to NaN
    (statistics results: as their repr, where NaN is NaN too)."""
    if result.stats is not None:
        return dataclasses.replace(result, stats=None), (repr(result.stats),)
    if result.metrics is None:
        return result, None
    values = dataclasses.astuple(result.metrics)
    return dataclasses.replace(result, metrics=None), tuple(
        value.hex() if isinstance(value, float) else value for value in values)


def _batched(keys: list[PairKey], size: int) -> Iterator[list[PairKey]]:
    for start in range(0, len(keys), size):
        yield keys[start:start + size]


def _check(keys: list[PairKey], size: int) -> list[PairKey]:
    """Assert compare_pairs == compare_pair for every key (batches of `size`); the keys given to the fallback."""
    expected = {key: _comparable(compare_pair(*key)) for key in keys}
    fallen_back: list[PairKey] = []

    def fallback(fused: PairSide, origin: PairSide) -> PairResult:
        fallen_back.append((fused, origin))
        return compare_pair(fused, origin)

    for batch in _batched(keys, size):
        results = compare_pairs(batch, fallback=fallback)
        assert set(results) == set(batch)
        for key, result in results.items():
            assert _comparable(result) == expected[key], key
    return fallen_back


def _kernel(monkeypatch: pytest.MonkeyPatch, on: bool) -> None:
    if on:
        monkeypatch.delenv(native.DISABLE_ENV, raising=False)
    else:
        monkeypatch.setenv(native.DISABLE_ENV, "1")


@pytest.mark.parametrize("kernel", [pytest.param("on", marks=needs_kernel), "off", "without-reader"])
@pytest.mark.parametrize("size", [1, 7, 64, 1000])
def test_every_pair_gets_compare_pairs_result(case: _Case, monkeypatch: pytest.MonkeyPatch, kernel: str,
                                              size: int) -> None:
    _kernel(monkeypatch, kernel != "off")
    if kernel == "without-reader":  # a kernel without POSIX I/O (Windows) or built from older sources
        monkeypatch.setattr(pair_batch, "_reader", lambda: None)
    fallen_back = set(_check(case.keys, size))
    if kernel == "on":
        # Exactly the pairs with an unreadable side went to compare_pair; the rest took the fast path.
        assert fallen_back == case.unreadable
    else:
        assert fallen_back == set(case.keys)


@needs_kernel
def test_a_small_buffer_fills_mid_batch(case: _Case, monkeypatch: pytest.MonkeyPatch) -> None:
    _kernel(monkeypatch, True)
    # Room for a few small files per round: rounds end inside pairs, and files over half of it go to compare_pair.
    monkeypatch.setattr(pair_batch, "BUFFER_BYTES", 4096)
    rounds: list[int] = []
    real_round = pair_batch._compare_round

    def counted(keys: list[PairKey], results: dict[PairKey, PairResult], fallback: pair_batch.PairComparer) -> int:
        done = real_round(keys, results, fallback)
        rounds.append(done)
        return done

    monkeypatch.setattr(pair_batch, "_compare_round", counted)
    fallen_back = set(_check(case.keys, 1000))
    assert fallen_back > case.unreadable  # the files that never fit
    assert min(rounds) >= 1 and len(rounds) > len(case.keys) / pair_batch.ROUND_PAIRS


@needs_kernel
def test_files_above_the_read_limit_are_left_to_compare_pair(case: _Case, monkeypatch: pytest.MonkeyPatch) -> None:
    _kernel(monkeypatch, True)
    monkeypatch.setattr(pair, "READ_BELOW_BYTES", 1)  # compare_pair maps every file over 1 + 4096 bytes
    fallen_back = set(_check(case.keys, 64))
    big = {key for key in case.keys if any(side.path is not None and side.path.is_file()
                                           and side.path.stat().st_size > 4097 for side in key)}
    assert big and fallen_back == case.unreadable | big


@needs_kernel
def test_the_kernel_declines_and_numpy_takes_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _kernel(monkeypatch, True)
    huge = np.linspace(-1, 1, 100) * 1e300
    key = (_side(tmp_path / "a.npy"), _side(tmp_path / "b.npy"))
    np.save(tmp_path / "a.npy", huge)
    np.save(tmp_path / "b.npy", huge * 1.5)
    numpy_route: list[int] = []

    def counted(a: np.ndarray, b: np.ndarray) -> metrics.Partial:
        numpy_route.append(a.size)
        return metrics.block_partial(a, b)

    monkeypatch.setattr(pair_batch, "block_partial", counted)
    result = compare_pairs([key])[key]
    assert numpy_route == [100]
    assert _comparable(result) == _comparable(compare_pair(*key))
    assert result.metrics is not None and math.isfinite(result.metrics.rmse)


@needs_kernel
def test_native_partials_is_native_partial_pair_by_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    _kernel(monkeypatch, True)
    rng = np.random.default_rng(7)
    blocks = []
    for dtype in ["float16", "float32", "float64", "int8", "int64", "uint64", "bool", ">f4"]:
        for size in [1, 7, 1000, 4099]:
            values = _values(rng, dtype, (size,))
            blocks.append((values, _values(rng, dtype, (size,), _float_view(values).astype(np.float64))))
    blocks += [(np.full(10, 1e300), np.ones(10)), (np.ones(3), np.ones(4)), (np.empty(0), np.empty(0))]
    batched = native.native_partials(blocks, PASS_RATIO_LIMITS, EPSILON)
    single = [native.native_partial(a, b, PASS_RATIO_LIMITS, EPSILON) for a, b in blocks]
    assert [partial is None for partial in batched] == [partial is None for partial in single]
    assert sum(partial is None for partial in single) == 4 + 3  # >f4 sizes, overflow, lengths, empty
    for left, right in zip(batched, single, strict=True):
        if left is not None and right is not None:
            assert repr(dataclasses.astuple(left)) == repr(dataclasses.astuple(right))


@needs_kernel
def test_read_files_reports_each_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _kernel(monkeypatch, True)
    small, medium = tmp_path / "small", tmp_path / "medium"
    small.write_bytes(b"abc")
    medium.write_bytes(bytes(range(256)) * 8)  # 2048 bytes
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "empty").write_bytes(b"")
    paths = [small, tmp_path / "fifo", tmp_path, tmp_path / "empty", tmp_path / "missing", medium, small]
    buffer = np.zeros(8192, dtype=np.uint8)
    spans = pair_batch._read_files([os.fsencode(path) for path in paths], buffer)
    assert [span is None for span in spans] == [False, True, True, True, True, False, False]
    start = buffer.__array_interface__["data"][0]
    for path, span in zip(paths, spans, strict=True):
        if span is not None:
            offset, size = span
            assert (start + offset) % 64 == 0 and buffer[offset:offset + size].tobytes() == path.read_bytes()
    # Three files of 3000 bytes do not fit in 8192 (the call stops before the third: it fits an empty buffer);
    # one of 4033 bytes never fits together with another one: it is refused.
    (tmp_path / "3000").write_bytes(bytes(3000))
    (tmp_path / "4033").write_bytes(bytes(4033))
    assert len(pair_batch._read_files([os.fsencode(tmp_path / "3000")] * 3, buffer)) == 2
    assert pair_batch._read_files([os.fsencode(tmp_path / "4033")] * 2, buffer) == [None, None]
    big = tmp_path / "big"
    big.write_bytes(bytes(4098))
    monkeypatch.setattr(pair, "READ_BELOW_BYTES", 1)  # open_npy maps files over 1 + 4096 bytes
    spans = pair_batch._read_files([os.fsencode(big), os.fsencode(medium)], np.zeros(1 << 16, dtype=np.uint8))
    assert spans[0] is None and spans[1] is not None and spans[1][1] == 2048


@needs_kernel
def test_a_nul_in_a_path_fails_as_compare_pair_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _kernel(monkeypatch, True)
    np.save(tmp_path / "a.npy", np.ones(3))
    key = (_side(tmp_path / "a.npy\0b"), _side(tmp_path / "a.npy"))
    with pytest.raises(ValueError, match="null"):
        compare_pair(*key)
    with pytest.raises(ValueError, match="null"):
        compare_pairs([key])


@pytest.mark.parametrize("kernel", [pytest.param(True, marks=needs_kernel), False], ids=["kernel", "no-kernel"])
def test_a_cancelled_token_stops_before_comparing(case: _Case, monkeypatch: pytest.MonkeyPatch, kernel: bool) -> None:
    _kernel(monkeypatch, kernel)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        compare_pairs(case.keys[:3], token)


def _stats_pairs(root: Path, seed: int) -> tuple[list[PairKey], set[PairKey]]:
    """Pairs of statistics tensors (`{csv}/output.0.npy`): plain and hostile CSVs, a missing tensor, files that
    cannot be read, a CSV against an NPY; and the pairs compare_pairs must leave to compare_pair."""
    rng = np.random.default_rng(seed)
    files = _Files(root)
    csvs = []
    broken = {12: b"a,b\n1,2\n", 13: b"Input/Output,Index,Max,Max Value\nInput,0,1,2\n", 14: b"\n \n\r\n",
              15: DEFAULT_STATS_HEADER.encode() + b"\nInput,0,,,,,,,,,,,\nOutput,x,1\n"}
    for number in range(16):
        path = files.path(".csv")
        if number in broken:  # read, then refused or noted with the sentence naming the file
            path.write_bytes(broken[number])
        if number < 6:  # every tensor a pair names, plain lines
            lines = [f"{kind},{index},8,DT_FLOAT16,ND,2x2,{rng.uniform(-9, 9)},{rng.uniform(-9, 9)},"
                     f"{rng.choice(['nan', '0.5', 'inf'])},4,0,{rng.integers(0, 2)},0"
                     for kind in ("Input", "Output") for index in range(3)]
            path.write_text("\n".join([DEFAULT_STATS_HEADER, *lines]) + "\n", encoding="utf-8")
        elif number < 9:  # random lines, hostile ones among them
            path.write_bytes(random_csv(random.Random(seed * 100 + number), 6, plain=0.9 if number % 3 else 0.5))
        elif number == 9:
            path.write_bytes(b"")  # empty: read by compare_pair
        elif number == 10:
            path.mkdir()  # a directory
        csvs.append(path)  # number 11: missing
    tensors = [f"{kind}.{index}.npy" for kind in ("input", "output") for index in range(3)]
    keys: list[PairKey] = []
    unreadable: set[PairKey] = set()
    for _ in range(100):
        fused, origin = (csvs[int(rng.integers(len(csvs)))] for _ in range(2))
        key = (_side(fused / str(rng.choice(tensors))), _side(origin / str(rng.choice(tensors))))
        keys.append(key)
        if not all(path.is_file() and path.stat().st_size for path in (fused, origin)):
            unreadable.add(key)  # missing, empty or a folder: compare_pair says so
    mixed = (_side(csvs[0] / "output.0.npy"), _side(files.save(np.ones(4, np.float16))))
    keys.append(mixed)
    unreadable.add(mixed)
    return keys, unreadable


@needs_kernel
@pytest.mark.parametrize("seed", range(4))
def test_statistics_pairs_are_compared_from_the_bytes_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           seed: int) -> None:
    _kernel(monkeypatch, True)
    keys, unreadable = _stats_pairs(tmp_path, seed)
    fallen_back = set(_check(keys, 7))
    assert fallen_back == unreadable  # both CSVs read: compared here, from their bytes
    assert any(compare_pair(*key).stats is not None for key in keys)


def test_pair_side_makes_what_init_makes() -> None:
    """plan's sides skip PairSide.__init__: the same fields, equality and hash, still frozen. PairSide's fields are
    pinned: one more would need pair_side to set it (its __post_init__ only hashes)."""
    assert [field.name for field in dataclasses.fields(PairSide)] == ["path", "layout", "label", "graph_dtype",
                                                                       "_hash"]
    for values in (("/d/a.npy", LayoutInfo("NC1HWC0", "NCHW", (1, 2, 3, 4)), "op output 0", "DT_BF16"),
                   (None, None, "missing", None), (Path("/d/b.npy"), LayoutInfo(None, None, None), "x", "DT_FLOAT")):
        made, expected = pair_side(*values), PairSide(*values)
        assert made == expected and hash(made) == hash(expected) and repr(made) == repr(expected)
        assert {made: 1}[expected] == 1
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.label = "other"  # type: ignore[misc]
