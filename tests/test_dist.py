"""`make dist`: the release archive's name and layout (packed from a small stand-in bundle), and the CI steps."""

from __future__ import annotations

import importlib.util
import shutil
import stat
import subprocess
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

from autofuse_studio import __version__

from .conftest import REPO_ROOT

VALIDATE = shutil.which("desktop-file-validate")


def load_make_dist() -> ModuleType:
    """packaging/make_dist.py as a module (packaging/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("make_dist", REPO_ROOT / "packaging" / "make_dist.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fake_bundle(tmp_path: Path) -> Path:
    """A folder shaped like dist/autofuse-studio/: executable, _internal/ with resources and a relative link."""
    bundle = tmp_path / "autofuse-studio"
    internal = bundle / "_internal"
    shutil.copytree(REPO_ROOT / "resources" / "desktop", internal / "resources" / "desktop")
    shutil.copytree(REPO_ROOT / "resources" / "icons", internal / "resources" / "icons")
    (internal / "PySide6").mkdir()
    (internal / "PySide6" / "libQt6Core.so.6").write_bytes(b"\x7fELF")
    (internal / "libQt6Core.so.6").symlink_to("PySide6/libQt6Core.so.6")
    executable = bundle / "autofuse-studio"
    executable.write_text("#!/bin/sh\necho Autofuse Studio\n", encoding="utf-8")
    executable.chmod(0o755)
    return bundle


def test_the_archive_is_named_by_version_and_arch() -> None:
    make_dist = load_make_dist()
    assert make_dist.archive_name("1.2.3", "aarch64") == "autofuse-studio-1.2.3-linux-aarch64.tar.gz"
    assert make_dist.archive_name().startswith(f"autofuse-studio-{__version__}-linux-")


def test_the_archive_holds_bundle_entry_icon_and_readme(fake_bundle: Path, tmp_path: Path) -> None:
    archive = load_make_dist().pack(fake_bundle, tmp_path / "out", version="9.9", machine="x86_64")
    assert archive.name == "autofuse-studio-9.9-linux-x86_64.tar.gz"
    assert not list(archive.parent.glob("*.partial"))
    with tarfile.open(archive) as packed:
        members = {member.name: member for member in packed.getmembers()}
        top = "autofuse-studio-9.9"
        for name in ("autofuse-studio/autofuse-studio", "autofuse-studio.desktop", "autofuse-studio.png",
                     "autofuse-studio.svg", "README.txt", "system_deps.sh"):
            assert f"{top}/{name}" in members
        assert {member.name.split("/")[0] for member in members.values()} == {top}  # one folder
        executable = members[f"{top}/autofuse-studio/autofuse-studio"]
        assert executable.mode & stat.S_IXUSR and members[f"{top}/system_deps.sh"].mode & stat.S_IXUSR
        link = members[f"{top}/autofuse-studio/_internal/libQt6Core.so.6"]
        assert link.issym() and link.linkname == "PySide6/libQt6Core.so.6"
        assert {(member.uid, member.uname) for member in members.values()} == {(0, "")}
        readme = packed.extractfile(f"{top}/README.txt").read().decode()  # type: ignore[union-attr]
        packed.extractall(tmp_path / "unpacked", filter="data")  # what check_dist does
    assert "./autofuse-studio/autofuse-studio desktop install" in readme
    assert "Autofuse Studio 9.9 for Linux x86_64" in readme
    entry = tmp_path / "unpacked" / top / "autofuse-studio.desktop"
    assert "Exec=autofuse-studio %F" in entry.read_text(encoding="utf-8").splitlines()
    if VALIDATE:
        done = subprocess.run([VALIDATE, str(entry)], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    unpacked = tmp_path / "unpacked" / top / "autofuse-studio" / "autofuse-studio"
    assert subprocess.run([str(unpacked)], capture_output=True, text=True, check=True).stdout.strip() == "Autofuse Studio"


def test_make_dist_and_ci_build_and_check_the_release() -> None:
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    assert "dist: $(STAMP)\n\t$(BIN)/python packaging/make_dist.py" in makefile
    steps = [line for line in (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#")]
    assert steps[-3:] == ["make dist", ".venv/bin/python packaging/check_dist.py", "make test"]
