"""The statistics twin of an NPY dump tree: one CANN statistics CSV per op dump, as `dump_data: stats` writes.

Statistics are taken over the stored tensor as the device holds it (device layout, padding included), the way
CANN's writer takes them; values are printed with 9 significant digits. Broken NPYs become failure rows.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from autofuse_studio.core.dumps.lazy import decode_bf16
from tests.synth.raw_twin import DescLookup

HEADER = ("Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,"
          "Negative Inf Count,Positive Inf Count")
_TENSOR = re.compile(r"(.+)\.(input|output)\.([0-9]+)\.npy")
_DT = {"float32": "DT_FLOAT", "float16": "DT_FLOAT16", "int32": "DT_INT32", "int8": "DT_INT8", "uint8": "DT_UINT8",
       "int64": "DT_INT64", "bool": "DT_BOOL", "float64": "DT_DOUBLE", "int16": "DT_INT16"}


@dataclass
class StatsTwinReport:
    """What the twin holds."""

    files: int = 0
    rows: int = 0
    failure_rows: int = 0


def _number(value: float) -> str:
    return f"{value:.9g}"


def tensor_row(kind: str, index: int, array: np.ndarray, dtype_name: str, layout: str) -> str:
    """One CSV row: statistics of the finite values, NaN and +-Inf counted apart."""
    values = array.astype(np.float64).reshape(-1)
    finite = values[np.isfinite(values)]
    shape = "x".join(str(dim) for dim in array.shape) or "-"
    stats = ([_number(finite.max()), _number(finite.min()), _number(finite.mean())] if finite.size
             else ["NA", "NA", "NA"])
    counts = [int(np.isnan(values).sum()), int(np.isneginf(values).sum()), int(np.isposinf(values).sum())]
    return ",".join([kind.capitalize(), str(index), str(array.nbytes), dtype_name, layout, shape, *stats,
                     str(values.size), *map(str, counts)])


def _load(path: Path, graph_dtype: str | None) -> tuple[np.ndarray, str] | None:
    try:
        array = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError):
        return None
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        return decode_bf16(array), "DT_BF16"
    if graph_dtype in ("DT_BF16", "DT_BFLOAT16"):
        return array, "DT_BF16"
    return array, _DT.get(array.dtype.name, f"DT_{array.dtype.name.upper()}")


def stats_twin(npy_root: Path, out_root: Path, descs: DescLookup | None = None) -> StatsTwinReport:
    """Write a statistics CSV for every op dump of the NPY tree under npy_root into out_root."""
    report = StatsTwinReport()
    for folder, _subfolders, names in sorted(os.walk(npy_root)):
        groups: dict[str, list[tuple[str, int, Path]]] = defaultdict(list)
        for name in names:
            match = _TENSOR.fullmatch(name)
            if match is not None:
                groups[match.group(1)].append((match.group(2), int(match.group(3)), Path(folder) / name))
        if not groups:
            continue
        target = out_root / Path(folder).relative_to(npy_root)
        target.mkdir(parents=True, exist_ok=True)
        for prefix, tensors in sorted(groups.items()):
            op_name = prefix.split(".")[1]
            lines = [HEADER]
            for kind, index, path in sorted(tensors, key=lambda item: (item[0] != "input", item[1])):
                desc = descs(op_name, kind, index) if descs else None
                loaded = _load(path, desc.dtype if desc else None)
                if loaded is None:
                    lines.append(f"{kind.capitalize()},{index},,,,,,,,,,,")  # the AICPU writer's failure row
                    report.failure_rows += 1
                    continue
                array, dtype_name = loaded
                lines.append(tensor_row(kind, index, array, dtype_name, (desc.layout if desc else None) or "ND"))
            report.rows += len(lines) - 1
            (target / f"{prefix}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
            report.files += 1
    return report
