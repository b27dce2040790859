"""docs/cli.md is what packaging/make_cli_docs.py writes from the current parsers."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT


def test_cli_reference_is_up_to_date(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("make_cli_docs", REPO_ROOT / "packaging" / "make_cli_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("XDG_CONFIG_HOME", "~/.config")  # render() sets these too; monkeypatch restores them
    monkeypatch.setenv("XDG_DATA_HOME", "~/.local/share")
    expected = module.render()
    current = Path(REPO_ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert current == expected, "docs/cli.md is stale: run `python packaging/make_cli_docs.py`\n" + "\n".join(difflib.unified_diff(current.splitlines(), expected.splitlines(), lineterm="", n=1))
    assert "## `autofuse-studio att analyze`" in current and "--rank" in current
