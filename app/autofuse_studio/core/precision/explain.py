"""Why a run found what it found: the files each notice concerns, one line per notice item, why 0 rows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from autofuse_studio.core.ge.fusion import is_fused_op
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.dump_pairs import CLOSE_SIDE, OPEN_SIDE
from autofuse_studio.core.precision.rows import PrecisionResult

NO_FUSED_OPS = "no_fused_ops"
NO_COMMON_STEPS = "no_common_steps"
NOTHING_COMPARED = "nothing_compared"
# The English sentences of empty_reason(); the GUI translates the codes itself.
EMPTY_REASONS = {
    NO_FUSED_OPS: "0 rows: the af-open graph has no fused operators (no AscBackend/FusedAscBackend op and no "
                  "_datadump_origin_name attribute)",
    NO_COMMON_STEPS: "0 rows: the two dump folders have no rank and step in common",
    NOTHING_COMPARED: "0 rows: nothing could be paired for comparing",
}
# Notices about a graph (the rest are about dump folders); the side says which one.
GRAPH_KINDS = frozenset({"graph", "fusion_mapping", NO_FUSED_OPS})
_FILE_KEYS = ("file", "path", "fused_file", "origin_file")
_MAX_FILES = 20


@dataclass(frozen=True)
class CasePaths:
    """The graph and dump folder of each side, to name the files a notice concerns."""

    graphs: Mapping[str, str] = field(default_factory=dict)
    dumps: Mapping[str, str] = field(default_factory=dict)


def no_fused_ops_notice(af_open: Model, af_close: Model) -> Notice:
    """The notice for an af-open graph without fused ops (with a hint when the af-close graph has some)."""
    message = (f"The af-open graph {af_open.path} has no fused operators (no AscBackend/FusedAscBackend op and "
               "no _datadump_origin_name attribute): there is nothing to compare.")
    fused_on_close = sum(1 for op in af_close.ops_in_order() if is_fused_op(op))
    swapped = ""
    if fused_on_close:
        message += (f" The af-close graph {af_close.path} has {fused_on_close:,}: were the two graphs swapped?")
        swapped = f"af-close 图 {af_close.path} 中有 {fused_on_close:,} 个：两个图是否放反了？"
    return Notice(NO_FUSED_OPS, message, 1, [{"file": af_open.path, "ops": sum(1 for _ in af_open.ops_in_order())}],
                  side=OPEN_SIDE, params={"path": af_open.path, "swapped": swapped})


def item_files(item: Mapping[str, Any]) -> list[str]:
    """The files one notice item names (a row's two NPYs, a folder, a graph)."""
    return [value for key in _FILE_KEYS if isinstance(value := item.get(key), str) and value]


def notice_files(notice: Notice, paths: CasePaths) -> list[str]:
    """The files a notice concerns: those its items name (at most 20), else its side's graph or dump folder(s)."""
    named: dict[str, None] = {}
    for item in notice.items:
        named.update(dict.fromkeys(item_files(item)))
        if len(named) >= _MAX_FILES:
            break
    if named:
        return list(named)
    where = paths.graphs if notice.kind in GRAPH_KINDS else paths.dumps
    sides = [notice.side] if notice.side else [OPEN_SIDE, CLOSE_SIDE]
    return [where[side] for side in sides if where.get(side)]


def _row_line(item: Mapping[str, Any]) -> str:
    where = ", ".join(f"{key} {item[key]}" for key in ("rank", "step") if item.get(key) not in (None, ""))
    head = f"{item['fused_op']} {item.get('kind', 'output')} {item.get('fused_index', '')}".rstrip()
    text = f"{head} ({where})" if where else head
    message = item.get("message")
    return f"{text}: {message}" if message else text


def item_line(item: Mapping[str, Any]) -> str:
    """One readable line for one notice item (a row, a file, a rank, a mapping warning)."""
    if "fused_op" in item:
        return _row_line(item)
    if isinstance(item.get("message"), str):
        return str(item["message"])
    return ", ".join(f"{key}: {_value(value)}" for key, value in item.items())


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(part) for part in value)
    return "-" if value is None else str(value)


def empty_reason(result: PrecisionResult) -> str | None:
    """Why a run produced no rows (a key of EMPTY_REASONS), or None when it produced some."""
    if result.rows:
        return None
    kinds = {notice.kind for notice in result.notices}
    if NO_FUSED_OPS in kinds:
        return NO_FUSED_OPS
    if not result.steps:
        return NO_COMMON_STEPS
    return NOTHING_COMPARED
