"""Check what `make dist` made as a user gets it: unpack the archive into a fresh folder and run it; pip-install
the wheel (dependencies from the package index) into a fresh venv and run both scripts. Used by .ci/run."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import venv
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

from make_dist import APP_ID, __version__, archive_name  # noqa: E402  (after the path is set)

TIMEOUT = 900


def _run(argv: list[str], cwd: Path, expect: str) -> str | None:
    """Run argv headless from cwd (never the checkout); an error sentence unless it exits 0 printing `expect`."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AUTOFUSE_STUDIO_FAIL_FAST": "1"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    shown = " ".join(Path(argv[0]).name if n == 0 else part for n, part in enumerate(argv))
    if done.returncode != 0 or expect not in done.stdout:
        return f"`{shown}` failed (exit {done.returncode}): {(done.stdout + done.stderr).strip()[-2000:]}"
    print(f"check_dist: `{shown}` ok: {done.stdout.strip().splitlines()[0]}")
    return None


def check_archive(archive: Path, scratch: Path) -> list[str]:
    """Unpack the release archive and run the bundle's --version and --self-check from the unpacked copy."""
    with tarfile.open(archive) as packed:
        packed.extractall(scratch, filter="data")  # refuses absolute paths and links leaving the folder
    top = scratch / f"{APP_ID}-{__version__}"
    executable = top / APP_ID / APP_ID
    problems = [f"{top.name}/{name} is missing from {archive.name}" for name in
                (f"{APP_ID}.desktop", f"{APP_ID}.png", f"{APP_ID}.svg", "README.txt", "system_deps.sh")
                if not (top / name).is_file()]
    for argv, expect in (([str(executable), "--version"], __version__),
                         ([str(executable), "--self-check"], "self-check: ok")):
        problem = _run(argv, scratch, expect)
        if problem:
            problems.append(problem)
    return problems


def check_wheel(wheel: Path, scratch: Path) -> list[str]:
    """pip-install the wheel with its dependencies into a fresh venv; run both scripts from it."""
    root = scratch / "venv"
    venv.create(root, with_pip=True)
    done = subprocess.run([str(root / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
                          capture_output=True, text=True, timeout=TIMEOUT, check=False)
    if done.returncode != 0:
        return [f"pip install {wheel.name} failed: {done.stderr.strip()[-2000:]}"]
    problems = []
    for argv, expect in (([str(root / "bin" / APP_ID), "--version"], __version__),
                         ([str(root / "bin" / f"{APP_ID}-gui"), "--self-check"], "self-check: ok")):
        problem = _run(argv, scratch, expect)
        if problem:
            problems.append(problem)
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """Check the archive and the wheel in dist/; returns 1 when anything failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="folder `make dist` wrote (default dist/)")
    parser.add_argument("--no-wheel", action="store_true", help="check only the archive")
    options = parser.parse_args(argv)
    archive = options.dist / archive_name()
    wheels = sorted(options.dist.glob(f"autofuse_studio-{__version__}-*.whl"))
    problems = [] if archive.is_file() else [f"no {archive}; run `make dist`"]
    if not options.no_wheel and not wheels:
        problems.append(f"no autofuse_studio-{__version__} wheel in {options.dist}; run `make dist`")
    with tempfile.TemporaryDirectory(prefix="check-dist-") as scratch:
        if archive.is_file():
            problems += check_archive(archive, Path(scratch) / "unpacked")
        if wheels and not options.no_wheel:
            problems += check_wheel(wheels[-1], Path(scratch))
    for problem in problems:
        print(f"check_dist: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
