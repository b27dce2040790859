"""The scheduler address (a strict grammar) and the lazy import of dask.distributed with a clear sentence."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from types import ModuleType

from autofuse_studio.core.errors import UsageError

INSTALL_HINT = "install autofuse-studio[cluster] (pip install 'autofuse-studio[cluster]')"
DEFAULT_PORT = 8786
_SCHEMES = ("tcp", "tls")
# RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens, 253 characters at most.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_ADDRESS = re.compile(r"(?P<scheme>[a-z]+)://(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<host>[^:/\[\]]+)):(?P<port>[0-9]{1,5})")


@dataclass(frozen=True)
class SchedulerAddress:
    """A checked `tcp://HOST:PORT` (or tls://) address of a Dask scheduler."""

    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        """The address as Dask takes it (IPv6 hosts in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"


def _bad(text: str, why: str) -> UsageError:
    return UsageError.of("scheduler_address_bad", port=DEFAULT_PORT, value=repr(text[:80]), problem=why)


def parse_scheduler_address(text: str) -> SchedulerAddress:
    """'tcp://node1:8786' -> SchedulerAddress; anything else (no scheme, a path, a bad port) is a UsageError."""
    match = _ADDRESS.fullmatch(text.strip())
    if match is None:
        raise _bad(text, "write the scheme, the host and the port, nothing else")
    scheme = match["scheme"]
    if scheme not in _SCHEMES:
        raise _bad(text, f"the scheme must be {' or '.join(_SCHEMES)}")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise _bad(text, "the port must be between 1 and 65535")
    if match["ipv6"] is not None:
        try:
            host = str(ipaddress.IPv6Address(match["ipv6"]))
        except ValueError:
            raise _bad(text, "the bracketed host is not an IPv6 address") from None
        return SchedulerAddress(scheme, host, port)
    host = match["host"]
    if len(host) > 253 or _HOST_NAME.fullmatch(host) is None:
        raise _bad(text, "the host must be a host name or an IP address")
    if host.replace(".", "").isdigit():
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise _bad(text, "the host is not a valid IPv4 address") from None
    return SchedulerAddress(scheme, host, port)


def require_distributed() -> ModuleType:
    """dask.distributed, imported on first use; without it one sentence naming the extra to install."""
    try:
        import distributed
    except ImportError:
        raise UsageError.of("dask_missing", hint=INSTALL_HINT) from None
    return distributed
