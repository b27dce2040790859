"""`att split-slog`: one file per operator, schedule group and tiling case (compiler and runtime).

Layout: `<out>/<op>/compiler/graph<G>_result<R>/g<P>/case<N>.log` for the [DFX] model-info blocks
of the operator's graph, `<out>/<op>/runtime/graph<G>_result<R>/g<P>/case<N>.log` for lines that
carry the operator tag and a case label, and `<out>/<op>/runtime/graph<G>_result<R>/selection.log`
for its best-result, template-selection and result-perf lines. Lines are streamed into temp files
that replace the targets at the end; every name from the log is sanitised.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from autofuse_studio.core.att.case_filter import CaseFilter
from autofuse_studio.core.att.lines import IdTooLong, bracket_tags, find_case_label, parse_dfx, parse_prof
from autofuse_studio.core.att.model import BestResult, FileScan, ResultPerf, SourceRef, TemplateSelection
from autofuse_studio.core.att.safe_open import Pin
from autofuse_studio.core.att.safe_paths import UniqueNames, contained
from autofuse_studio.core.att.scanner import ByteProgress, decode_block, iter_blocks
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress

log = logging.getLogger(__name__)
MAX_OPEN_FILES = 64


@dataclass
class OperatorSplit:
    """What was written for one operator."""

    compiler_groups: int = 0
    runtime_groups: int = 0
    files: list[Path] = field(default_factory=list)
    # Groups in the logs before --case filtered their cases (att.py printed these counts).
    compiler_groups_seen: int = 0
    runtime_groups_seen: int = 0


@dataclass
class SplitResult:
    """Per operator (in first-seen order) the group counts and files written."""

    operators: dict[str, OperatorSplit] = field(default_factory=dict)
    unattributed_groups: int = 0
    unclosed_groups: int = 0


class _SplitWriter:
    """Appends lines to temp files keyed by target path; commit() moves them into place."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        out_dir.mkdir(parents=True, exist_ok=True)
        self.temp_dir = Path(tempfile.mkdtemp(prefix=".split-slog-", dir=out_dir))
        self.temps: dict[Path, Path] = {}
        self.open: dict[Path, IO[bytes]] = {}

    def write(self, relative: Path, line: str) -> None:
        handle = self.open.get(relative)
        if handle is None:
            if len(self.open) >= MAX_OPEN_FILES:
                self.open.pop(next(iter(self.open))).close()
            temp = self.temps.setdefault(relative, self.temp_dir / f"{len(self.temps)}.part")
            handle = self.open[relative] = temp.open("ab")
        handle.write(line.encode("utf-8") + b"\n")

    def commit(self) -> list[Path]:
        for handle in self.open.values():
            handle.close()
        self.open.clear()
        written = []
        for relative, temp in self.temps.items():
            target = contained(self.out_dir, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            temp.replace(target)
            written.append(target)
        self.discard()
        return written

    def discard(self) -> None:
        for handle in self.open.values():
            handle.close()
        shutil.rmtree(self.temp_dir, ignore_errors=True)


@dataclass
class _DfxState:
    """The [DFX] block being read: outer group and, inside it, the current tiling case."""

    group: tuple[int, int, int] | None = None
    operator: str | None = None
    case: int | None = None


class _Splitter:
    def __init__(self, operators: list[str], out: _SplitWriter, case_filter: CaseFilter) -> None:
        self.operators = set(operators)
        self.dirs = UniqueNames()
        self.out = out
        self.filter = case_filter
        self.result = SplitResult({name: OperatorSplit() for name in operators})
        self.compiler_groups: dict[str, set[tuple[int, int, int]]] = {}
        self.runtime_groups: dict[str, set[tuple[int, int, int]]] = {}
        self.compiler_seen: dict[str, set[tuple[int, int, int]]] = {}
        self.runtime_seen: dict[str, set[tuple[int, int, int]]] = {}
        self.dfx = _DfxState()

    def line(self, text: str, source: SourceRef) -> None:
        if "[DFX]" in text and self._dfx(text, source):
            return
        if self.dfx.case is not None:
            self._compiler(text)
            return
        if "[" in text:
            self._runtime(text, source)

    def _compiler(self, text: str) -> None:
        op, case = self.dfx.operator, self.dfx.case
        if op not in self.operators or self.dfx.group is None or case is None:
            return
        graph, result, group = self.dfx.group
        self.compiler_seen.setdefault(op, set()).add(self.dfx.group)
        if self.filter.matches(result, group, case):
            self.compiler_groups.setdefault(op, set()).add(self.dfx.group)
            self._write(op, "compiler", graph, result, group, case, text)

    def _dfx(self, text: str, source: SourceRef) -> bool:
        marker = parse_dfx(text, source)
        if marker is None:
            return False
        if marker.kind == "outer_begin":
            if self.dfx.group is not None:
                self.result.unclosed_groups += 1
            group = (marker.graph or 0, marker.result or 0, marker.group or 0)
            self.dfx = _DfxState(group, marker.graph_name)
        elif marker.kind == "outer_end":
            if self.dfx.group is not None and self.dfx.operator is None:
                self.result.unattributed_groups += 1
            self.dfx = _DfxState()
        elif marker.kind == "inner_begin" and self.dfx.group is not None:
            self.dfx.operator = self.dfx.operator or marker.graph_name
            self.dfx.case = marker.case
        elif marker.kind == "inner_end":
            self.dfx.case = None
        return True

    def _runtime(self, text: str, source: SourceRef) -> None:
        owners = [t for t in dict.fromkeys(bracket_tags(text)) if t in self.operators]
        if not owners:
            return
        key = find_case_label(text)
        if key is not None:
            for op in owners:
                self.runtime_seen.setdefault(op, set()).add((key.graph, key.result, key.group))
            if self.filter.matches(key.result, key.group, key.case):
                for op in owners:
                    self.runtime_groups.setdefault(op, set()).add((key.graph, key.result, key.group))
                    self._write(op, "runtime", key.graph, key.result, key.group, key.case, text)
            return
        record = parse_prof(text, source) if "best choice" in text or "The value of graph" in text else None
        if isinstance(record, (BestResult, ResultPerf, TemplateSelection)) and record.operator in owners:
            graph, result = (record.key.graph, record.key.result) if isinstance(
                record, TemplateSelection) else (record.graph, record.result)
            if not self.filter.results or result in self.filter.results:
                relative = Path(self.dirs.get(record.operator), "runtime", f"graph{graph}_result{result}",
                                "selection.log")
                self.out.write(relative, text)

    def _write(self, op: str, side: str, graph: int, result: int, group: int, case: int, text: str) -> None:
        folder = Path(self.dirs.get(op), side, f"graph{graph}_result{result}", f"g{group}")
        relative = folder / f"case{case}.log"
        self.out.write(relative, text)

    def finish(self) -> SplitResult:
        if self.dfx.group is not None:
            self.result.unclosed_groups += 1
        for name, counts in self.result.operators.items():
            counts.compiler_groups = len(self.compiler_groups.get(name, ()))
            counts.runtime_groups = len(self.runtime_groups.get(name, ()))
            counts.compiler_groups_seen = len(self.compiler_seen.get(name, ()))
            counts.runtime_groups_seen = len(self.runtime_seen.get(name, ()))
        return self.result


def _split_file(path: Path, splitter: _Splitter, cancel: CancelToken, pin: Pin | None = None) -> Iterator[int]:
    """Feed one log to the splitter line by line; yields the byte size of each block read.

    `pin`: the file the scan read (see safe_open); anything swapped in since is refused, not split.
    """
    line_no = 1
    for block in iter_blocks(path, pin=pin):
        cancel.check()
        text = decode_block(block, str(path), line_no, FileScan(str(path)))
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        for offset, line in enumerate(lines):
            try:
                splitter.line(line.rstrip("\r"), SourceRef(str(path), line_no + offset))
            except IdTooLong:
                continue  # the scan that found the operators has already warned about this line
        line_no += len(lines)
        yield len(block)


def split_operators(scans: list[FileScan], only: str | None) -> list[str]:
    """Operators in first-seen order: [PROF] tags and [DFX] graph names (or just `only`)."""
    names: dict[str, None] = {}
    for scan in scans:
        names.update((op.name, None) for op in scan.operators.values() if op.prof_lines)
        names.update((m.graph_name, None) for m in scan.dfx_markers if m.graph_name)
    if only is not None:
        return [only] if only in names else []
    return list(names)


def split_logs(paths: list[Path], scans: list[FileScan], out_dir: Path, only: str | None = None,
               case_filter: CaseFilter | None = None, cancel: CancelToken = NEVER_CANCELLED,
               progress: Progress = no_progress) -> SplitResult:
    """Split the logs (already scanned once for operator names) into per-case files under `out_dir`.

    `progress` counts bytes read (see ByteProgress).
    """
    operators = split_operators(scans, only)
    writer = _SplitWriter(out_dir)
    splitter = _Splitter(operators, writer, case_filter or CaseFilter())
    counter = ByteProgress(paths, progress)
    pins = {scan.path: scan.pin for scan in scans}
    try:
        for path, advance in counter.files("Splitting"):
            for block in _split_file(path, splitter, cancel, pins.get(str(path))):
                if advance is not None:
                    advance(block)
        counter.finish("Split finished")
        result = splitter.finish()
        files = writer.commit()
    except BaseException:
        writer.discard()
        raise
    dirs = {splitter.dirs.get(name): name for name in operators}
    for target in files:
        owner = dirs.get(target.relative_to(out_dir.resolve()).parts[0])
        if owner is not None:
            result.operators[owner].files.append(target)
    if result.unclosed_groups:
        log.warning("%d [DFX] model-info group(s) had no End marker; their cases were kept",
                    result.unclosed_groups)
    return result
