"""ClusterOptions and ClusterStats: what a cluster run is given and what it reports (shared by run and submit)."""

from __future__ import annotations

from dataclasses import dataclass, field

from autofuse_studio.core.cluster.address import SchedulerAddress
from autofuse_studio.core.cluster.pathmap import PathMap
from autofuse_studio.core.cluster.tls import TlsFiles


@dataclass(frozen=True)
class ClusterOptions:
    """Where the scheduler is and how each worker sees the client's paths."""

    scheduler: SchedulerAddress
    path_map: PathMap = field(default_factory=PathMap)
    retries: int = 1  # re-runs of a task that raised; a task on a dying worker is moved by Dask itself
    tls: TlsFiles | None = None  # CA, certificate and key for a tls:// scheduler (else Dask's configuration)


@dataclass
class ClusterStats:
    """What the cluster did: workers used, tasks, and the bytes the compare tasks sent back."""

    workers: int = 0
    tasks: int = 0
    pairs: int = 0
    result_bytes: int = 0
    lost_pairs: int = 0
    notes: list[str] = field(default_factory=list)  # sentences for stderr (a worker that could not scan, …)
    scheduler: str = ""  # the scheduler's address, as the figures line names it
    started: float = 0.0  # time.monotonic() when the run began
    indexed_s: float = 0.0  # seconds from the start until the scans were merged into both indexes
    first_task_s: float = 0.0  # seconds from the start until the first comparison task was submitted

    @property
    def bytes_per_pair(self) -> float:
        """Result bytes per compared pair (a row's metrics, status, dtypes and shapes)."""
        return self.result_bytes / self.pairs if self.pairs else 0.0
