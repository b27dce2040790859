"""--log/--case: the tiling inputs (dynamic dims, core_num, ub_size) an ATT log records for one case."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autofuse_studio.core.att.case_filter import CaseFilter
from autofuse_studio.core.att.scanner import find_logs, iter_lines, long_line_warning
from autofuse_studio.core.errors import InputError, UsageError

# `[Add] local buffer tiling success, input: result_id: 0, group_id: 0, case_id: 0, sub_case_id: 0core_num: 2,
#  ub_size: 512, input_vars[0]: 512, input_vars[1]: 512, tiling_vars[0]: ...` (the CANN ATT solver's input dump)
_INPUT_RE = re.compile(
    r"\[(?P<op>[^\]\[]+)\][^\[]*?input:\s*result_id:\s*(?P<r>-?\d+),\s*group_id:\s*(?P<g>-?\d+),\s*"
    r"case_id:\s*(?P<c>-?\d+),\s*sub_case_id:\s*-?\d+,?\s*core_num:\s*(?P<core>\d+),\s*ub_size:\s*(?P<ub>\d+)"
    r"(?P<rest>.*)")
_VAR_RE = re.compile(r"input_vars\[(\d+)\]:\s*(\d+)")
MAX_DIGITS = 20
_LONG_NUMBER_RE = re.compile(r"\d{" + str(MAX_DIGITS + 1) + "}")


@dataclass(frozen=True)
class LogInputs:
    """Inputs for one (operator, result, group, case) and the line they came from."""

    operator: str
    result: int
    group: int
    case: int
    dims: tuple[int, ...]
    core_num: int
    ub_size: int
    path: str
    line: int

    @property
    def where(self) -> str:
        """`file:line (op result R group G case C)`, for the provenance lines."""
        return f"{self.path}:{self.line} ({self.operator} result {self.result} group {self.group} case {self.case})"

    def values(self) -> tuple[tuple[int, ...], int, int]:
        """What must agree between two lines for the same choice to be unambiguous."""
        return self.dims, self.core_num, self.ub_size


def read_log_inputs(log_path: str | Path, notes: list[str] | None = None) -> list[LogInputs]:
    """Every solver input line in the log file or folder, in file and line order; skipped lines go to notes."""
    found = []
    for path in find_logs(log_path):
        for number, raw, cut in iter_lines(path):  # lines capped: a 12 MB line once took 6 GB
            if cut and notes is not None:
                notes.append(long_line_warning(str(path), number, cut))
            if b"input:" not in raw or b"core_num" not in raw:
                continue
            match = _INPUT_RE.search(raw.decode("utf-8", "replace"))
            if match is None:
                continue
            if _LONG_NUMBER_RE.search(match.group(0)):  # no real input; int() would refuse 4300+ digits
                if notes is not None:
                    notes.append(f"{path}:{number}: a number with more than {MAX_DIGITS} digits; line skipped")
                continue
            pairs = sorted((int(i), int(v)) for i, v in _VAR_RE.findall(match.group("rest")))
            found.append(LogInputs(match.group("op").strip(), int(match.group("r")), int(match.group("g")),
                                   int(match.group("c")), tuple(v for _, v in pairs), int(match.group("core")),
                                   int(match.group("ub")), str(path), number))
    return found


def _pick_operator(entries: list[LogInputs], kernel_name: str, operator: str | None) -> str:
    names = list(dict.fromkeys(entry.operator for entry in entries))
    if operator is not None:
        if operator not in names:
            raise UsageError.of("log_op_unknown", operator=operator, names=", ".join(names))
        return operator
    for name in names:
        if name.lower() == kernel_name.lower():
            return name
    if len(names) == 1:
        return names[0]
    raise UsageError.of("log_op_ambiguous", names=", ".join(names), kernel=kernel_name)


def select_log_inputs(entries: list[LogInputs], case_filter: CaseFilter, kernel_name: str,
                      operator: str | None, case_text: str | None) -> tuple[LogInputs | None, str]:
    """The one matching entry (or None) and a sentence explaining the choice."""
    if not entries:
        return None, "the log holds no tiling input lines (core_num / input_vars); nothing taken from it"
    name = _pick_operator(entries, kernel_name, operator)
    matching = [e for e in entries if e.operator == name and case_filter.matches(e.result, e.group, e.case)]
    if not matching:
        raise InputError.of("log_case_no_match", name=name, case=case_text)
    distinct = {entry.values(): entry for entry in matching}
    if len(distinct) > 1:
        cases = "; ".join(f"result {e.result} group {e.group} case {e.case}: dims={list(e.dims)} "
                          f"core_num={e.core_num} ub_size={e.ub_size}" for e in distinct.values())
        message = f"{name}: the log holds different inputs for the matching cases ({cases})"
        if case_text:
            raise UsageError.of("log_case_ambiguous", case=case_text, detail=message)
        return None, message + "; pass --case to choose one"
    chosen = matching[0]
    return chosen, f"taken from {chosen.where}"
