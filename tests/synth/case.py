"""generate_case: writes both graphs, both dump trees and manifest.json for a CaseSpec."""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from autofuse_studio.core.errors import InputError
from autofuse_studio.core.progress import CancelToken, Progress, no_progress
from tests.synth.dag import Dag
from tests.synth.dumps import Loop, loop_value, write_step
from tests.synth.emit import GraphEmitter
from tests.synth.evaluate import StepValues, evaluate_step
from tests.synth.expect import (
    THRESHOLD,
    Row,
    first_divergence,
    first_divergence_by_rank,
    occurrence_rows,
    step_rows,
    unpaired_rows,
)
from tests.synth.numerics import cosine
from tests.synth.ranks import rank_label, rank_seed, stamp_offset, step_folder
from tests.synth.spec import CaseSpec
from tests.synth.storage import CLOSE, OPEN
from tests.synth.topology import build_dag

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
    rank_dirs: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)  # side -> rank -> step -> folder
    first_divergence_by_rank: dict[str, dict[str, Any] | None] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The manifest.json document."""
        doc = asdict(self)
        doc["format"] = MANIFEST_FORMAT
        doc["rows"] = [r.to_json() for r in self.rows]
        return doc


def pretty_json(document: Any, indent: int, sort_keys: bool = False) -> bytes:
    """json.dumps(document, indent=indent, sort_keys=sort_keys) + newline, as bytes, at C speed (msgspec).

    The standard library's pure-Python indenting encoder took most of the time of a 100k-op case.
    """
    encoder = msgspec.json.Encoder(order="sorted" if sort_keys else None)
    return msgspec.json.format(encoder.encode(document), indent=indent) + b"\n"


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
        path.write_bytes(pretty_json(model, indent=2, sort_keys=True))
        paths[side] = path.relative_to(out_dir).as_posix()
    return paths


def _loop(dag: Dag, spec: CaseSpec) -> Loop | None:
    """The first main-chain fused op, dumped spec.loop_occurrences times per step (None without loops)."""
    if spec.loop_occurrences <= 1:
        return None
    group = dag.groups[0]
    if any(dag.info(ref).open_storage != "plain" for ref in group.outputs):
        raise ValueError(f"the looped group {group.name} must store its outputs plainly")
    return Loop(group.name, frozenset(group.ops), spec.loop_occurrences, spec.loop_extra_dump)


def _loop_cosines(dag: Dag, loop: Loop, values: StepValues) -> dict[tuple[int, int], float]:
    """Cosine of every occurrence of every output of the looped group (k-th dump against k-th)."""
    group = next(g for g in dag.groups if g.name == loop.group)
    cosines = {}
    for index, ref in enumerate(group.outputs):
        dtype = dag.info(ref).dtype
        for number in range(loop.count):
            value = cosine(loop_value(values.open[ref], dtype, number, loop.count),
                           loop_value(values.close[ref], dtype, number, loop.count))
            if value < THRESHOLD:
                raise ValueError(f"loop occurrence {number} of {group.name} would fail ({value:.4f})")
            cosines[(index, number)] = round(value, 10)
    return cosines


@dataclass
class _Written:
    """What generate_case wrote so far: rows, step folders, file counts."""

    rows: list[Row] = field(default_factory=list)
    step_dirs: dict[str, dict[str, str]] = field(default_factory=lambda: {OPEN: {}, CLOSE: {}})
    rank_dirs: dict[str, dict[str, dict[str, str]]] = field(default_factory=lambda: {OPEN: {}, CLOSE: {}})
    files: int = 0
    size: int = 0


def _write_rank_step(out_dir: Path, spec: CaseSpec, dag: Dag, rank: int, step: int, marker: str,
                     written: _Written) -> None:
    """Every run of one rank and step on both sides; the newest run's rows are the expected ones."""
    loop = _loop(dag, spec)
    target = spec.culprit_cosine if spec.has_culprit(rank) else None
    for run in range(spec.runs):
        seed = rank_seed(spec, rank, run)
        values = evaluate_step(dag, seed, step, target)
        for side, side_values in ((OPEN, values.open), (CLOSE, values.close)):
            if not spec.writes(side, rank):
                continue
            folder = out_dir / side / "dump" / step_folder(spec, side, ROOT_NAME[side], rank, run, step)
            writer = write_step(dag, side, side_values, seed, step, folder, marker,
                                stamp_offset(spec, side, rank, run), loop)
            written.files, written.size = written.files + writer.files, written.size + writer.size
            if run == spec.runs - 1:
                relative = folder.relative_to(out_dir).as_posix()
                written.rank_dirs[side].setdefault(str(rank), {})[str(step)] = relative
                written.step_dirs[side].setdefault(str(step), relative)
        if run == spec.runs - 1:
            written.rows += _expected_rows(spec, dag, rank, step, values, loop)


def _expected_rows(spec: CaseSpec, dag: Dag, rank: int, step: int, values: StepValues,
                   loop: Loop | None) -> list[Row]:
    rows = step_rows(dag, step, values)
    if loop is not None and not loop.extra_open_dump:
        rows = occurrence_rows(rows, loop.group, loop.count, _loop_cosines(dag, loop, values))
    if not (spec.writes(OPEN, rank) and spec.writes(CLOSE, rank)):
        rows = unpaired_rows(rows)
    label = rank_label(spec, rank)
    for row in rows:
        row.rank = label
    return rows


def generate_case(out_dir: Path, spec: CaseSpec, progress: Progress = no_progress,
                  cancel: CancelToken | None = None) -> CaseManifest:
    """Write the case described by `spec` into out_dir and return (and write) its manifest."""
    out_dir = Path(out_dir).resolve()
    _prepare(out_dir)
    dag = build_dag(spec)
    total = 1 + spec.steps * spec.ranks
    progress(0, total, "writing graphs")
    graphs = _write_graphs(dag, out_dir)
    marker = str(out_dir / "PICKLE_WAS_LOADED")
    written = _Written()
    for rank in range(spec.ranks):
        for step in range(spec.steps):
            if cancel is not None:
                cancel.check()
            progress(1 + rank * spec.steps + step, total, f"rank {rank} step {step}")
            _write_rank_step(out_dir, spec, dag, rank, step, marker, written)
    manifest = CaseManifest(
        description=spec.description,
        spec={**asdict(spec), "features": sorted(spec.features)},
        graphs=graphs,
        data={side: f"{side}/dump" for side in (OPEN, CLOSE)},
        step_dirs=written.step_dirs,
        rows=written.rows,
        first_divergence=first_divergence(written.rows),
        pickle_marker=marker if spec.has("pickle_npy") else None,
        npy_files=written.files,
        npy_bytes=written.size,
        extra={"fused_ops": len(dag.groups), "original_ops": len(dag.ops)},
        rank_dirs=written.rank_dirs,
        first_divergence_by_rank=first_divergence_by_rank(written.rows),
    )
    (out_dir / MANIFEST).write_bytes(pretty_json(manifest.to_json(), indent=1))
    progress(total, total, "done")
    return manifest
