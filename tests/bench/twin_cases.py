"""A generated case and its twin in another dump format, and runs timed best-of alternated (the raw-dump and
statistics-run benchmarks)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.synth import bench_spec, generate_case
from tests.synth.case import load_manifest
from tests.synth.raw_twin import twin_case

SIDES = ("af_open", "af_close")


@dataclass(frozen=True)
class TwinCase:
    """A mode-1 bench case: its two graphs, its two NPY folders and their twins in another format."""

    graphs: list[Path]
    npy: list[Path]
    twin: list[Path]


def twin_bench_case(tmp_path: Path, n_fused: int, elements: int, kind: str) -> TwinCase:
    """bench_spec(n_fused, elements) generated under tmp_path, with its `kind` twin ('raw', 'nano', 'stats')."""
    root = tmp_path / "case"
    generate_case(root, bench_spec(n_fused=n_fused, elements=elements))
    manifest = load_manifest(root)
    twin = twin_case(root, tmp_path / kind, kind)
    # The trees were just written (~35k files): their pages reach the disk now, not during the timed runs (raw
    # many_small measured 1.11-1.12x in `make bench`, 1.03-1.07x alone; the cause is not known yet).
    if hasattr(os, "sync"):
        os.sync()
    return TwinCase([root / manifest["graphs"][side] for side in SIDES],
                    [root / manifest["data"][side] for side in SIDES], [twin[side] for side in SIDES])


def best_alternated(runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Each run's best wall time over `rounds` rounds, the runs alternated in each (a load change hits all alike)."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best
