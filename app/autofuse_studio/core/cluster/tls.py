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
        raise UsageError.of("tls_not_a_path", option=option, value=repr(path[:120]))
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise InputError.of("tls_file_unreadable", option=option, path=path,
                            reason=error.strerror or str(error)) from None
    if not stat.S_ISREG(mode):
        raise InputError.of("tls_not_a_file", option=option, path=path)
    if not os.access(path, os.R_OK):
        raise InputError.of("tls_file_unreadable", option=option, path=path, reason="permission denied")
    return path


def dask_security(address: SchedulerAddress, tls: TlsFiles | None) -> Any:
    """The distributed.Security for this address (None for tcp://); a sentence for what cannot work.

    tcp:// with TLS files, and tls:// without certificates (none named here nor in Dask's configuration,
    `distributed.comm.tls`), are usage errors; an unreadable or unusable file is an input error.
    """
    tls = tls or TlsFiles()
    if address.scheme != "tls":
        if tls.given():
            raise UsageError.of("tls_options_without_tls", options=_OPTIONS, address=str(address),
                                 rest=str(address).split("://", 1)[1])
        return None
    distributed = require_distributed()
    if not tls.given():
        try:
            security = distributed.Security()  # the TLS files of Dask's configuration, if any
            context = security.get_connection_args("client")["ssl_context"]
        except (OSError, ValueError) as error:
            raise InputError.of("tls_dask_config_unusable", address=str(address),
                                 reason=getattr(error, "strerror", None) or str(error)) from None
        if context is None:
            raise UsageError.of("tls_needs_files", address=str(address), options=_OPTIONS)
        return security
    missing = [option for option, path in (("--tls-ca-file", tls.ca_file), ("--tls-cert", tls.cert)) if not path]
    if missing:
        raise UsageError.of("tls_files_missing", missing=" and ".join(missing))
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
        raise InputError.of("tls_files_unusable", files=named,
                             reason=getattr(error, "strerror", None) or str(error)) from None
    return security
