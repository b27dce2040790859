"""Evidence lines are cut out of each block at the newlines numpy finds: the same texts as splitting every block."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core.att import scanner
from autofuse_studio.core.att.runs.evidence_text import _file_lines, clip
from autofuse_studio.core.progress import NEVER_CANCELLED


def split_lines(path: Path, wanted: list[int]) -> dict[int, str]:
    """The former reading: every block with a wanted line split into all of its lines."""
    found: dict[int, str] = {}
    first, index = 1, 0
    for block in scanner.iter_blocks(path):
        count = block.count(b"\n") + (0 if block.endswith(b"\n") else 1)
        last = first + count - 1
        if index < len(wanted) and wanted[index] <= last:
            lines = block.split(b"\n")
            while index < len(wanted) and wanted[index] <= last:
                found[wanted[index]] = clip(lines[wanted[index] - first].decode("utf-8", "replace").rstrip("\r"))
                index += 1
        first = last + 1
    return found


def random_log(rng: np.random.Generator) -> bytes:
    lines = []
    for _ in range(int(rng.integers(1, 400))):
        kind = rng.integers(6)
        text = "" if kind == 0 else "x" * int(rng.integers(1, 3000)) if kind == 1 else \
            f"[PROF] op{int(rng.integers(99))} 中文 {rng.standard_normal():.3f}"
        lines.append(text.encode() + (b"\r\n" if kind == 2 else b"\n"))
    data = b"".join(lines)
    return data[:-1] if rng.integers(2) else data  # with or without a last newline


@pytest.mark.parametrize("seed", range(40))
def test_cut_lines_equal_split_lines(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(scanner, "BLOCK_SIZE", int(rng.choice([64, 500, 4096, 1 << 20])))
    path = tmp_path / "att.log"
    path.write_bytes(random_log(rng))
    data = path.read_bytes()
    total = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    wanted = sorted({int(line) for line in rng.integers(1, total + 1, size=int(rng.integers(1, 30)))})
    assert _file_lines(str(path), wanted, NEVER_CANCELLED) == split_lines(path, wanted)
    assert set(_file_lines(str(path), wanted, NEVER_CANCELLED)) == set(wanted)
