"""Multi-rank benchmark: 8 ranks x 300 fused ops x 65k fp16, ours vs a naive float64 loop over every rank.

The baseline already knows every file path (taken from our own plan before timing) and computes the
reference's three metrics pair by pair in float64, rank after rank. Ours includes parsing both graphs,
indexing both dump trees (8 ranks each) and pairing rank with rank. Target: ours <= 0.5x the baseline's
wall time. Peak memory is measured in fresh processes for 2 and 8 ranks: it must not grow with the ranks.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autofuse_studio.core.run.spec import RunSpec
from tests.bench.naive import best_of_runs, known_pairs
from tests.robustness.conftest import run_python_peak
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec

pytestmark = pytest.mark.bench

RANKS, FUSED, ELEMENTS = 8, 300, 65_536


def _request(root: Path, manifest: CaseManifest, ranks: list[str] | None = None) -> RunSpec:
    return RunSpec(root / manifest.graphs["af_open"], root / manifest.graphs["af_close"],
                        root / manifest.data["af_open"], root / manifest.data["af_close"], jobs=2, ranks=ranks)


def _peak_mib(root: Path, manifest: CaseManifest, ranks: list[str]) -> float:
    request = _request(root, manifest, ranks)
    code = ("from pathlib import Path\n"
            "from autofuse_studio.core.precision.engine import run_mode1\n"
            "from autofuse_studio.core.run.spec import RunSpec\n"
            f"result = run_mode1(RunSpec(Path({str(request.af_open_graph)!r}), Path({str(request.af_close_graph)!r}),"
            f" Path({str(request.af_open_data)!r}), Path({str(request.af_close_data)!r}), jobs=2, ranks={ranks!r}))\n"
            "assert result.first_divergence is not None\n")
    done, peak = run_python_peak(code)
    assert done.returncode == 0, done.stderr
    return peak


def test_eight_ranks_in_parallel(tmp_path: Path) -> None:
    spec = multi_rank_spec(ranks=RANKS, culprit_rank=5, n_fused=FUSED, elements=ELEMENTS, steps=1,
                           chains=FUSED // 6, culprit=FUSED - 3 * (FUSED // 6))
    manifest = generate_case(tmp_path, spec)
    request = _request(tmp_path, manifest)
    pairs = known_pairs(request)
    total_bytes = sum(path.stat().st_size for pair in pairs for path in pair)
    naive_time, our_time, result = best_of_runs(pairs, request)
    ratio = our_time / naive_time
    peak_two = _peak_mib(tmp_path, manifest, ["0", "5"])
    peak_all = _peak_mib(tmp_path, manifest, [str(rank) for rank in range(RANKS)])
    print(f"\nmulti-rank: {RANKS} ranks, {len(pairs)} pairs ({total_bytes / 2**20:.0f} MB); naive float64 loop "
          f"{naive_time:.2f} s, ours (parse + index + pair + compare, 2 jobs) {our_time:.2f} s; "
          f"ratio {ratio:.3f} (target <= 0.5); peak memory 2 ranks {peak_two:.0f} MiB, {RANKS} ranks "
          f"{peak_all:.0f} MiB (ratio {peak_all / peak_two:.2f})")
    culprits = [row for row in result.rows if row.verdict == "CULPRIT"]
    assert [row.rank for row in culprits] == ["5"]
    assert ratio <= 0.5, f"multi-rank ratio {ratio:.3f} > 0.5"
    assert peak_all < 1.5 * peak_two, "peak memory grows with the rank count"
