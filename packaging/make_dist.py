"""`make dist`: the onedir bundle packed as dist/autofuse-studio-<version>-linux-<arch>.tar.gz, plus wheel and sdist.

The archive holds one folder, autofuse-studio-<version>/, with the bundle (autofuse-studio/), the desktop entry,
the icon, packaging/system_deps.sh and a short README.txt with the install line.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tarfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
sys.path.insert(0, str(ROOT / "packaging"))

from autofuse_studio import __version__  # noqa: E402  (after the path is set)
from autofuse_studio.core.desktop import desktop_entry  # noqa: E402
from autofuse_studio.core.resources import APP_ID  # noqa: E402

BUNDLE = ROOT / "dist" / APP_ID
# gzip level 6: 0.5% larger than level 9 on the bundle (97.6 vs 97.1 MB), in a third of the time (13 vs 41 s).
COMPRESSION = 6

README = """Autofuse Studio {version} for Linux {arch}
=================================={underline}

A desktop workbench and command line for debugging Huawei Ascend CANN Autofuse: which fused operator broke
precision (drop-in for fusion_precision_analyzer.py) and ATT tiling log analysis (drop-in for att.py).
Self-contained: no Python needed. Keep the autofuse-studio/ folder whole; the executable alone does not run.

  ./autofuse-studio/autofuse-studio                   open the desktop app (add dump folders, graphs or *.afcase)
  ./autofuse-studio/autofuse-studio --help            the command line: nwa, att, report, hosts, desktop

Install into your application menu (for you only, under ~/.local/share; *.afcase files then open with a
double-click; run it again after moving this folder, `desktop uninstall` removes it):

  ./autofuse-studio/autofuse-studio desktop install

The app needs the Qt runtime libraries a Linux desktop has; on a bare Debian/Ubuntu machine
`sh system_deps.sh` names the missing packages (run as root, it installs them).
Headless check: QT_QPA_PLATFORM=offscreen ./autofuse-studio/autofuse-studio --self-check
"""


def archive_name(version: str = __version__, machine: str | None = None) -> str:
    """autofuse-studio-<version>-linux-<arch>.tar.gz (arch as `uname -m` prints it: x86_64, aarch64)."""
    return f"{APP_ID}-{version}-linux-{machine or platform.machine().lower()}.tar.gz"


def _normalised(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """Owner root, no user names: the archive does not reveal who built it."""
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def _text_member(name: str, text: str, mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    data = text.encode("utf-8")
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), mode, int(time.time())
    return info, data


def pack(bundle: Path, out_dir: Path, version: str = __version__, machine: str | None = None) -> Path:
    """Write the release archive of `bundle` into out_dir (atomically) and return its path."""
    import io

    machine = machine or platform.machine().lower()
    top = f"{APP_ID}-{version}"
    target = out_dir / archive_name(version, machine)
    partial = target.with_name(target.name + ".partial")
    resources = bundle / "_internal" / "resources"
    template = (resources / "desktop" / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    readme = README.format(version=version, arch=machine, underline="=" * (len(version) + len(machine)))
    out_dir.mkdir(parents=True, exist_ok=True)
    with tarfile.open(partial, "w:gz", compresslevel=COMPRESSION) as archive:
        archive.add(bundle, arcname=f"{top}/{APP_ID}", filter=_normalised)
        # For packagers who put the executable on PATH; `desktop install` writes the user's own entry.
        members = [_text_member(f"{top}/{APP_ID}.desktop", desktop_entry(template, [APP_ID])),
                   _text_member(f"{top}/README.txt", readme),
                   _text_member(f"{top}/system_deps.sh", (ROOT / "packaging" / "system_deps.sh").read_text(), 0o755)]
        for info, data in members:
            archive.addfile(_normalised(info), io.BytesIO(data))
        for name in (f"{APP_ID}-256.png", f"{APP_ID}.svg"):
            archive.add(resources / "icons" / name, arcname=f"{top}/{name.replace('-256', '')}", filter=_normalised)
    os.replace(partial, target)
    return target


def build_python_dists(out_dir: Path) -> int:
    """The sdist and the wheel built from it, with `python -m build` (isolated: the declared build deps)."""
    return subprocess.call([sys.executable, "-m", "build", "--quiet", "--outdir", str(out_dir), str(ROOT)])


def main(argv: Sequence[str] | None = None) -> int:
    """Build the bundle (unless --skip-bundle), pack it, then the wheel and sdist (unless --no-wheel)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-bundle", action="store_true", help="pack the existing dist/autofuse-studio/")
    parser.add_argument("--no-wheel", action="store_true", help="skip the wheel and sdist")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    options = parser.parse_args(argv)
    if not options.skip_bundle:
        import build_bundle

        code = build_bundle.main([])
        if code:
            return code
    if not (BUNDLE / APP_ID).is_file():
        print(f"make_dist: no bundle in {BUNDLE}; run `make bundle` first.", file=sys.stderr)
        return 1
    started = time.perf_counter()
    archive = pack(BUNDLE, options.out)
    print(f"make_dist: {archive} ({archive.stat().st_size / 1e6:.0f} MB, {time.perf_counter() - started:.0f} s)")
    if options.no_wheel:
        return 0
    code = build_python_dists(options.out)
    for path in sorted(options.out.glob(f"autofuse_studio-{__version__}*")):
        print(f"make_dist: {path} ({path.stat().st_size / 1e6:.1f} MB)")
    return code


if __name__ == "__main__":
    sys.exit(main())
