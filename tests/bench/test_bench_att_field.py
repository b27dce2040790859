"""Benchmark: `att summary` on field-shaped logs, as whole processes, against a bare read-and-test-lines loop.

Each shape is 110-200 MB of 400 operators x 3 results x 3 groups x 4 cases with a different dressing:
noise density, prefix style, line length, exponent numbers, CRLF, [PERF] formulas, long [PROF] lines,
gzip. Both sides run in fresh interpreters started the same way, alternated (the machine is shared); each
reports its own peak RSS (VmHWM). A `-gz` shape is written gzip-compressed and its baseline reads it with
gzip.open (the bare loop a user would write for such a file).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.synth.att_log import SyntheticShape, write_synthetic_log

pytestmark = pytest.mark.bench

_GRID = {"operators": 400, "results": 3, "groups": 3, "cases": 4}
SHAPES = {
    # The existing benchmark's log: 45 fixed noise lines per case, records without prefix.
    "legacy": SyntheticShape(**_GRID, noise_per_case=45, noise_width=60),
    # The shape: ~10 slog lines around each record, every line with a GE prefix.
    "ge-10": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=10, prefix="ge", exponent_every=7),
    # Levels, modules and files vary, some lines bare; CRLF line ends.
    "mixed-10-crlf": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=10, prefix="mixed",
                                    exponent_every=5, crlf=True, seed=1),
    # Many short bare lines: the per-line cost of the baseline is at its lowest per byte.
    "dense-short": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=20, prefix="none", exponent_every=3),
    # Few long lines: the baseline barely touches the bytes, a byte-wise scan would lose.
    "sparse-long": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=2, prefix="ge", noise_width=520,
                                  exponent_every=11, seed=2),
    # Records dense among mid-length mixed lines.
    "mixed-3-wide": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=3, prefix="mixed", noise_width=160,
                                   seed=3),
    # The field log of issue 29: a [PERF] formula of 10-40 terms after about every 30 lines (35k of them).
    "perf-heavy": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=10, prefix="ge", exponent_every=7,
                                 perf_every=30, perf_terms=(10, 40), seed=4),
    # Long [PROF] records (800 characters of context after each) among few noise lines, CRLF line ends.
    "long-prof-crlf": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=2, prefix="mixed", prof_tail=800,
                                     exponent_every=5, crlf=True, seed=5),
    # The [PERF]-heavy log as .gz, mixed prefixes.
    "perf-heavy-gz": SyntheticShape(**_GRID, noise_per_case=0, noise_per_record=10, prefix="mixed", exponent_every=7,
                                    perf_every=30, perf_terms=(10, 40), seed=6),
}
REPEATS = int(os.environ.get("ATT_FIELD_REPEATS", "3"))
TARGET_RATIO = 1.5
PEAK_LIMIT_MB = 300
REGRESSION_FLOOR = 4.5

BASELINE = """
import sys
hits = 0
with open(sys.argv[1], "rb") as handle:
    for line in handle:
        if b"[PROF]" in line or b"[PERF]" in line:
            hits += 1
assert hits > 0
"""
BASELINE_GZ = BASELINE.replace("import sys", "import gzip, sys").replace("open(sys.argv[1], ", "gzip.open(sys.argv[1], ")


# Runs the command in this fresh interpreter and reports its VmHWM (peak resident set of this process
# image) at exit: ru_maxrss of a child would include the pages of the parent it was forked from.
_WRAPPER = (
    "import atexit, runpy, sys\n"
    "def peak():\n"
    "    line = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
    "    sys.stderr.write('PEAK ' + line.split()[1] + '\\n')\n"
    "atexit.register(peak)\n"
    "sys.argv = sys.argv[1:]\n"
    "if sys.argv[0] == '-c':\n"
    "    sys.argv = sys.argv[1:]\n"
    "    exec(compile(sys.argv[0], '<baseline>', 'exec'), {'__name__': '__main__'})\n"
    "else:\n"
    "    runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n"
)


# Another checkout's app/ folder to run `att summary` from (a before/after comparison in one run).
OURS_FROM = os.environ.get("ATT_FIELD_APP")


def _run(argv: list[str], app: str | None = None) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one fresh interpreter running `argv` (a module or -c code)."""
    env = {**os.environ, "PYTHONPATH": app} if app else None
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False, env=env)
    elapsed = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-2000:]
    peak = next(float(line.split()[1]) / 1024 for line in done.stderr.splitlines() if line.startswith("PEAK "))
    return elapsed, peak


@pytest.mark.parametrize("name", list(SHAPES))
def test_summary_on_field_shape(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gz = name.endswith("-gz")
    log = tmp_path / f"{name}.log{'.gz' if gz else ''}"
    size = write_synthetic_log(log, SHAPES[name])
    ours_argv = ["autofuse_studio", "att", "summary", str(log), "-f", "csv", "-o", str(tmp_path / "out.csv")]
    base_argv = ["-c", BASELINE_GZ if gz else BASELINE, str(log)]
    bases, ours, base_peaks, our_peaks = [], [], [], []
    try:
        for _ in range(REPEATS):  # alternated, so a busy spell hits both sides
            elapsed, peak = _run(base_argv)
            bases.append(elapsed)
            base_peaks.append(peak)
            elapsed, peak = _run(ours_argv, OURS_FROM)
            ours.append(elapsed)
            our_peaks.append(peak)
        rows = (tmp_path / "out.csv").read_text(encoding="utf-8-sig").count("\n") - 1
    finally:
        log.unlink()
    ratios = [o / b for o, b in zip(ours, bases, strict=True)]
    best = min(ours) / min(bases)
    with capsys.disabled():
        print(f"\natt summary{' from ' + OURS_FROM if OURS_FROM else ''}, shape {name} ({size / 1e6:.0f} MB): best ratio {best:.2f}x, per pair "
              f"{min(ratios):.2f}-{max(ratios):.2f}x (target <= {TARGET_RATIO}x: {'met' if best <= TARGET_RATIO else 'MISSED'}); ours {min(ours):.2f}-{max(ours):.2f} s, "
              f"baseline {min(bases):.2f}-{max(bases):.2f} s; peak {min(our_peaks):.0f}-{max(our_peaks):.0f} MB "
              f"(baseline {max(base_peaks):.0f} MB; target < {PEAK_LIMIT_MB} MB)", file=sys.stderr)
    assert rows == 1200  # 400 operators x 3 groups of the best result
    assert max(our_peaks) < PEAK_LIMIT_MB
    # A floor for regressions only, not the target: the long-line shapes miss the target today (see
    # docs/performance.md) and on this shared machine a single run swings by 1.5x.
    assert best <= REGRESSION_FLOOR
