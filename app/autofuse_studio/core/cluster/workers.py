"""The client's view of the cluster: connecting with a sentence on failure, the live workers and their resources."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autofuse_studio.core.cluster.address import SchedulerAddress, require_distributed
from autofuse_studio.core.errors import InputError

CONNECT_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class LiveWorker:
    """A worker the scheduler knows: address, `--name` and `--resources`."""

    address: str
    name: str
    resources: frozenset[str]


def connect(address: SchedulerAddress, timeout: float | None = None) -> Any:
    """A distributed.Client on the scheduler; an InputError sentence when it cannot be reached."""
    distributed = require_distributed()
    timeout = CONNECT_TIMEOUT_S if timeout is None else timeout
    try:
        return distributed.Client(str(address), timeout=f"{timeout}s", set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise InputError(f"Cannot reach the Dask scheduler at {address} within {timeout:g} s ({error}); start it "
                         "with `dask scheduler` on that host, or check the address and the firewall.") from None


def live_workers(client: Any) -> dict[str, LiveWorker]:
    """Every worker connected to the scheduler now, by address."""
    info = client.scheduler_info(n_workers=-1)
    return {address: LiveWorker(address, str(worker.get("name", address)), frozenset(worker.get("resources") or {}))
            for address, worker in info.get("workers", {}).items()}


def rank_resource(rank: str | None) -> str | None:
    """The worker resource that says a worker holds a rank's dumps (`dask worker --resources "rank2=1"`)."""
    return None if rank is None else f"rank{rank}"


def preferred(visible: frozenset[str], rank: str | None, workers: dict[str, LiveWorker]) -> frozenset[str]:
    """Of the workers that see a pair's files, those declaring the rank's resource (all of them when none does)."""
    resource = rank_resource(rank)
    declared = frozenset(address for address in visible
                         if address in workers and resource in workers[address].resources)
    return declared or visible
