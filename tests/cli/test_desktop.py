"""`autofuse-studio desktop install|uninstall`: XDG files, a valid entry, the *.afcase type, Exec quoting."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio import cli
from autofuse_studio.core import desktop
from autofuse_studio.core.errors import UsageError
from autofuse_studio.core.resources import APP_ID, ICON_SIZES, desktop_dir

VALIDATE = shutil.which("desktop-file-validate")
needs_validator = pytest.mark.skipif(VALIDATE is None, reason="desktop-file-validate (desktop-file-utils) is absent")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG desktops are Linux only")


def validate(path: Path) -> str:
    """desktop-file-validate's complaints (empty when the entry is valid)."""
    assert VALIDATE is not None
    done = subprocess.run([VALIDATE, str(path)], capture_output=True, text=True, check=False)
    return (done.stdout + done.stderr).strip() if done.returncode else ""


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


@needs_validator
def test_the_shipped_entry_is_valid() -> None:
    assert validate(desktop_dir() / f"{APP_ID}.desktop") == ""


@linux_only
def test_install_writes_entry_icons_and_file_type(data_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["desktop", "install"]) == 0
    out = capsys.readouterr().out
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    text = entry.read_text(encoding="utf-8")
    argv = desktop.launch_argv()
    assert f"Exec={' '.join(desktop.exec_argument(part) for part in argv)} %F" in text.splitlines()
    assert "MimeType=application/x-autofuse-case;" in text
    assert argv[0] in out
    for size in ICON_SIZES:
        assert (data_home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    assert (data_home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    assert "<glob pattern=\"*.afcase\"/>" in (data_home / "mime" / "packages" / f"{APP_ID}.xml").read_text()
    if VALIDATE:
        assert validate(entry) == ""


def test_outside_a_bundle_the_entry_runs_the_installed_gui_script() -> None:
    argv = desktop.launch_argv()
    assert Path(argv[0]).name == desktop.GUI_SCRIPT or argv[1:] == ["-m", "autofuse_studio"]


def test_a_bundle_entry_runs_the_bundle_executable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    executable = tmp_path / "autofuse-studio" / "autofuse-studio"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(executable))
    assert desktop.launch_argv() == [str(executable.resolve())]


@linux_only
@pytest.mark.skipif(shutil.which("update-mime-database") is None, reason="shared-mime-info is absent")
def test_a_case_file_gets_the_type_and_uninstall_takes_it_back(data_home: Path) -> None:
    desktop.install()
    assert "application/x-autofuse-case:*.afcase" in (data_home / "mime" / "globs2").read_text()
    if shutil.which("update-desktop-database"):
        cache = (data_home / "applications" / "mimeinfo.cache").read_text()
        assert f"application/x-autofuse-case={APP_ID}.desktop;" in cache  # the handler of a double-click
    report = desktop.uninstall()
    assert len(report.removed) == len(desktop.targets(data_home))
    assert not list(data_home.rglob(f"{APP_ID}*"))
    assert "afcase" not in (data_home / "mime" / "globs2").read_text()
    assert desktop.uninstall().removed == []  # a second uninstall finds nothing and still succeeds


@linux_only
def test_missing_cache_tools_are_a_note_not_a_failure(data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(desktop.shutil, "which", lambda _name: None)
    report = desktop.install(argv=["/opt/x/autofuse-studio"])
    assert report.refreshed == []
    assert any("update-mime-database is not installed" in note for note in report.notes)


@pytest.mark.parametrize(("argument", "written"), [
    ("/opt/autofuse/autofuse-studio", "/opt/autofuse/autofuse-studio"),
    ("/home/a b/bin/autofuse-studio-gui", '"/home/a b/bin/autofuse-studio-gui"'),
    ('/x/"q"$y', '"/x/\\\\"q\\\\"\\\\$y"'),
    ("/x/50%", "/x/50%%"),
    ("", '""'),
])
def test_exec_arguments_are_quoted_per_the_spec(argument: str, written: str) -> None:
    assert desktop.exec_argument(argument) == written


@linux_only
@needs_validator
def test_an_awkward_install_path_still_makes_a_valid_entry(data_home: Path) -> None:
    desktop.install(argv=["/home/li lei/应用 50%/$x/autofuse-studio"])
    entry = data_home / "applications" / f"{APP_ID}.desktop"
    assert validate(entry) == ""
    assert "TryExec=/home/li lei/应用 50%/$x/autofuse-studio" in entry.read_text(encoding="utf-8")


def test_line_breaks_in_the_command_are_refused() -> None:
    with pytest.raises(UsageError, match="line break"):
        desktop.desktop_entry("Exec=x\n", ["/a\nb"])


def test_xdg_data_home_must_be_absolute(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/share")
    assert desktop.data_home() == tmp_path / ".local" / "share"


def test_other_systems_get_one_sentence(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert cli.main(["desktop", "install"]) == 2
    assert "Linux" in capsys.readouterr().err


def test_a_double_clicked_case_opens_in_the_gui(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The entry's Exec passes the clicked files (%F) as plain arguments: they reach the window as paths.
    import autofuse_studio.ui.app as app_module

    opened: list[object] = []
    monkeypatch.setattr(app_module, "run_app", lambda **kw: opened.append(kw["paths"]) or 0)
    case = tmp_path / "my case.afcase"
    assert cli.main([str(case)]) == 0
    assert opened == [[str(case)]]


def test_help_lists_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "desktop:" in capsys.readouterr().out
