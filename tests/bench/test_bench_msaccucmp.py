"""`nwa` vs msaccucmp on the same raw-dump case: whole-run time ratio and metric agreement.

The peer is the pre-2025-09 pure-Python msaccucmp (Ascend/msprobe commit 72c5bd4c), prepared at run time from a local
git snapshot (tests/bench/msaccucmp_peer.py; skipped when the snapshot, git or grpcio-tools is missing). Case: the
mode-1 benchmark case (300 fused ops x 260k fp16, about 820 MB of raw dumps) as raw CANN dump files (raw twin). Both
tools run as processes on the same files (best of two, wall clock): msaccucmp
`compare -m <fusion-on step dir> -g <fusion-off step dir> -f <fusion-on JSON> -cf <fusion-off JSON>` (it always
compares inputs too, single process), ours `nwa --compare-input --output out.json` (default jobs: every core).
Target: ours <= 0.1x msaccucmp's time.

Agreement: on every (fused op, kind, index) both tools compare, cosine and max abs error equal within 1e-6 relative.
msaccucmp's CSV prints 6 decimals, too coarse for that, so the values come from one more run that prints full floats
(only its format function swapped; the 6-decimal CSV of the timed run is checked against it to the rounding).
msaccucmp computes in float32, ours in float64.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bench.msaccucmp_peer import (
    Key,
    Msaccucmp,
    PeerUnavailable,
    parse_result_csv,
    prepare_msaccucmp,
    run_msaccucmp,
)
from tests.synth import bench_spec, generate_case
from tests.synth.case import CaseManifest
from tests.synth.raw_twin import twin_case

pytestmark = pytest.mark.bench

N_FUSED, ELEMENTS = 300, 260_000
MAX_RATIO = 0.1
MAX_REL_DIFF = 1e-6
SIDES = ("af_open", "af_close")


@pytest.fixture(scope="module")
def peer() -> Msaccucmp:
    try:
        return prepare_msaccucmp()
    except PeerUnavailable as reason:
        pytest.skip(f"msaccucmp cannot be prepared: {reason}")


def _raw_step_dir(root: Path, manifest: CaseManifest, twins: dict[str, Path], side: str) -> Path:
    """The raw twin folder that holds `side`'s dump files of its only step (msaccucmp does not recurse)."""
    (step,) = manifest.step_dirs[side].values()
    return twins[side] / Path(step).relative_to(manifest.data[side])


def _time_ours(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "autofuse_studio", "nwa", *argv], capture_output=True, text=True,
                          check=False, env=os.environ.copy())
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    return seconds


def _our_rows(path: Path) -> dict[Key, tuple[float, float]]:
    rows = {}
    for row in json.loads(path.read_text(encoding="utf-8"))["rows"]:
        if row["cosine"] is None and row["max_abs_err"] is None:
            continue
        cosine, max_abs = (math.nan if row[name] is None else float(row[name]) for name in ("cosine", "max_abs_err"))
        rows[(str(row["fused_op"]), str(row["kind"]), int(row["fused_index"]))] = (cosine, max_abs)
    return rows


def _rel_diff(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return 0.0 if math.isnan(a) and math.isnan(b) else math.inf
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def _rounds_to(full: float, shown: float) -> bool:
    return math.isnan(full) == math.isnan(shown) and (math.isnan(full) or abs(full - shown) <= 5.01e-7)


def test_nwa_vs_msaccucmp_raw_dumps(peer: Msaccucmp, tmp_path: Path) -> None:
    root = tmp_path / "case"
    manifest = generate_case(root, bench_spec(n_fused=N_FUSED, elements=ELEMENTS))
    twins = twin_case(root, tmp_path / "raw", "raw")
    graphs = {side: root / manifest.graphs[side] for side in SIDES}
    steps = {side: _raw_step_dir(root, manifest, twins, side) for side in SIDES}
    raw_bytes = sum(path.stat().st_size for side in SIDES for path in steps[side].iterdir())

    peer_args = (steps["af_open"], steps["af_close"], graphs["af_open"], graphs["af_close"])
    our_json = tmp_path / "ours.json"
    ours_argv = ["--af-open-graph", str(graphs["af_open"]), "--af-close-graph", str(graphs["af_close"]),
                 "--af-open-data", str(twins["af_open"]), "--af-close-data", str(twins["af_close"]),
                 "--compare-input", "--output", str(our_json)]
    peer_times, our_times, our_one_job = [], [], []
    csv_path = tmp_path / "unset.csv"
    for attempt in range(2):
        seconds, csv_path = run_msaccucmp(peer, *peer_args, tmp_path / f"peer{attempt}")
        peer_times.append(seconds)
        our_times.append(_time_ours(ours_argv))
        our_one_job.append(_time_ours([*ours_argv, "-j", "1"]))
    _, full_csv = run_msaccucmp(peer, *peer_args, tmp_path / "peer_full", full_precision=True)

    theirs, theirs_6dp, ours = parse_result_csv(full_csv), parse_result_csv(csv_path), _our_rows(our_json)
    both = sorted(theirs.keys() & ours.keys())
    only_theirs, only_ours = sorted(theirs.keys() - ours.keys()), sorted(ours.keys() - theirs.keys())
    worst = [0.0, 0.0]
    mismatches = []
    for key in both:
        diffs = [_rel_diff(ours[key][i], theirs[key][i]) for i in range(2)]
        worst = [max(w, d) for w, d in zip(worst, diffs, strict=True)]
        for name, diff, mine, peer_value in zip(("cosine", "max_abs"), diffs, ours[key], theirs[key], strict=True):
            if diff > MAX_REL_DIFF:
                mismatches.append(f"  {key[0]} {key[1]} {key[2]} {name}: ours {mine!r}, msaccucmp {peer_value!r}, "
                                  f"rel diff {diff:.3g}")
    # The timed run's 6-decimal values are the full-precision run's, rounded (half a unit of the 6th decimal).
    rounding = sorted(theirs_6dp.keys() ^ theirs.keys()) + [
        key for key, values in theirs_6dp.items() if key in theirs
        and any(not _rounds_to(full, shown) for shown, full in zip(values, theirs[key], strict=True))]

    peer_time, our_time = min(peer_times), min(our_times)
    ratio = our_time / peer_time
    print(f"\nnwa vs msaccucmp ({peer.folder.parent.parent.name}): {N_FUSED} fused ops x {ELEMENTS} fp16, "
          f"{raw_bytes / 2**20:.0f} MB of raw dumps; msaccucmp {peer_time:.2f} s (1 process), ours {our_time:.2f} s "
          f"(default jobs, {os.cpu_count()} cores; -j 1: {min(our_one_job):.2f} s); ratio {ratio:.3f} "
          f"(target <= {MAX_RATIO}; -j 1: {min(our_one_job) / peer_time:.3f})")
    print(f"pairs with a metric: msaccucmp {len(theirs)}, ours {len(ours)}, both {len(both)}; only msaccucmp "
          f"{len(only_theirs)} {only_theirs[:3]}; only ours {len(only_ours)} {only_ours[:3]}")
    print(f"agreement on {len(both)} pairs: worst relative difference cosine {worst[0]:.3g}, max abs {worst[1]:.3g} "
          f"(target <= {MAX_REL_DIFF}); {len(mismatches)} mismatches")
    for line in mismatches[:50]:
        print(line)
    assert both, "the two tools compared no tensor pair in common"
    assert not rounding, f"the full-precision msaccucmp run disagrees with the timed run on {rounding[:5]}"
    assert not mismatches, f"{len(mismatches)} metric mismatches (first: {mismatches[0]})"
    assert ratio <= MAX_RATIO, f"nwa takes {ratio:.3f}x msaccucmp's time"
