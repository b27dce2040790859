"""Remote build host profiles (no passwords: keys or the ssh agent), stored as JSON in the app's config folder.

Every field is checked against core.remote.grammar when a profile is added, changed, loaded and used;
a hand-edited hosts.json with a broken entry keeps its other entries usable.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import AppError, InputError
from autofuse_studio.core.remote import grammar
from autofuse_studio.core.reports.atomic import atomic_write_text
from autofuse_studio.core.side_files import read_side_file

CONFIG_FOLDER = "AutofuseStudio"
MAX_FILE_BYTES = 4 << 20
DEFAULT_WORK_DIR = "/tmp/autofuse-studio"


@dataclass(frozen=True)
class HostProfile:
    """One build host: an ssh destination (user@host or a ~/.ssh/config alias) and where to build there."""

    name: str
    destination: str
    port: int | None = None
    identity_file: str | None = None
    proxy_jump: str | None = None
    work_dir: str = DEFAULT_WORK_DIR
    ascend_home: str | None = None  # ASCEND_HOME_PATH on the host; None = the login environment's
    python: str = "python3"
    known_hosts_file: str | None = None

    def describe(self) -> str:
        """`user@host:port via jump` for lists and messages."""
        text = self.destination + (f":{self.port}" if self.port else "")
        return text + (f" via {self.proxy_jump}" if self.proxy_jump else "")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HostProfile:
        """Build from a stored dict, ignoring unknown keys (newer versions may add some); InputError if invalid."""
        return profile_from_dict(data)


FIELD_NAMES = tuple(f.name for f in fields(HostProfile))
_REQUIRED = ("name", "destination")
_OPTIONAL = ("port", "identity_file", "proxy_jump", "ascend_home", "known_hosts_file")


def _name(value: str) -> str | None:
    problem = grammar.name_problem(value)
    return None if problem is None else f"The host profile name {grammar.show(value)} is refused: {problem}."


def _destination(value: str) -> str | None:
    problem = grammar.destination_problem(value)
    return None if problem is None else (f"ssh destination {grammar.show(value)} must be user@host or a "
                                     f"~/.ssh/config alias: {problem}.")


def _jump(value: str) -> str | None:
    problem = grammar.jump_problem(value)
    return None if problem is None else (f"ProxyJump {grammar.show(value)} must be a comma list of "
                                         f"[user@]host[:port]: {problem}.")


def _path_field(label: str, home_relative: bool) -> Callable[[str], str | None]:
    def check(value: str) -> str | None:
        problem = grammar.path_problem(value, home_relative)
        return None if problem is None else f"{label} {grammar.show(value)} is refused: {problem}."
    return check


def _python(value: str) -> str | None:
    if not value.strip():
        return "The python3 path on the host must not be empty."
    problem = grammar.command_problem(value)
    return None if problem is None else f"The python3 path {grammar.show(value)} is refused: {problem}."


_STRING_CHECKS: dict[str, Callable[[str], str | None]] = {
    "name": _name, "destination": _destination, "proxy_jump": _jump,
    "identity_file": _path_field("The identity file", True),
    "known_hosts_file": _path_field("The known_hosts file", True),
    "work_dir": _path_field("Remote work folder", True),
    "ascend_home": _path_field("ascend_home (ASCEND_HOME_PATH on the host)", False),
    "python": _python,
}


def field_problem(field: str, value: Any) -> str | None:
    """The sentence naming `field` when `value` is not acceptable for it (wrong type or grammar); else None."""
    if field == "port":
        problem = grammar.port_problem(value)
        if problem is None:
            return None
        return f"Port {value} is not in 1..65535." if isinstance(value, int) and not isinstance(value, bool) \
            else f"Port {grammar.show(value)} is refused: {problem}."
    if value is None and field in _OPTIONAL:
        return None
    if not isinstance(value, str):
        kind = "a text value or null" if field in _OPTIONAL else "a text value"
        return f"The field '{field}' must be {kind}, not {grammar.show(value)}."
    return _STRING_CHECKS[field](value)


def profile_problems(profile: HostProfile) -> list[str]:
    """Every problem with a profile, one sentence each (empty when every field is acceptable)."""
    problems = [field_problem(name, getattr(profile, name)) for name in FIELD_NAMES]
    return [problem for problem in problems if problem]


def check_profile(profile: HostProfile) -> None:
    """Raise InputError when any field of the profile is not acceptable (defence in depth before ssh)."""
    problems = profile_problems(profile)
    if problems:
        raise InputError.of("profile_refused", name=grammar.show(profile.name), problems=" ".join(problems))


def profile_from_dict(data: Any, label: str = "The host profile") -> HostProfile:
    """A checked HostProfile from a stored dict (unknown keys ignored); InputError naming label otherwise."""
    if not isinstance(data, dict):
        raise InputError.of("profile_not_object", what=label, value=grammar.show(data))
    missing = [name for name in _REQUIRED if name not in data]
    if missing:
        raise InputError.of("profile_missing_field", what=label, fields=" or ".join(missing))
    values = {name: data[name] for name in FIELD_NAMES if name in data}
    defaults = {"work_dir": DEFAULT_WORK_DIR, "python": "python3"}
    checked = {**defaults, **values}
    problems = [field_problem(name, checked[name]) for name in FIELD_NAMES if name in checked]
    if any(problems):
        raise InputError.of("profile_fields_refused", what=label, problems=" ".join(p for p in problems if p))
    return HostProfile(**checked)


@dataclass(frozen=True)
class StoredEntry:
    """One entry of hosts.json as stored: the raw JSON value, and its profile or the sentence why not."""

    raw: Any
    profile: HostProfile | None
    problem: str | None

    @property
    def name(self) -> str | None:
        """The entry's name when it is a string (broken entries too), else None."""
        name = self.raw.get("name") if isinstance(self.raw, dict) else None
        return name if isinstance(name, str) else None


def profiles_path() -> Path:
    """hosts.json in the XDG config folder (the same folder as the app's settings)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / CONFIG_FOLDER / "hosts.json"


def _read_document(path: Path) -> list[Any]:
    # A regular file only, at most the cap read: a FIFO would hang, a device never end.
    contents = read_side_file(path, MAX_FILE_BYTES, "The host profiles file", quoted=True)
    try:
        data = json.loads(contents.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError.of("profiles_not_utf8", path=path) from None
    except json.JSONDecodeError as exc:
        raise InputError.of("profiles_not_json", path=path, reason=exc.msg, line=exc.lineno) from None
    except (ValueError, RecursionError):
        raise InputError.of("profiles_json_too_deep", path=path) from None
    hosts = data.get("hosts", []) if isinstance(data, dict) else None
    if not isinstance(hosts, list):
        raise InputError.of("profiles_no_hosts_list", path=path)
    return hosts


def load_entries() -> list[StoredEntry]:
    """Every entry of hosts.json, checked one by one; InputError only when the file as a whole is unusable."""
    path = profiles_path()
    if not os.path.lexists(path):
        return []  # none saved yet; anything else there (a FIFO, a folder, a dangling link) is said
    entries = []
    for number, raw in enumerate(_read_document(path), start=1):
        name = raw.get("name") if isinstance(raw, dict) else None
        label = f"Entry {number}" + (f" ({grammar.show(name)})" if isinstance(name, str) else "") + f" of '{path}'"
        try:
            entries.append(StoredEntry(raw, profile_from_dict(raw, label), None))
        except InputError as exc:
            entries.append(StoredEntry(raw, None, str(exc)))
    return entries


def load_profiles() -> list[HostProfile]:
    """The usable saved profiles in their saved order (broken entries are left out; see load_entries)."""
    return [entry.profile for entry in load_entries() if entry.profile is not None]


def save_entries(entries: list[StoredEntry]) -> None:
    """Replace hosts.json with these entries (broken ones are kept as they were), atomically."""
    path = profiles_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    hosts = [entry.profile.to_dict() if entry.profile is not None else entry.raw for entry in entries]
    atomic_write_text(path, json.dumps({"hosts": hosts}, indent=2, ensure_ascii=False))


def save_profiles(profiles: list[HostProfile]) -> None:
    """Replace the saved profiles with these (each is checked first), atomically."""
    for profile in profiles:
        check_profile(profile)
    save_entries([StoredEntry(profile.to_dict(), profile, None) for profile in profiles])


def find_profile(name: str) -> HostProfile:
    """The saved profile called name; AppError naming the broken field, or listing the known names."""
    entries = load_entries()
    for entry in entries:
        if entry.name == name:
            if entry.profile is None:
                raise InputError.of("profile_broken", problem=entry.problem, name=name)
            return entry.profile
    known = ", ".join(grammar.show(entry.name or "?") for entry in entries) or "none saved yet"
    raise AppError.of("profile_unknown", name=grammar.show(name), known=known)
