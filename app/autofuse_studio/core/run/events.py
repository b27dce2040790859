"""What a run reports back: typed events (started, progress with its Phase, rows, the loaded case, the end)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from autofuse_studio.core.phase import Phase, phase_of

if TYPE_CHECKING:
    from autofuse_studio.core.precision.dump_pairs import SidesSummary
    from autofuse_studio.core.precision.engine import LoadedCase
    from autofuse_studio.core.precision.pair import PairResult
    from autofuse_studio.core.precision.rows import PrecisionResult, PrecisionRow
    from autofuse_studio.core.precision.verdict import ProducerIndex


@dataclass
class RunOutcome:
    """A finished run: the result, and what else the runner knows (the case when it was loaded here, …)."""

    result: PrecisionResult
    case: LoadedCase | None = None  # the parsed graphs and indexes (local and cluster runs)
    producers: ProducerIndex | None = None  # a host run's producer index (when asked for)
    files_indexed: int = 0
    notes: list[str] = field(default_factory=list)  # sentences about the run itself (a cluster's lost worker …)
    stats: Any = None  # the cluster's figures (core.cluster.run.ClusterStats)
    pair: PairResult | None = None  # mode 2: the comparison itself (the reference's lines print it)


@dataclass(frozen=True)
class Started:
    """The run has begun where it runs (a host answered with a good version; locally at once)."""

    version: str | None = None


@dataclass(frozen=True)
class Progressed:
    """`done` of `total` units of a stage."""

    done: int
    total: int
    message: str

    @property
    def phase(self) -> Phase | None:
        """The stage as a code (None for a message no Phase names)."""
        return phase_of(self.message)


@dataclass(frozen=True)
class Indexed:
    """Both dump roots are indexed: files, ranks and steps of each side."""

    sides: SidesSummary


@dataclass(frozen=True)
class CaseLoaded:
    """The graphs are parsed and the dumps indexed (runs that load the case in this process)."""

    case: LoadedCase


@dataclass(frozen=True)
class RowsDone:
    """Rows compared (verdicts are assigned at the end)."""

    rows: list[PrecisionRow]


@dataclass(frozen=True)
class Finished:
    """The run ended with its outcome."""

    outcome: RunOutcome


@dataclass(frozen=True)
class Failed:
    """The run ended with an error (an AppError's sentence, Cancelled, or a bug)."""

    error: BaseException


Event = Started | Progressed | Indexed | CaseLoaded | RowsDone | Finished | Failed
