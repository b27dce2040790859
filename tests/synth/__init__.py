"""Test-data generators (dev only, never shipped): synthetic af-open/af-close cases (graphs, dumps, manifest) here,
plus ge_graph (atc graphs), att_log/att_noise/att_perf_log/att_runs (ATT logs and run roots) and demo (make demo)."""

from tests.synth.case import CaseManifest, generate_case, load_manifest
from tests.synth.expect import Row
from tests.synth.spec import (
    ALL_FEATURES,
    DEFECT_FEATURES,
    REALISM_FEATURES,
    CaseSpec,
    bench_spec,
    demo_spec,
    full_coverage_spec,
)

__all__ = [
    "ALL_FEATURES",
    "DEFECT_FEATURES",
    "REALISM_FEATURES",
    "CaseManifest",
    "CaseSpec",
    "Row",
    "bench_spec",
    "demo_spec",
    "full_coverage_spec",
    "generate_case",
    "load_manifest",
]
