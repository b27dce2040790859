"""Architecture rules: core never loads Qt, every module has a docstring."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import autofuse_studio
import autofuse_studio.core

PACKAGE_ROOT = Path(autofuse_studio.__file__).parent


def _core_modules() -> list[str]:
    return [
        info.name
        for info in pkgutil.walk_packages(autofuse_studio.core.__path__, "autofuse_studio.core.")
    ]


def test_core_never_loads_qt() -> None:
    modules = _core_modules()
    assert len(modules) > 5
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')"
        " or m.startswith('autofuse_studio.ui'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core imported Qt/ui modules: {out.stdout}"


def test_cli_help_does_not_load_qt() -> None:
    script = (
        "import sys\nfrom autofuse_studio import cli\n"
        "try:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(any(m.startswith('PySide6') for m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith("False")


def test_every_module_has_a_docstring() -> None:
    missing = [
        str(path.relative_to(PACKAGE_ROOT))
        for path in PACKAGE_ROOT.rglob("*.py")
        if ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) is None
    ]
    assert missing == []
