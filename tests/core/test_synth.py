"""Tests of the synthetic case generator (tests.synth) and the demo regeneration (tests.synth.demo)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.synth import CaseSpec, bench_spec, demo, demo_spec, full_coverage_spec, generate_case
from tests.synth.dumps import sanitise
from tests.synth.layouts import padding_mask_nc1hwc0
from tests.synth.numerics import bf16_to_float32, cosine

REPO = Path(__file__).resolve().parents[2]
NPY_RE = re.compile(r"^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.(\d+)\.(\d+)\.(\d{16})\.(input|output)\.(\d+)\.npy$")
UUID_RE = re.compile(r"^[0-9a-f]{32}\.npy$")
STATUSES = {
    "OK", "FORMAT_CONVERTED", "DTYPE_CAST", "SHAPE_FLATTENED", "NO_MAPPING", "FILE_NOT_FOUND", "NPY_LOAD_ERROR",
    "FORMAT_UNSUPPORTED", "FORMAT_CONVERSION_ERROR", "SHAPE_MISMATCH", "COMPUTE_ERROR", "SKIPPED_CONST_DATA",
}
FUSED = ("AscBackend", "FusedAscBackend")


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The full-coverage case, generated once for the module."""
    out = tmp_path_factory.mktemp("full")
    generate_case(out, full_coverage_spec())
    return out


def manifest(case_dir: Path) -> dict[str, Any]:
    """manifest.json of a case."""
    doc: dict[str, Any] = json.loads((case_dir / "manifest.json").read_text())
    return doc


def graph(case_dir: Path, side: str) -> dict[str, Any]:
    """The Build graph JSON of one side."""
    doc: dict[str, Any] = json.loads((case_dir / manifest(case_dir)["graphs"][side]).read_text())
    return doc


def ops_by_name(model: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """All ops of all graphs of a model."""
    return {op["name"]: op for g in model["graph"] for op in g["op"]}


def attrs(item: dict[str, Any]) -> dict[str, Any]:
    """An attr list as a dict."""
    return {a["key"]: a["value"] for a in item.get("attr", [])}


def step_files(case_dir: Path, side: str, step: str = "0") -> dict[str, Path]:
    """NPY/CSV files of one step folder, by name."""
    folder = case_dir / manifest(case_dir)["step_dirs"][side][step]
    return {p.name: p for p in folder.iterdir()}


def find_npy(case_dir: Path, side: str, op_type: str, op_name: str, kind: str, index: int,
             step: str = "0") -> list[Path]:
    """NPYs of one tensor sorted by timestamp (oldest first)."""
    prefix = f"{sanitise(op_type)}.{sanitise(op_name)}."
    hits = [p for n, p in step_files(case_dir, side, step).items()
            if n.startswith(prefix) and n.endswith(f".{kind}.{index}.npy")]
    return sorted(hits, key=lambda p: int(p.name.split(".")[4]))


def rows_with(case_dir: Path, note: str, kind: str = "output") -> list[dict[str, Any]]:
    """Step-0 manifest rows of a kind carrying a note."""
    return [r for r in manifest(case_dir)["rows"] if r["step"] == "0" and r["kind"] == kind and note in r["notes"]]


def test_graph_json_is_atc_dialect(case: Path) -> None:
    """Sorted keys, indent 2, attr lists, root graph first and named like the dump model folder."""
    for side in ("af_open", "af_close"):
        path = case / manifest(case)["graphs"][side]
        text = path.read_text()
        model = json.loads(text)
        assert text == json.dumps(model, indent=2, sort_keys=True) + "\n"
        assert path.name.startswith("ge_proto_") and path.name.endswith("_graph_1_Build.json")
        root = model["graph"][0]["name"]
        assert f"/{root}/1/0" in manifest(case)["step_dirs"][side]["0"]
        for op in ops_by_name(model).values():
            assert isinstance(op.get("attr", []), list)
            assert op.get("id", 1) != 0, "id 0 must be omitted"
            for desc in op.get("input_desc", []) + op.get("output_desc", []):
                assert {"origin_format", "origin_shape"} <= set(attrs(desc))


def test_fused_ops_carry_mapping_attrs(case: Path) -> None:
    """Every fused op names its original ops; every mapped output names an op of the af-close graph."""
    close = ops_by_name(graph(case, "af_close"))
    fused = [op for op in ops_by_name(graph(case, "af_open")).values() if op["type"] in FUSED]
    assert fused and any(op["type"] == "FusedAscBackend" for op in fused)
    unmapped = 0
    for op in fused:
        names = attrs(op)["_datadump_original_op_names"]["list"]["s"]
        assert all(n in close for n in names)
        assert re.match(r"^autofuse_(fused_)?\d+_", op["name"])
        for desc in op["output_desc"]:
            a = attrs(desc)
            if "_datadump_origin_name" not in a:
                unmapped += 1
                continue
            assert a["_datadump_origin_name"]["s"] in close
            assert "i" in a["_datadump_origin_output_index"]
    assert unmapped == 1  # the single NO_MAPPING fused output
    assert any(i.endswith(":-1") for op in fused for i in op.get("input", []))


def test_partitioned_call_subgraph(case: Path) -> None:
    """A PartitionedCall's subgraph follows the root graph and holds fused ops and boundary ops."""
    model = graph(case, "af_open")
    assert len(model["graph"]) == 2
    pc = next(op for op in model["graph"][0]["op"] if op["type"] == "PartitionedCall")
    sub = model["graph"][1]
    assert pc["subgraph_name"] == [sub["name"]]
    types = [op["type"] for op in sub["op"]]
    assert types.count("AscBackend") + types.count("FusedAscBackend") >= 2
    datas = [op for op in sub["op"] if op["type"] == "Data"]
    assert [attrs(d)["_parent_node_index"]["i"] for d in datas] == list(range(len(pc["input"])))
    net = next(op for op in sub["op"] if op["type"] == "NetOutput")
    assert [attrs(d)["_parent_node_index"]["i"] for d in net["input_desc"]] == list(range(len(pc["output_desc"])))
    consumers = [op for op in model["graph"][0]["op"] if any(i.startswith(pc["name"] + ":") for i in op.get("input", []))]
    assert any(op["type"] in FUSED for op in consumers)


def test_npy_names_and_long_name_mapping(case: Path) -> None:
    """msaccucmp names; long names become uuid files listed in mapping.csv (new,old)."""
    for side in ("af_open", "af_close"):
        files = step_files(case, side)
        mapping = {}
        if "mapping.csv" in files:
            for line in files["mapping.csv"].read_text().splitlines():
                new, old = line.split(",", 1)
                mapping[new] = old
        for name in files:
            if name == "mapping.csv":
                continue
            assert NPY_RE.match(name) or (UUID_RE.match(name) and name in mapping), name
        if side == "af_close":
            assert mapping and all(len(old) >= 255 and NPY_RE.match(old) for old in mapping.values())
            assert all(new in files for new in mapping)


def test_npys_load_safely_and_pickle_never_runs(case: Path) -> None:
    """Good NPYs load without pickle; the garbage and pickled ones do not; the trap marker never appears."""
    marker = Path(manifest(case)["pickle_marker"])
    failures = []
    for side in ("af_open", "af_close"):
        for name, path in step_files(case, side).items():
            if name.endswith(".npy"):
                try:
                    np.load(path, allow_pickle=False)
                except ValueError:
                    failures.append(name)
    assert len(failures) == 2
    assert {n.split(".")[1].split("_")[0] for n in failures} == {"autofuse"}
    assert not marker.exists()


def test_5hd_padding_holds_garbage(case: Path) -> None:
    """The fused 5HD output has non-zero garbage padding; only correct padding removal matches af-close."""
    row = rows_with(case, "nc1hwc0")[0]
    assert row["expected_status"] == "FORMAT_CONVERTED"
    fused = np.load(find_npy(case, "af_open", "AscBackend", row["fused_op"], "output", row["fused_index"])[-1])
    close = np.load(find_npy(case, "af_close", "Relu", row["origin_op"], "output", 0)[-1])
    assert fused.shape == (2, 2, 4, 5, 16) and close.shape == (2, 23, 4, 5)
    pad = padding_mask_nc1hwc0(fused.shape, 23)
    assert np.all(np.abs(fused[pad]) > 50)
    nchw = fused.transpose(0, 1, 4, 2, 3).reshape(2, 32, 4, 5)
    assert cosine(nchw[:, :23], close) > 0.999
    assert cosine(nchw[:, :23].ravel()[:10], close.ravel()[:10]) > 0.99


def test_nz_padding_and_bf16_storage(case: Path) -> None:
    """FRACTAL_NZ output with garbage padding; the bf16 output is a void V2 NPY on af-open only."""
    nz = rows_with(case, "nz")[0]
    arr = np.load(find_npy(case, "af_open", "AscBackend", nz["fused_op"], "output", 0)[-1])
    assert arr.shape == (2, 3, 4, 16, 16)
    nd = arr.transpose(0, 2, 3, 1, 4).reshape(2, 64, 48)
    close = np.load(find_npy(case, "af_close", "Add", nz["origin_op"], "output", 0)[-1])
    assert cosine(nd[:, :50, :40], close) > 0.999 and np.abs(nd[:, 50:, :]).min() > 50
    bf = rows_with(case, "bf16")[0]
    raw = np.load(find_npy(case, "af_open", "AscBackend", bf["fused_op"], "output", 0)[-1])
    assert raw.dtype.kind == "V" and raw.dtype.itemsize == 2
    ref = np.load(find_npy(case, "af_close", "Add", bf["origin_op"], "output", 0)[-1])
    assert ref.dtype == np.float32
    assert cosine(bf16_to_float32(raw.view(np.uint16)), ref) > 0.999


def test_stale_duplicate_is_older(case: Path) -> None:
    """Two dumps of one fused output: the older holds garbage, the newer the right values."""
    row = rows_with(case, "stale_duplicate")[0]
    files = find_npy(case, "af_open", "AscBackend", row["fused_op"], "output", 0)
    assert len(files) == 2
    old, new = (int(p.name.split(".")[4]) for p in files)
    assert old < new
    close = np.load(find_npy(case, "af_close", "Add", row["origin_op"], "output", 0)[-1])
    assert cosine(np.load(files[1]), close) > 0.999
    assert cosine(np.load(files[0]), close) < 0.5


def test_manifest_rows_match_graph(case: Path) -> None:
    """Each row points at a real fused op / port and a real original op; statuses use the vocabulary."""
    doc = manifest(case)
    open_ops, close_ops = ops_by_name(graph(case, "af_open")), ops_by_name(graph(case, "af_close"))
    for row in doc["rows"]:
        op = open_ops[row["fused_op"]]
        assert op["type"] in FUSED
        if row["kind"] == "output":
            desc = op["output_desc"][row["fused_index"]]
            if row["expected_status"] != "NO_MAPPING":
                assert attrs(desc)["_datadump_origin_name"]["s"] == row["origin_op"]
        else:
            assert not op["input"][row["fused_index"]].endswith(":-1")
        if row["origin_op"] is not None:
            assert row["origin_op"] in close_ops
        assert set(row["expected_status"].split("_")) <= {w for s in STATUSES for w in s.split("_")}


def test_full_coverage_hits_every_status_and_verdict(case: Path) -> None:
    """Every reference status, every verdict, two steps, the culprit as first divergence."""
    doc = manifest(case)
    statuses = {r["expected_status"] for r in doc["rows"]}
    assert STATUSES - {"FORMAT_CONVERTED", "DTYPE_CAST", "SHAPE_FLATTENED"} <= statuses
    assert {"FORMAT_CONVERTED", "DTYPE_CAST", "SHAPE_FLATTENED"} <= statuses
    assert {r["expected_verdict"] for r in doc["rows"]} == {"OK", "UNKNOWN", "CULPRIT", "PROPAGATED"}
    assert {r["step"] for r in doc["rows"]} == {"0", "1"}
    culprits = [r for r in doc["rows"] if r["expected_verdict"] == "CULPRIT"]
    assert all("culprit_injected" in r["notes"] for r in culprits)
    assert 0.85 < culprits[0]["cosine"] < 0.95
    assert doc["first_divergence"] == {k: culprits[0][k] for k in ("step", "fused_op", "fused_index", "kind")}
    for row in doc["rows"]:
        assert row["expected_verdict"] == row["expected_verdict_compare_input"]
        assert (row["cosine"] is None) == (row["expected_verdict"] == "UNKNOWN")
    assert any(r["expected_verdict"] == "PROPAGATED" and r["kind"] == "input" for r in doc["rows"])
    assert any("nan_inf" in r["notes"] and r["expected_status"] == "OK" for r in doc["rows"])


def test_generation_is_deterministic(tmp_path: Path) -> None:
    """Same spec and seed -> byte-identical graphs and dumps; another seed -> other values."""
    spec = CaseSpec(seed=3, n_fused=4, elements=64, culprit=1, features=frozenset({"nc1hwc0", "stale_duplicate"}))

    def digest(out: Path) -> dict[str, str]:
        generate_case(out, spec)
        return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in out.rglob("*") if p.is_file() and p.name != "manifest.json"}

    first = digest(tmp_path / "a")
    assert first == digest(tmp_path / "b")
    assert manifest(tmp_path / "a")["rows"] == manifest(tmp_path / "b")["rows"]
    first_again = digest(tmp_path / "a")  # regenerating over an old case replaces it
    assert first_again == first
    generate_case(tmp_path / "c", CaseSpec(seed=4, n_fused=4, elements=64, culprit=1))
    assert manifest(tmp_path / "c")["rows"] != manifest(tmp_path / "a")["rows"]


def test_bench_spec_sizes(tmp_path: Path) -> None:
    """A scaled-down bench case has n_fused fused ops whose outputs all hold `elements` fp16 values."""
    spec = bench_spec(n_fused=12, elements=1000)
    doc = generate_case(tmp_path, spec)
    assert doc.extra["fused_ops"] == 12
    files = step_files(tmp_path, "af_open")
    outputs = [p for n, p in files.items() if n.startswith("AscBackend.") or n.startswith("FusedAscBackend.")]
    fused_outputs = [p for p in outputs if ".output." in p.name]
    assert len({p.name.split(".")[1] for p in fused_outputs}) == 12
    for path in fused_outputs:
        arr = np.load(path)
        assert arr.dtype == np.float16 and arr.size == 1000
    assert bench_spec().n_fused == 300 and bench_spec().elements == 260_000
    culprits = [r for r in doc.rows if r.expected_verdict == "CULPRIT"]
    assert len(culprits) == 1 and "culprit_injected" in culprits[0].notes
    assert doc.first_divergence is not None and doc.first_divergence["fused_op"] == culprits[0].fused_op


def test_spec_rejects_unknown_features() -> None:
    """Typos in feature names fail loudly."""
    with pytest.raises(ValueError, match="unknown synth features"):
        CaseSpec(features=frozenset({"nc1hwc1"}))
    with pytest.raises(ValueError, match="culprit"):
        CaseSpec(n_fused=2, culprit=5)


def test_demo_is_small_and_up_to_date(tmp_path: Path) -> None:
    """make demo output stays under 1.5 MB and equals the committed resources/demo."""
    assert demo.main([str(tmp_path)]) == 0
    size = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file())
    assert size < 1_500_000
    assert "make demo" in (tmp_path / "README.txt").read_text()
    assert demo_spec().steps == 2
    committed = REPO / "resources" / "demo"
    if not (committed / "manifest.json").exists():
        pytest.skip("resources/demo has not been generated yet")
    mine = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    theirs = {p.relative_to(committed).as_posix(): p.read_bytes() for p in committed.rglob("*") if p.is_file()}
    assert mine == theirs, "resources/demo is stale: run `make demo`"
