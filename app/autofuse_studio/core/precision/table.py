"""Console text of a precision run: the reference's nine-column table (CJK-aligned) and our summary."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from autofuse_studio.core.notices import join_names
from autofuse_studio.core.precision.pair import PairResult
from autofuse_studio.core.precision.rows import INPUT, PrecisionResult, PrecisionRow
from autofuse_studio.core.printable import escape_controls

HEADERS = ("类型", "融合算子名", "索引", "原算子名", "原索引", "余弦相似度", "绝对误差最大值", "相对误差最大值", "状态")
KIND_LABELS = {"output": "输出", INPUT: "输入"}


def display_width(text: str) -> int:
    """Terminal columns taken by text: wide and fullwidth (CJK) characters count twice."""
    if text.isascii():
        return len(text)  # op names and numbers: no per-character lookup
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def format_cosine(value: float | None) -> str:
    """The reference's cosine format (10 decimals) or '-'."""
    return "-" if value is None else f"{value:.10f}"


def format_error(value: float | None) -> str:
    """The reference's error format (.6e) or '-'."""
    return "-" if value is None else f"{value:.6e}"


def _stats_errors(row: PrecisionRow) -> tuple[float | None, float | None]:
    """A statistics row's error columns: the worst statistic's absolute and relative difference."""
    worst = row.stats.item(row.stats.worst_item() or "") if row.stats is not None else None
    return (abs(worst.diff), worst.rel_diff) if worst is not None else (None, None)


def row_cells(row: PrecisionRow) -> list[str]:
    """The nine cells of a row, formatted exactly as the reference formats them.

    A statistics-mode row has no cosine; its error columns hold its worst statistic's differences.
    """
    metrics = row.metrics
    if metrics is None and row.stats is not None:
        abs_err, rel_err = _stats_errors(row)
        return [KIND_LABELS.get(row.kind, row.kind), escape_controls(row.fused_op), str(row.fused_index),
                escape_controls(row.origin_op) if row.origin_op else "-",
                str(row.origin_index) if row.origin_index is not None else "-", "-", format_error(abs_err),
                format_error(rel_err), row.status]
    return [
        KIND_LABELS.get(row.kind, row.kind),
        escape_controls(row.fused_op),
        str(row.fused_index),
        escape_controls(row.origin_op) if row.origin_op else "-",
        str(row.origin_index) if row.origin_index is not None else "-",
        format_cosine(metrics.cosine if metrics else None),
        format_error(metrics.max_abs_err if metrics else None),
        format_error(metrics.max_rel_err if metrics else None),
        row.status,
    ]


def format_table(rows: Sequence[PrecisionRow]) -> str:
    """Header, dashes joined by '-+-', then one line per row with cells joined by ' | '."""
    columns = list(zip(*(row_cells(row) for row in rows), strict=True)) or [()] * len(HEADERS)
    # Column by column: a column of ASCII text (every number, most names) is measured and padded by str
    # methods in C; 20k rows took 0.9 s cell by cell.
    padded, widths = [], []
    for header, column in zip(HEADERS, columns, strict=True):
        plain = "".join(column).isascii()
        width = max(display_width(header), max(map(len, column), default=0) if plain else
                    max((display_width(text) for text in column), default=0))
        widths.append(width)
        padded.append([text.ljust(width) for text in column] if plain else [_pad(text, width) for text in column])
    lines = [" | ".join(_pad(text, widths[i]) for i, text in enumerate(HEADERS))]
    lines.append("-+-".join("-" * width for width in widths))
    lines.extend(map(" | ".join, zip(*padded, strict=True)))
    return "\n".join(lines)


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "none"


def describe_row(row: PrecisionRow) -> str:
    """'autofuse_3_Mul output 0 (origin Mul_1 output 0, step 0), cosine 0.91...', then ' — {sentence}' when the
    row has a signature (core.precision.signature)."""
    origin = f"{row.origin_op} output {row.origin_index}" if row.origin_op else "no origin"
    where = f", rank {row.rank}" if row.rank is not None else ""
    where += f", step {row.step}" if row.step else ""
    where += f", occurrence {row.occurrence}" if row.occurrence is not None else ""
    cosine = f", cosine {format_cosine(row.metrics.cosine)}" if row.metrics else ""
    worst = row.stats.item(row.stats.worst_item() or "") if row.stats is not None else None
    if worst is not None:
        cosine = f", statistics: {worst.describe()}"
    signed = f" — {row.signature.sentence}" if row.signature is not None else ""
    return escape_controls(f"{row.fused_op} {row.kind} {row.fused_index} (origin {origin}{where}){cosine}{signed}")


def rank_lines(result: PrecisionResult) -> list[str]:
    """One line per rank with a divergence, then one line for the ranks without: 'ranks 0, 1, 3: none'."""
    lines = []
    clean = []
    for rank, row in result.first_divergence_by_rank.items():
        if row is None:
            clean.append(rank)
            continue
        step = f" step {row.step}" if row.step else ""
        text = f"  rank {rank}: first divergence {row.fused_op} {row.kind} {row.fused_index}{step}"
        lines.append(escape_controls(text))
    if clean:
        lines.append(f"  {'rank' if len(clean) == 1 else 'ranks'} {join_names(clean, 16)}: none")
    return lines


def format_summary(result: PrecisionResult) -> str:
    """The short summary printed after the table: counts, culprits, first divergence."""
    lines = [
        f"Summary: {len(result.rows)} {'row' if len(result.rows) == 1 else 'rows'}",
        f"  status:  {_counts_text(result.counts('status'))}",
        f"  verdict: {_counts_text(result.counts('verdict'))}",
    ]
    culprits = [row for row in result.rows if row.verdict == "CULPRIT"]
    for row in culprits[:20]:
        lines.append(f"  CULPRIT {describe_row(row)}")
    if len(culprits) > 20:
        lines.append(f"  ... and {len(culprits) - 20} more culprits")
    first = result.first_divergence
    lines.append(f"First divergence: {describe_row(first) if first else 'none'}")
    lines += rank_lines(result)
    return "\n".join(lines)


MODE2_EXTRA_LABELS = (
    ("mean_abs_err", "平均绝对误差", "{:.6e}"),
    ("rmse", "均方根误差", "{:.6e}"),
    ("rel_euclidean", "相对欧氏距离", "{:.6e}"),
    ("one_thousandth_ratio", "千分之一误差通过率", "{:.6%}"),
    ("five_thousandth_ratio", "千分之五误差通过率", "{:.6%}"),
    ("elements", "元素个数", "{}"),
)


def format_mode2(path_a: str, path_b: str, outcome: PairResult) -> str:
    """What mode 2 prints: the reference's lines, then the extra metrics."""
    lines = [f"文件A: {escape_controls(path_a)}", f"文件B: {escape_controls(path_b)}", f"状态: {outcome.status}"]
    metrics = outcome.metrics
    if metrics is None:
        return "\n".join(lines)
    lines += [f"余弦相似度: {metrics.cosine:.10f}", f"绝对误差最大值: {metrics.max_abs_err:.6e}",
              f"相对误差最大值: {metrics.max_rel_err:.6e}"]
    lines += [f"{label}: {pattern.format(getattr(metrics, name))}" for name, label, pattern in MODE2_EXTRA_LABELS]
    lines.append(f"NaN/Inf 个数: A {metrics.nan_fused}/{metrics.inf_fused}, "
                 f"B {metrics.nan_origin}/{metrics.inf_origin}")
    lines.append(f"数据类型: A {outcome.fused_dtype}, B {outcome.origin_dtype}")
    return "\n".join(lines)
