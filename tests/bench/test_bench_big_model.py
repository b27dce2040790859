"""Big model, mode 1 end to end, on a matrix of field shapes (issue 29, target 1), as whole processes.

Baseline: a fresh interpreter that only json.loads the two graph files (wall time and peak RSS). Ours: a fresh
`python -m autofuse_studio nwa ...` on the same case. Both peaks come from wait4()'s rusage of that child
alone (ru_maxrss), both runs alternate, and each cell prints the ratios of its pairs (min-max). Targets:
<= 1.0x the wall time and <= 1.0x the peak memory of the baseline, on every cell.

Cells (`BIG_MODEL_CELLS=compact,heavy` picks some; `BIG_MODEL_RUNS` pairs per cell, default 2): the
generated case (20k fused ops, ~103k original ops, ~148k tiny NPYs) with its graphs compact or indented,
attribute-light or -heavy, one or three outputs per unfused op, without `--output` or with a JSON or xlsx
result file; a case of 1 MB tensors (fewer fused ops, graphs padded to big-model size with filler ops); and the
statistics-mode twin of the tiny case (one CSV per op dump, what an LLM-scale job can afford), written once.
Graph shapes: tests/synth/big_model.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from tests.synth import CaseManifest, CaseSpec, generate_case
from tests.synth.big_model import GraphShape, write_shape
from tests.synth.case import load_manifest
from tests.synth.raw_twin import twin_case

pytestmark = pytest.mark.bench

FUSED = int(os.environ.get("BIG_MODEL_FUSED", "20000"))
FUSED_1MB = int(os.environ.get("BIG_MODEL_FUSED_1MB", "40"))
RUNS = int(os.environ.get("BIG_MODEL_RUNS", "2"))
# Another checkout's app folder: each pair then also runs its nwa (a before/after in the same conditions).
BEFORE_APP = os.environ.get("BIG_MODEL_BEFORE_APP", "")
OURS_APP = os.environ.get("BIG_MODEL_APP", "")  # run ours from this app folder (default: the installed one)
_BASELINE = "import json, sys\ndocuments = [json.load(open(path, encoding='utf-8')) for path in sys.argv[1:]]\n"


@dataclass(frozen=True)
class Cell:
    """One shape of the matrix: which case, how its graphs are written, which result file."""

    name: str
    shape: GraphShape
    output: str = ""  # "", "json" or "xlsx"
    big_tensors: bool = False
    statistics: bool = False  # the case's statistics-mode twin (one CSV per op dump) instead of its NPYs


CELLS = (
    Cell("compact", GraphShape("compact")),
    Cell("compact-lean", GraphShape("compact", attrs="lean")),
    Cell("indented", GraphShape("indented")),
    Cell("compact-heavy", GraphShape("compact", attrs="heavy")),
    Cell("indented-heavy", GraphShape("indented", attrs="heavy")),
    Cell("compact-3out", GraphShape("compact", outputs=3)),
    Cell("compact-json", GraphShape("compact"), output="json"),
    Cell("compact-xlsx", GraphShape("compact"), output="xlsx"),
    Cell("1mb-compact", GraphShape("compact", pad_ops=50_000), big_tensors=True),
    Cell("1mb-compact-json", GraphShape("compact", pad_ops=50_000), output="json", big_tensors=True),
    Cell("compact-lean-stats", GraphShape("compact", attrs="lean"), statistics=True),
)
_PICKED = [name for name in os.environ.get("BIG_MODEL_CELLS", "").split(",") if name]


_MEASURE = (
    "import os, resource, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "code = subprocess.call(sys.argv[2:], stdout=open(sys.argv[1], 'wb'), stderr=subprocess.STDOUT)\n"
    "elapsed = time.perf_counter() - start\n"
    "print(code, elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def measure(argv: list[str], log: Path, app: str = "") -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of a fresh process, from a small fresh parent's RUSAGE_CHILDREN.

    (Forked straight from pytest, a child's ru_maxrss would start at pytest's own RSS, kept across exec.)
    """
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(log), *argv], capture_output=True, text=True,
                          check=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                                           **({"PYTHONPATH": app} if app else {})})
    code, elapsed, peak = done.stdout.split()
    assert code == "0", log.read_text(errors="replace")[-2000:]
    return float(elapsed), int(peak) / 1024


def nwa_argv(root: Path, manifest: CaseManifest, out: Path | None, data: dict[str, Path] | None = None) -> list[str]:
    """`nwa` mode 1 on the case (its dumps, or the `data` folders of each side), with --output `out` when given."""
    folders = data or {side: root / manifest.data[side] for side in ("af_open", "af_close")}
    argv = [sys.executable, "-m", "autofuse_studio", "nwa",
            "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(folders["af_open"]), "--af-close-data", str(folders["af_close"])]
    return argv + (["--output", str(out)] if out else [])


def statistics_twin(root: Path) -> dict[str, Path]:
    """The case's statistics-mode twin beside it (written once, ~1 min for the big model's 150k dumps; kept in
    BIG_MODEL_DIR like the case: a `complete` file marks a finished one)."""
    twin = root.parent / f"{root.name}_stats"
    folders = {side: twin / side for side in ("af_open", "af_close")}
    if not (twin / "complete").is_file():
        shutil.rmtree(twin, ignore_errors=True)
        start = time.perf_counter()
        folders = twin_case(root, twin, "stats")
        (twin / "complete").write_text("written by test_bench_big_model\n", encoding="utf-8")
        print(f"\n[statistics twin] {sum(1 for _ in twin.rglob('*.csv'))} CSVs "
              f"(written in {time.perf_counter() - start:.0f} s)")
    return folders


def read_once(folders: Iterable[Path]) -> None:
    """Read every file under `folders` once, so the timed runs find them in the page cache as they find the NPY
    dumps (read by the cells before): the twin's 150k CSVs, evicted by the 1 MB cells' gigabytes, made the first
    statistics run of a `make bench` 1.1-1.8x slower than the next ones (4.6-7.8 s against 2.9-3.1 s) while the
    baseline's graphs stay cached."""
    for folder in folders:
        for path in Path(folder).rglob("*"):
            if path.is_file():
                path.read_bytes()


def flushed_to_disk() -> None:
    """Wait for the page cache's writeback (os.sync) where the platform has it: a case generated or a graph shape
    written just before leaves hundreds of MB to flush, and the kernel's flushing competes with the timed runs
    (the first GUI cells of a fresh `make bench` ran 1.2-1.7x slower while 150k new files were written back)."""
    if hasattr(os, "sync"):
        os.sync()


def baseline_argv(root: Path, manifest: CaseManifest) -> list[str]:
    """A fresh interpreter that json.loads both graph files."""
    return [sys.executable, "-c", _BASELINE, str(root / manifest.graphs["af_open"]),
            str(root / manifest.graphs["af_close"])]


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, tuple[Path, CaseManifest]]:
    """The generated cases, made on first use: tiny tensors (False) and 1 MB tensors (True)."""
    made: dict[bool, tuple[Path, CaseManifest]] = {}

    class Lazy(dict):  # type: ignore[type-arg]
        def __missing__(self, big: bool) -> tuple[Path, CaseManifest]:
            keep = os.environ.get("BIG_MODEL_DIR")  # reuse a case generated by an earlier run
            root = (Path(keep) if keep else tmp_path_factory.mktemp("big")) / ("case_1mb" if big else "case_tiny")
            fused = FUSED_1MB if big else FUSED
            spec = CaseSpec(seed=5, n_fused=fused, elements=1 << 19 if big else 8, dtype="float16", steps=1,
                            chains=max(1, fused // 6), culprit=fused // 2,
                            description="big model: " + ("1 MB tensors" if big else "tiny tensors, many files"))
            start = time.perf_counter()
            reused = keep and (root / "manifest.json").is_file()
            manifest = SimpleNamespace(**load_manifest(root)) if reused else generate_case(root, spec)
            print(f"\n[{'1 MB' if big else 'tiny'} case] {manifest.extra['fused_ops']} fused ops, "
                  f"{manifest.extra['original_ops']} original ops, {manifest.npy_files} NPYs "
                  f"(generated in {time.perf_counter() - start:.0f} s)")
            self[big] = case = cast(tuple[Path, CaseManifest], (root, manifest))  # a SimpleNamespace reads alike
            return case

    return Lazy(made)


@pytest.mark.parametrize("cell", [c for c in CELLS if not _PICKED or c.name in _PICKED], ids=lambda c: c.name)
def test_big_model_shape(cell: Cell, cases: dict[bool, tuple[Path, CaseManifest]], tmp_path: Path) -> None:
    root, manifest = cases[cell.big_tensors]
    size = write_shape(root, manifest.graphs, cell.shape) / 2**20
    flushed_to_disk()  # the case's 150k files and the graphs just written: their writeback is not timed
    out = tmp_path / f"result.{cell.output}" if cell.output else None
    data = statistics_twin(root) if cell.statistics else None
    if data is not None:
        read_once(data.values())
    pairs = []
    befores = []
    for _ in range(RUNS):
        base = measure(baseline_argv(root, manifest), tmp_path / "baseline.log")
        ours = measure(nwa_argv(root, manifest, out, data), tmp_path / "nwa.log", OURS_APP)
        pairs.append((base, ours))
        if BEFORE_APP:
            befores.append(measure(nwa_argv(root, manifest, out, data), tmp_path / "before.log", BEFORE_APP))
    time_ratios = [o[0] / b[0] for b, o in pairs]
    peak_ratios = [o[1] / b[1] for b, o in pairs]
    print(f"\n  {cell.name:18s} ({size:.0f} MB graphs): json.load {_span(b[0] for b, _ in pairs)} s / "
          f"{_span((b[1] for b, _ in pairs), '.0f')} MiB, nwa {_span(o[0] for _, o in pairs)} s / "
          f"{_span((o[1] for _, o in pairs), '.0f')} MiB; time {_span(time_ratios)}x, peak {_span(peak_ratios)}x "
          "(targets <= 1.0x)")
    if befores:
        print(f"  {'':18s} before: nwa {_span(b[0] for b in befores)} s / {_span((b[1] for b in befores), '.0f')} MiB; "
              f"time {_span(b[0] / p[0][0] for b, p in zip(befores, pairs, strict=True))}x, "
              f"peak {_span(b[1] / p[0][1] for b, p in zip(befores, pairs, strict=True))}x")
    if cell.output == "json":
        document = json.loads(out.read_text(encoding="utf-8"))  # type: ignore[union-attr]
        assert document["first_divergence"]["fused_op"] == manifest.first_divergence["fused_op"]  # type: ignore[index]
    assert min(time_ratios) <= 1.0 and min(peak_ratios) <= 1.0, f"{cell.name}: targets missed"


def _span(values: object, spec: str = ".2f") -> str:
    numbers = sorted(values)  # type: ignore[call-overload]
    low, high = format(numbers[0], spec), format(numbers[-1], spec)
    return low if low == high else f"{low}-{high}"
