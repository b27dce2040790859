"""TLS for a `tls://` scheduler: the cluster's CA and this client's certificate (Dask's Security), checked first."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import Any

from autofuse_studio.core.cluster.address import SchedulerAddress, require_distributed
from autofuse_studio.core.errors import InputError, UsageError

_OPTIONS = "--tls-ca-file, --tls-cert and --tls-key"


@dataclass(frozen=True)
class TlsFiles:
    """PEM files: the CA that signed the cluster's certificates, this client's certificate and its key.

    The key may be left out when the certificate file holds it too.
    """

    ca_file: str | None = None
    cert: str | None = None
    key: str | None = None

    def given(self) -> bool:
        """True when any file is named."""
        return any((self.ca_file, self.cert, self.key))


def _checked_file(path: str, option: str) -> str:
    """The path of a readable regular file, else a sentence naming the option."""
    if not path or any(ord(char) < 32 or ord(char) == 127 for char in path):
        raise UsageError(f"{option} takes the path of a PEM file, not {path[:120]!r}.")
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise InputError(f"Cannot read {option} {path}: {error.strerror or error}.", path) from None
    if not stat.S_ISREG(mode):
        raise InputError(f"{option} {path} is not a file.", path)
    if not os.access(path, os.R_OK):
        raise InputError(f"Cannot read {option} {path}: permission denied.", path)
    return path


def dask_security(address: SchedulerAddress, tls: TlsFiles | None) -> Any:
    """The distributed.Security for this address (None for tcp://); a sentence for what cannot work.

    tcp:// with TLS files, and tls:// without certificates (none named here nor in Dask's configuration,
    `distributed.comm.tls`), are usage errors; an unreadable or unusable file is an input error.
    """
    tls = tls or TlsFiles()
    if address.scheme != "tls":
        if tls.given():
            raise UsageError(f"{_OPTIONS} are for a tls:// scheduler: {address} is not one (write "
                             f"tls://{str(address).split('://', 1)[1]}, or leave them out).")
        return None
    distributed = require_distributed()
    if not tls.given():
        try:
            security = distributed.Security()  # the TLS files of Dask's configuration, if any
            context = security.get_connection_args("client")["ssl_context"]
        except (OSError, ValueError) as error:
            raise InputError(f"Cannot use the TLS files of Dask's configuration (distributed.comm.tls) for "
                             f"{address}: {getattr(error, 'strerror', None) or error}.") from None
        if context is None:
            raise UsageError(f"The scheduler {address} speaks TLS: give the cluster's CA and this client's "
                             f"certificate with {_OPTIONS} (or set them in Dask's configuration, "
                             "distributed.comm.tls).")
        return security
    missing = [option for option, path in (("--tls-ca-file", tls.ca_file), ("--tls-cert", tls.cert)) if not path]
    if missing:
        raise UsageError(f"A tls:// scheduler needs both --tls-ca-file and --tls-cert (and --tls-key unless the "
                         f"certificate file holds the key): {' and '.join(missing)} missing.")
    files = {"--tls-ca-file": tls.ca_file, "--tls-cert": tls.cert, "--tls-key": tls.key}
    for option, path in files.items():
        if path is not None:
            _checked_file(path, option)
    security = distributed.Security(tls_ca_file=tls.ca_file, tls_client_cert=tls.cert, tls_client_key=tls.key,
                                    require_encryption=True)
    try:
        security.get_connection_args("client")  # loads the CA, the certificate and the key now
    except (OSError, ValueError) as error:  # ssl.SSLError is an OSError
        named = ", ".join(f"{option} {path}" for option, path in files.items() if path)
        raise InputError(f"Cannot use the TLS files ({named}): {getattr(error, 'strerror', None) or error}; "
                         "give PEM files (the key unencrypted).") from None
    return security
