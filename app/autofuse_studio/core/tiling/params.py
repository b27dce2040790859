"""verify-tiling input parameters: presets A/B, input JSON, --aiv-num, and the ABI/range checks."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import InputError

PRESETS: dict[str, dict[str, Any]] = {
    "A": {"dynamic_dims": [], "aiv_num": 48, "ub_size": 196608,
          "abi": {"kind": "tf_static", "shape_dims": 0, "block_dim_width": 32}},
    "B": {"dynamic_dims": [1024, 512], "aiv_num": 56, "ub_size": 262144,
          "abi": {"kind": "tf_dynamic", "shape_dims": 2, "block_dim_width": 32}},
}
ABI_KINDS = ("tf_static", "tf_dynamic", "inductor")
MAX_DIMS = 32
INT31_MAX = 2**31 - 1
AIV_MAX = 65535
MAX_INPUT_JSON_BYTES = 1 << 20
SHOWN_CHARS = 60


@dataclass
class TilingParams:
    """The parameters handed to AutofuseTiling, plus where each value came from."""

    values: dict[str, Any]
    source: str  # e.g. "preset_A", "input-json:/x.json", with "+--aiv-num" / "+log" suffixes
    origins: dict[str, str] = field(default_factory=dict)  # key -> "preset_A" | "--aiv-num" | "log a.log:12"

    @property
    def abi(self) -> dict[str, Any]:
        """The `abi` object (empty when missing or not an object)."""
        abi = self.values.get("abi")
        return abi if isinstance(abi, dict) else {}


def preset_params(name: str) -> TilingParams:
    """A copy of preset A or B."""
    if name not in PRESETS:
        raise InputError.of("tiling_unknown_preset", name=name)
    values = copy.deepcopy(PRESETS[name])
    return TilingParams(values, f"preset_{name}", dict.fromkeys(values, f"preset_{name}"))


def load_input_json(path: str | Path) -> TilingParams:
    """Read --input-json (UTF-8, a BOM is fine); InputError naming the file (and line) otherwise."""
    text_path = Path(path)
    if text_path.exists() and not text_path.is_file():
        raise InputError.of("input_json_not_file", path=path)
    try:
        with text_path.open("rb") as handle:
            data = handle.read(MAX_INPUT_JSON_BYTES + 1)
    except OSError as exc:
        raise InputError.of("input_json_unreadable", path=path, reason=exc.strerror or str(exc)) from None
    if len(data) > MAX_INPUT_JSON_BYTES:
        raise InputError.of("input_json_too_large", path=path, kilobytes=MAX_INPUT_JSON_BYTES >> 10)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError.of("input_json_not_utf8", path=path, byte=exc.start) from None
    return parse_input_json(text, str(path))


def parse_input_json(text: str, label: str) -> TilingParams:
    """Parse input JSON text (the GUI editor uses this too); label names it in messages."""
    try:
        values = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise InputError.of("input_json_invalid", path=label, reason=exc.msg, line=exc.lineno,
                            column=exc.colno) from None
    except RecursionError:
        raise InputError.of("input_json_too_deep", path=label) from None
    except ValueError as exc:  # Python's 4300-digit limit for int()
        raise InputError.of("input_json_long_number", path=label, reason=str(exc)) from None
    if not isinstance(values, dict):
        raise InputError.of("input_json_not_object", path=label)
    source = f"input-json:{label}"
    return TilingParams(values, source, dict.fromkeys(values, source))


def _shown(value: Any) -> str:
    """A JSON value for a message, cut short (a hostile file could hold megabytes in one value)."""
    try:
        text = json.dumps(value)
    except (ValueError, RecursionError):
        text = repr(type(value).__name__)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


def override_aiv_num(params: TilingParams, aiv_num: int) -> None:
    """Apply --aiv-num (in place)."""
    params.values["aiv_num"] = aiv_num
    params.source += "+--aiv-num"
    params.origins["aiv_num"] = "--aiv-num"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _range_problem(name: str, value: Any, low: int, high: int) -> list[str]:
    if value is None:
        return [f"{name} is missing (an integer in [{low}, {high}])."]
    if not _is_int(value) or not low <= value <= high:
        return [f"{name} = {_shown(value)} is out of range: it must be an integer in [{low}, {high}]."]
    return []


def _dims_problems(dims: Any) -> list[str]:
    if not isinstance(dims, list):
        return [f"dynamic_dims = {_shown(dims)} must be a list of integers."]
    problems = []
    if len(dims) > MAX_DIMS:
        problems.append(f"dynamic_dims holds {len(dims)} values; at most {MAX_DIMS} are allowed.")
    for index, dim in enumerate(dims[:MAX_DIMS]):  # beyond that, one sentence is enough
        if not _is_int(dim) or not 1 <= dim <= INT31_MAX:
            problems.append(f"dynamic_dims[{index}] = {_shown(dim)} is out of range: "
                            f"it must be an integer in [1, {INT31_MAX}].")
    return problems


def _abi_problems(abi: Any, dims: Any) -> list[str]:
    if not isinstance(abi, dict):
        return ["abi is missing or not an object with kind, shape_dims and block_dim_width."]
    problems = []
    kind, shape_dims, width = abi.get("kind"), abi.get("shape_dims"), abi.get("block_dim_width")
    if kind not in ABI_KINDS:
        problems.append(f"abi.kind = {_shown(kind)} is not one of {', '.join(ABI_KINDS)}.")
    if width not in (32, 64) or not _is_int(width):
        problems.append(f"abi.block_dim_width = {_shown(width)} must be 32 or 64.")
    if not isinstance(shape_dims, int) or isinstance(shape_dims, bool) or shape_dims < 0:
        problems.append(f"abi.shape_dims = {_shown(shape_dims)} must be a non-negative integer.")
        return problems
    if kind == "tf_static" and shape_dims != 0:
        problems.append(f"abi.kind tf_static takes no dynamic dims, but abi.shape_dims = {shape_dims}.")
    if kind in ("tf_dynamic", "inductor") and shape_dims == 0:
        problems.append(f"abi.kind {kind} needs abi.shape_dims > 0 (use tf_static for static shapes).")
    if isinstance(dims, list) and len(dims) != shape_dims:
        problems.append(f"dynamic_dims holds {len(dims)} value(s) but abi.shape_dims = {shape_dims}: "
                        "AutofuseTiling would be called with the wrong number of arguments.")
    return problems


def validate_params(values: dict[str, Any]) -> list[str]:
    """Every problem with the parameters, one sentence each; empty when they are valid."""
    problems = _dims_problems(values.get("dynamic_dims"))
    problems += _range_problem("aiv_num", values.get("aiv_num"), 1, AIV_MAX)
    problems += _range_problem("ub_size", values.get("ub_size"), 1, INT31_MAX)
    problems += _abi_problems(values.get("abi"), values.get("dynamic_dims"))
    return problems


def scene_problems(scene: str, abi: dict[str, Any]) -> list[str]:
    """The scene/ABI pairing rule: inductor needs kind inductor, tf needs tf_static or tf_dynamic."""
    kind = abi.get("kind")
    if kind not in ABI_KINDS:
        return []  # already reported by validate_params
    if scene == "inductor" and kind != "inductor":
        return [f"The scene is inductor but abi.kind = {kind}: the inductor scene needs abi.kind inductor."]
    if scene == "tf" and kind == "inductor":
        return ["The scene is tf but abi.kind = inductor: the tf scene needs abi.kind tf_static or tf_dynamic."]
    return []
