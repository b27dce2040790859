"""Names taken from logs turned into safe file names that can never leave the output folder."""

from __future__ import annotations

import re
from pathlib import Path

from autofuse_studio.core.errors import InputError

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")
MAX_NAME = 120
# Device names Windows reserves in any case and with any extension (`aux.txt`, `Com1.log`).
_WINDOWS_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"{port}{digit}" for port in ("com", "lpt") for digit in range(10))})


def safe_name(name: str) -> str:
    """One path component valid on Linux and Windows: `_` for unsafe characters, edge dots, device names (CON)."""
    cleaned = _UNSAFE.sub("_", name).lstrip(".")[:MAX_NAME] or "_"
    return _windows_safe(cleaned)


def _windows_safe(name: str) -> str:
    """`name` with `_` appended where Windows would drop a trailing dot or see a device name."""
    stem, dot, rest = name.partition(".")
    if stem.lower() in _WINDOWS_RESERVED:
        name = f"{stem}_{dot}{rest}"
    return name + "_" if name.endswith(".") else name


def contained(root: Path, relative: Path) -> Path:
    """`root / relative`, refusing (InputError) anything that would resolve outside `root`."""
    base = root.resolve()
    target = (base / relative).resolve()
    if target != base and base not in target.parents:
        raise InputError.of("output_outside_folder", relative=relative, path=root)
    return target


class UniqueNames:
    """Gives every distinct source name its own safe folder name (`a/b` and `a_b` do not merge)."""

    def __init__(self) -> None:
        self._by_source: dict[str, str] = {}
        self._taken: set[str] = set()

    def get(self, source: str) -> str:
        """The folder name for `source`, stable across calls."""
        if source in self._by_source:
            return self._by_source[source]
        base = safe_name(source)
        name, index = base, 2
        while name.lower() in self._taken:  # case-insensitive file systems
            name, index = f"{base}~{index}", index + 1
        self._taken.add(name.lower())
        self._by_source[source] = name
        return name
