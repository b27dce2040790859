"""ssh argv builders and remote command strings (every user value shlex-quoted), plus ssh error sentences."""

from __future__ import annotations

import shlex

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.remote.profiles import HostProfile, check_profile

NO_PYTHON_CODE = 97  # exit code of the upload command when the profile's python3 is missing
MAX_CONNECT_TIMEOUT = 3600


class RemoteError(AppError):
    """ssh could not connect, authenticate or run the command; the message says which."""


def ssh_argv(profile: HostProfile, command: str, connect_timeout: int = 10) -> list[str]:
    """`ssh <options> -- <destination> <command>`: BatchMode so nothing ever waits for a password.

    The profile is checked again here, whatever checked it before: ssh hands ProxyJump to a shell.
    """
    check_profile(profile)
    if isinstance(connect_timeout, bool) or not isinstance(connect_timeout, int) or \
            not 1 <= connect_timeout <= MAX_CONNECT_TIMEOUT:
        raise RemoteError.of("ssh_timeout_invalid", limit=MAX_CONNECT_TIMEOUT, value=repr(connect_timeout))
    argv = ["ssh", "-o", "BatchMode=yes", "-o", f"ConnectTimeout={int(connect_timeout)}",
            "-o", "StrictHostKeyChecking=accept-new", "-o", "ServerAliveInterval=15", "-o", "LogLevel=ERROR"]
    if profile.port:
        argv += ["-p", str(profile.port)]
    if profile.identity_file:
        argv += ["-i", profile.identity_file, "-o", "IdentitiesOnly=yes"]
    if profile.proxy_jump:
        argv += ["-J", profile.proxy_jump]
    if profile.known_hosts_file:
        argv += ["-o", f"UserKnownHostsFile={profile.known_hosts_file}"]
    return [*argv, "--", profile.destination, command]


def connection_test_argv(profile: HostProfile, connect_timeout: int = 10) -> list[str]:
    """`ssh -o BatchMode=yes … -- DEST true`: does the profile reach its host without a password?"""
    return ssh_argv(profile, "true", connect_timeout)


def remote_path(path: str) -> str:
    """A path for the remote shell: quoted, with a leading ~/ kept expandable as "$HOME"/."""
    if path.startswith("~/"):
        return '"$HOME"/' + shlex.quote(path[2:])
    return shlex.quote(path)


def upload_command(folder: str, python: str) -> str:
    """Check python3, create the run folder and unpack the tar stream arriving on stdin."""
    py = shlex.quote(python)
    return (f"command -v {py} >/dev/null 2>&1 || exit {NO_PYTHON_CODE}; "
            f"mkdir -p {remote_path(folder)} && tar -xf - -C {remote_path(folder)}")


def run_command(folder: str, python: str) -> str:
    """Run the runner in the run folder; --watch-stdin stops the build when the ssh link goes away."""
    return (f"cd {remote_path(folder)} && exec {shlex.quote(python)} runner_script.py --job job.json "
            "--watch-stdin")


def download_command(folder: str, members: list[str]) -> str:
    """tar the named files of the run folder to stdout (missing ones are skipped)."""
    names = " ".join(shlex.quote(member) for member in members)
    return f"cd {remote_path(folder)} && for f in {names}; do [ -e \"$f\" ] && printf '%s\\n' \"$f\"; done | " \
           "tar -cf - -T -"


def cleanup_command(folder: str) -> str:
    """Remove the run folder, retrying while a stopping build may still write into it."""
    target = remote_path(folder)
    return f"for i in 1 2 3 4 5; do rm -rf {target} && exit 0; sleep 1; done; exit 1"


def ssh_failure(profile: HostProfile, code: int, stderr: str, connect_timeout: int) -> RemoteError:
    """The sentence for a failed ssh command (ssh itself exits 255 on connection and auth failures)."""
    where = {"host": profile.name, "address": profile.describe()}
    text = stderr.strip()
    lowered = text.lower()
    if code == NO_PYTHON_CODE:
        return RemoteError.of("ssh_no_python", python=profile.python, **where)
    if "connection refused" in lowered:
        return RemoteError.of("ssh_refused", **where)
    if "timed out" in lowered:
        return RemoteError.of("ssh_timeout", timeout=connect_timeout, **where)
    if "could not resolve" in lowered or "name or service not known" in lowered:
        return RemoteError.of("ssh_unresolved", **where)
    if "permission denied" in lowered:
        key = profile.identity_file or "the ssh agent's and default keys"
        return RemoteError.of("ssh_key_refused", key=key, **where)
    if "host key verification failed" in lowered or "remote host identification has changed" in lowered:
        return RemoteError.of("ssh_host_key", **where)
    last = text.splitlines()[-1] if text else f"exit code {code}"
    return RemoteError.of("ssh_failed", detail=last, **where)
