"""Build the PyInstaller onedir bundle dist/autofuse-studio/ and report build time and size."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "autofuse_studio.spec"
NAME = "autofuse-studio"
BUILD_INFO = "build-info.json"


def bundle_size(folder: Path) -> int:
    """Total size in bytes of the regular files under folder (symlinks are not counted twice)."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def write_build_info(folder: Path, started_at: float, elapsed: float) -> None:
    """Record when the build began: sources changed after that may be missing from the bundle."""
    info = {"started_at": started_at, "seconds": round(elapsed, 1), "python": sys.version.split()[0]}
    (folder / BUILD_INFO).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")


def pyinstaller_argv(dist: Path, work: Path, clean: bool) -> list[str]:
    """The PyInstaller command line, run with this interpreter so the venv's packages are bundled."""
    argv = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN"]
    argv += ["--distpath", str(dist), "--workpath", str(work)]
    if clean:
        argv.append("--clean")
    return [*argv, str(SPEC)]


def smoke_test(executable: Path) -> str | None:
    """Run `<bundle> --version`; returns an error sentence, or None when the bundle answers."""
    sys.path.insert(0, str(ROOT / "app"))
    from autofuse_studio import __version__

    try:
        done = subprocess.run(
            [str(executable), "--version"], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"The bundle did not run: {exc}."
    if done.returncode != 0 or __version__ not in done.stdout:
        return f"`{executable.name} --version` failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Build the bundle; returns 0 on success and non-zero when PyInstaller or the smoke test fails."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller", help="work folder")
    parser.add_argument("--clean", action="store_true", help="drop PyInstaller's cached analysis first")
    parser.add_argument("--no-smoke", action="store_true", help="skip running the bundle with --version")
    options = parser.parse_args(argv)
    start = time.perf_counter()
    started_at = time.time()
    # The package is importable from app/ even without the editable install.
    python_path = [str(ROOT / "app"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(python_path)}
    code = subprocess.call(pyinstaller_argv(options.dist, options.work, options.clean), cwd=ROOT, env=env)
    elapsed = time.perf_counter() - start
    folder = options.dist / NAME
    executable = folder / NAME
    if code != 0 or not executable.is_file():
        print(f"build_bundle: PyInstaller failed (exit {code}) after {elapsed:.0f} s.", file=sys.stderr)
        return code or 1
    write_build_info(folder, started_at, elapsed)
    print(f"build_bundle: built {folder} in {elapsed:.1f} s, {bundle_size(folder) / 1e6:.0f} MB")
    fonts = sorted(path.name for path in (folder / "_internal" / "resources" / "fonts").glob("*"))
    print(f"build_bundle: CJK font for the Chinese UI: {', '.join(fonts) if fonts else 'none'}"
          + ("" if fonts else " (install fonts-noto-cjk on the build machine, or set AUTOFUSE_CJK_FONT)"))
    if not options.no_smoke:
        problem = smoke_test(executable)
        if problem:
            print(f"build_bundle: {problem}", file=sys.stderr)
            return 1
        print("build_bundle: smoke test passed (--version)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
