"""The client's view of the cluster: connecting with a sentence on failure, the live workers and their resources."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from autofuse_studio.core.cluster.address import DEFAULT_PORT, SchedulerAddress
from autofuse_studio.core.cluster.safe_client import client_class, refusing_pickles
from autofuse_studio.core.cluster.tls import TlsFiles, dask_security
from autofuse_studio.core.errors import InputError

CONNECT_TIMEOUT_S = 10.0
CLOSE_TIMEOUT_S = 5.0
_REASON_LIMIT = 200


@dataclass(frozen=True)
class LiveWorker:
    """A worker the scheduler knows: address, `--name` and `--resources`."""

    address: str
    name: str
    resources: frozenset[str]


def _reason(error: BaseException) -> str:
    """The error's text, with what caused it (Dask's "Timed out …" hides a refused connection or a TLS error)."""
    text = f"{error}" or type(error).__name__
    cause = error.__cause__ or error.__context__
    if cause is not None and str(cause) and str(cause) not in text:
        text = f"{text}: {cause}"
    text = " ".join(text.split())
    return text if len(text) <= _REASON_LIMIT else text[:_REASON_LIMIT - 1] + "…"


def connect(address: SchedulerAddress, timeout: float | None = None, tls: TlsFiles | None = None) -> Any:
    """A client on the scheduler (safe_client.py: it never unpickles what the cluster sends).

    Every failure is one InputError sentence naming the address, within the timeout: nothing listening, no
    answer, a TLS handshake that fails, or a server that is not a Dask scheduler (an HTTP server, random
    bytes, a frame length of exabytes). tls:// without certificates is a UsageError before connecting.
    """
    security = dask_security(address, tls)
    timeout = CONNECT_TIMEOUT_S if timeout is None else timeout
    try:
        return client_class()(str(address), timeout=timeout, security=security)
    except (OSError, TimeoutError) as error:  # refused, unreachable, no answer in time, TLS handshake
        raise InputError.of("scheduler_unreachable", address=str(address), timeout=timeout,
                            reason=_reason(error)) from None
    except ImportError as error:  # the scheduler's answer to the client's registration (another version)
        raise InputError.of("scheduler_refused_client", address=str(address), reason=_reason(error)) from None
    except Exception as error:  # noqa: BLE001  (whatever Dask makes of bytes that are not its protocol)
        raise InputError.of("not_a_scheduler", address=str(address), error=type(error).__name__,
                            reason=_reason(error), port=DEFAULT_PORT) from None


def close(client: Any) -> None:
    """Close the client; a scheduler that is gone already needs nothing more."""
    with contextlib.suppress(OSError, TimeoutError):
        client.close(timeout=CLOSE_TIMEOUT_S)


_quiet_lock = threading.Lock()
_quiet_users = 0
_quiet_saved: list[tuple[logging.Logger, int]] = []


@contextlib.contextmanager
def quiet_dask_logs() -> Iterator[None]:
    """Dask's client-side log lines stay out of the output meanwhile (a refused reply is logged with a
    traceback by Dask; every failure is said by one sentence of ours instead). Re-entrant, thread-safe."""
    global _quiet_users
    with _quiet_lock:
        if _quiet_users == 0:
            names = [name for name in logging.root.manager.loggerDict
                     if name.startswith(("distributed.", "tornado."))] + ["distributed", "tornado"]
            _quiet_saved[:] = [(logger, logger.level) for logger in map(logging.getLogger, names)
                               if logger.level != logging.NOTSET or logger.name in ("distributed", "tornado")]
            for logger, _ in _quiet_saved:
                logger.setLevel(logging.CRITICAL + 1)
        _quiet_users += 1
    try:
        yield
    finally:
        with _quiet_lock:
            _quiet_users -= 1
            if _quiet_users == 0:
                for logger, level in _quiet_saved:
                    logger.setLevel(level)
                _quiet_saved.clear()


@contextlib.contextmanager
def cluster_client(address: SchedulerAddress, tls: TlsFiles | None = None) -> Iterator[Any]:
    """A connected client, closed on leaving; meanwhile no unpickling in this process (safe_client.py) and
    no Dask log lines."""
    with refusing_pickles(), quiet_dask_logs():
        client = connect(address, tls=tls)
        try:
            yield client
        finally:
            close(client)


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
