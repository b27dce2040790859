"""The overview `att analyze` prints (and writes as report.txt with `-f text`), in English or Chinese."""

from __future__ import annotations

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.diff import CHANGED, ONLY_CANDIDATE, ONLY_DEFAULT
from autofuse_studio.core.att.runs.discovery import CATEGORIES
from autofuse_studio.core.att.runs.evidence_text import clip
from autofuse_studio.core.att.runs.report_md import size_text
from autofuse_studio.core.att.runs.sides import ROLES
from autofuse_studio.core.att.runs.texts import ZH, cause_text, percent, word

MAX_LISTED = 20
MAX_CAUSES = 150  # characters of causes per line; report.md has them all
_T: dict[str, tuple[str, str]] = {
    "root": ("Run root: {root}  (default: {default}/, candidate: {candidate}/; {how})",
             "运行目录：{root}（default：{default}/，candidate：{candidate}/；{how}）"),
    "side": ("{role:<9} {logs} ATT log(s), {size}; folders: {folders}",
             "{role:<9} {logs} 个 ATT 日志，{size}；目录：{folders}"),
    "counts": ("Operators: {total} — {changed} changed, {only_default} only in default, "
               "{only_candidate} only in candidate, {unchanged} unchanged",
               "算子：{total} 个 — {changed} 个有变化，{only_default} 个仅在 default，"
               "{only_candidate} 个仅在 candidate，{unchanged} 个无变化"),
    "changed": ("Changed and one-sided operators (largest regressions first):",
                "有变化及仅在一侧的算子（劣化最大的在前）："),
    "more": ("  … {n} more in report.md", "  … 另有 {n} 个，见 report.md"),
    "none": ("No operator changed.", "没有算子发生变化。"),
}


def _t(key: str, lang: str, **values: object) -> str:
    return _T[key][lang == ZH].format(**values)


def overview(analysis: RunAnalysis, lang: str) -> str:
    """Sides, what was found, the counts and the first changed operators with their main causes."""
    sides = analysis.sides
    lines = [_t("root", lang, root=sides.run_root, default=sides.default.label, candidate=sides.candidate.label,
                how=sides.how)]
    for role in ROLES:
        scan = analysis.scans[role]
        present = [f"{c}/" for c in CATEGORIES if scan.listing.present(c)]
        lines.append(_t("side", lang, role=role, logs=len(scan.logs), size=size_text(scan.log_bytes),
                        folders=" ".join(present) or "—"))
    lines.append(_t("counts", lang, total=len(analysis.diffs), **analysis.counts()))
    listed = [d for d in analysis.diffs if d.status in (CHANGED, ONLY_DEFAULT, ONLY_CANDIDATE)]
    if not listed:
        lines.append(_t("none", lang))
    else:
        lines.append(_t("changed", lang))
        shown = listed[:MAX_LISTED]
        width = min(max(len(d.name) for d in shown), 40)
        deltas = [percent(d.perf_delta_pct) if d.status == CHANGED else word(d.status, lang) for d in shown]
        delta_width = max(len(text) for text in deltas)
        for diff, delta in zip(shown, deltas, strict=True):
            causes = "" if diff.status != CHANGED else clip("; ".join(cause_text(c, lang) for c in diff.causes),
                                                           MAX_CAUSES)
            lines.append(f"  {diff.name:<{width}}  {delta:>{delta_width}}  {causes}".rstrip())
        if len(listed) > MAX_LISTED:
            lines.append(_t("more", lang, n=len(listed) - MAX_LISTED))
    return "\n".join(lines) + "\n"
