"""Compare report layouts: the reference's Chinese text report and its three-sheet xlsx."""

from __future__ import annotations

from pathlib import Path

from autofuse_studio.core.att.compare import Comparison, FieldDiff, PerfDiff
from autofuse_studio.core.reports.atomic import atomic_open

RULE = "=" * 80
HEADER_FILL = "4472C4"


def _count_change(a: int, b: int) -> str:
    return "相同" if a == b else f"差异: {b - a:+d}"


def field_diff_line(diff: FieldDiff) -> str:
    """`- field: v1 → v2 (差异: +x, +y%)`; text cells have no difference part."""
    line = f"- {diff.column}: {diff.value1} → {diff.value2}"
    if diff.difference is None:
        return line
    if diff.percent is None:
        return f"{line} (差异: {diff.difference:+.6f})"
    return f"{line} (差异: {diff.difference:+.6f}, {diff.percent:+.2f}%)"


def perf_diff_line(diff: PerfDiff) -> str:
    """`v1 → v2 (+abs, +pct%) ✓ 改善|✗ 下降` with six decimals."""
    change = f"{diff.difference:+.6f}"
    if diff.percent is not None:
        change += f", {diff.percent:+.2f}%"
    verdict = "✓ 改善" if diff.improved else "✗ 下降"
    return f"{diff.value1:.6f} → {diff.value2:.6f} ({change}) {verdict}"


def _key_section(title: str, keys: list[str]) -> list[str]:
    lines = [f"  {title}: {len(keys)} 个"]
    if keys:
        lines.append("    " + ", ".join(keys))
    return lines


def comparison_text(result: Comparison) -> str:
    """The full text report, as the reference prints it (deterministic order)."""
    t1, t2 = result.table1, result.table2
    lines = [RULE, "CSV文件对比分析报告", RULE, "", "文件信息：",
             f"  文件1: {t1.path} ({t1.row_count} 个算子)", f"  文件2: {t2.path} ({t2.row_count} 个算子)",
             "", "结构对比：",
             f"  列数: {len(t1.columns)} vs {len(t2.columns)} "
             f"({_count_change(len(t1.columns), len(t2.columns))})",
             f"  行数: {t1.row_count} vs {t2.row_count} ({_count_change(t1.row_count, t2.row_count)})"]
    if result.only_columns1 or result.only_columns2:
        lines += ["", "  结构差异："]
        if result.only_columns1:
            lines.append("    - 列仅在文件1中: " + ", ".join(result.only_columns1))
        if result.only_columns2:
            lines.append("    - 列仅在文件2中: " + ", ".join(result.only_columns2))
    lines += ["", "算子对比："]
    lines += _key_section("共同算子", result.common_keys)
    if result.only_keys1:
        lines += _key_section("仅在文件1中", result.only_keys1)
    if result.only_keys2:
        lines += _key_section("仅在文件2中", result.only_keys2)
    lines += ["", "详细差异分析："]
    lines += _field_diff_lines(result.field_diffs) or ["  无差异"]
    if result.perf_diffs:
        lines += ["", "性能指标对比："]
        for diff in result.perf_diffs:
            lines += [f"  [{diff.key}] {diff.metric}", f"    {perf_diff_line(diff)}"]
    lines += ["", RULE, "对比总结：", f"  - 总计 {len(result.field_diffs)} 个字段差异",
              f"  - {len(result.perf_diffs)} 个性能指标变化"]
    key_changes = len(result.only_keys1) + len(result.only_keys2)
    if key_changes:
        lines.append(f"  - {key_changes} 个算子差异")
    lines.append("  ✓ 两个文件完全相同" if result.identical else "  ✓ 两个文件存在差异")
    lines.append(RULE)
    return "\n".join(lines) + "\n"


def _field_diff_lines(diffs: list[FieldDiff]) -> list[str]:
    lines: list[str] = []
    current = None
    for diff in diffs:
        if diff.key != current:
            current = diff.key
            lines.append(f"  [{diff.key}]")
        lines.append(f"    {field_diff_line(diff)}")
    return lines


def duplicate_warnings(result: Comparison) -> list[str]:
    """One line per duplicated row key (the last row of a key is compared)."""
    return [f"Warning: {table.path}:{line}: duplicate row {key}; the last row with this key is used."
            for table in (result.table1, result.table2) for key, line in table.duplicates]


def write_comparison_xlsx(result: Comparison, path: str | Path) -> None:
    """Sheets 摘要, 详细差异 (if any) and 性能对比 (if any), headers filled 4472C4 and bold."""
    from openpyxl import Workbook  # lazy: only this path needs openpyxl

    t1, t2 = result.table1, result.table2
    book = Workbook()
    summary = book.active
    summary.title = "摘要"
    _append_sheet(summary, ["项目", "文件1", "文件2", "差异"], [
        ["文件路径", t1.path, t2.path, ""],
        ["算子数量", t1.row_count, t2.row_count, t2.row_count - t1.row_count],
        ["列数", len(t1.columns), len(t2.columns), len(t2.columns) - len(t1.columns)],
        ["共同算子", len(result.common_keys), "", ""],
        ["仅在文件1中", len(result.only_keys1), "", ""],
        ["仅在文件2中", "", len(result.only_keys2), ""],
        ["字段差异总数", "", "", len(result.field_diffs)],
        ["性能指标变化数", "", "", len(result.perf_diffs)],
    ], width=20)
    if result.field_diffs:
        _append_sheet(book.create_sheet("详细差异"),
                      ["算子", "字段名", "文件1值", "文件2值", "差异类型", "数值差异", "百分比差异"],
                      [[d.key, d.column, d.value1, d.value2,
                        "数值差异" if d.difference is not None else "文本差异", d.difference,
                        None if d.percent is None else f"{d.percent:+.2f}%"]
                       for d in result.field_diffs])
    if result.perf_diffs:
        _append_sheet(book.create_sheet("性能对比"),
                      ["算子", "性能指标", "文件1值", "文件2值", "绝对差异", "百分比差异", "状态"],
                      [[d.key, d.metric, d.value1, d.value2, d.difference,
                        None if d.percent is None else f"{d.percent:+.2f}%", "改善" if d.improved else "下降"]
                       for d in result.perf_diffs])
    with atomic_open(path, "wb") as handle:
        book.save(handle)


def _append_sheet(sheet: object, header: list[str], rows: list[list[object]], width: int = 18) -> None:
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    sheet.append(header)  # type: ignore[attr-defined]
    for row in rows:
        sheet.append(row)  # type: ignore[attr-defined]
    for cell in sheet[1]:  # type: ignore[index]
        cell.fill = PatternFill(start_color=HEADER_FILL, end_color=HEADER_FILL, fill_type="solid")
        cell.font = Font(bold=True)
    for index in range(1, len(header) + 1):
        sheet.column_dimensions[get_column_letter(index)].width = width  # type: ignore[attr-defined]
