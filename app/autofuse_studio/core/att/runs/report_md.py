"""report.md: what was found where, changed operators with causes and `path:line` evidence, then the rest."""

from __future__ import annotations

from autofuse_studio.core.att.runs.analysis import RunAnalysis
from autofuse_studio.core.att.runs.diff import CHANGED, ONLY_CANDIDATE, ONLY_DEFAULT, UNCHANGED, Cause, OperatorDiff
from autofuse_studio.core.att.runs.discovery import CATEGORIES, NOT_PARSED
from autofuse_studio.core.att.runs.markdown import code, plain, table
from autofuse_studio.core.att.runs.sides import ROLES
from autofuse_studio.core.att.runs.texts import ZH, cause_text, number, percent, word

_T: dict[str, tuple[str, str]] = {
    "title": ("Run-root analysis: {name}", "运行目录分析：{name}"),
    "root": ("Run root", "运行目录"),
    "sides": ("Compared", "对比"),
    "reference": ("{label} (default, the reference)", "{label}（default，基准）"),
    "candidate": ("{label} (candidate)", "{label}（candidate，对比方）"),
    "how": ("chosen as {how}", "按 {how} 选择"),
    "operators": ("Operators", "算子"),
    "counts": ("{total} in all; {changed} changed, {only_default} only in default, {only_candidate} only in candidate, "
               "{unchanged} unchanged",
               "{total} 个：{changed} 个有变化，{only_default} 个仅在 default，{only_candidate} 个仅在 candidate，"
               "{unchanged} 个无变化"),
    "command": ("Command", "命令"),
    "paths": ("Paths are relative to the run root; `path:line` is the 1-based line of that log. The run root was "
              "only read.", "路径相对于运行目录；`path:line` 为该日志中从 1 开始的行号。运行目录只读，未作任何修改。"),
    "found": ("What was found where", "发现的文件"),
    "ops_col": ("operators", "算子数"), "kind": ("kind", "类型"), "path": ("path", "路径"),
    "size": ("size", "大小"), "lines": ("lines", "行数"),
    "att_log": ("ATT log", "ATT 日志"), "plain": ("text, no ATT lines", "文本，无 ATT 行"),
    "binary": ("binary, not read", "二进制，未读取"),
    "folders": ("Folders", "目录"), "not_parsed": ("listed, never parsed", "仅列出，不解析"),
    "files": ("{n} file(s), {size}", "{n} 个文件，{size}"),
    "more_files": ("… {n} more", "… 另有 {n} 个"),
    "others": ("Files not read as logs (other names, or inside kernel_meta/ or dump/): {n}, {size}",
               "未作为日志读取的文件（其他文件名，或位于 kernel_meta/、dump/ 中）：{n} 个，{size}"),
    "notes": ("Notes", "说明"),
    "changed": ("Changed operators (largest regressions first)", "有变化的算子（劣化最大的在前）"),
    "only": ("Operators in one run only", "仅在一个运行中的算子"),
    "unchanged": ("Unchanged operators", "无变化的算子"),
    "none": ("None.", "无。"),
    "perf": ("result performance", "result 性能"),
    "best": ("best result", "最优结果"), "cases": ("cases", "case"), "note": ("note", "备注"),
    "causes": ("Causes", "原因"), "evidence_missing": ("(no line to cite)", "（无可引用的行）"),
    "analysis_notes": ("Analysis notes", "分析说明"),
}


# Text and binary files listed by name per side; the rest are one "… N more" row (a side of 200k empty files).
MAX_FILES_LISTED = 50


def _t(key: str, lang: str, **values: object) -> str:
    return _T[key][lang == ZH].format(**values)


def size_text(size: int) -> str:
    """Bytes in B/KB/MB/GB (powers of 1000, one decimal)."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} B"


def _header(analysis: RunAnalysis, lang: str, command: list[str]) -> list[str]:
    sides = analysis.sides
    counts = analysis.counts()
    return [
        f"# {plain(_t('title', lang, name=analysis.name))}", "",
        f"- {_t('root', lang)}: {code(str(sides.run_root))}",
        f"- {_t('sides', lang)}: {_t('reference', lang, label=code(sides.default.label + '/'))} ↔ "
        f"{_t('candidate', lang, label=code(sides.candidate.label + '/'))}; {_t('how', lang, how=sides.how)}",
        f"- {_t('operators', lang)}: {_t('counts', lang, total=len(analysis.diffs), **counts)}",
        f"- {_t('command', lang)}: {code(' '.join(command))}", "",
        _t("paths", lang), "",
    ]


def _side_section(analysis: RunAnalysis, role: str, lang: str) -> list[str]:
    scan = analysis.scans[role]
    listing = scan.listing
    lines = [f"### {role}: {code(listing.side.label + '/')}", ""]
    rows = [[_t("att_log", lang), code(log.file.relpath), size_text(log.file.size), str(log.scan.line_count),
             str(sum(1 for op in log.scan.operators.values() if op.prof_lines))] for log in scan.logs]
    for kind, files, count, size in (("plain", scan.plain, scan.plain_count, scan.plain_bytes),
                                     ("binary", scan.binary, scan.binary_count, scan.binary_bytes)):
        shown = files[:MAX_FILES_LISTED]
        rows += [[_t(kind, lang), code(f.relpath), size_text(f.size), "", ""] for f in shown]
        if count > len(shown):
            rest = size - sum(f.size for f in shown)
            rows.append([_t(kind, lang), _t("more_files", lang, n=count - len(shown)), size_text(rest), "", ""])
    header = [_t("kind", lang), _t("path", lang), _t("size", lang), _t("lines", lang), _t("ops_col", lang)]
    lines += [*table(header, rows), ""]
    folder_parts = []
    for category in CATEGORIES:
        found = listing.present(category)
        if not found:
            folder_parts.append(f"{category}/ —")
            continue
        for note in found:
            extra = f", {_t('not_parsed', lang)}" if category in NOT_PARSED else ""
            folder_parts.append(f"{category}/ {code(note.relpath)} "
                                f"({_t('files', lang, n=note.files, size=size_text(note.bytes))}{extra})")
    lines += [f"{_t('folders', lang)}: " + " · ".join(folder_parts), ""]
    lines += [_t("others", lang, n=listing.other_files, size=size_text(listing.other_bytes)), ""]
    notes = analysis.side_notes(role)
    if notes:
        lines += [f"{_t('notes', lang)}:", *(f"- {plain(note)}" for note in notes), ""]
    return lines


def _evidence(analysis: RunAnalysis, cause: Cause, lang: str) -> list[str]:
    if not cause.evidence:
        return [f"   - {_t('evidence_missing', lang)}"]
    out = []
    for ref in cause.evidence:
        where = f"{analysis.relpath(ref.source)}:{ref.source.line}"
        out.append(f"   - {ref.side} {code(where)}: {code(analysis.texts.get(ref.source, ''))}")
    return out


def _operator(analysis: RunAnalysis, number_: int, diff: OperatorDiff, lang: str) -> list[str]:
    a, b = diff.default, diff.candidate
    title = f"### {number_}. {code(diff.name)} — {word(diff.status, lang)}"
    if diff.status == CHANGED:
        title += f", {percent(diff.perf_delta_pct)}"
    perf = (f"{_t('perf', lang)}: {number(a.result_perf if a else None)} → {number(b.result_perf if b else None)}; "
            f"{_t('best', lang)}: {a.best_label if a else '—'} → {b.best_label if b else '—'}")
    lines = [title, "", perf, "", f"{_t('causes', lang)}:", ""]
    for index, cause in enumerate(diff.causes, start=1):
        lines.append(f"{index}. {plain(cause_text(cause, lang))}")
        lines += _evidence(analysis, cause, lang)
    return [*lines, ""]


def _unchanged_table(diffs: list[OperatorDiff], lang: str) -> list[str]:
    rows = []
    for diff in diffs:
        facts = diff.default
        assert facts is not None
        cases = " ".join(f"g{g}:c{f.key.case}" for g, f in facts.groups.items())
        note = plain("; ".join(cause_text(c, lang) for c in diff.causes))
        rows.append([code(diff.name), facts.best_label, cases, number(facts.result_perf), note])
    header = [_t("operators", lang), _t("best", lang), _t("cases", lang), _t("perf", lang), _t("note", lang)]
    return [*table(header, rows), ""]


def report_markdown(analysis: RunAnalysis, lang: str, command: list[str]) -> str:
    """The whole report in `lang` ("en" or "zh")."""
    lines = _header(analysis, lang, command)
    lines += [f"## {_t('found', lang)}", ""]
    for role in ROLES:
        lines += _side_section(analysis, role, lang)
    sections = ((_t("changed", lang), (CHANGED,)), (_t("only", lang), (ONLY_DEFAULT, ONLY_CANDIDATE)))
    counter = 0
    for heading, statuses in sections:
        lines += [f"## {heading}", ""]
        chosen = [d for d in analysis.diffs if d.status in statuses]
        for diff in chosen:
            counter += 1
            lines += _operator(analysis, counter, diff, lang)
        if not chosen:
            lines += [_t("none", lang), ""]
    unchanged = [d for d in analysis.diffs if d.status == UNCHANGED]
    lines += [f"## {_t('unchanged', lang)}", ""]
    lines += _unchanged_table(unchanged, lang) if unchanged else [_t("none", lang), ""]
    if analysis.notes:
        lines += [f"## {_t('analysis_notes', lang)}", "", *(f"- {plain(n)}" for n in analysis.notes), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
