"""Plain dataclasses shared by the ATT scanner, the subcommands and the GUI."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from autofuse_studio.core.att.safe_open import Pin


class SourceRef(NamedTuple):
    """Where a record came from: a log file and a 1-based line number."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


class CaseKey(NamedTuple):
    """The coordinate `graph<G>_result<R>_g<P>_<C>`: graph, schedule result, group, tiling case."""

    graph: int
    result: int
    group: int
    case: int

    @property
    def label(self) -> str:
        """The label as the logs print it."""
        return f"graph{self.graph}_result{self.result}_g{self.group}_{self.case}"


@dataclass(slots=True)
class TilingValue:
    """`[op] [PROF]The value of <name> is <value> in graph…_g<P>_<C>`."""

    operator: str
    key: CaseKey
    name: str
    value: float
    source: SourceRef


@dataclass(slots=True)
class Objective:
    """`[op] [PROF]The objective value of the tiling data is <value> in graph…`."""

    operator: str
    key: CaseKey
    value: float
    source: SourceRef


@dataclass(slots=True)
class TemplateSelection:
    """`[op] [PROF]Among the templates, tiling case <C> of graph<G>_result<R>_g<P> is the best choice`."""

    operator: str
    key: CaseKey
    source: SourceRef


@dataclass(slots=True)
class BestResult:
    """`[op] [PROF]Among all schedule results, graph<G>_result<R> is the best choice`."""

    operator: str
    graph: int
    result: int
    source: SourceRef


@dataclass(slots=True)
class ResultPerf:
    """`[op] The value of graph<G>_result<R> is <value>` (the schedule result's performance)."""

    operator: str
    graph: int
    result: int
    value: float
    source: SourceRef


@dataclass(slots=True)
class PerfItem:
    """One `name=value` term of a [PERF] formula and its share of the node total."""

    name: str
    value: float
    contribution: float


@dataclass(slots=True)
class PerfNode:
    """`[op] [PERF][graph…] <node>[<type>]: <PIPE> = <formula> = <total>`."""

    operator: str
    key: CaseKey
    node: str
    node_type: str
    pipe: str
    total: float
    items: tuple[PerfItem, ...]
    source: SourceRef


class PerfLine(NamedTuple):
    """A [PERF] line kept as read (see lines.scan_perf): OperatorLog.perf_nodes parses it on first use with
    `parse` (lines.parse_perf, handed in by the scanner: this module stays below lines in the layering)."""

    operator: str
    text: str
    source: SourceRef
    parse: Callable[[str, SourceRef], PerfNode | None]


@dataclass(slots=True)
class DfxMarker:
    """A `[DFX]Begin/End … model info …` marker (outer = per group, inner = per tiling case)."""

    kind: str  # "outer_begin" | "outer_end" | "inner_begin" | "inner_end"
    graph: int | None
    result: int | None
    group: int | None
    graph_name: str | None
    case: int | None
    source: SourceRef


@dataclass
class FinalTiling:
    """One FINAL_TILING record (single line or BEGIN/CHUNK/END framed) after validation."""

    operator: str
    graph: int | None
    result: int | None
    group: int | None
    case_id: int | None
    tiling_key: int | None
    source: str | None
    selection_mode: str | None
    score: int | None
    sub_case_tag: str | None
    template: str | None
    repr_kind: str | None
    pipe_estimates: dict[str, float | None]
    tiling_repr: Any
    repr_hash: str | None
    status: str
    origin: SourceRef


@dataclass
class FinalTilingSummary:
    """One FINAL_TILING_SUMMARY record: the chosen case per group of a schedule result."""

    operator: str
    graph: int | None
    result: int | None
    source: str | None
    selection_mode: str | None
    groups: Any
    status: str
    origin: SourceRef


@dataclass(slots=True)
class DecodeIssue:
    """A line holding invalid UTF-8 (replaced by U+FFFD when read)."""

    source: SourceRef


@dataclass
class OperatorLog:
    """Everything one log file says about one operator; on duplicates the last line wins."""

    name: str
    first_source: SourceRef
    values: dict[CaseKey, dict[str, TilingValue]] = field(default_factory=dict)
    objectives: dict[CaseKey, Objective] = field(default_factory=dict)
    selections: dict[tuple[int, int, int], TemplateSelection] = field(default_factory=dict)
    best_result: BestResult | None = None
    result_perfs: dict[tuple[int, int], ResultPerf] = field(default_factory=dict)
    # The [PERF] records in line order; those still PerfLine (perf_pending of them) are parsed by perf_nodes.
    perf_entries: list[PerfNode | PerfLine] = field(default_factory=list)
    perf_pending: int = 0
    prof_lines: int = 0  # [PROF] records seen; operators are the tags of [PROF] lines
    # First line that mentioned each case key (values, objective or selection): evidence anchors.
    first_mentions: dict[CaseKey, int] = field(default_factory=dict)

    def add_perf(self, entry: PerfNode | PerfLine) -> None:
        """Keep one [PERF] record (a node, or a line to parse when perf_nodes is first read)."""
        self.perf_entries.append(entry)
        if entry.__class__ is PerfLine:
            self.perf_pending += 1

    @property
    def perf_nodes(self) -> list[PerfNode]:
        """The [PERF] nodes in line order; the kept lines are parsed here, once, in place."""
        entries = self.perf_entries
        if self.perf_pending:
            parsed = [entry if isinstance(entry, PerfNode) else entry.parse(entry.text, entry.source)
                      for entry in entries]
            # scan_perf kept only lines that parse to a node; the filter is for entries made by hand.
            entries[:] = [node for node in parsed if node is not None]
            self.perf_pending = 0
        return cast("list[PerfNode]", entries)


@dataclass
class FileScan:
    """The result of scanning one log file."""

    path: str
    line_count: int = 0
    operators: dict[str, OperatorLog] = field(default_factory=dict)
    final_records: list[FinalTiling] = field(default_factory=list)
    final_summaries: list[FinalTilingSummary] = field(default_factory=list)
    dfx_markers: list[DfxMarker] = field(default_factory=list)
    decode_issues: list[DecodeIssue] = field(default_factory=list)
    decode_issue_count: int = 0
    warnings: list[str] = field(default_factory=list)  # over-long lines and values, "file:line: ..." each
    warning_count: int = 0
    pin: Pin | None = None  # the file that was read (later readers open that very file)
    sha256: str | None = None  # of its bytes as stored, when the scan was asked to hash them
    byte_size: int | None = None

    def warn(self, message: str, listed: int = 20) -> None:
        """Count a warning; the first `listed` are kept word for word."""
        self.warning_count += 1
        if self.warning_count <= listed:
            self.warnings.append(message)


@dataclass
class LogScan:
    """The result of scanning a set of log files, in the order they were read."""

    files: list[FileScan] = field(default_factory=list)

    @property
    def decode_issue_count(self) -> int:
        """Lines with invalid UTF-8 over all files."""
        return sum(f.decode_issue_count for f in self.files)
