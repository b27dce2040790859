"""packaging/system_deps.sh: one package list, checked fast, installed as root, else the exact command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import REPO_ROOT

SCRIPT = REPO_ROOT / "packaging" / "system_deps.sh"
SH = shutil.which("sh") or "/bin/sh"
LIBGLIB = "libglib-2.0.so.0"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script")


def wanted_packages(*, ci: bool = False) -> list[str]:
    """The package names (first alternative) the script lists, read from the script itself."""
    text = SCRIPT.read_text(encoding="utf-8")
    runtime = text.split('QT_RUNTIME="', 1)[1].split('"', 1)[0].split()
    names = [entry.split(":")[0].split("|")[0] for entry in runtime]
    if ci:
        names += [entry.rstrip(":") for entry in text.split('CI_EXTRA="', 1)[1].split('"', 1)[0].split()]
    return names


class Stubs:
    """A PATH holding only fake id/uname/dpkg-query/apt-get/apt-cache/ldconfig commands that log their calls."""

    def __init__(self, root: Path) -> None:
        self.bin = root / "bin"
        self.bin.mkdir()
        self.calls = root / "calls.log"
        self.calls.touch()

    def command(self, name: str, body: str) -> None:
        """A fake `name` that logs its argv, then runs `body` (sh)."""
        path = self.bin / name
        path.write_text(f'#!{SH}\necho "{name} $*" >> {self.calls}\n{body}\n', encoding="utf-8")
        path.chmod(0o755)

    def debian(self, installed: list[str], uid: int = 0) -> None:
        """A Debian system with `installed` packages, running as `uid`."""
        self.command("id", f"echo {uid}")
        self.command("uname", "echo Linux")
        listing = " ".join(f"{name}=ii " for name in installed)
        self.command("dpkg-query", f"printf '%s' '{listing}'")
        self.command("apt-get", "exit 0")
        # apt knows every name except the t64 renames (a bookworm-like system).
        self.command("apt-cache", 'case "$3" in *t64) exit 100;; esac; exit 0')

    def run(self, *args: str, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
        """Run the script with only the stubs on PATH."""
        env = {"PATH": str(self.bin), "PYTHON": python, "HOME": str(self.bin.parent)}
        return subprocess.run([SH, str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=60,
                              check=False)

    def logged(self, name: str) -> list[str]:
        """The logged argument lines of `name`."""
        return [line[len(name) + 1:] for line in self.calls.read_text().splitlines() if line.startswith(name + " ")]


@pytest.fixture
def stubs(tmp_path: Path) -> Stubs:
    return Stubs(tmp_path)


def test_nothing_is_done_when_everything_is_installed(stubs: Stubs) -> None:
    stubs.debian(wanted_packages(), uid=1000)
    started = time.perf_counter()
    done = stubs.run()
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert time.perf_counter() - started < 5
    assert stubs.logged("apt-get") == []
    assert len(stubs.logged("dpkg-query")) == 1  # one query for the whole list


def test_a_user_is_told_the_exact_command(stubs: Stubs) -> None:
    have = [name for name in wanted_packages() if name not in ("libegl1", "libxcb-cursor0")]
    stubs.debian(have, uid=1000)
    done = stubs.run()
    assert done.returncode == 1
    assert done.stderr.strip().endswith("sudo apt-get install -y --no-install-recommends libegl1 libxcb-cursor0")
    assert len(done.stderr.strip().splitlines()) == 1
    assert stubs.logged("apt-get") == []


def test_root_installs_what_is_missing(stubs: Stubs) -> None:
    stubs.debian([name for name in wanted_packages() if name != "libgl1"], uid=0)
    done = stubs.run()
    assert done.returncode == 0, done.stderr
    assert stubs.logged("apt-get") == ["update -qq", "install -y -qq --no-install-recommends libgl1"]


def test_either_name_of_a_renamed_library_counts_and_apt_gets_the_one_it_knows(stubs: Stubs) -> None:
    # Debian 13 and Ubuntu 24.04 call it libglib2.0-0t64; bookworm's apt only knows libglib2.0-0.
    glib = "libglib2.0-0t64"
    assert glib in wanted_packages()
    others = [name for name in wanted_packages() if name != glib]
    for name in (glib, "libglib2.0-0"):
        stubs.debian([*others, name], uid=1000)
        assert stubs.run().returncode == 0
    stubs.debian(others, uid=0)
    assert stubs.run().returncode == 0
    assert stubs.logged("apt-get")[-1].endswith("--no-install-recommends libglib2.0-0")


def test_ci_adds_the_build_tools(stubs: Stubs) -> None:
    stubs.debian(wanted_packages(), uid=1000)
    done = stubs.run("--ci")
    assert done.returncode == 1
    for name in ("cmake", "fonts-noto-cjk", "desktop-file-utils", "openssh-server"):
        assert name in done.stderr
    stubs.debian(wanted_packages(ci=True), uid=1000)
    assert stubs.run("--ci").returncode == 0


def test_python_without_venv_support_asks_for_python3_venv(stubs: Stubs, tmp_path: Path) -> None:
    stubs.debian(wanted_packages(), uid=1000)
    broken = tmp_path / "python"
    broken.write_text(f"#!{SH}\nexit 1\n", encoding="utf-8")
    broken.chmod(0o755)
    done = stubs.run(python=str(broken))
    assert done.returncode == 1
    assert done.stderr.strip().endswith("python3 python3-venv")


def test_other_systems_are_told_what_is_missing_and_never_fail(stubs: Stubs) -> None:
    stubs.command("id", "echo 1000")
    stubs.command("uname", "echo Linux")
    stubs.command("ldconfig", f"printf '\\tlibEGL.so.1 (libc6,x86-64) => /lib/libEGL.so.1\\n\\t{LIBGLIB} (x) => /x\\n'")
    done = stubs.run()
    assert done.returncode == 0
    assert "libGL.so.1" in done.stderr and LIBGLIB not in done.stderr and "libEGL.so.1" not in done.stderr
    stubs.command("uname", "echo Darwin")
    assert stubs.run().stderr == ""


def test_the_step_can_be_skipped(stubs: Stubs) -> None:
    stubs.debian([], uid=1000)
    env = {"PATH": str(stubs.bin), "AUTOFUSE_SKIP_SYSTEM_DEPS": "1"}
    done = subprocess.run([SH, str(SCRIPT)], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0


def test_make_and_ci_use_the_same_step() -> None:
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "system_deps.sh --ci" in ci
    assert "apt-get" not in ci and "libegl1" not in ci  # no second copy of the list
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # Not the flags of a `make test` this may run under (they would add "Entering directory" lines).
    env = {key: value for key, value in os.environ.items() if key not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    for target in ("run", "test"):
        plan = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=REPO_ROOT, capture_output=True,
                              text=True, env=env, check=True)
        first = plan.stdout.splitlines()[0]
        assert "packaging/system_deps.sh" in first, plan.stdout
