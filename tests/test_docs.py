"""docs/: the notebook example runs as written, and the README points at the new pages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO_ROOT

DOCS = REPO_ROOT / "docs"


def python_blocks(page: Path) -> list[str]:
    """The ```python blocks of a Markdown page, in order."""
    return re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)


def test_the_api_example_runs_cell_by_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the example writes its NPYs, logs and exports into the working folder
    namespace: dict[str, Any] = {}
    blocks = python_blocks(DOCS / "api-example.md")
    assert len(blocks) >= 8
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"docs/api-example.md cell {number}", "exec"), namespace)
    assert namespace["first"].fused_op == "autofuse_3_Mul_Add"
    assert len(namespace["strict"].culprits) > len(namespace["result"].culprits)
    assert namespace["pair"].passed is False
    assert len(namespace["att"]) == 1 and namespace["att"].rows[0].case == 1
    assert (tmp_path / "precision.xlsx").is_file()


def test_the_api_reference_names_every_public_function() -> None:
    from autofuse_studio import api

    reference = (DOCS / "api.md").read_text(encoding="utf-8")
    for name in api.__all__:
        assert re.search(rf"`(api\.)?{name}\b", reference), f"docs/api.md does not describe {name}"


@pytest.mark.parametrize("page", ["api.md", "api-example.md", "desktop.md"])
def test_the_readme_points_at_the_page(page: str) -> None:
    assert (DOCS / page).is_file()
    assert f"docs/{page}" in (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_is_short_and_every_link_resolves() -> None:
    import re

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 12 * 1024
    assert "make run" in readme and "make test" in readme
    pages = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.name} -> {target}")
    assert broken == []
