"""Benchmarks: GE graph loading vs plain json.load (same file, same run) and pbtxt parsing speed."""

from __future__ import annotations

import gc
import json
import os
import time
from pathlib import Path

import pytest

from autofuse_studio.core.ge import build_fusion_mapping, load_model
from tests.conftest import samples_dir
from tests.synth.ge_graph import write_synthetic_graph

pytestmark = pytest.mark.bench

# Override for quick local runs, e.g. GE_BENCH_OPS=20000 make bench.
N_OPS = int(os.environ.get("GE_BENCH_OPS", "100000"))
TARGET_RATIO = 3.0


def _best_of(runs: int, fn: object) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def test_load_model_vs_json_load(tmp_path: Path) -> None:
    path = write_synthetic_graph(tmp_path / "synthetic_Build.json", N_OPS, fused_every=10)
    size_mb = path.stat().st_size / 1e6

    def plain_json() -> None:
        with path.open(encoding="utf-8") as handle:
            json.load(handle)

    kept = []

    def ours() -> None:
        model = load_model(path)
        mapping = build_fusion_mapping(model)
        assert len(mapping.fused_ops) == N_OPS // 10
        kept.append(model)

    def plain_json_without_gc() -> None:
        gc.disable()
        try:
            plain_json()
        finally:
            gc.enable()

    baseline = _best_of(1, plain_json)
    measured = _best_of(1, ours)
    # The GC pause defers one full collection over the new objects to whoever allocates next: show it.
    start = time.perf_counter()
    gc.collect()
    deferred_gc = time.perf_counter() - start
    kept.clear()
    # load_model pauses the cyclic GC while parsing; this fairer baseline shows what is left.
    baseline_no_gc = _best_of(1, plain_json_without_gc)
    ratio = measured / baseline
    print(f"\nGE JSON {N_OPS} ops, {size_mb:.0f} MB: json.load {baseline:.2f} s "
          f"(GC paused: {baseline_no_gc:.2f} s), load_model+build_fusion_mapping {measured:.2f} s, "
          f"ratio {ratio:.2f}x (target <= {TARGET_RATIO}x), {measured / baseline_no_gc:.2f}x vs GC-paused json; "
          f"first full GC over the loaded model afterwards {deferred_gc:.2f} s")
    assert ratio <= TARGET_RATIO, (
        f"load_model + build_fusion_mapping took {ratio:.2f}x json.load on the same file; the target is "
        f"<= {TARGET_RATIO}x. A shared, busy machine can distort this: rerun before optimising."
    )


def test_pbtxt_parse_speed_resnet50() -> None:
    path = samples_dir("ge", "resnet50_ge_proto_00000062_Build.txt")
    size_mb = path.stat().st_size / 1e6
    seconds = _best_of(3, lambda: load_model(path))
    json_twin = samples_dir("ge", "hicann-oam-tools__ge_proto_00000062_Build.json")
    json_seconds = _best_of(3, lambda: json.loads(json_twin.read_bytes()))
    print(f"\nGE pbtxt ResNet-50 {size_mb:.2f} MB: {seconds * 1000:.0f} ms = {seconds / size_mb * 1000:.0f} ms/MB; "
          f"json.load of its JSON twin ({json_twin.stat().st_size / 1e6:.2f} MB) {json_seconds * 1000:.0f} ms, "
          f"ratio {seconds / json_seconds:.1f}x")
