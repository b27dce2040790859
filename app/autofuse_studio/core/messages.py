"""One catalogue of user-visible sentences by code, in English and Chinese, rendered at the edge (CLI, GUI, report).

Core says what happened as a code plus parameters (a Notice's `kind` and `params`); a front end renders the
sentence in its language here. English notices keep the sentence core wrote (the CLI and JSON print it byte for
byte); other languages are rendered from the templates below and fall back to the English sentence for a code
the catalogue lacks or a notice without its parameters (e.g. one relayed from an older host).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from autofuse_studio.core.error_messages import is_chinese as is_chinese  # one rule for both catalogues
from autofuse_studio.core.notices import Notice, examples

EN, ZH = "en", "zh"

# code -> (English template, Chinese template). Parameters named `names` (a list) are shown as a few examples,
# `steps` and `ranks` (lists) become the "in step 0 on rank 3" part, {where}; the rest are used as they are.
NOTICES: dict[str, tuple[str, str]] = {
    "no_dump_npys": (
        "The {side} dump folder {root} holds no dump files: nothing of it can be compared.",
        "{side} 的 dump 文件夹 {root} 中没有 dump 文件（原始 dump、其 NPY 或统计 CSV）：其中没有可比较的内容。"),
    "no_fused_ops": (
        "The af-open graph {path} has no fused operators: there is nothing to compare.",
        "af-open 图 {path} 中没有融合算子（没有 AscBackend/FusedAscBackend 算子，也没有 _datadump_origin_name "
        "属性）：没有可比较的内容。{swapped}"),
    "graph": ("{message}", "图文件警告：{message}"),
    "origin_from_dump_header": (
        "{count} fused operator outputs were paired with their origin by their raw dump headers (e.g. {names}).",
        "{count:,} 个融合算子输出在图中没有 _datadump_origin_name 属性，已按其原始 dump 头中的 original_op "
        "与原始算子配对（例如 {names}）。"),
    "fusion_mapping": (
        "{count} fused operator outputs have no usable origin attributes and cannot be compared; e.g. {names}.",
        "{count:,} 个融合算子输出没有可用的 _datadump_origin_name/_datadump_origin_output_index 属性，无法比较；"
        "例如 {names}。"),
    "self_reference": (
        "{count} fused operators take their own output as an input, e.g. {op} input {input} is its output {output}.",
        "{count:,} 个融合算子以自己的输出作为输入（af-open 图中的自引用），例如 {op} 的输入 {input} 是它的输出 "
        "{output}：这样的输入不算作算子误差的原因，所以出错的算子仍是 CULPRIT；请检查图。"),
    "row_*": (
        "{count} rows are {status}{where}: {names}",
        "{count:,} 行为 {status}{where}：{names}"),
    "step_on_one_side": (
        "Steps present on one side only are not compared{where}: {steps_list}",
        "仅在一侧存在的 step 不比较{where}：{steps_list}"),
    "steps_paired_by_position": (
        "Comparing af-open step {open_step} with af-close step {close_step}{where}.",
        "比较 af-open 的 step {open_step} 与 af-close 的 step {close_step}{where}。"),
    "ranks_paired_by_position": (
        "Comparing af-open rank {open_rank} with af-close rank {close_rank} (each side has one rank).",
        "比较 af-open 的 rank {open_rank} 与 af-close 的 rank {close_rank}（每侧只有一个 rank）。"),
    "rank_not_compared": (
        "Rank {rank} is not compared: {detail}",
        "rank {rank} 未比较：{detail}"),
    "rank_on_one_side": (
        "Ranks {ranks_list} are in the {present} dump only: their rows are not compared (RANK_NOT_FOUND).",
        "rank {ranks_list} 只在 {present} 的 dump 中（{absent} 没有）：其行不比较（RANK_NOT_FOUND）。"),
    "unreadable_folder": (
        "Cannot read folder {path}: {reason}; it was skipped.",
        "无法读取文件夹 {path}：{reason}；已跳过。"),
    "link_outside_root": (
        "{count} links under {root} lead outside it and were not followed (e.g. {names}).",
        "{root} 下有 {count:,} 个链接指向其外部，未跟随（例如 {names}）。"),
    "older_runs_ignored": (
        "{root}: several dump runs; the newest of each is used (e.g. {used}), {files} NPYs of older runs are ignored.",
        "{root}{where}：有多次 dump 运行（{{time}} 文件夹）；每处使用最新的一次（例如 {used}），忽略较早运行的 "
        "{files:,} 个 NPY。"),
    "unreadable_mapping": (
        "Cannot read {path}: {reason}; long file names there stay unresolved.",
        "无法读取 {path}：{reason}；其中的长文件名无法还原。"),
    "not_a_dump_npy": (
        "{count} .npy file(s) under {root} are not named like dump NPYs and were ignored (e.g. {names}).",
        "{root} 下有 {count:,} 个 .npy 文件的命名不像 dump NPY，已忽略（例如 {names}）。"),
    "loose_npy_names": (
        "{count} NPYs under {root} are named only like '*.{{op}}.*.{{input|output}}.{{i}}.npy' (e.g. {names}).",
        "{root} 下有 {count:,} 个 NPY 只按 '*.{{op}}.*.{{input|output}}.{{i}}.npy' 命名（没有 task、stream 或时间戳）："
        "按算子、输入/输出和序号查找，与参考工具相同（例如 {names}）。"),
    "stats_csv_ignored": (
        "{count} statistics CSVs under {root} lie among tensor dumps and were ignored: tensors are compared.",
        "{root} 下有 {count:,} 个统计 CSV 与张量 dump 放在一起，已忽略：比较的是张量。"),
    "unreadable_dump_file": (
        "{count} dump files under {root} could not be read and were skipped (e.g. {names}).",
        "{root} 下有 {count:,} 个 dump 文件无法读取，已跳过（例如 {names}）。"),
    "unreadable_tensor": (
        "{count} tensors could not be read and were skipped (e.g. {names}).",
        "{count:,} 个张量无法读取，已跳过（例如 {names}）。"),
    "layout_not_converted": (
        "{count} tensors could not be brought to their origin layout and were skipped (e.g. {names}).",
        "{count:,} 个张量无法转换为原始算子的排布，已跳过（例如 {names}）。"),
    "unresolved_hashed_name": (
        "{count} dump files under {root} are named by a hash that no mapping.csv line resolves (e.g. {names}).",
        "{root} 下有 {count:,} 个 dump 文件以哈希命名，mapping.csv 中没有对应的行；"
        "其 NPY 保留哈希名（例如 {names}）。"),
    "dumped_several_times": (
        "{count} operators were dumped several times{where}, not as often on both sides: the newest dump of each "
        "is compared; e.g. {names}.",
        "{count:,} 个算子被多次 dump{where}，两侧次数不同：各比较最新的一次；例如 {names}。"),
    "occurrences_paired": (
        "{count} operators were dumped as many times on both sides{where}: the k-th dump is compared with the k-th; "
        "e.g. {names}.",
        "{count:,} 个算子在两侧被 dump 的次数相同{where}（循环或重复执行的 kernel）：按时间顺序第 k 次与第 k 次比较"
        "（occurrence 列）；例如 {names}。"),
}

# The words of the run-root reports (core/att/runs): cause phrases and status/role names.
PHRASES: dict[str, tuple[str, str]] = {
    "best_result": ("best schedule result {default} → {candidate}",
                    "最优调度结果 {default} → {candidate}"),
    "group_case": ("group {group}: tiling case {default} → {candidate}",
                   "group {group} 选中的 tiling case {default} → {candidate}"),
    "tiling_key": ("group {group}: FINAL_TILING key {default} → {candidate}",
                   "group {group} 的 FINAL_TILING key {default} → {candidate}"),
    "group_only": ("group {group} only in {side} (case {case})",
                   "group {group} 仅在 {side} 中（case {case}）"),
    "tiling_values": ("group {group}: tiling values differ: {changes}",
                      "group {group} 的 tiling 值不同：{changes}"),
    "objective": ("group {group}: objective {default} → {candidate}",
                  "group {group} 的 objective {default} → {candidate}"),
    "bottleneck": ("group {group}: [PERF] bottleneck pipe {default} → {candidate}",
                   "group {group} 的 [PERF] 瓶颈管道 {default} → {candidate}"),
    "result_perf": ("result performance {default} → {candidate}{pct}",
                    "result 性能 {default} → {candidate}{pct}"),
    "parse_status": ("parse status {default} → {candidate}",
                     "解析状态 {default} → {candidate}"),
    "only_side": ("only in the {side} run",
                  "仅在 {side} 运行中"),
}
WORDS: dict[str, tuple[str, str]] = {
    "default": ("default", "default"), "candidate": ("candidate", "candidate"),
    "changed": ("changed", "有变化"), "unchanged": ("unchanged", "无变化"),
    "only_default": ("only in default", "仅在 default"), "only_candidate": ("only in candidate", "仅在 candidate"),
    "more": ("{n} more", "另有 {n} 个"), "none": ("none", "无"),
}

# The ATT perf canvas of one operator (core/att/perf_cases_render.py).
PERF_CANVAS: dict[str, tuple[str, str]] = {
    "legend": ("red = bottleneck pipe · blue = term share · orange = most sensitive",
               "红 = 瓶颈管道 · 蓝 = 项占比 · 橙 = 最敏感参数"),
    "selected": ("Selected: {label}", "选中：{label}"),
    "group": ("{label}  ({count} case(s), selected: {chosen})", "{label}  （{count} 个 case，选中：{chosen}）"),
    "chosen_case": ("case {case}", "case {case}"),
    "chosen_none": ("none", "无"),
    "sensitive": ("most sensitive parameter: {parameter} (largest variance across cases)",
                  "最敏感参数：{parameter}（跨 case 方差最大）"),
    "not_available": ("n/a", "无"),
    "click_for_details": ("{label}: click for details", "{label}：点击查看详情"),
}

# att compare's report: the reference's Chinese text (kept byte for byte by the drop-in CLI) -> English.
COMPARE_WORDS: dict[str, str] = {
    "摘要": "Summary", "详细差异": "Field differences", "性能对比": "Performance",
    "项目": "Item", "文件1": "File 1", "文件2": "File 2", "差异": "Difference",
    "算子": "Operator", "字段名": "Field", "文件1值": "File 1 value", "文件2值": "File 2 value",
    "差异类型": "Difference type", "数值差异": "numeric", "百分比差异": "Percent difference",
    "性能指标": "Metric", "绝对差异": "Absolute difference", "状态": "Status",
    "字符串差异": "text", "相同": "same", "改善": "better", "下降": "worse",
    "文件路径": "File path", "算子数量": "Operators", "列数": "Columns", "共同算子": "Common operators",
    "仅在文件1中": "Only in file 1", "仅在文件2中": "Only in file 2", "字段差异总数": "Field differences",
    "性能指标变化数": "Metric changes",
    "CSV文件对比分析报告": "CSV comparison report", "文件信息：": "Files:", "结构对比：": "Structure:",
    "行数": "Rows", "结构差异：": "Structural differences:", "列仅在文件1中": "Columns only in file 1",
    "列仅在文件2中": "Columns only in file 2", "算子对比：": "Operators:", "详细差异分析：": "Field differences:",
    "无差异": "no differences", "性能指标对比：": "Performance metrics:", "对比总结：": "Summary:",
    "个算子": "operators", "个": "", "总计 {n} 个字段差异": "{n} field differences in all",
    "{n} 个性能指标变化": "{n} metric changes", "{n} 个算子差异": "{n} operator differences",
    "两个文件完全相同": "the two files are identical", "两个文件存在差异": "the two files differ",
}


def compare_word(text: str, language: str) -> str:
    """An att compare report text in the language: the reference's Chinese as is, else its English."""
    return text if is_chinese(language) else COMPARE_WORDS.get(text, text)


def template_of(code: str) -> tuple[str, str] | None:
    """The (English, Chinese) templates of a notice code; `row_<status>` codes share one family entry."""
    found = NOTICES.get(code)
    if found is None and code.startswith("row_"):
        return NOTICES["row_*"]
    return found


def _location(steps: Sequence[Any], ranks: Sequence[Any], chinese: bool) -> str:
    """' in step 0 on rank 3' / '（step 0，rank 3）', or counts when there are several."""
    steps, ranks = [s for s in steps if s], [r for r in ranks if r is not None]
    if not chinese:
        text = ""
        if steps:
            text += f" in step {steps[0]}" if len(steps) == 1 else f" in {len(steps):,} steps"
        if ranks:
            text += f" on rank {ranks[0]}" if len(ranks) == 1 else f" on {len(ranks):,} ranks"
        return text
    parts = []
    if steps:
        parts.append(f"step {steps[0]}" if len(steps) == 1 else f"{len(steps):,} 个 step")
    if ranks:
        parts.append(f"rank {ranks[0]}" if len(ranks) == 1 else f"{len(ranks):,} 个 rank")
    return f"（{'，'.join(parts)}）" if parts else ""


def _tensor_name(op: str, kind: str, index: Any, chinese: bool) -> str:
    """'op output 0' / 'op 输出 0'."""
    if chinese:
        kind = {"output": "输出", "input": "输入"}.get(kind, kind)
    return f"{op} {kind} {index}"


def _context(notice: Notice, chinese: bool) -> dict[str, Any]:
    """The notice's parameters made printable: names as examples, steps and ranks as a location."""
    params: dict[str, Any] = {"count": notice.count, "side": notice.side or "", **notice.params}
    if isinstance(params.get("tensors"), list):  # (op, 'input'/'output', index): the kind in the language
        params["names"] = [_tensor_name(op, kind, index, chinese) for op, kind, index in params["tensors"]]
    if isinstance(params.get("names"), list):
        params["names"] = examples(str(name) for name in params["names"])
    if "steps" in params or "ranks" in params:
        params["where"] = _location(params.get("steps", ()), params.get("ranks", ()), chinese)
    if "rank" in params and "where" not in params:
        params["where"] = f"（rank {params['rank']}）" if chinese else f" on rank {params['rank']}"
    params.setdefault("where", "")
    return params


def render(notice: Notice, language: str) -> str:
    """The notice's sentence in `language` ('en' gives core's own sentence, unchanged)."""
    if not is_chinese(language) or not notice.params:
        return notice.message
    templates = template_of(notice.kind)
    if templates is None:
        return notice.message
    try:
        return templates[1].format(**_context(notice, chinese=True))
    except (KeyError, IndexError, ValueError, TypeError):  # params of another version: its English sentence says it
        return notice.message


def render_all(notices: Sequence[Notice], language: str) -> list[Notice]:
    """Copies of the notices whose message is rendered in `language` (code, count, items and side kept)."""
    return [Notice(n.kind, render(n, language), n.count, n.items, n.side, dict(n.params)) for n in notices]


def phrase(table: Mapping[str, tuple[str, str]], key: str, language: str) -> str | None:
    """A catalogue entry of `table` in the language, or None when the key is not there."""
    pair = table.get(key)
    return None if pair is None else pair[is_chinese(language)]


# Signatures (core.precision.signature): code -> (English template, Chinese template), rendered with the
# signature's params plus the derived fields `how` (a permutation's transform), `hint` (a scale's 1/N) and
# `suggest` (the max_rel_err limit that passes a rounding pair). English renders core's sentence exactly (a test
# holds them together); the GUI and the report show the English sentence as core wrote it.
SIGNATURES: dict[str, tuple[str, str]] = {
    "nonfinite_introduced": (
        "non-finite values introduced: {count} NaN/Inf where the origin is finite (first at {first_index})",
        "引入了非有限值：{count} 个 NaN/Inf 处的 origin 值是有限的（第一个位于 {first_index}）"),
    "overflow": (
        "overflow: {count} values beyond the fused dtype's limit {limit:g} became Inf/max "
        "(accumulate in a wider dtype)",
        "溢出：{count} 个超出融合侧 dtype 上限 {limit:g} 的值变成了 Inf/最大值（请用更宽的 dtype 累加）"),
    "underflow": (
        "underflow: {share:.2%} of the values flushed to zero below the fused dtype's smallest normal, "
        "the rest rounding-level",
        "下溢：{share:.2%} 的值低于融合侧 dtype 的最小正规数而被清零，其余为舍入级误差"),
    "layout_permutation": (
        "layout permutation: the same values in other places ({how}): an index or layout bug",
        "布局置换：相同的值出现在其他位置（{how}）：索引或布局错误"),
    "tail_block": (
        "tail block: axis {axis} from index {first_index} (last tile of {tile}) wrong, rest rounding-level",
        "尾块：第 {axis} 轴从索引 {first_index} 起（最后一个长度为 {tile} 的 tile）错误，其余为舍入级误差"),
    "localised": (
        "localised: {count} slice(s) of axis {axis} wrong (indices {indices}), rest rounding-level",
        "局部：第 {axis} 轴的 {count} 个切片错误（索引 {indices}），其余为舍入级误差"),
    "bias": (
        "bias: fused = origin {offset:+.6g} (a wrong constant or a missing term)",
        "偏置：fused = origin {offset:+.6g}（常量错误或缺少一项）"),
    "scale": (
        "scale: fused = {factor:.6g} × origin{hint} (a missing or extra factor such as 1/N)",
        "缩放：fused = {factor:.6g} × origin{hint}（缺少或多乘了一个因子，例如 1/N）"),
    "rounding": (
        "rounding: every difference within {ulps:g} units of rounding (eps {eps:g}), benign; "
        "max_rel_err <= {suggest} would pass it",
        "舍入：所有差异都在 {ulps:g} 个舍入单位之内（eps {eps:g}），无害；max_rel_err <= {suggest} 即可通过"),
    "uncorrelated": (
        "uncorrelated: correlation {correlation:.3f} (garbage or uninitialised memory)",
        "不相关：相关系数 {correlation:.3f}（垃圾数据或未初始化的内存）"),
    "unclassified": (
        "unclassified: {differing_share:.2%} of the values differ beyond rounding "
        "(median relative error {median_rel_err:.3g})",
        "未归类：{differing_share:.2%} 的值超出舍入误差（相对误差中位数 {median_rel_err:.3g}）"),
    "mixed": ("mixed: {parts}", "混合：{parts}"),
}
# The parts of the templates above: a permutation's transform, a scale's hint, how mixed parts are joined, and
# the report's label of a culprit's signature line.
SIGNATURE_PARTS: dict[str, tuple[str, str]] = {
    "reverse": ("axis {axis} reversed", "第 {axis} 轴反转"),
    "swap_axes": ("axes {axes} swapped", "轴 {axes} 互换"),
    "shift": ("shifted by {shift} along axis {axis}", "沿第 {axis} 轴平移 {shift}"),
    "c0_blocks": ("blocks of C0={c0} exchanged along axis {axis}: {moved} of {count} moved, fused ← origin {pairs}",
                  "C0={c0} 的数据块沿第 {axis} 轴互换：{count} 块中 {moved} 块被移动，fused ← origin {pairs}"),
    "unknown_order": ("an unknown order", "未知的顺序"),
    "scale_hint": (", about 1/{inverse:.4g}", "，约为 1/{inverse:.4g}"),
    "mixed_separator": ("; ", "；"),
    "culprit_signature": ("culprit signature", "CULPRIT 误差特征"),
    "culprit_line": ("{op} {kind} {index}{where}: {sentence}", "{op} {kind} {index}{where}：{sentence}"),
    "output": ("output", "输出"),
    "input": ("input", "输入"),
}


def _signature_context(code: str, params: Mapping[str, Any], chinese: bool) -> dict[str, Any]:
    """The params plus the derived fields the templates name."""
    context: dict[str, Any] = dict(params)
    if code == "layout_permutation":
        transform = str(params.get("transform"))
        part = SIGNATURE_PARTS.get(transform) if transform in ("reverse", "swap_axes", "shift", "c0_blocks") else None
        template = (part or SIGNATURE_PARTS["unknown_order"])[chinese]
        pairs = ", ".join(f"{pair[0]}←{pair[1]}" for pair in params.get("blocks") or [])  # C0 blocks moved
        context["how"] = template.format(axis=params.get("axis"), axes=params.get("axes"), shift=params.get("shift"),
                                         c0=params.get("c0"), moved=params.get("moved"), count=params.get("count"),
                                         pairs=pairs)
    elif code == "scale":
        factor = params["factor"]
        context["hint"] = (SIGNATURE_PARTS["scale_hint"][chinese].format(inverse=1 / factor)
                           if factor and abs(factor) < 1 else "")
    elif code == "rounding":
        context["suggest"] = round_up(params["max_rel_err"])
    return context


def round_up(value: float) -> str:
    """A round threshold just above value (one significant digit up), as core's rounding sentence words it
    (core.precision.signature._above; tests/core/test_signature_messages.py holds the two together)."""
    if value <= 0 or not math.isfinite(value):
        return "0"
    power = 10.0 ** math.floor(math.log10(value))
    return f"{math.ceil(value / power) * power:.1g}"


def render_signature_parts(code: str, params: Mapping[str, Any], language: str) -> str:
    """A signature's sentence in `language` from the catalogue (KeyError/ValueError/TypeError when the params do
    not fit the template, e.g. a value that was not finite and became None)."""
    chinese = is_chinese(language)
    if code == "mixed":
        separator = SIGNATURE_PARTS["mixed_separator"][chinese]
        parts = separator.join(render_signature_parts(str(part["code"]), part.get("params") or {}, language)
                               for part in params["parts"])
        return SIGNATURES["mixed"][chinese].format(parts=parts)
    return SIGNATURES[code][chinese].format(**_signature_context(code, params, chinese))


def render_signature(code: str, params: Mapping[str, Any], sentence: str, language: str) -> str:
    """A signature's sentence in `language`: English is core's `sentence` as is; a code or params the catalogue
    cannot render (another version's) fall back to it too."""
    if not is_chinese(language):
        return sentence
    try:
        return render_signature_parts(code, params, language)
    except (KeyError, IndexError, ValueError, TypeError, ZeroDivisionError):
        return sentence
