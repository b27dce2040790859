"""A child-process environment whose fontconfig knows only DejaVu Sans, and a settings file choosing Chinese."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

FC_MATCH, FC_LIST = shutil.which("fc-match"), shutil.which("fc-list")


def font_file(argv: list[str]) -> Path | None:
    """The first font file an fc-match / fc-list command line prints (the machine's own configuration)."""
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    lines = [line.rstrip(": ") for line in done.stdout.splitlines() if line.strip()]
    return Path(lines[0]) if lines and Path(lines[0]).is_file() else None


def system_cjk_font() -> Path | None:
    """A font file with Chinese glyphs installed on this machine, if any."""
    return font_file([FC_LIST, ":lang=zh-cn", "file"]) if FC_LIST else None


def no_cjk_environment(folder: Path) -> dict[str, str]:
    """os.environ plus FONTCONFIG_FILE naming a fonts.conf (in folder) that lists one folder holding DejaVu Sans.

    fontconfig reads its configuration once per process, so only child processes can use it.
    """
    dejavu = font_file([FC_MATCH, "-f", "%{file}\n", "DejaVu Sans"]) if FC_MATCH else None
    if dejavu is None or "DejaVu" not in dejavu.name:
        pytest.skip("fontconfig or DejaVu Sans (fonts-dejavu-core) is not installed")
    fonts = folder / "fonts"
    fonts.mkdir(parents=True)
    shutil.copy(dejavu, fonts / dejavu.name)
    conf = folder / "fonts.conf"
    conf.write_text(f'<?xml version="1.0"?>\n<fontconfig>\n  <dir>{fonts}</dir>\n'
                    f"  <cachedir>{folder / 'cache'}</cachedir>\n</fontconfig>\n", encoding="utf-8")
    return {**os.environ, "FONTCONFIG_FILE": str(conf), "QT_QPA_PLATFORM": "offscreen"}


def chinese_settings(config_home: Path) -> dict[str, str]:
    """Write app settings choosing the Chinese UI under config_home; returns the XDG_CONFIG_HOME variable."""
    folder = config_home / "AutofuseStudio"
    folder.mkdir(parents=True)
    (folder / "Autofuse Studio.conf").write_text("[ui]\nlanguage=zh_CN\n", encoding="utf-8")
    return {"XDG_CONFIG_HOME": str(config_home)}
