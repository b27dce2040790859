"""Mode 2 benchmark: two 50M-element fp16 NPYs, ours vs the reference algorithm, in fresh processes.

Prints wall-time and peak-memory ratios (targets: time <= 0.2x, memory <= 0.15x of the reference).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.bench

ELEMENTS = 50_000_000

# VmHWM (peak resident set of this process image) rather than ru_maxrss, which a child inherits from
# the parent at fork time and would charge pytest's own memory to both contenders.
PEAK = "int([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])"

REFERENCE = """
import json, sys, time
import numpy as np
start = time.perf_counter()
a = np.load(sys.argv[1]); b = np.load(sys.argv[2])
a = a.flatten().astype(np.float64); b = b.flatten().astype(np.float64)
cosine = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-8))
diff = np.abs(a - b)
max_abs = float(np.max(diff))
max_rel = float(np.max(diff / (np.maximum(np.abs(a), np.abs(b)) + 1e-8)))
print(json.dumps({"seconds": time.perf_counter() - start, "peak_kb": PEAK_EXPR,
                  "cosine": cosine, "max_abs": max_abs, "max_rel": max_rel}))
"""

OURS = """
import json, sys, time
from pathlib import Path
from autofuse_studio.core.precision.engine import run_mode2
start = time.perf_counter()
outcome = run_mode2(Path(sys.argv[1]), Path(sys.argv[2]))
m = outcome.metrics
print(json.dumps({"seconds": time.perf_counter() - start, "peak_kb": PEAK_EXPR,
                  "cosine": m.cosine, "max_abs": m.max_abs_err, "max_rel": m.max_rel_err}))
"""

IDLE = """
import json
import numpy as np
from autofuse_studio.core.precision import engine
print(json.dumps({"peak_kb": PEAK_EXPR}))
"""


def _run(script: str, *args: str) -> dict[str, float]:
    script = script.replace("PEAK_EXPR", PEAK)
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_mode2_50m_fp16(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal(ELEMENTS, dtype=np.float32).astype(np.float16)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", (a + np.float16(0.01)).astype(np.float16))
    del a
    files = (str(tmp_path / "a.npy"), str(tmp_path / "b.npy"))
    _run(OURS, *files)  # warm the page cache for both contenders
    reference = min((_run(REFERENCE, *files) for _ in range(2)), key=lambda r: r["seconds"])
    ours = min((_run(OURS, *files) for _ in range(3)), key=lambda r: r["seconds"])
    idle = _run(IDLE)
    time_ratio = ours["seconds"] / reference["seconds"]
    memory_ratio = ours["peak_kb"] / reference["peak_kb"]
    print(f"\nmode 2, 2 x {ELEMENTS:,} fp16: reference {reference['seconds']:.2f} s, "
          f"{reference['peak_kb'] / 1024:.0f} MB peak; ours {ours['seconds']:.2f} s, {ours['peak_kb'] / 1024:.0f} MB peak "
          f"(interpreter + imports alone: {idle['peak_kb'] / 1024:.0f} MB)")
    print(f"time ratio {time_ratio:.3f} (target <= 0.2), peak memory ratio {memory_ratio:.3f} (target <= 0.15)")
    assert abs(ours["cosine"] - reference["cosine"]) < 1e-6
    assert ours["max_abs"] == pytest.approx(reference["max_abs"], rel=1e-6)
    assert ours["max_rel"] == pytest.approx(reference["max_rel"], rel=1e-6)
    assert time_ratio <= 0.2, f"mode 2 wall time ratio {time_ratio:.3f} > 0.2"
    assert memory_ratio <= 0.15, f"mode 2 peak memory ratio {memory_ratio:.3f} > 0.15"
