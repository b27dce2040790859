"""Phase: the named stages of a precision run, so front ends match a code instead of an English message."""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    """A run's stage; its value is the English progress message the CLI and the host stream have always sent."""

    CONNECTING = "connecting to host"
    PARSING_OPEN = "parsing the fusion-enabled graph"
    PARSING_CLOSE = "parsing the fusion-disabled graph"
    INDEXING = "indexing the dump folders"
    INDEXING_WORKERS = "indexing the dump folders on the workers"
    INDEXED = "indexed"
    COMPARING = "comparing"
    COMPARING_CLUSTER = "comparing on the cluster"


_BY_MESSAGE = {phase.value: phase for phase in Phase}


def phase_of(message: str) -> Phase | None:
    """The Phase a progress message names (a host's message is matched by its start: it names the host)."""
    found = _BY_MESSAGE.get(message)
    if found is None and message.startswith(Phase.CONNECTING.value):
        return Phase.CONNECTING
    return found
