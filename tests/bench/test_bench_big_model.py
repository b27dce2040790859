"""Big model, mode 1 end to end: 20k fused ops, 100k original ops, ~148k tiny NPYs, as whole processes.

Baseline: a fresh interpreter that only json.loads the two graph files (time and peak memory). Ours: a
fresh `autofuse-studio nwa ... --output result.json` on the same case. Measured on the graphs as the
generator writes them (indented, like atc) and rewritten compactly (less text for json.load to scan, the
same work for us). Targets: <= 1.0x the wall time and <= 1.0x the peak memory of the baseline.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest

from tests.synth import CaseManifest, CaseSpec, generate_case

pytestmark = pytest.mark.bench

FUSED = int(os.environ.get("BIG_MODEL_FUSED", "20000"))
_BASELINE = (
    "import json, sys\n"
    "documents = [json.load(open(path, encoding='utf-8')) for path in sys.argv[1:]]\n"
)
_PEAK = "VmHWM"


def _run(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of a fresh process (GNU time is not everywhere: read /proc)."""
    wrapper = (
        "import runpy, sys, atexit\n"
        "def peak():\n"
        "    line = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
        "    sys.stderr.write('PEAK ' + line.split()[1] + '\\n')\n"
        "atexit.register(peak)\n"
        "sys.argv = sys.argv[1:]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__') if sys.argv[0].endswith('.py') else "
        "runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n"
    )
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", wrapper, *argv], capture_output=True, text=True, check=False,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    elapsed = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-2000:]
    peak = next(float(line.split()[1]) / 1024 for line in done.stderr.splitlines() if line.startswith("PEAK "))
    return elapsed, peak


def _ours(root: Path, manifest: CaseManifest, out: Path) -> tuple[float, float]:
    return _run(["autofuse_studio", "nwa", "--af-open-graph", str(root / manifest.graphs["af_open"]),
                 "--af-close-graph", str(root / manifest.graphs["af_close"]),
                 "--af-open-data", str(root / manifest.data["af_open"]),
                 "--af-close-data", str(root / manifest.data["af_close"]), "--output", str(out)])


def _baseline(root: Path, manifest: CaseManifest, tmp_path: Path) -> tuple[float, float]:
    script = tmp_path / "baseline.py"
    script.write_text(_BASELINE, encoding="utf-8")
    return _run([str(script), str(root / manifest.graphs["af_open"]), str(root / manifest.graphs["af_close"])])


def _compact(root: Path, manifest: CaseManifest) -> None:
    for side in ("af_open", "af_close"):
        path = root / manifest.graphs[side]
        path.write_bytes(msgspec.json.encode(msgspec.json.decode(path.read_bytes())))


def test_big_model_against_json_load(tmp_path: Path) -> None:
    spec = CaseSpec(seed=5, n_fused=FUSED, elements=8, dtype="float16", steps=1, chains=max(1, FUSED // 6),
                    culprit=FUSED // 2, description="big model: tiny tensors, many files")
    root = tmp_path / "case"
    start = time.perf_counter()
    manifest = generate_case(root, spec)
    print(f"\nbig model: {manifest.extra['fused_ops']} fused ops, {manifest.extra['original_ops']} original ops, "
          f"{manifest.npy_files} NPYs (generated in {time.perf_counter() - start:.0f} s)")
    failures = []
    for form in ("indented", "compact"):
        if form == "compact":
            _compact(root, manifest)
        size = sum((root / manifest.graphs[side]).stat().st_size for side in ("af_open", "af_close")) / 2**20
        runs = [(_baseline(root, manifest, tmp_path), _ours(root, manifest, tmp_path / f"{form}.json"))
                for _ in range(2)]
        base_time, base_peak = min(run[0][0] for run in runs), min(run[0][1] for run in runs)
        our_time, our_peak = min(run[1][0] for run in runs), min(run[1][1] for run in runs)
        print(f"  {form} graphs ({size:.0f} MB): json.load {base_time:.2f} s / {base_peak:.0f} MiB, ours "
              f"{our_time:.2f} s / {our_peak:.0f} MiB; ratio time {our_time / base_time:.2f}x, "
              f"peak {our_peak / base_peak:.2f}x (targets <= 1.0x)")
        document = json.loads((tmp_path / f"{form}.json").read_text(encoding="utf-8"))
        assert document["first_divergence"]["fused_op"] == manifest.first_divergence["fused_op"]  # type: ignore[index]
        if our_time > base_time or our_peak > base_peak:
            failures.append(form)
    assert not failures, f"targets missed on {failures}"
