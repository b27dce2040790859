"""Compare one fused-side NPY with one origin-side NPY: load, convert layouts, check dtypes and shapes.

The status vocabulary is the reference tool's (OK, FILE_NOT_FOUND, NPY_LOAD_ERROR, FORMAT_UNSUPPORTED,
FORMAT_CONVERSION_ERROR, SHAPE_MISMATCH, COMPUTE_ERROR, and FORMAT_CONVERTED / DTYPE_CAST /
SHAPE_FLATTENED joined with "_" in that order), so scripts that parse its table keep working.
"""

from __future__ import annotations

import logging
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autofuse_studio.core.dumps.layout import LayoutInfo, is_private_format, to_origin_layout
from autofuse_studio.core.dumps.lazy import LazyTensor
from autofuse_studio.core.dumps.mapped import changed_since_mapped
from autofuse_studio.core.dumps.tensors import MissingTensor, UnsupportedDtype, open_dump_tensor
from autofuse_studio.core.errors import FormatConversionError, FormatUnsupported, NpyLoadError
from autofuse_studio.core.precision.metrics import Metrics, compare_tensors

if TYPE_CHECKING:
    from autofuse_studio.core.precision.stats import StatsComparison

log = logging.getLogger(__name__)

OK = "OK"
NO_MAPPING = "NO_MAPPING"
SKIPPED_CONST_DATA = "SKIPPED_CONST_DATA"
FILE_NOT_FOUND = "FILE_NOT_FOUND"
RANK_NOT_FOUND = "RANK_NOT_FOUND"  # ours: the rank has no dump on the other side
NPY_LOAD_ERROR = "NPY_LOAD_ERROR"
FORMAT_UNSUPPORTED = "FORMAT_UNSUPPORTED"
DTYPE_UNSUPPORTED = "DTYPE_UNSUPPORTED"  # ours: a raw dump's dtype whose bytes no public source documents
FORMAT_CONVERSION_ERROR = "FORMAT_CONVERSION_ERROR"
SHAPE_MISMATCH = "SHAPE_MISMATCH"
COMPUTE_ERROR = "COMPUTE_ERROR"
FORMAT_CONVERTED = "FORMAT_CONVERTED"
DTYPE_CAST = "DTYPE_CAST"
SHAPE_FLATTENED = "SHAPE_FLATTENED"

# Tensors up to this size are read rather than memory-mapped (see dumps.npy._map_data): the working
# memory stays bounded by this per side and worker, and bigger ones are streamed from a map.
READ_BELOW_BYTES = 16 << 20

# A statistics CSV's tensors are named {csv}/{kind}.{i}.npy (core.precision.stats_pair).
_STATS_NAME = ".csv"
COMPARED_PARTS = frozenset({OK, FORMAT_CONVERTED, DTYPE_CAST, SHAPE_FLATTENED})


def is_compared_status(status: str) -> bool:
    """True when the status carries metrics (OK or a combination of the conversion notes)."""
    return all(part in COMPARED_PARTS for part in _split_status(status))


def _split_status(status: str) -> list[str]:
    parts: list[str] = []
    for note in (FORMAT_CONVERTED, DTYPE_CAST, SHAPE_FLATTENED):
        if note in status:
            parts.append(note)
            status = status.replace(note, "")
    rest = status.strip("_")
    if rest:
        parts.append(rest)
    return parts


@dataclass(frozen=True)
class PairSide:
    """One side of a comparison: the file (None when not found), its layout, and a label for messages."""

    # The file as the dump index spelled it (a str: a Path cost ~7 us a side to make and hash, 40k sides of a big
    # model on the planning thread), or a Path a caller made; every reader takes either.
    path: str | Path | None
    layout: LayoutInfo | None
    label: str
    graph_dtype: str | None = None  # the desc's dtype, e.g. DT_BF16 for a bf16 tensor dumped as float32
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Hash once: the scheduler keys its dicts by pairs of sides, tens of thousands of times a run."""
        object.__setattr__(self, "_hash", _side_hash(self.path, self.layout, self.label, self.graph_dtype))

    def __hash__(self) -> int:
        """The hash computed at creation (the fields never change)."""
        return self._hash


def pair_side(path: str | Path | None, layout: LayoutInfo | None, label: str, graph_dtype: str | None) -> PairSide:
    """PairSide(path, layout, label, graph_dtype), made without the frozen __init__ and its __post_init__ (five
    setattr calls through the frozen check: a third of a side's planning, 40k sides of a big model on the
    planning thread); a test checks both equal."""
    made = object.__new__(PairSide)
    made.__dict__.update(path=path, layout=layout, label=label, graph_dtype=graph_dtype,
                         _hash=_side_hash(path, layout, label, graph_dtype))
    return made


def _side_hash(path: str | Path | None, layout: LayoutInfo | None, label: str, graph_dtype: str | None) -> int:
    """A side's hash, the same however it was made."""
    return hash((path, layout, label, graph_dtype))


_BF16_NAMES = frozenset({"DT_BF16", "DT_BFLOAT16"})


def _dtype_name(tensor: LazyTensor, side: PairSide) -> str:
    """The tensor's dtype, except that msaccucmp's float32 NPY of a DT_BF16 tensor is reported as bfloat16."""
    if side.graph_dtype in _BF16_NAMES and tensor.dtype_name == "float32":
        return "bfloat16"
    return tensor.dtype_name


@dataclass(frozen=True)
class PairResult:
    """The outcome of comparing two tensors."""

    status: str
    metrics: Metrics | None = None
    message: str = ""
    fused_dtype: str = ""
    origin_dtype: str = ""
    fused_shape: tuple[int, ...] | None = None
    origin_shape: tuple[int, ...] | None = None
    stats: StatsComparison | None = None  # statistics mode: the two statistic sets compared


_UNKNOWN_LAYOUT = LayoutInfo(None, None, None)


def _hinted(info: LayoutInfo, other: LazyTensor, other_layout: str | None) -> LayoutInfo:
    """Fill a missing origin shape (or its -1 dims) from the plain tensor on the other side."""
    shape = info.origin_shape
    if shape is not None and -1 not in shape:
        return info
    origin_format = info.origin_format
    if shape is None:
        shape = other.shape
        # The shape now comes from the other tensor, so its axis order does too.
        if other_layout is not None and not is_private_format(other_layout) and other_layout != "ND":
            origin_format = other_layout
    elif len(shape) == len(other.shape):
        shape = tuple(other_dim if dim == -1 else dim for dim, other_dim in zip(shape, other.shape, strict=True))
    if origin_format is None and other_layout is not None and not is_private_format(other_layout):
        origin_format = other_layout
    return LayoutInfo(info.layout, origin_format, shape)


def convert_layouts(
    fused: LazyTensor, origin: LazyTensor, fused_info: LayoutInfo | None, origin_info: LayoutInfo | None
) -> tuple[LazyTensor, LazyTensor, bool]:
    """Bring the private-format side(s) to the plain layout of the other side."""
    fused_info = fused_info or _UNKNOWN_LAYOUT
    origin_info = origin_info or _UNKNOWN_LAYOUT
    fused_layout, origin_layout = fused_info.layout, origin_info.layout
    if fused_layout == origin_layout:
        return fused, origin, False
    converted = False
    if is_private_format(origin_layout) and not is_private_format(fused_layout):
        origin, converted = to_origin_layout(origin, _hinted(origin_info, fused, fused_layout), fused_layout)
        return fused, origin, converted
    target = origin_layout
    if is_private_format(origin_layout):
        # Both private and different: bring both to the origin format of the plain graph.
        target = origin_info.origin_format or fused_info.origin_format
        origin, converted = to_origin_layout(origin, origin_info, target)
    if not is_private_format(origin_layout):
        fused_info = _hinted(fused_info, origin, origin_layout)
    fused, fused_converted = to_origin_layout(fused, fused_info, target)
    return fused, origin, converted or fused_converted


def _layout_name(side: PairSide) -> str | None:
    return side.layout.layout if side.layout is not None else None


def missing_file(fused_side: PairSide, origin_side: PairSide) -> PairResult | None:
    """The FILE_NOT_FOUND result when a side has no file, else None."""
    for side, which in ((fused_side, "Fused-side"), (origin_side, "Original-side")):
        if side.path is None:
            return PairResult(FILE_NOT_FOUND, message=f"{which} NPY not found: {side.label}")
    return None


def stored_layout(layout: LayoutInfo | None, stored: LayoutInfo | None) -> LayoutInfo | None:
    """The graph's layout of a side completed by what a raw dump's header says of the stored bytes.

    The header's device format wins when it is a private one (the bytes are in it, whatever the graph says);
    a plain one may be the writer's default (NCHW is 0), so the graph's layout wins over it. The graph's
    origin format and shape win where it gives them; the header's original shape fills the gap.
    """
    if stored is None:
        return layout
    if layout is None:
        return stored
    if layout.origin_shape is not None and layout.layout == stored.layout:
        return layout  # the graph said it all (the usual case)
    device = stored.layout if is_private_format(stored.layout) or layout.layout is None else layout.layout
    return LayoutInfo(device, layout.origin_format, layout.origin_shape or stored.origin_shape)


def open_side(side: PairSide) -> tuple[LazyTensor, PairSide]:
    """The side's tensor (NPY or raw dump) and the side with its layout completed from a raw header."""
    assert side.path is not None
    tensor, stored = open_dump_tensor(side.path, read_below=READ_BELOW_BYTES)
    if stored is None:
        return tensor, side
    return tensor, PairSide(side.path, stored_layout(side.layout, stored), side.label, side.graph_dtype)


def compare_pair(fused_side: PairSide, origin_side: PairSide, executor: Executor | None = None) -> PairResult:
    """Run the reference's comparison pipeline on two dumped tensors (NPY or raw), with our fixes."""
    missing = missing_file(fused_side, origin_side)
    if missing is not None:
        return missing
    if _STATS_NAME in str(fused_side.path) or _STATS_NAME in str(origin_side.path):
        from autofuse_studio.core.precision.stats_pair import compare_stats_pair, stats_ref

        if stats_ref(fused_side.path) is not None or stats_ref(origin_side.path) is not None:
            return compare_stats_pair(fused_side, origin_side)
    try:
        fused, fused_side = open_side(fused_side)
        origin, origin_side = open_side(origin_side)
    except MissingTensor as error:
        return PairResult(FILE_NOT_FOUND, message=str(error))
    except UnsupportedDtype as error:
        return PairResult(DTYPE_UNSUPPORTED, message=f"{fused_side.label} / {origin_side.label}: {error}")
    except NpyLoadError as error:
        message = f"NPY Load failed - {fused_side.label} / {origin_side.label}: {error}"
        return PairResult(NPY_LOAD_ERROR, message=message)
    prepared = prepare_pair(fused_side, origin_side, fused, origin)
    if isinstance(prepared, PairResult):
        return prepared
    return prepared.measure(executor)


@dataclass(frozen=True)
class PreparedPair:
    """Two loaded tensors brought to the same layout, and what their result says besides the metrics."""

    fused_side: PairSide
    origin_side: PairSide
    fused: LazyTensor
    origin: LazyTensor
    status: str
    fused_dtype: str
    origin_dtype: str
    notes: str = ""  # what reading the tensors decided (FFTS+ merges), the row's message when it is compared

    def result(self, metrics: Metrics) -> PairResult:
        """The pair's result given its metrics."""
        return PairResult(self.status, metrics, self.notes, self.fused_dtype, self.origin_dtype, self.fused.shape,
                          self.origin.shape)

    def measure(self, executor: Executor | None = None) -> PairResult:
        """Compute the metrics (on `executor`'s threads for big pairs): the result, or COMPUTE_ERROR.

        A memory-mapped file that shrank or was rewritten while it was read gives NPY_LOAD_ERROR naming it
        (its values are not used; see dumps.mapped).
        """
        try:
            metrics = compare_tensors(self.fused, self.origin, executor=executor)
        except (ValueError, OSError, MemoryError) as error:
            changed = self.changed()
            if changed is not None:
                return changed
            message = f"Metric calculation failed - {self.fused_side.label} / {self.origin_side.label}: {error}"
            return PairResult(COMPUTE_ERROR, None, message, self.fused_dtype, self.origin_dtype, self.fused.shape,
                              self.origin.shape)
        return self.changed() or self.result(metrics)

    def changed(self) -> PairResult | None:
        """The NPY_LOAD_ERROR result when a mapped file of the pair changed while it was read, else None."""
        problem = changed_since_mapped(self.fused.view, self.origin.view)
        if problem is None:
            return None
        message = f"NPY Load failed - {self.fused_side.label} / {self.origin_side.label}: {problem}."
        return PairResult(NPY_LOAD_ERROR, None, message, self.fused_dtype, self.origin_dtype, self.fused.shape,
                          self.origin.shape)


def prepare_pair(fused_side: PairSide, origin_side: PairSide, fused: LazyTensor, origin: LazyTensor
                 ) -> PreparedPair | PairResult:
    """Convert layouts and check dtypes and shapes of two loaded tensors: ready to measure, or the failed result."""
    fused_dtype, origin_dtype = _dtype_name(fused, fused_side), _dtype_name(origin, origin_side)
    fused_note, origin_note = fused.note, origin.note  # before the layout conversion makes new tensors
    try:
        fused, origin, converted = convert_layouts(fused, origin, fused_side.layout, origin_side.layout)
    except FormatUnsupported as error:
        message = (f"Unsupported format conversion - {fused_side.label}: {_layout_name(fused_side)} vs "
                   f"{origin_side.label}: {_layout_name(origin_side)} ({error})")
        return PairResult(FORMAT_UNSUPPORTED, None, message, fused_dtype, origin_dtype)
    except FormatConversionError as error:
        message = f"Format conversion failed - {fused_side.label} / {origin_side.label}: {error}"
        return PairResult(FORMAT_CONVERSION_ERROR, None, message, fused_dtype, origin_dtype)
    parts = [FORMAT_CONVERTED] if converted else []
    if fused_dtype != origin_dtype:
        parts.append(DTYPE_CAST)
    if fused.shape != origin.shape:
        if fused.size != origin.size:
            message = (f"Shape mismatch with different element counts - {fused_side.label}: {fused.shape}"
                       f" vs {origin_side.label}: {origin.shape}")
            return PairResult(SHAPE_MISMATCH, None, message, fused_dtype, origin_dtype, fused.shape, origin.shape)
        parts.append(SHAPE_FLATTENED)
    status = "_".join(parts) if parts else OK
    notes = "; ".join(note for note in (fused_note, origin_note) if note)
    return PreparedPair(fused_side, origin_side, fused, origin, status, fused_dtype, origin_dtype, notes)
