"""Strict grammar for host profile fields: every value that reaches ssh or a remote shell is checked here.

OpenSSH turns ProxyJump into a command line that a shell runs, and expands tokens in several options, so
nothing is passed on that is not a plain host name / IP literal, user name, port number or path: no
leading `-`, no shell metacharacters, no white space and no control characters anywhere.
"""

from __future__ import annotations

import ipaddress
import json
import re
import unicodedata
from typing import Any

MAX_HOST_CHARS = 253
MAX_USER_CHARS = 64
MAX_NAME_CHARS = 64
MAX_PATH_CHARS = 1024
MAX_JUMPS = 8
SHOWN_CHARS = 60

_LABEL_RE = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\Z")
_USER_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")
_NAME_RE = re.compile(r"[\w][\w.-]*\Z")
_COMMAND_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*\Z")
# Characters a POSIX shell (or ssh's % / ${} token expansion) gives a meaning to, plus quotes and globs.
_SHELL_CHARS = frozenset("`$;&|<>(){}[]*?!\\'\"#%,=^")


def show(value: Any) -> str:
    """A value for a message: strings quoted, other values as JSON; control characters escaped, long ones cut."""
    if isinstance(value, str):
        text, quote = value, "'"
    else:
        try:
            text, quote = json.dumps(value), ""
        except (TypeError, ValueError):
            text, quote = repr(value), ""
    if len(text) > SHOWN_CHARS:
        text = text[:SHOWN_CHARS] + "…"
    return quote + "".join(char if char.isprintable() else repr(char)[1:-1] for char in text) + quote


def _bad_character(text: str) -> str | None:
    for char in text:
        if char.isspace() or unicodedata.category(char).startswith("C"):
            return "a space or control character"
        if char in _SHELL_CHARS:
            return f"the shell character {char!r}"
    return None


def _is_ip_literal(text: str) -> bool:
    if "%" in text:  # scoped IPv6 (fe80::1%eth0): Python accepts any scope text, so refuse them all
        return False
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def host_problem(host: str, brackets: bool = False) -> str | None:
    """Why `host` is not a host name, IPv4 or IPv6 literal (`[v6]` too when brackets); None when it is one."""
    bracketed = brackets and host.startswith("[") and host.endswith("]")
    if _is_ip_literal(host[1:-1] if bracketed else host):
        return None
    if not host:
        return "the host name is empty"
    if len(host) > MAX_HOST_CHARS:
        return f"the host name is longer than {MAX_HOST_CHARS} characters"
    if not all(_LABEL_RE.match(label) for label in host.split(".")):
        return "a host name is letters, digits, '-' and '_' in dot-separated labels (or an IP address)"
    return None


def user_problem(user: str) -> str | None:
    """Why `user` is not a plain login name; None when it is one."""
    if not user:
        return "the user name before '@' is empty"
    if len(user) > MAX_USER_CHARS or not _USER_RE.match(user):
        return "a user name is letters, digits, '_', '.' and '-' (not starting with '-' or '.')"
    return None


def destination_problem(text: str) -> str | None:
    """Why `text` is not `[user@]host`; None when it is."""
    user, at, host = text.rpartition("@")
    if at:
        problem = user_problem(user)
        if problem:
            return problem
    return host_problem(host)


def _split_port(text: str) -> tuple[str, str | None]:
    """`host:port`, `[v6]:port` or a bare host/IPv6 literal -> (host, port text or None)."""
    if text.startswith("["):
        host, _, rest = text.partition("]")
        return host + "]", (rest[1:] if rest.startswith(":") else (rest or None))
    if text.count(":") == 1:
        host, _, port = text.partition(":")
        return host, port
    return text, None


def jump_problem(text: str) -> str | None:
    """Why `text` is not a comma list of `[user@]host[:port]`; None when it is."""
    hops = text.split(",")
    if len(hops) > MAX_JUMPS:
        return f"at most {MAX_JUMPS} jump hosts are allowed"
    for hop in hops:
        user, at, rest = hop.rpartition("@")
        if at and user_problem(user):
            return user_problem(user)
        host, port = _split_port(rest)
        problem = host_problem(host, brackets=True) or (port_text_problem(port) if port is not None else None)
        if problem:
            return problem
    return None


def port_text_problem(text: str) -> str | None:
    """Why the `:port` part of a jump host is not a number in 1..65535."""
    if not text.isascii() or not text.isdigit() or len(text) > 5 or not 1 <= int(text) <= 65535:
        return f"the port {show(text)} is not a number in 1..65535"
    return None


def port_problem(value: Any) -> str | None:
    """Why `value` is not None or an integer port in 1..65535 (booleans, floats and strings are refused)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return "it must be a whole number in 1..65535"
    if not 1 <= value <= 65535:
        return f"{value} is not in 1..65535"
    return None


def path_problem(path: str, home_relative: bool = True) -> str | None:
    """Why `path` is not an absolute (or `~/…`) path free of shell characters, spaces and control bytes."""
    if not path:
        return "it is empty"
    if len(path) > MAX_PATH_CHARS:
        return f"it is longer than {MAX_PATH_CHARS} characters"
    if not (path.startswith("/") or (home_relative and path.startswith("~/"))):
        return "it must be absolute" + (" or start with ~/" if home_relative else "")
    bad = _bad_character(path)
    return f"it contains {bad}" if bad else None


def command_problem(command: str) -> str | None:
    """Why `command` is neither a bare program name (python3) nor a clean absolute path."""
    if _COMMAND_RE.match(command):
        return None
    if command.startswith("/"):
        return path_problem(command, home_relative=False)
    return "it must be a program name such as python3 or an absolute path"


def name_problem(name: str) -> str | None:
    """Why `name` is not a profile name (letters, digits, '_', '.', '-'; not starting with '-' or '.')."""
    if not name:
        return "it is empty"
    if len(name) > MAX_NAME_CHARS or not _NAME_RE.match(name):
        return "a profile name is letters, digits, '_', '.' and '-' (not starting with '-' or '.')"
    return None
