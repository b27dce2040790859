"""`nwa --host`: the remote command line (every word checked and shell-quoted), the version check, the stream.

ssh joins the remote words with spaces and hands them to the login shell, so each word is `shlex.quote`d
here; paths are refused only for what no quoting makes safe (control bytes, a leading '-', empty, too long).
"""

from __future__ import annotations

import re
import unicodedata

from autofuse_studio import __version__
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.row_stream import PROTOCOL, encode_record
from autofuse_studio.core.remote import grammar
from autofuse_studio.core.remote.profiles import HostProfile
from autofuse_studio.core.remote.ssh import RemoteError, remote_path, ssh_failure
from autofuse_studio.core.run.spec import DEFAULT_REMOTE_COMMAND, LOCAL, OnHost, RunSpec, spec_to_record

MIN_REMOTE_VERSION = "0.1.0"  # the first version with `nwa --emit-jsonl` (stream protocol 1)
NOT_FOUND_CODES = (126, 127)  # what a POSIX shell exits with for a command it cannot run / cannot find
_VERSION_RE = re.compile(r"Autofuse Studio\s+(\S+)")
VERSION_MARK = "AFS-VERSION "  # the line of a gated session that carries the host's `--version` answer
PATH_ROLES = (("af_open_graph", "--af-open-graph", "af-open graph"),
              ("af_close_graph", "--af-close-graph", "af-close graph"),
              ("af_open_data", "--af-open-data", "af-open dump folder"),
              ("af_close_data", "--af-close-data", "af-close dump folder"))


def word_problem(text: str) -> str | None:
    """Why `text` cannot travel as one remote word (a path or --step value); None when it can."""
    if not text:
        return "it is empty"
    if len(text) > grammar.MAX_PATH_CHARS:
        return f"it is longer than {grammar.MAX_PATH_CHARS} characters"
    if text.startswith("-"):
        return "it starts with '-' (the remote program would read it as an option)"
    for char in text:
        if unicodedata.category(char).startswith("C"):  # control, format (bidi), surrogate, unassigned
            return f"it contains the control character {char!r}"
    return None


def remote_command_problem(command: str) -> str | None:
    """Why `command` is not a program name, an absolute path or a `~/…` path without shell characters."""
    if command.startswith("~/"):
        return grammar.path_problem(command, home_relative=True)
    return grammar.command_problem(command)


def remote_command_of(spec: RunSpec) -> str:
    """The autofuse-studio command on the spec's host (the default for a spec that runs elsewhere)."""
    return spec.where.remote_command if isinstance(spec.where, OnHost) else DEFAULT_REMOTE_COMMAND


def check_request(spec: RunSpec, host: str) -> None:
    """InputError naming the option when a value of the spec cannot be sent to the host."""
    if spec.mode != 1:
        raise InputError.of("host_mode1_only")
    command = remote_command_of(spec)
    problem = remote_command_problem(command)
    if problem:
        raise InputError.of("remote_command_refused", command=grammar.show(command), problem=problem)
    for attribute, option, label in PATH_ROLES:
        value = str(getattr(spec, attribute))
        problem = word_problem(value)
        if problem:
            raise InputError.of("remote_path_unsendable", role=attribute, label_en=label, value=grammar.show(value),
                                 option=option, host=host, problem=problem)
    if spec.step is not None and (problem := word_problem(spec.step)):
        raise InputError.of("remote_step_unsendable", step=grammar.show(spec.step), host=host, problem=problem)
    for rank in spec.ranks or ():
        if not (rank.isascii() and rank.isdigit()):
            raise InputError.of("remote_rank_not_device", rank=grammar.show(rank))


def _word(text: str) -> str:
    """One remote word: quoted, with a leading ~/ left for the remote shell to expand."""
    return remote_path(text)


def nwa_words(spec: RunSpec, producers: bool = False) -> list[str]:
    """The unquoted argv after the remote command: the run there is the spec run locally, sent as JSON.

    The thresholds were read here (a --thresholds file is a local file): they travel inside the spec, exact.
    """
    words = ["nwa", "--emit-jsonl", "--watch-stdin"]
    if producers:
        words.append("--emit-producers")
    return [*words, "--run-spec", encode_record(spec_to_record(spec.with_where(LOCAL))).strip()]


def nwa_command_line(spec: RunSpec, host: str, producers: bool = False) -> str:
    """The remote shell command: `exec CMD nwa --emit-jsonl …`, every word quoted (exec: one process to stop)."""
    check_request(spec, host)
    return " ".join(["exec", _word(remote_command_of(spec)), *(_word(word) for word in nwa_words(spec, producers))])


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def _host(profile: HostProfile) -> dict[str, str]:
    """The profile's name and address: the {host} and {address} of the catalogue's sentences."""
    return {"host": profile.name, "address": profile.describe()}


def gated_command_line(spec: RunSpec, host: str, producers: bool = False) -> str:
    """One ssh session: print `CMD --version` behind VERSION_MARK, wait for `go` on stdin, then run the stream.

    Nothing is run on the host before this side has read the version and found it good; one ssh handshake
    instead of two (0.7 s each to the test sshd on a busy machine).
    """
    command = _word(remote_command_of(spec))
    return (f"v=$({command} --version) || exit $?; printf '{VERSION_MARK}%s\\n' \"$v\"; "
            f"read -r go && [ \"$go\" = go ] && {nwa_command_line(spec, host, producers)}")


def check_version_answer(profile: HostProfile, command: str, code: int | None, answer: str, stderr: str,
                         connect_timeout: int = 10) -> str:
    """The host's version from what `CMD --version` said; RemoteError: missing, unreachable, foreign, too old."""
    if code in NOT_FOUND_CODES:
        raise missing_command(profile, command, code or 127)
    if code == 255:
        raise ssh_failure(profile, 255, stderr, connect_timeout)
    found = _VERSION_RE.search(answer)
    if found is None:
        said = (answer.strip() or stderr.strip() or f"exit code {code}").splitlines()[-1]
        where = _host(profile)
        raise RemoteError.of("remote_not_autofuse", command=command, said=grammar.show(said), **where)
    version = found.group(1)
    if _version_tuple(version) < _version_tuple(MIN_REMOTE_VERSION):
        raise too_old(profile, command, version)
    return version


def missing_command(profile: HostProfile, command: str, code: int) -> RemoteError:
    """The sentence for a remote command the login shell cannot find (127) or run (126)."""
    where = _host(profile)
    return RemoteError.of("remote_command_not_found" if code == 127 else "remote_command_not_executable",
                          command=command, **where)


def too_old(profile: HostProfile, command: str, version: str) -> RemoteError:
    """The error for a remote version without the stream this version needs."""
    where = _host(profile)
    return RemoteError.of("remote_too_old", command=command, version=version, minimum=MIN_REMOTE_VERSION,
                          protocol=PROTOCOL, here=__version__, **where)
