"""Synthetic af-open/af-close cases (graphs, dumps, manifest) for tests, benchmarks and the demo."""

from autofuse_studio.core.synth.case import CaseManifest, generate_case, load_manifest
from autofuse_studio.core.synth.expect import Row
from autofuse_studio.core.synth.spec import (
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
