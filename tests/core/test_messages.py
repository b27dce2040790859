"""The message catalogue: every notice code core emits has Chinese, English stays core's sentence, params fill it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from autofuse_studio.core import messages
from autofuse_studio.core.messages import NOTICES, render, render_all, template_of
from autofuse_studio.core.notices import Notice

CORE = Path(messages.__file__).parent


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level NAME = "text" assignments (kinds written as constants)."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def emitted_codes() -> set[str]:
    """The first argument of every Notice(...) / plain_notices(...) call in core, as a code or a 'prefix*' family."""
    constants: dict[str, str] = {}
    calls: list[ast.Call] = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants.update(_constants(tree))
        calls += [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("Notice", "plain_notices") and node.args]
    codes = set()
    for call in calls:
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            codes.add(first.value)
        elif isinstance(first, ast.Name) and first.id in constants:
            codes.add(constants[first.id])
        elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
            codes.add(f"{first.values[0].value}*")
    # convert.py's kinds come from a dict of templates keyed by constants
    codes |= {constants[name] for name in ("UNREADABLE_FILE", "UNREADABLE_TENSOR", "LAYOUT_NOT_CONVERTED",
                                           "UNRESOLVED_NAME")}
    # plain_notices("graph", ...) and the occurrence notices pass their kind through a helper
    codes |= {"graph", "dumped_several_times", "occurrences_paired"}
    return codes


def test_the_scan_finds_the_codes_of_core() -> None:
    codes = emitted_codes()
    assert {"no_dump_npys", "fusion_mapping", "row_*", "rank_on_one_side", "no_fused_ops", "loose_npy_names"} <= codes


def test_the_catalogue_covers_every_code_core_emits() -> None:
    missing = sorted(code for code in emitted_codes() if template_of(code.rstrip("*") + "x" if code.endswith("*")
                                                                    else code) is None)
    assert missing == []
    assert all(template_of(code) for code in NOTICES)


def test_english_is_cores_own_sentence_and_chinese_fills_the_params() -> None:
    notice = Notice("dumped_several_times", "1 operator was dumped several times in 2 steps …", 1,
                    params={"names": ["autofuse_24_Mul_Add"], "steps": ["0", "1"], "ranks": []})
    assert render(notice, "en") == notice.message
    assert render(notice, "zh_CN") == "1 个算子被多次 dump（2 个 step），两侧次数不同：各比较最新的一次；例如 autofuse_24_Mul_Add。"


def test_a_row_notice_names_its_tensors_in_chinese() -> None:
    notice = Notice("row_file_not_found", "2 rows are FILE_NOT_FOUND …", 2,
                    params={"status": "FILE_NOT_FOUND", "tensors": [("a", "output", 0), ("b", "input", 1)],
                            "steps": ["0"], "ranks": ["3"]})
    assert render(notice, "zh") == "2 行为 FILE_NOT_FOUND（step 0，rank 3）：a 输出 0, b 输入 1"


@pytest.mark.parametrize("notice", [Notice("some_new_code", "A sentence.", params={"x": 1}),
                                    Notice("fusion_mapping", "Relayed without params."),
                                    Notice("fusion_mapping", "Params of another version.", params={"other": 1})])
def test_falls_back_to_the_english_sentence(notice: Notice) -> None:
    assert render(notice, "zh_CN") == notice.message


def test_render_all_keeps_code_count_items_side_and_the_json_form() -> None:
    notice = Notice("rank_on_one_side", "Rank 3 is in the af-open dump only …", 1, [{"rank": "3"}], "af-open",
                    params={"ranks_list": "3", "present": "af-open", "absent": "af-close"})
    (shown,) = render_all([notice], "zh_CN")
    assert (shown.code, shown.count, shown.items, shown.side) == ("rank_on_one_side", 1, [{"rank": "3"}], "af-open")
    assert shown.message.startswith("rank 3 只在 af-open 的 dump 中")
    assert set(notice.to_dict()) == {"kind", "side", "message", "count", "items"}  # params stay out of the JSON
