"""generate_case: writes both graphs, both dump trees and manifest.json for a CaseSpec."""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import CancelToken, Progress, no_progress
from autofuse_studio.core.synth.dag import Dag
from autofuse_studio.core.synth.dumps import MODEL_ID, TIME_DIR, write_step
from autofuse_studio.core.synth.emit import GraphEmitter
from autofuse_studio.core.synth.evaluate import evaluate_step
from autofuse_studio.core.synth.expect import THRESHOLD, Row, first_divergence, step_rows
from autofuse_studio.core.synth.spec import CaseSpec
from autofuse_studio.core.synth.storage import CLOSE, OPEN
from autofuse_studio.core.synth.topology import build_dag

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "autofuse-studio-synth-case/1"
GRAPH_FILE = {OPEN: "ge_proto_00000094_graph_1_Build.json", CLOSE: "ge_proto_00000093_graph_1_Build.json"}
ROOT_NAME = {OPEN: "ge_default_20250106142233_1", CLOSE: "ge_default_20250106141702_1"}


@dataclass
class CaseManifest:
    """What a generated case contains and what a correct comparison must report (paths relative)."""

    description: str
    spec: dict[str, Any]
    graphs: dict[str, str]  # side -> graph JSON
    data: dict[str, str]  # side -> dump root (recursive index)
    step_dirs: dict[str, dict[str, str]]  # side -> step -> folder holding that step's NPYs
    rows: list[Row]
    first_divergence: dict[str, Any] | None
    pickle_marker: str | None = None  # absolute path that exists only if some loader unpickled
    npy_files: int = 0
    npy_bytes: int = 0
    threshold: float = THRESHOLD
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The manifest.json document."""
        doc = asdict(self)
        doc["format"] = MANIFEST_FORMAT
        doc["rows"] = [r.to_json() for r in self.rows]
        return doc


def load_manifest(case_dir: Path) -> dict[str, Any]:
    """Read a case's manifest.json (a plain dict: tests and benchmarks only need lookups)."""
    doc: dict[str, Any] = json.loads((case_dir / MANIFEST).read_text(encoding="utf-8"))
    return doc


def _prepare(out_dir: Path) -> None:
    """Create out_dir; replace an earlier generated case, never anything else."""
    out_dir.mkdir(parents=True, exist_ok=True)
    owned = [out_dir / OPEN, out_dir / CLOSE]
    if any(p.exists() for p in owned):
        if not (out_dir / MANIFEST).is_file():
            raise InputError(f"{out_dir} already holds af_open/af_close folders that no synth case wrote; "
                             "refusing to overwrite them.", out_dir)
        for p in owned:
            shutil.rmtree(p, ignore_errors=True)


def _write_graphs(dag: Dag, out_dir: Path) -> dict[str, str]:
    """Both Build graph JSON files, atc style (sorted keys, indent 2)."""
    paths = {}
    for side in (OPEN, CLOSE):
        path = out_dir / side / GRAPH_FILE[side]
        path.parent.mkdir(parents=True, exist_ok=True)
        model = GraphEmitter(dag, side, ROOT_NAME[side]).model()
        path.write_text(json.dumps(model, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        paths[side] = path.relative_to(out_dir).as_posix()
    return paths


def generate_case(out_dir: Path, spec: CaseSpec, progress: Progress = no_progress,
                  cancel: CancelToken | None = None) -> CaseManifest:
    """Write the case described by `spec` into out_dir and return (and write) its manifest."""
    out_dir = Path(out_dir).resolve()
    _prepare(out_dir)
    dag = build_dag(spec)
    total = 1 + spec.steps
    progress(0, total, "writing graphs")
    graphs = _write_graphs(dag, out_dir)
    marker = str(out_dir / "PICKLE_WAS_LOADED")
    rows: list[Row] = []
    step_dirs: dict[str, dict[str, str]] = {OPEN: {}, CLOSE: {}}
    files = size = 0
    for step in range(spec.steps):
        if cancel is not None:
            cancel.check()
        progress(1 + step, total, f"step {step}")
        values = evaluate_step(dag, spec.seed, step, spec.culprit_cosine)
        for side, side_values in ((OPEN, values.open), (CLOSE, values.close)):
            folder = out_dir / side / "dump" / TIME_DIR[side] / "0" / ROOT_NAME[side] / MODEL_ID / str(step)
            writer = write_step(dag, side, side_values, spec.seed, step, folder, marker)
            step_dirs[side][str(step)] = folder.relative_to(out_dir).as_posix()
            files, size = files + writer.files, size + writer.size
        rows += step_rows(dag, step, values)
    manifest = CaseManifest(
        description=spec.description,
        spec={**asdict(spec), "features": sorted(spec.features)},
        graphs=graphs,
        data={side: f"{side}/dump" for side in (OPEN, CLOSE)},
        step_dirs=step_dirs,
        rows=rows,
        first_divergence=first_divergence(rows),
        pickle_marker=marker if spec.has("pickle_npy") else None,
        npy_files=files,
        npy_bytes=size,
        extra={"fused_ops": len(dag.groups), "original_ops": len(dag.ops)},
    )
    (out_dir / MANIFEST).write_text(json.dumps(manifest.to_json(), indent=1) + "\n", encoding="utf-8")
    progress(total, total, "done")
    return manifest
