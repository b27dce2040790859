"""Benchmark: the full tensor view of a 100M-element fp16 pair vs np.load of both + one float64 conversion.

Each side runs in a fresh subprocess that prints its wall time and VmHWM (peak RSS, from /proc), so the
two peaks do not mix. Run with `pytest -m bench tests/bench/test_bench_tensor_view.py -s`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.bench

ELEMENTS = int(os.environ.get("TENSOR_VIEW_BENCH_ELEMENTS", 100_000_000))
SHAPE = (ELEMENTS // (64 * 160 * 160), 64, 160, 160)

_PEAK = (
    "def peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith(('VmHWM', 'RssAnon')):\n"
    "            yield line.split(':')[0], int(line.split()[1]) // 1024\n"
)
BASELINE = _PEAK + (
    "import json, sys, time\nimport numpy as np\nstart = time.perf_counter()\n"
    "a = np.load(sys.argv[1]); b = np.load(sys.argv[2]); a64 = a.astype(np.float64)\n"
    "print(json.dumps({'seconds': time.perf_counter() - start, **dict(peak())}))\n"
)
VIEW = _PEAK + (
    "import json, sys, time\n"
    "from autofuse_studio.core.precision.tensor_view import view_files\nstart = time.perf_counter()\n"
    "pair, view = view_files(sys.argv[1], sys.argv[2])\n"
    "assert view.fused_stats.elements == pair.size\n"
    "print(json.dumps({'seconds': time.perf_counter() - start, **dict(peak())}))\n"
)


def _generate(tmp_path: Path) -> tuple[Path, Path]:
    paths = tmp_path / "fused.npy", tmp_path / "origin.npy"
    rng = np.random.default_rng(0)
    for path, noise in zip(paths, (1e-3, 0.0), strict=True):
        array = np.lib.format.open_memmap(path, mode="w+", dtype=np.float16, shape=SHAPE)
        for n in range(SHAPE[0]):  # chunk by chunk: the generator must not need 800 MB itself
            chunk = rng.standard_normal(SHAPE[1:], dtype=np.float32)
            array[n] = chunk + noise * rng.standard_normal(SHAPE[1:], dtype=np.float32) if noise else chunk
        array.flush()
        del array
    return paths


def _run(script: str, paths: tuple[Path, Path]) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", script, *map(str, paths)], capture_output=True, text=True,
                         check=True)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_bench_tensor_view(tmp_path: Path) -> None:
    paths = _generate(tmp_path)
    _run(BASELINE, paths)  # warm the page cache so both sides read from memory
    baseline = _run(BASELINE, paths)
    view = _run(VIEW, paths)
    elements = SHAPE[0] * SHAPE[1] * SHAPE[2] * SHAPE[3]
    print(f"\ntensor view of {elements / 1e6:.0f}M fp16 elements: {view['seconds']:.2f} s, peak RSS "
          f"{view['VmHWM']} MB (anon at end {view['RssAnon']} MB)")
    print(f"baseline np.load x2 + float64: {baseline['seconds']:.2f} s, peak RSS {baseline['VmHWM']} MB")
    print(f"ratio time {view['seconds'] / baseline['seconds']:.2f}x, "
          f"peak memory {view['VmHWM'] / baseline['VmHWM']:.2f}x")
    assert view["RssAnon"] < baseline["VmHWM"]
