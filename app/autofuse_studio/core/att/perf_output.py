"""Writes perf_formula.svg (from the display list) and perf_formula.json (the whole model)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from autofuse_studio.core.att.perf_model import PerfFormulaModel
from autofuse_studio.core.att.perf_render import perf_display_list
from autofuse_studio.core.render.svg import display_list_to_svg
from autofuse_studio.core.reports.atomic import atomic_write_text

SVG_NAME = "perf_formula.svg"
JSON_NAME = "perf_formula.json"


def model_to_json(model: PerfFormulaModel) -> dict[str, Any]:
    """The model as plain JSON data (dataclasses become objects, tuples become lists)."""
    return dataclasses.asdict(model)


def perf_svg(model: PerfFormulaModel) -> str:
    """The SVG document of the model."""
    items, width, height = perf_display_list(model)
    return display_list_to_svg(items, width, height)


def write_perf_outputs(model: PerfFormulaModel, out_dir: Path) -> tuple[Path, Path]:
    """Write both files into `out_dir` atomically; returns (svg path, json path)."""
    svg_path, json_path = out_dir / SVG_NAME, out_dir / JSON_NAME
    atomic_write_text(svg_path, perf_svg(model))
    text = json.dumps(model_to_json(model), indent=2, ensure_ascii=False, allow_nan=False)
    atomic_write_text(json_path, text + "\n")
    return svg_path, json_path
