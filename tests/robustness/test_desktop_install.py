"""`desktop install` from awkward places: a venv path that is not UTF-8 or holds TAB/ESC, links in the way.

Each case runs the real CLI from a venv made at such a path (a pyvenv.cfg and links to this venv's interpreter
and packages, as `python -m venv` makes them), so the entry's command is what a user there would get.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autofuse_studio.core.desktop import GUI_SCRIPT, targets
from autofuse_studio.core.resources import APP_ID
from tests.robustness.conftest import assert_no_traceback

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG desktops are Linux only")
VALIDATE = shutil.which("desktop-file-validate")


def _venv_at(folder: bytes) -> Path:
    """A venv at `folder` (bytes: any name the file system allows) running this venv's interpreter and packages."""
    base = Path(sys.prefix)
    os.makedirs(os.path.join(folder, b"bin"))
    (Path(os.fsdecode(folder)) / "pyvenv.cfg").write_bytes((base / "pyvenv.cfg").read_bytes())
    os.symlink(os.path.realpath(sys.executable), os.path.join(folder, b"bin", b"python"))
    os.symlink(os.fsencode(base / "lib"), os.path.join(folder, b"lib"))
    script = os.path.join(folder, b"bin", os.fsencode(GUI_SCRIPT))
    with open(script, "w", encoding="utf-8") as handle:
        handle.write("#!/bin/sh\nexit 0\n")
    os.chmod(script, 0o755)
    return Path(os.fsdecode(folder))


def _install(venv: Path, data_home: Path, action: str = "install") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([os.fsencode(venv / "bin" / "python"), b"-m", b"autofuse_studio", b"desktop",
                           action.encode()], capture_output=True, text=True, errors="replace", env=env, timeout=120,
                          check=False)
    assert_no_traceback(done.stdout + done.stderr)
    return done


def _entry(data_home: Path) -> Path:
    return data_home / "applications" / f"{APP_ID}.desktop"


def test_a_venv_path_that_is_not_utf8_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    venv = _venv_at(os.fsencode(tmp_path) + b"/caf\xe9-\xff-venv")
    data_home = tmp_path / "data"
    done = _install(venv, data_home)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "the path is not valid UTF-8" in done.stderr
    assert "caf\\xe9-\\xff-venv" in done.stderr  # the bytes are shown, escaped
    assert not _entry(data_home).exists()  # no 0-byte entry left behind
    assert not any(path.exists() for path in targets(data_home))


@pytest.mark.skipif(VALIDATE is None, reason="desktop-file-validate (desktop-file-utils) is absent")
def test_a_tab_in_the_venv_path_is_escaped_and_the_entry_validates(tmp_path: Path) -> None:
    venv = _venv_at(os.fsencode(tmp_path) + b"/my\tvenv")
    data_home = tmp_path / "data"
    done = _install(venv, data_home)
    assert done.returncode == 0, done.stdout + done.stderr
    text = _entry(data_home).read_text(encoding="utf-8")
    assert "\t" not in text
    assert f"TryExec={tmp_path}/my\\tvenv/bin/{GUI_SCRIPT}" in text.splitlines()
    assert VALIDATE is not None
    check = subprocess.run([VALIDATE, str(_entry(data_home))], capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_an_escape_in_the_venv_path_is_refused(tmp_path: Path) -> None:
    venv = _venv_at(os.fsencode(tmp_path) + b"/evil\x1b[2Jvenv")
    data_home = tmp_path / "data"
    done = _install(venv, data_home)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "the control character \\x1b" in done.stderr
    assert "\x1b" not in done.stdout + done.stderr  # shown escaped on the terminal too
    assert not _entry(data_home).exists()


def test_links_in_the_way_are_replaced_never_written_through(tmp_path: Path) -> None:
    venv = _venv_at(os.fsencode(tmp_path) + b"/venv")
    data_home = tmp_path / "data"
    outside = tmp_path / "outside"
    outside.mkdir()
    for number, target in enumerate(targets(data_home)):
        target.parent.mkdir(parents=True, exist_ok=True)
        victim = outside / f"file{number}"
        victim.write_text("precious", encoding="utf-8")
        target.symlink_to(victim)
    done = _install(venv, data_home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [path.read_text(encoding="utf-8") for path in sorted(outside.iterdir())] == ["precious"] * len(
        targets(data_home))
    for target in targets(data_home):
        assert target.is_file() and not target.is_symlink()
    assert f"Replaced the symbolic link {_entry(data_home)} (to {outside / 'file0'})" in done.stdout
    assert f"Exec={venv}/bin/{GUI_SCRIPT} %F" in _entry(data_home).read_text(encoding="utf-8").splitlines()
    assert _install(venv, data_home, "uninstall").returncode == 0
    assert len(list(outside.iterdir())) == len(targets(data_home))  # uninstall removes its files, nothing outside


def test_a_folder_in_the_way_is_one_sentence(tmp_path: Path) -> None:
    venv = _venv_at(os.fsencode(tmp_path) + b"/venv")
    data_home = tmp_path / "data"
    _entry(data_home).mkdir(parents=True)
    done = _install(venv, data_home)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"{_entry(data_home)} is a folder, not a file; remove it first." in done.stderr
