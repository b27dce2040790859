"""docs/signatures.md (issue 31): a short section per signature code, each with a tensor-panel picture that
exists (packaging/signature_pictures.py writes them), and nwa.md links to the page."""

from __future__ import annotations

import re

from autofuse_studio.core.messages import SIGNATURES

from .conftest import REPO_ROOT

DOCS = REPO_ROOT / "docs"


def _sections() -> dict[str, str]:
    """'## `code`' heading -> the section's text."""
    text = (DOCS / "signatures.md").read_text(encoding="utf-8")
    parts = re.split(r"^## `([a-z_]+)`\n", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def test_every_code_has_a_section_with_a_picture() -> None:
    sections = _sections()
    assert set(sections) == set(SIGNATURES)
    for code, section in sections.items():
        picture = f"images/signature-{code}.png"
        assert f"]({picture})" in section, f"the {code} section shows no {picture}"
        path = DOCS / picture
        assert path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
        assert path.stat().st_size < 100_000, f"{path.name} is not small"


def test_the_c0_transform_and_the_link_from_nwa() -> None:
    assert "c0_blocks" in _sections()["layout_permutation"]
    assert "](signatures.md)" in (DOCS / "nwa.md").read_text(encoding="utf-8")
