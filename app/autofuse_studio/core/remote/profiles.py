"""Remote build host profiles (no passwords: keys or the ssh agent), stored as JSON in the app's config folder."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import AppError, InputError
from autofuse_studio.core.reports.atomic import atomic_write_text

CONFIG_FOLDER = "AutofuseStudio"


@dataclass(frozen=True)
class HostProfile:
    """One build host: an ssh destination (user@host or a ~/.ssh/config alias) and where to build there."""

    name: str
    destination: str
    port: int | None = None
    identity_file: str | None = None
    proxy_jump: str | None = None
    work_dir: str = "/tmp/autofuse-studio"
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
        """Build from a stored dict, ignoring unknown keys (newer versions may add some)."""
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


def profile_problems(profile: HostProfile) -> list[str]:
    """Every problem with a profile, one sentence each."""
    problems = []
    if not profile.name.strip():
        problems.append("The host profile needs a name.")
    if not profile.destination.strip() or profile.destination.startswith("-") or " " in profile.destination:
        problems.append(f"ssh destination '{profile.destination}' must be user@host or a ~/.ssh/config alias.")
    if profile.port is not None and not 1 <= profile.port <= 65535:
        problems.append(f"Port {profile.port} is not in 1..65535.")
    if profile.proxy_jump is not None and profile.proxy_jump.startswith("-"):
        problems.append(f"ProxyJump '{profile.proxy_jump}' must be [user@]host[:port].")
    if not profile.work_dir.startswith(("/", "~/")):
        problems.append(f"Remote work folder '{profile.work_dir}' must be absolute or start with ~/.")
    if not profile.python.strip():
        problems.append("The python3 path on the host must not be empty.")
    return problems


def profiles_path() -> Path:
    """hosts.json in the XDG config folder (the same folder as the app's settings)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / CONFIG_FOLDER / "hosts.json"


def load_profiles() -> list[HostProfile]:
    """Saved profiles in their saved order; InputError when the file is damaged."""
    path = profiles_path()
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [HostProfile.from_dict(item) for item in data.get("hosts", [])]
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        raise InputError(f"The host profiles file '{path}' cannot be read: {exc}.", path) from None


def save_profiles(profiles: list[HostProfile]) -> None:
    """Replace the saved profiles (atomic write)."""
    path = profiles_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"hosts": [p.to_dict() for p in profiles]}, indent=2))


def find_profile(name: str) -> HostProfile:
    """The saved profile called name; AppError listing the known names otherwise."""
    profiles = load_profiles()
    for profile in profiles:
        if profile.name == name:
            return profile
    known = ", ".join(p.name for p in profiles) or "none saved yet"
    raise AppError(f"No host profile named '{name}' (known: {known}); add one with "
                   "`autofuse-studio hosts add` or in the runner panel.")
