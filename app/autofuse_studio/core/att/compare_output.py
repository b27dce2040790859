"""Compare report layouts: the reference's Chinese text report and its three-sheet xlsx, or both in English.

The drop-in `att compare` writes the reference's Chinese (docs/compatibility.md); the GUI writes the UI language.
Every text goes through core/messages.py's COMPARE_WORDS (Chinese -> English).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autofuse_studio.core.att.compare import Comparison, FieldDiff, PerfDiff
from autofuse_studio.core.messages import ZH, compare_word, is_chinese
from autofuse_studio.core.reports.xlsx_cells import save_workbook, set_cell

RULE = "=" * 80
HEADER_FILL = "4472C4"
SUMMARY_HEADER = ["项目", "文件1", "文件2", "差异"]
DETAIL_HEADER = ["算子", "字段名", "文件1值", "文件2值", "差异类型", "数值差异", "百分比差异"]
PERF_HEADER = ["算子", "性能指标", "文件1值", "文件2值", "绝对差异", "百分比差异", "状态"]
NUMERIC_DIFF, STRING_DIFF = "数值差异", "字符串差异"
# att.py stores percentages as plain numbers (12.5 means 12.5 %); this format shows them as `+12.50%`
# without changing the value, so scripts reading the cells get the same numbers.
PERCENT_FORMAT = '+0.00"%";-0.00"%";0.00"%"'


def _count_change(a: int, b: int, lang: str = ZH) -> str:
    return compare_word("相同", lang) if a == b else f"{compare_word('差异', lang)}: {b - a:+d}"


def field_diff_line(diff: FieldDiff, lang: str = ZH) -> str:
    """`- field: v1 → v2 (差异: +x, +y%)`; text cells have no difference part."""
    line = f"- {diff.column}: {diff.value1} → {diff.value2}"
    if diff.difference is None:
        return line
    label = compare_word("差异", lang)
    if diff.percent is None:
        return f"{line} ({label}: {diff.difference:+.6f})"
    return f"{line} ({label}: {diff.difference:+.6f}, {diff.percent:+.2f}%)"


def perf_diff_line(diff: PerfDiff, lang: str = ZH) -> str:
    """`v1 → v2 (+abs, +pct%) ✓ 改善|✗ 下降` with six decimals."""
    change = f"{diff.difference:+.6f}"
    if diff.percent is not None:
        change += f", {diff.percent:+.2f}%"
    verdict = f"✓ {compare_word('改善', lang)}" if diff.improved else f"✗ {compare_word('下降', lang)}"
    return f"{diff.value1:.6f} → {diff.value2:.6f} ({change}) {verdict}"


def _key_section(title: str, keys: list[str], lang: str = ZH) -> list[str]:
    count = f"{len(keys)} 个" if is_chinese(lang) else str(len(keys))
    lines = [f"  {compare_word(title, lang)}: {count}"]
    if keys:
        lines.append("    " + ", ".join(keys))
    return lines


def comparison_text(result: Comparison, lang: str = ZH) -> str:
    """The full text report, as the reference prints it (deterministic order); `lang` 'en' writes it in English."""
    t1, t2 = result.table1, result.table2

    def w(text: str) -> str:
        return compare_word(text, lang)

    def ops(count: int) -> str:
        return f"{count} 个算子" if is_chinese(lang) else f"{count} {w('个算子')}"

    lines = [RULE, w("CSV文件对比分析报告"), RULE, "", w("文件信息："),
             f"  {w('文件1')}: {t1.path} ({ops(t1.row_count)})", f"  {w('文件2')}: {t2.path} ({ops(t2.row_count)})",
             "", w("结构对比："),
             f"  {w('列数')}: {len(t1.columns)} vs {len(t2.columns)} "
             f"({_count_change(len(t1.columns), len(t2.columns), lang)})",
             f"  {w('行数')}: {t1.row_count} vs {t2.row_count} ({_count_change(t1.row_count, t2.row_count, lang)})"]
    if result.only_columns1 or result.only_columns2:
        lines += ["", f"  {w('结构差异：')}"]
        if result.only_columns1:
            lines.append(f"    - {w('列仅在文件1中')}: " + ", ".join(result.only_columns1))
        if result.only_columns2:
            lines.append(f"    - {w('列仅在文件2中')}: " + ", ".join(result.only_columns2))
    lines += ["", w("算子对比：")]
    lines += _key_section("共同算子", result.common_keys, lang)
    if result.only_keys1:
        lines += _key_section("仅在文件1中", result.only_keys1, lang)
    if result.only_keys2:
        lines += _key_section("仅在文件2中", result.only_keys2, lang)
    lines += ["", w("详细差异分析：")]
    lines += _field_diff_lines(result.field_diffs, lang) or [f"  {w('无差异')}"]
    if result.perf_diffs:
        lines += ["", w("性能指标对比：")]
        for diff in result.perf_diffs:
            lines += [f"  [{diff.key}] {diff.metric}", f"    {perf_diff_line(diff, lang)}"]
    lines += ["", RULE, w("对比总结："), f"  - {w('总计 {n} 个字段差异').format(n=len(result.field_diffs))}",
              f"  - {w('{n} 个性能指标变化').format(n=len(result.perf_diffs))}"]
    key_changes = len(result.only_keys1) + len(result.only_keys2)
    if key_changes:
        lines.append(f"  - {w('{n} 个算子差异').format(n=key_changes)}")
    lines.append(f"  ✓ {w('两个文件完全相同')}" if result.identical else f"  ✓ {w('两个文件存在差异')}")
    lines.append(RULE)
    return "\n".join(lines) + "\n"


def _field_diff_lines(diffs: list[FieldDiff], lang: str = ZH) -> list[str]:
    lines: list[str] = []
    current = None
    for diff in diffs:
        if diff.key != current:
            current = diff.key
            lines.append(f"  [{diff.key}]")
        lines.append(f"    {field_diff_line(diff, lang)}")
    return lines


def duplicate_warnings(result: Comparison) -> list[str]:
    """One line per duplicated row key (the last row of a key is compared)."""
    return [f"Warning: {table.path}:{line}: duplicate row {key}; the last row with this key is used."
            for table in (result.table1, result.table2) for key, line in table.duplicates]


def summary_sheet_rows(result: Comparison, lang: str = ZH) -> list[list[object]]:
    """The 摘要 sheet's rows below the header, cell for cell as att.py writes them."""
    t1, t2 = result.table1, result.table2
    rows: list[list[object]] = [
        ["文件路径", t1.path, t2.path, ""],
        ["算子数量", t1.row_count, t2.row_count, f"{t2.row_count - t1.row_count:+d}"],
        ["列数", len(t1.columns), len(t2.columns), f"{len(t2.columns) - len(t1.columns):+d}"],
        ["共同算子", len(result.common_keys), len(result.common_keys), compare_word("相同", lang)],
        ["仅在文件1中", len(result.only_keys1), 0, ""],
        ["仅在文件2中", 0, len(result.only_keys2), ""],
        ["字段差异总数", "", "", len(result.field_diffs)],
        ["性能指标变化数", "", "", len(result.perf_diffs)],
    ]
    for row in rows:
        row[0] = compare_word(str(row[0]), lang)
    return rows


def detail_sheet_rows(result: Comparison, lang: str = ZH) -> list[list[object]]:
    """The 详细差异 sheet's rows: differences and percentages as numbers (None when there is none)."""
    numeric, text = compare_word(NUMERIC_DIFF, lang), compare_word(STRING_DIFF, lang)
    return [[d.key, d.column, d.value1, d.value2, numeric if d.difference is not None else text,
             d.difference, d.percent] for d in result.field_diffs]


def perf_sheet_rows(result: Comparison, lang: str = ZH) -> list[list[object]]:
    """The 性能对比 sheet's rows: values, difference and percentage as numbers, then 改善/下降."""
    better, worse = compare_word("改善", lang), compare_word("下降", lang)
    return [[d.key, d.metric, d.value1, d.value2, d.difference, d.percent, better if d.improved else worse]
            for d in result.perf_diffs]


def write_comparison_xlsx(result: Comparison, path: str | Path, lang: str = ZH) -> None:
    """Sheets 摘要, 详细差异 (if any) and 性能对比 (if any), laid out like att.py's workbook ('en': in English)."""
    from openpyxl import Workbook  # lazy: only this path needs openpyxl

    def w(texts: list[str]) -> list[str]:
        return [compare_word(text, lang) for text in texts]

    book = Workbook()
    summary = book.active
    summary.title = compare_word("摘要", lang)
    _write_sheet(summary, w(SUMMARY_HEADER), summary_sheet_rows(result, lang), width=20)
    if result.field_diffs:
        _write_sheet(book.create_sheet(compare_word("详细差异", lang)), w(DETAIL_HEADER),
                     detail_sheet_rows(result, lang), percent_column=7)
    if result.perf_diffs:
        _write_sheet(book.create_sheet(compare_word("性能对比", lang)), w(PERF_HEADER),
                     perf_sheet_rows(result, lang), percent_column=6)
    save_workbook(book, path)  # atomic, and one error on a full disk (no ZipFile.__del__ noise)


def _write_sheet(sheet: Any, header: list[str], rows: list[list[object]], width: int = 15,
                 percent_column: int | None = None) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    for column, text in enumerate(header, start=1):
        cell = set_cell(sheet, 1, column, text)
        cell.fill = PatternFill(start_color=HEADER_FILL, end_color=HEADER_FILL, fill_type="solid")
        cell.font = Font(bold=True)
        cell.alignment = Alignment(horizontal="center", vertical="center")
    for row_number, row in enumerate(rows, start=2):
        for column, value in enumerate(row, start=1):
            if value is not None:  # att.py leaves the cell out (e.g. no percentage for a zero baseline)
                set_cell(sheet, row_number, column, value, PERCENT_FORMAT if column == percent_column else None)
    for index in range(1, len(header) + 1):
        sheet.column_dimensions[get_column_letter(index)].width = width
