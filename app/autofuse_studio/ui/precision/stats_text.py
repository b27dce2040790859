"""How statistics-mode comparisons read in the GUI: statistic names, 'Avg 0.55 vs 0.5 (9.1%)', limits, verdicts.

A statistics-mode row (a `dump_data: stats` side) carries a StatsComparison instead of metrics. The core words
it in English for the console; these texts follow the UI language. Translations use the literal context
"StatsText" (pyside6-lupdate does not resolve variables).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication

from autofuse_studio.core.precision.rows import PrecisionRow
from autofuse_studio.core.precision.stats import ItemComparison, StatsComparison, StatsLimits

NOT_APPLICABLE = "—"  # a tensor metric of a row compared by its statistics
_MAX_DIGITS = 9  # the CSVs print 9 significant digits


def statistic_name(name: str) -> str:
    """A statistic's name in the current language ('avg' -> 'Avg')."""
    names = {
        "max": QCoreApplication.translate("StatsText", "Max"),
        "min": QCoreApplication.translate("StatsText", "Min"),
        "avg": QCoreApplication.translate("StatsText", "Avg"),
        "l2norm": QCoreApplication.translate("StatsText", "L2 norm"),
        "count": QCoreApplication.translate("StatsText", "Elements"),
        "nan_count": QCoreApplication.translate("StatsText", "NaN count"),
        "neg_inf_count": QCoreApplication.translate("StatsText", "-Inf count"),
        "pos_inf_count": QCoreApplication.translate("StatsText", "+Inf count"),
    }
    return names.get(name, name)


def _number(value: float, digits: int) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.{digits}g}"


def number_pair(fused: float, origin: float) -> tuple[str, str]:
    """Both values with 4 significant digits, or as many more (up to 9) as it takes to tell them apart."""
    digits = 4
    while digits < _MAX_DIGITS and fused != origin and _number(fused, digits) == _number(origin, digits):
        digits += 1
    return _number(fused, digits), _number(origin, digits)


def number_text(value: float) -> str:
    """One value as the statistics view shows it (7 significant digits)."""
    return _number(value, 7)


def relative_text(item: ItemComparison) -> str:
    """The relative difference as a percentage ('9.1%'), '—' for a count or a non-finite side."""
    if item.is_count or not math.isfinite(item.rel_diff):
        return NOT_APPLICABLE
    percent = item.rel_diff * 100
    if percent == 0:
        return "0%"
    if percent >= 10:
        return f"{percent:.0f}%"
    if percent >= 1:
        return f"{percent:.1f}%"
    return f"{percent:.2g}%"


def item_text(item: ItemComparison) -> str:
    """'Avg 0.55 vs 0.5 (9.1%)'; counts and non-finite values without the percentage."""
    fused, origin = number_pair(item.fused, item.origin)
    text = QCoreApplication.translate("StatsText", "%1 %2 vs %3").replace("%1", statistic_name(item.name))
    text = text.replace("%2", fused).replace("%3", origin)
    relative = relative_text(item)
    return text if relative == NOT_APPLICABLE else f"{text} ({relative})"


def worst_statistic(row: PrecisionRow) -> ItemComparison | None:
    """The statistic that diverged most (core's worst_item, ranked against the default limits as the console
    table ranks it), None for rows without statistics or whose statistics all agree."""
    stats = row.stats
    if stats is None:
        return None
    worst = stats.worst_item()
    return stats.item(worst) if worst is not None else None


def worst_statistic_text(row: PrecisionRow) -> str:
    """The Statistics cell of a statistics row: the worst statistic, 'all equal' or 'not compared'."""
    worst = worst_statistic(row)
    if worst is not None:
        return item_text(worst)
    stats = row.stats
    if stats is not None and stats.comparable:
        return QCoreApplication.translate("StatsText", "all equal")
    return QCoreApplication.translate("StatsText", "not compared")


def _percent_limit(value: float) -> str:
    return f"{value * 100:g}%"


def limits_text(limits: StatsLimits) -> str:
    """The rule a statistic is judged by, in one line."""
    text = QCoreApplication.translate(
        "StatsText", "A statistic fails when it differs by more than %1 relative and %2 absolute; "
                     "NaN/Inf counts may differ by %3.")
    return (text.replace("%1", _percent_limit(limits.max_rel)).replace("%2", f"{limits.abs_floor:g}")
            .replace("%3", str(limits.max_nonfinite_diff)))


def _shape(shape: tuple[int, ...] | None) -> str:
    if shape is None:
        return "?"
    return "x".join(str(dim) for dim in shape) or QCoreApplication.translate("StatsText", "scalar")


def mismatch_text(stats: StatsComparison) -> str | None:
    """Why a comparison is not judged (different element counts) or what else to know (different shapes)."""
    count = stats.item("count")
    if stats.count_mismatch and count is not None:
        text = QCoreApplication.translate(
            "StatsText", "The element counts differ (%1 fused, %2 origin): the statistics cover different data "
                         "(a device layout's padding?), so they are not judged.")
        return text.replace("%1", number_text(count.fused)).replace("%2", number_text(count.origin))
    if stats.shape_mismatch:
        text = QCoreApplication.translate(
            "StatsText", "The shapes differ (%1 fused, %2 origin) but the element counts agree: the statistics "
                         "are compared.")
        return text.replace("%1", _shape(stats.fused_shape)).replace("%2", _shape(stats.origin_shape))
    return None


def verdict_text(stats: StatsComparison, limits: StatsLimits) -> str:
    """One sentence: how many statistics break the limits, or why none is judged."""
    if stats.problem:
        return stats.problem  # names the unusable file and what is wrong with it (core's sentence)
    if stats.count_mismatch:
        return mismatch_text(stats) or ""
    if not stats.comparable:
        return QCoreApplication.translate("StatsText", "No statistic is present on both sides: not judged.")
    broken = sum(item.breaks(limits) for item in stats.items)
    if broken == 1:
        return QCoreApplication.translate("StatsText", "1 statistic breaks the limits.")
    if broken:
        return QCoreApplication.translate("StatsText", "%1 statistics break the limits.").replace("%1", str(broken))
    return QCoreApplication.translate("StatsText", "Every statistic is within the limits.")


def one_sided_text(stats: StatsComparison) -> str | None:
    """The statistics only one side has (not compared), or None."""
    if not stats.one_sided:
        return None
    names = ", ".join(statistic_name(name) for name in stats.one_sided)
    return QCoreApplication.translate("StatsText", "Only one side has %1: not compared.").replace("%1", names)


def broken_items(stats: StatsComparison, limits: StatsLimits) -> list[ItemComparison]:
    """The statistics that break `limits`, worst first (none when the comparison is not judged)."""
    if not stats.comparable:
        return []
    broken = [item for item in stats.items if item.breaks(limits)]
    return sorted(broken, key=lambda item: -item.severity(limits))


def stats_tooltip(row: PrecisionRow, limits: StatsLimits) -> str | None:
    """A statistics row's full story: verdict, every broken statistic, the rule, the row's message."""
    stats = row.stats
    if stats is None:
        return None
    lines = [verdict_text(stats, limits)]
    lines += [f"• {item_text(item)}" for item in broken_items(stats, limits)]
    lines.append(limits_text(limits))
    lines += [text for text in (one_sided_text(stats), mismatch_text(stats) if not stats.count_mismatch else None)
              if text]
    if row.message and row.message not in lines and row.message != stats.mismatch:
        lines.append(row.message)
    return "\n".join(line for line in lines if line)
