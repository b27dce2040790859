"""The two ATT line scanners a test can run on: the C line scanner and the regex fallback."""

from __future__ import annotations

import pytest

from autofuse_studio.core.att import scanner

SCAN_PATHS = ["native", "regex"]


def use_scan_path(path: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """Make the scanner use `path` for this test (skipped when the C scanner is not built); returns the path."""
    if path == "native":
        if scanner._LINESCAN is None:
            pytest.skip("the C line scanner (_linescan) is not built")
        monkeypatch.delenv(scanner.NATIVE_DISABLE_ENV, raising=False)
    else:
        monkeypatch.setattr(scanner, "_LINESCAN", None)
    return path
