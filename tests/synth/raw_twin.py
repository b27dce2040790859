"""The raw twin of an NPY dump tree: the same tensors in raw (or nano) dump files, one per op dump, as the NPU writes.

Every NPY group `{op dump}.{input|output}.{i}.npy` becomes the raw file `{op dump}` in the same relative folder,
its header describing each tensor with the graph's device format and origin shape. Broken NPYs (garbage, pickles)
become tensors whose header size disagrees with their shape, so both twins give the same row statuses.
Long names are written the way CANN does when open() fails: a decimal hash name plus a `mapping.csv` line.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autofuse_studio.core.dumps.index import MAPPING_FILE, read_mapping
from autofuse_studio.core.dumps.names import sanitize_op_name
from autofuse_studio.core.ge.attrs import attr_value
from autofuse_studio.core.ge.fusion import ORIGIN_INDEX, ORIGIN_NAME
from autofuse_studio.core.ge.model import Model, Op, TensorDesc
from tests.synth.raw_writer import BF16, RawDumpSpec, RawTensorSpec, format_code, write_raw_dump

DescLookup = Callable[[str, str, int], TensorDesc | None]
_TENSOR = re.compile(r"(.+)\.(input|output)\.([0-9]+)\.npy")
MAX_NAME = 255


@dataclass
class TwinReport:
    """What the twin holds: raw files written, tensors in them, broken tensors carried over."""

    files: int = 0
    tensors: int = 0
    broken: int = 0
    renamed: int = 0
    paths: list[Path] = field(default_factory=list)


def descs_from_models(models: Iterable[Model]) -> DescLookup:
    """Look tensors descs up by sanitised op name, kind and index in the given graphs."""
    ops: dict[str, Op] = {}
    for model in models:
        for graph in model.graphs:
            for op in graph.ops:
                ops.setdefault(sanitize_op_name(op.name), op)

    def lookup(op_name: str, kind: str, index: int) -> TensorDesc | None:
        op = ops.get(op_name)
        if op is None:
            return None
        descs = op.output_descs if kind == "output" else op.input_descs
        return descs[index] if 0 <= index < len(descs) else None

    return lookup


def _to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """float32 values that are bf16 numbers, as their bf16 bit patterns (round to nearest even)."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def _origin(desc: TensorDesc | None) -> tuple[str | None, int]:
    """The origin op and output a fused output's desc names (what CANN writes as original_op)."""
    if desc is None:
        return None, 0
    name, index = attr_value(desc.attrs, ORIGIN_NAME), attr_value(desc.attrs, ORIGIN_INDEX)
    return (name, index) if isinstance(name, str) and name and type(index) is int else (None, 0)


def _tensor(path: Path, desc: TensorDesc | None, output: bool = False) -> tuple[RawTensorSpec, bool]:
    """The raw tensor of one NPY (and whether the NPY was broken)."""
    spec, broken = _plain_tensor(path, desc)
    if output:
        spec.origin_op, spec.origin_index = _origin(desc)
    return spec, broken


def _plain_tensor(path: Path, desc: TensorDesc | None) -> tuple[RawTensorSpec, bool]:
    layout = desc.layout if desc is not None else None
    original = desc.origin_shape if desc is not None else None
    try:
        array = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError):
        # A header that promises 4 float32 values over 3 bytes: unreadable, as the broken NPY was.
        return RawTensorSpec(b"\0\0\0", 1, (4,), format_code(layout), size=3), True
    if desc is not None and desc.dtype in ("DT_BF16", "DT_BFLOAT16") and array.dtype == np.float32:
        spec = RawTensorSpec.of(_to_bf16_bits(array), layout, original)
        spec.dtype = BF16
        return spec, False
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        spec = RawTensorSpec.of(np.ascontiguousarray(array).view(np.uint16), layout, original)
        spec.dtype = BF16
        return spec, False
    return RawTensorSpec.of(array, layout, original), False


def _raw_name(name: str, mapping_lines: list[str]) -> str:
    if len(name) < MAX_NAME:
        return name
    digits = str(int.from_bytes(hashlib.sha1(name.encode()).digest()[:8], "little") >> 1)
    mapping_lines.append(f"{digits},{name}")
    return digits


def _group_folder(folder: Path, names: list[str]) -> dict[str, dict[tuple[str, int], Path]]:
    mapping = read_mapping(folder / MAPPING_FILE, []) if (folder / MAPPING_FILE).is_file() else {}
    groups: dict[str, dict[tuple[str, int], Path]] = defaultdict(dict)
    for name in names:
        match = _TENSOR.fullmatch(mapping.get(name, name))
        if match is not None:
            groups[match.group(1)][(match.group(2), int(match.group(3)))] = folder / name
    return groups


def _spec(prefix: str, tensors: dict[tuple[str, int], Path], descs: DescLookup | None,
          report: TwinReport) -> RawDumpSpec:
    parts = prefix.split(".")
    op_name, stamp = parts[1], int(parts[4]) if len(parts) > 4 and parts[4].isdigit() else 0
    spec = RawDumpSpec(op_name, dump_time=stamp)
    for kind, target in (("input", spec.inputs), ("output", spec.outputs)):
        indexes = sorted(index for tensor_kind, index in tensors if tensor_kind == kind)
        if indexes != list(range(len(indexes))):
            raise ValueError(f"{prefix}: {kind}s {indexes} have a gap; a raw dump cannot hold that")
        for index in indexes:
            tensor, broken = _tensor(tensors[(kind, index)], descs(op_name, kind, index) if descs else None,
                                     kind == "output")
            target.append(tensor)
            report.tensors += 1
            report.broken += broken
    return spec


def raw_twin(npy_root: Path, out_root: Path, descs: DescLookup | None = None, variant: str = "raw",
             nano_every: int = 0) -> TwinReport:
    """Write the raw twin of every NPY under npy_root into out_root (nano_every=n: every n-th file as nano)."""
    report = TwinReport()
    for folder, _subfolders, names in sorted(os.walk(npy_root)):
        groups = _group_folder(Path(folder), names)
        if not groups:
            continue
        target = out_root / Path(folder).relative_to(npy_root)
        target.mkdir(parents=True, exist_ok=True)
        mapping_lines: list[str] = []
        for prefix, tensors in sorted(groups.items()):
            spec = _spec(prefix, tensors, descs, report)
            kind = "nano" if variant == "nano" or (nano_every and report.files % nano_every == nano_every - 1) \
                else "raw"
            path = target / _raw_name(prefix, mapping_lines)
            write_raw_dump(path, spec, kind)
            report.files += 1
            report.paths.append(path)
        if mapping_lines:
            report.renamed += len(mapping_lines)
            (target / "mapping.csv").write_text("\n".join(mapping_lines) + "\n", encoding="utf-8")
    return report


def twin_case(case_dir: Path, out_dir: Path, kind: str = "raw", nano_every: int = 0) -> dict[str, Path]:
    """Write the raw ('raw', 'nano') or statistics ('stats') twin of a generated case's two dump folders.

    Returns the twin folder of each side ('af_open', 'af_close'); the case's graphs describe the layouts.
    """
    from autofuse_studio.core.ge.load import load_model
    from tests.synth.case import load_manifest
    from tests.synth.stats_twin import stats_twin

    manifest = load_manifest(case_dir)
    descs = descs_from_models([load_model(case_dir / manifest["graphs"][side]) for side in ("af_open", "af_close")])
    folders = {}
    for side in ("af_open", "af_close"):
        folders[side] = out_dir / side
        if kind == "stats":
            stats_twin(case_dir / manifest["data"][side], folders[side], descs)
        else:
            raw_twin(case_dir / manifest["data"][side], folders[side], descs, kind, nano_every)
    return folders
