"""Copy files from a host over ssh (`cat` of a quoted path, size-capped): graphs and NPYs of remote runs."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.core.remote import grammar
from autofuse_studio.core.remote.nwa_remote import word_problem
from autofuse_studio.core.remote.nwa_stream import compressed
from autofuse_studio.core.remote.profiles import HostProfile, find_profile
from autofuse_studio.core.remote.ssh import RemoteError, remote_path, ssh_argv, ssh_failure

CHUNK = 1 << 20
NOT_A_FILE_CODE = 96  # the remote test below: no regular file at that path
MAX_TENSOR_BYTES = 1 << 30


class TooLarge(RemoteError):
    """The remote file is larger than the caller wants to copy."""


def fetch_file(profile: HostProfile, path: str, target: Path, max_bytes: int, connect_timeout: int = 10,
               cancel: CancelToken = NEVER_CANCELLED) -> Path:
    """Copy the regular file `path` on the host to `target`; TooLarge beyond max_bytes, RemoteError otherwise."""
    problem = word_problem(path)
    if problem:
        raise InputError.of("remote_fetch_unsendable", shown=grammar.show(path), host=profile.name, problem=problem)
    quoted = remote_path(path)
    command = f"[ -f {quoted} ] || exit {NOT_A_FILE_CODE}; exec cat -- {quoted}"
    argv = compressed(ssh_argv(profile, command, connect_timeout))
    size = 0
    with subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc, \
            open(target, "wb") as out:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            for chunk in iter(lambda: proc.stdout.read(CHUNK), b""):  # type: ignore[union-attr]
                size += len(chunk)
                if size > max_bytes:
                    raise TooLarge.of("remote_file_too_large", path=path, host=profile.name, megabytes=max_bytes >> 20)
                cancel.check()
                out.write(chunk)
            code = proc.wait()
        finally:
            if proc.poll() is None:
                proc.kill()
        stderr = proc.stderr.read().decode("utf-8", "replace")
    if code == NOT_A_FILE_CODE:
        raise RemoteError.of("remote_file_missing", path=path, host=profile.name)
    if code != 0:
        raise ssh_failure(profile, code, stderr, connect_timeout)
    return target


def cached_copy_name(path: str) -> str:
    """The file name of a remote file's copy in a cache folder (one per remote path)."""
    return hashlib.sha256(path.encode("utf-8", "surrogatepass")).hexdigest()[:24] + Path(path).suffix[:16]


def fetch_pair(host: str, fused: str, origin: str, folder: Path, max_bytes: int = MAX_TENSOR_BYTES,
               connect_timeout: int = 10, *, progress: Progress = no_progress,
               cancel: CancelToken = NEVER_CANCELLED) -> tuple[str, str]:
    """Local copies of a row's two NPYs from the host profile `host`, kept in `folder` for the next time."""
    profile = find_profile(host)
    copies = []
    for number, path in enumerate((fused, origin)):
        progress(number, 2, f"copying {Path(path).name} from host '{host}'")
        target = folder / cached_copy_name(path)
        if not target.is_file():
            partial = target.with_suffix(".part")
            fetch_file(profile, path, partial, max_bytes, connect_timeout, cancel)
            partial.replace(target)  # a cancelled or failed copy never passes for a cached one
        copies.append(str(target))
    progress(2, 2, "copied")
    return copies[0], copies[1]
