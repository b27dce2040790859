"""Linux desktop integration for the current user: menu entry, icons and the *.afcase file type (XDG dirs)."""

from __future__ import annotations

import logging
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

from autofuse_studio.core.errors import OutputError, UsageError, os_error_sentence
from autofuse_studio.core.printable import escape_controls
from autofuse_studio.core.reports.atomic import atomic_write_bytes
from autofuse_studio.core.resources import APP_ID, desktop_dir, icon_pngs, icon_svg
from autofuse_studio.core.side_files import file_kind

log = logging.getLogger(__name__)

MIME_TYPE = "application/x-autofuse-case"
GUI_SCRIPT = "autofuse-studio-gui"
# Characters that make the Desktop Entry spec require a quoted Exec argument.
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")
TOOL_TIMEOUT = 60


@dataclass
class DesktopReport:
    """What an install or uninstall did: files written or removed, caches refreshed, and notes."""

    data_home: Path
    exec_line: str = ""
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def data_home() -> Path:
    """$XDG_DATA_HOME when it is an absolute path (as the XDG spec requires), else ~/.local/share."""
    configured = os.environ.get("XDG_DATA_HOME", "")
    if configured and os.path.isabs(configured):
        return Path(configured)
    return Path.home() / ".local" / "share"


def launch_argv() -> list[str]:
    """The command a double-click runs: the bundle's executable when frozen, else the installed GUI script."""
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())]
    # The scripts folder of the running interpreter: a venv's or pipx's bin/, even when not on PATH.
    script = Path(sysconfig.get_path("scripts")) / GUI_SCRIPT
    if script.is_file():
        return [str(script)]
    found = shutil.which(GUI_SCRIPT)
    if found:
        return [str(Path(found).resolve())]
    # A bare checkout without `pip install`: this interpreter runs the package.
    return [str(Path(sys.executable)), "-m", "autofuse_studio"]


def exec_argument(argument: str) -> str:
    """One Exec argument quoted and escaped per the Desktop Entry spec (a string value, then the command line)."""
    if argument and not _RESERVED & set(argument):
        quoted = argument
    else:
        inner = "".join(f"\\{char}" if char in '"`$\\' else char for char in argument)
        quoted = f'"{inner}"'
    # Exec is a string value as well: its backslashes are escaped once more, a tab is written \t (no raw
    # control character may appear in a value); % is a field-code prefix.
    return _string_value(quoted).replace("%", "%%")


def _string_value(text: str) -> str:
    """`text` with the escapes of a Desktop Entry string value: backslash and tab."""
    return text.replace("\\", "\\\\").replace("\t", "\\t")


def _shown(part: str) -> str:
    """A command word as it can be printed: undecodable bytes as \\xNN, control characters escaped."""
    try:
        text = part.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that stands for no byte
        text = part.encode("utf-8", "backslashreplace").decode("utf-8")
    return escape_controls(text)


def check_command(argv: list[str]) -> None:
    """UsageError when a desktop entry cannot hold the command: text that is not UTF-8, or control characters.

    An entry is UTF-8 text and its values hold no control characters (a tab is escaped): a venv path with
    other bytes cannot be written without running something else than this copy of the app.
    """
    for part in argv:
        try:
            part.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError.of("desktop_not_utf8", command=_shown(part)) from None
        bad = sorted({char for char in part if (char < " " and char != "\t") or char == "\x7f"})
        if bad:
            if {"\n", "\r"} & set(bad):
                raise UsageError.of("desktop_line_break", command=_shown(part))
            raise UsageError.of("desktop_control_char", char=escape_controls(bad[0]), command=_shown(part))


def desktop_entry(template: str, argv: list[str]) -> str:
    """The template's entry with Exec (plus %F: the files a double-click passes) and TryExec set to argv."""
    check_command(argv)
    command = " ".join(exec_argument(part) for part in argv)
    lines = []
    for line in template.splitlines():
        if line.startswith("Exec="):
            line = f"Exec={command} %F"
        elif line.startswith("TryExec="):
            # A plain path, not a command line: only the string escapes apply.
            line = "TryExec=" + _string_value(argv[0])
        lines.append(line)
    return "\n".join(lines) + "\n"


def targets(home: Path) -> dict[Path, Path]:
    """Installed path -> shipped source, for every file an install writes."""
    shipped = desktop_dir()
    files = {home / "applications" / f"{APP_ID}.desktop": shipped / f"{APP_ID}.desktop",
             home / "mime" / "packages" / f"{APP_ID}.xml": shipped / f"{APP_ID}-mime.xml",
             home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg": icon_svg()}
    for size, png in icon_pngs().items():
        files[home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = png
    return files


def _check_platform() -> None:
    if not sys.platform.startswith("linux"):
        raise UsageError.of("desktop_not_linux", platform=sys.platform)


def install(home: Path | None = None, argv: list[str] | None = None) -> DesktopReport:
    """Install the menu entry, icons and *.afcase type for the current user, then refresh the caches."""
    _check_platform()
    report = DesktopReport(home or data_home())
    argv = argv or launch_argv()
    check_command(argv)  # before anything is written
    for target, source in targets(report.data_home).items():
        try:
            if target.suffix == ".desktop":
                text = desktop_entry(source.read_text(encoding="utf-8"), argv)
                report.exec_line = next(line for line in text.splitlines() if line.startswith("Exec="))[5:]
                data = text.encode("utf-8")
            else:
                data = source.read_bytes()
            _clear_the_way(target, report)
        except OSError as error:
            raise OutputError.of("desktop_install_failed", name=target.name, reason=os_error_sentence(error)) from None
        atomic_write_bytes(target, data)  # a temp file, then a rename: never a half-written entry
        report.written.append(target)
    _refresh(report)
    return report


def _clear_the_way(target: Path, report: DesktopReport) -> None:
    """Remove a symbolic link where a file goes (it is replaced, never written through); refuse other non-files."""
    try:
        info = target.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        pointed = os.readlink(target)
        target.unlink()
        report.notes.append(f"Replaced the symbolic link {target} (to {_shown(pointed)}) with the installed file.")
    elif not stat.S_ISREG(info.st_mode):
        raise OutputError.of("desktop_target_not_file", name=target.name, path=target, kind=file_kind(info.st_mode))


def uninstall(home: Path | None = None) -> DesktopReport:
    """Remove what install() wrote (nothing else), then refresh the caches."""
    _check_platform()
    report = DesktopReport(home or data_home())
    for target in targets(report.data_home):
        try:
            target.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise OutputError.of("desktop_remove_failed", path=target, reason=os_error_sentence(error)) from None
        report.removed.append(target)
    _refresh(report)
    return report


def _refresh(report: DesktopReport) -> None:
    """Rebuild the desktop and MIME caches the file managers read, with the tools that are installed."""
    home = report.data_home
    commands = [["update-desktop-database", "-q", str(home / "applications")],
                ["update-mime-database", str(home / "mime")]]
    # GTK reads a stale icon cache instead of the folder; only refresh one that exists.
    if (home / "icons" / "hicolor" / "icon-theme.cache").is_file():
        commands.append(["gtk-update-icon-cache", "-q", "-t", "-f", str(home / "icons" / "hicolor")])
    for argv in commands:
        tool = shutil.which(argv[0])
        if tool is None:
            report.notes.append(f"{argv[0]} is not installed, so the desktop picks the change up at the next login.")
            continue
        try:
            done = subprocess.run([tool, *argv[1:]], capture_output=True, text=True, errors="replace",
                                  timeout=TOOL_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            report.notes.append(f"{argv[0]} did not run: {error}.")
            continue
        if done.returncode != 0:
            report.notes.append(f"{argv[0]} failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
        else:
            report.refreshed.append(argv[0])
            log.debug("%s: %s", argv[0], done.stderr.strip())
