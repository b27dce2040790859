"""Synthetic atc-style GE graph documents for tests, benchmarks and demo data (no real model needed)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

_TYPES = ("Add", "Mul", "Relu", "Cast", "Exp", "Sub")


def _attr(key: str, value: dict[str, Any] | None) -> dict[str, Any]:
    return {"key": key, "value": value}


def synthetic_desc(dims: list[int], extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A TensorDescriptor as atc writes it: dtype, layout, shape and ~8 attrs."""
    attrs = [
        _attr("origin_format", {"s": "ND"}),
        _attr("origin_format_for_int", {"i": 2}),
        _attr("format_for_int", {"i": 2}),
        _attr("origin_data_type", {"s": "DT_FLOAT"}),
        _attr("origin_shape_initialized", {"b": True}),
        _attr("origin_shape", {"list": {"i": list(dims), "val_type": "VT_LIST_INT"}}),
        _attr("shape_range", None),
        _attr("origin_shape_range", None),
        *(extra or []),
    ]
    return {"attr": attrs, "device_type": "NPU", "dtype": "DT_FLOAT16", "layout": "ND",
            "shape": {"dim": dims}}


def synthetic_op(index: int, fused_every: int = 10) -> dict[str, Any]:
    """Op `index` of a chain: 2-3 inputs, 1-2 outputs; every `fused_every`-th op is an AscBackend."""
    dims = [8, 16 + index % 7, 32]
    fused = fused_every > 0 and index % fused_every == fused_every - 1
    n_in = 0 if index == 0 else 2 + index % 2
    n_out = 1 + index % 2
    inputs = [f"op_{max(0, index - 1 - k)}:0" for k in range(n_in)]
    if index > 1 and index % 5 == 0:
        inputs.append(f"op_{index - 2}:-1")
    outputs = []
    for k in range(n_out):
        extra = None
        if fused:
            extra = [
                _attr("_datadump_origin_name", {"s": f"orig_{index}_{k}"}),
                _attr("_datadump_origin_output_index", {"i": 0}),
            ]
        outputs.append(synthetic_desc(dims, extra))
    op_attrs = [
        _attr("_ge_attr_op_kernel_lib_name", {"s": "AIcoreEngine"}),
        _attr("tvm_blockdim", {"i": 8}),
        _attr("_datadump_original_op_names",
              {"list": {"s": [f"orig_{index}_0"], "val_type": "VT_LIST_STRING"}}),
    ]
    op: dict[str, Any] = {
        "attr": op_attrs,
        "input_desc": [synthetic_desc(dims) for _ in range(n_in)],
        "name": f"op_{index}",
        "output_desc": outputs,
        "type": "AscBackend" if fused else _TYPES[index % len(_TYPES)],
    }
    if index:
        op["id"] = index
    if inputs:
        op["input"] = inputs
    return op


def synthetic_document(n_ops: int, fused_every: int = 10) -> dict[str, Any]:
    """A ModelDef-shaped document with one graph of `n_ops` chained ops."""
    ops = [synthetic_op(i, fused_every) for i in range(n_ops)]
    return {"graph": [{"name": "synthetic_graph", "op": ops}], "name": "synthetic", "version": 2}


def write_synthetic_graph(path: str | Path, n_ops: int, fused_every: int = 10) -> Path:
    """Write a synthetic atc JSON graph atomically (temp file + rename in the same folder)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(synthetic_document(n_ops, fused_every), out, separators=(",", ":"))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
