"""Big-model graph shapes for the field-shape matrix (issue 29, target 1).

The case itself comes from `generate_case` (graphs written atc style: sorted keys, indent 2); `write_shape`
rewrites its two graph files in one shape of the matrix, from pristine copies kept next to them:

- `form`: "indented" (as atc writes, indent 2) or "compact" (no whitespace at all);
- `attrs`: "light" (as generated), "lean" (descs keep only the fused outputs' `_datadump_origin_*` attrs: the
  fewest containers per op, so the cheapest for json.load) or "heavy": every op gets `HEAVY_ATTRS` more `attr` entries of every value
  kind, every fused op's `_datadump_original_op_names`/`_types` grow by `LONG_NAMES` entries, and every other
  op gets such a list too (real GE graphs carry them on most ops);
- `outputs`: 1 (as generated) or n: every op that is not fused gets n-1 more output descs (the fused ops'
  outputs, which are compared, keep their dumps and mapping);
- `pad_ops`: so many unconnected filler ops appended to each root graph (for a small case with big tensors
  whose graphs should still be big-model sized).

None of these changes what mode 1 compares: rows and the first divergence stay the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from tests.synth.case import pretty_json

HEAVY_ATTRS = 10  # 24 (with LONG_NAMES = 40) made 663 MB compact graphs: minutes per cell
LONG_NAMES = 12
_PRISTINE = ".pristine"


@dataclass(frozen=True)
class GraphShape:
    """How the two graph files of a case are written."""

    form: str = "compact"  # "compact" | "indented"
    attrs: str = "light"  # "light" | "lean" | "heavy"
    outputs: int = 1
    pad_ops: int = 0


def _attr(key: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "value": value}


def _heavy_attrs(index: int) -> list[dict[str, Any]]:
    attrs = []
    for k in range(HEAVY_ATTRS):
        kind = k % 6
        key = f"_ge_attr_{k:02d}"
        if kind == 0:
            attrs.append(_attr(key, {"s": f"AIcoreEngine_{index % 7}"}))
        elif kind == 1:
            attrs.append(_attr(key, {"i": index * 31 + k}))
        elif kind == 2:
            attrs.append(_attr(key, {"b": bool(k & 1)}))
        elif kind == 3:
            attrs.append(_attr(key, {"f": 0.5 + k}))
        elif kind == 4:
            attrs.append(_attr(key, {"list": {"i": [1, 16, 64, 64, 16], "val_type": "VT_LIST_INT"}}))
        else:
            attrs.append(_attr(key, {"list": {"s": [f"scope/{index}/a", f"scope/{index}/b"],
                                              "val_type": "VT_LIST_STRING"}}))
    return attrs


def _names(prefix: str) -> dict[str, Any]:
    return {"list": {"s": [f"{prefix}/original_{k}" for k in range(LONG_NAMES)], "val_type": "VT_LIST_STRING"}}


def _types() -> dict[str, Any]:
    return {"list": {"s": ["Mul" if k % 2 else "Add" for k in range(LONG_NAMES)], "val_type": "VT_LIST_STRING"}}


def _is_fused(op: dict[str, Any]) -> bool:
    if op.get("type") in ("AscBackend", "FusedAscBackend"):
        return True
    return any(entry.get("key") == "_datadump_origin_name"
               for desc in op.get("output_desc") or () for entry in desc.get("attr") or ())


def _reshape_op(op: dict[str, Any], index: int, shape: GraphShape) -> None:
    fused = _is_fused(op)
    if shape.attrs == "lean":
        for key in ("input_desc", "output_desc"):
            for desc in op.get(key) or ():
                kept = [e for e in desc.get("attr") or () if e["key"].startswith("_datadump_origin")]
                if kept:
                    desc["attr"] = kept
                else:
                    desc.pop("attr", None)
    if shape.attrs == "heavy":
        attrs = list(op.get("attr") or [])
        for entry in attrs:
            if entry["key"] == "_datadump_original_op_names":
                entry["value"]["list"]["s"] = [*entry["value"]["list"]["s"],
                                               *_names(op["name"])["list"]["s"]]
            elif entry["key"] == "_datadump_original_op_types":
                entry["value"]["list"]["s"] = [*entry["value"]["list"]["s"], *_types()["list"]["s"]]
        if not fused:
            attrs += [_attr("_datadump_original_op_names", _names(op["name"])),
                      _attr("_datadump_original_op_types", _types())]
        op["attr"] = sorted([*attrs, *_heavy_attrs(index)], key=lambda entry: entry["key"])
    if shape.outputs > 1 and not fused and op.get("output_desc"):
        first = op["output_desc"][0]
        op["output_desc"] = [*op["output_desc"], *(first for _ in range(shape.outputs - 1))]


def _filler(graph: str, index: int) -> dict[str, Any]:
    desc = {"attr": [_attr("origin_format", {"s": "ND"})], "dtype": "DT_FLOAT16", "layout": "ND",
            "shape": {"dim": [1, 64]}}
    return {"id": 1_000_000 + index, "input": [f"{graph}/filler_{index - 1}:0"] if index else [""],
            "input_desc": [desc], "name": f"{graph}/filler_{index}", "output_desc": [desc], "type": "Relu"}


def write_shape(root: Path, graphs: dict[str, str], shape: GraphShape) -> int:
    """Rewrite both graph files of the case at `root` in `shape`; returns their size in bytes."""
    total = 0
    for relative in graphs.values():
        path = root / relative
        pristine = path.with_name(path.name + _PRISTINE)
        if not pristine.exists():
            path.rename(pristine)
        document = msgspec.json.decode(pristine.read_bytes())
        for graph in document["graph"]:
            for index, op in enumerate(graph["op"]):
                _reshape_op(op, index, shape)
        if shape.pad_ops:
            root_graph = document["graph"][0]
            root_graph["op"] += [_filler(root_graph["name"], k) for k in range(shape.pad_ops)]
        data = msgspec.json.encode(document) if shape.form == "compact" else pretty_json(document, indent=2)
        path.write_bytes(data)
        total += len(data)
    return total
