"""Regenerate the UI translations: pyside6-lupdate (sources -> .ts), then pyside6-lrelease (.ts -> .qm).

Run from anywhere: `.venv/bin/python resources/translations/update_translations.py`. Translate new
strings in the .ts with Qt Linguist (`.venv/bin/pyside6-linguist resources/translations/*.ts`), run the
script again, and commit both the .ts and the .qm files.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LANGUAGES = ("zh_CN",)


def _tool(name: str) -> str:
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else name


def main() -> int:
    """Update every .ts from the UI sources and compile it."""
    sources = sorted(str(path.relative_to(REPO)) for path in (REPO / "app" / "autofuse_studio" / "ui").rglob("*.py"))
    for language in LANGUAGES:
        ts_file = HERE / f"autofuse_studio_{language}.ts"
        subprocess.run([_tool("pyside6-lupdate"), *sources, "-ts", str(ts_file)], cwd=REPO, check=True)
        subprocess.run([_tool("pyside6-lrelease"), str(ts_file), "-qm", str(ts_file.with_suffix(".qm"))],
                       cwd=REPO, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
