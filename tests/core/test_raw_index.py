"""The dump index over what the NPU writes: raw and nano files, mapping.csv, hash names, stats CSVs, loose NPY names."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.dumps.names import loose_npy_fields, parse_dump_name
from autofuse_studio.core.dumps.tensors import open_dump_tensor, tensor_path
from autofuse_studio.core.precision.engine import run_mode1
from autofuse_studio.core.run.spec import RunSpec
from tests.synth import generate_case
from tests.synth.raw_writer import RawDumpSpec, RawTensorSpec, write_raw_dump
from tests.synth.spec import full_coverage_spec

STAMP = 1736172181000000


@pytest.mark.parametrize(("name", "fields"), [
    ("Conv2D.conv1.3.44.1736172181000000", ("conv1", 3, 44, STAMP, None)),
    ("Conv2D.conv1.325.1736172181000000", ("conv1", 325, None, STAMP, None)),  # old: no stream id
    ("Conv2D.conv1.12.3.44.1736172181000000", ("conv1", 3, 44, STAMP, None)),  # host writer: dump number first
    ("Conv2D.Conv2D_lxslice0.2.9.1670205069987341.4.330.0.0",
     ("Conv2D_lxslice0", 2, 9, 1670205069987341, ("4", "330", "0", "0"))),  # FFTS+
    ("Add.add.3.44.1736172181000000.FFTSPLUS.3.1.0", ("add", 3, 44, STAMP, ("FFTSPLUS", "3", "1", "0"))),
    ("ConcatV2D.concatv2.0.0.550288648", ("concatv2", 0, 0, 550288648, None)),  # the public nano sample
])
def test_raw_dump_names(name: str, fields: tuple[Any, ...]) -> None:
    parsed = parse_dump_name(name)
    assert parsed is not None
    assert (parsed.op_name, parsed.task_id, parsed.stream_id, parsed.timestamp, parsed.ffts) == fields


@pytest.mark.parametrize("name", ["mapping.csv", "acl.json", "12345", "a.b", "A.b.x.1", "A.b.1.2.3.npy", ".A.b.1.2"])
def test_other_names_are_not_raw_dumps(name: str) -> None:
    assert parse_dump_name(name) is None


@pytest.mark.parametrize(("name", "expected"), [
    ("prefix.Op.1783906987170021.output.0.npy", (["Op"], "output", 0, 1783906987170021)),
    ("a.b.c.d.input.2.npy", (["b", "c"], "input", 2, 0)),
    ("dump.Op.output.0.npy", None),  # `*.Op.*.output.0.npy` needs a field between the op and the kind
    (".hidden.Op.x.output.0.npy", None),  # glob's `*` never matches a leading dot
])
def test_loose_npy_names_as_the_reference_globs_them(name: str, expected: tuple[Any, ...] | None) -> None:
    assert loose_npy_fields(name) == expected


def _raw(folder: Path, name: str, op: str, outputs: int = 1, value: float = 1.0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    spec = RawDumpSpec(op, [RawTensorSpec.of(np.full(4, value, np.float32))],
                       [RawTensorSpec.of(np.full(4, value + number, np.float32)) for number in range(outputs)])
    write_raw_dump(folder / name, spec)
    return folder / name


def test_raw_tree_with_mapping_csv_and_hash_names(tmp_path: Path) -> None:
    step = tmp_path / "20250106142301" / "0" / "model" / "1" / "0"
    long_op = "model/" + "very_long_block_name_" * 15 + "Add"
    _raw(step, "AscBackend.fused_1.3.44.1736172181000000", "fused_1", outputs=2)
    _raw(step, "9182736450918273645", long_op)  # a long name written as its hash, listed in mapping.csv
    (step / "mapping.csv").write_text(f"9182736450918273645,Add.{long_op.replace('/', '_')}.4.44.{STAMP}\n"
                                      f"9182736450918273645,Add.{long_op.replace('/', '_')}.4.44.{STAMP}\n")
    _raw(step, "5550001112223334445", "model/unlisted/Mul")  # no mapping line: the header names the op
    index = DumpIndex.build(tmp_path)
    assert index.counts["raw"] == 3 and index.files_indexed == 0
    assert index.lookup("fused_1", "output", 1).path == Path(tensor_path(step / "AscBackend.fused_1.3.44."
                                                                         f"{STAMP}", "output", 1))
    assert index.lookup(long_op, "output", 0).path == Path(tensor_path(step / "9182736450918273645", "output", 0))
    assert index.lookup("model/unlisted/Mul", "input", 0).path is not None
    assert index.describe() == "1 step (0), 3 raw dump files, 0 NPYs"
    tensor, _ = open_dump_tensor(index.paths("fused_1", "output", 1, None, "0")[0])
    assert tensor.materialize().tolist() == [2.0] * 4


def test_newest_raw_dump_wins_and_duplicates_are_said(tmp_path: Path) -> None:
    _raw(tmp_path, f"Add.add.3.44.{STAMP}", "add", value=1.0)
    _raw(tmp_path, f"Add.add.3.44.{STAMP + 500}", "add", value=9.0)
    index = DumpIndex.build(tmp_path)
    tensor, _ = open_dump_tensor(index.paths("add", "output", 0, None, None)[0])
    assert tensor.materialize()[0] == 9.0
    assert len(index.occurrences("add", "output", 0)) == 2
    assert any("several times" in line and "add" in line for line in index.warnings)


def test_npy_wins_over_the_raw_dump_it_was_converted_from(tmp_path: Path) -> None:
    raw = _raw(tmp_path, f"Add.add.3.44.{STAMP}", "add", value=1.0)
    np.save(tmp_path / f"Add.add.3.44.{STAMP}.output.0.npy", np.full(4, 5.0, np.float32))
    index = DumpIndex.build(tmp_path)
    assert index.paths("add", "output", 0, None, None) == [str(tmp_path / f"Add.add.3.44.{STAMP}.output.0.npy")]
    assert index.paths("add", "input", 0, None, None) == [tensor_path(raw, "input", 0)]


def test_stats_csvs_among_tensors_are_left_out_and_said(tmp_path: Path) -> None:
    _raw(tmp_path, f"Add.add.3.44.{STAMP}", "add")
    (tmp_path / f"Add.add.3.44.{STAMP}.csv").write_text("Input/Output,Index\n")
    index = DumpIndex.build(tmp_path)
    assert index.counts["stats"] == 1 and not index.statistics_only
    notice = next(notice for notice in index.notices if notice.kind == "stats_csv_ignored")
    assert "1 statistics CSV" in notice.message


def test_a_statistics_only_tree(tmp_path: Path) -> None:
    for number in range(3):
        (tmp_path / f"Add.add_{number}.3.44.{STAMP}.csv").write_text("Input/Output,Index\n")
    index = DumpIndex.build(tmp_path)
    assert index.statistics_only and index.has_op("add_1")
    assert index.stats_paths("add_2", None, None) == [str(tmp_path / f"Add.add_2.3.44.{STAMP}.csv")]
    assert "3 statistics CSVs" in index.describe()


_STRICT = re.compile(r"([^.]+)\.([^.]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)\.(input|output)\.([0-9]+)\.npy")


def test_loosely_named_npys_compare_like_the_originals(tmp_path: Path) -> None:
    """`prefix.{op}.{time}.{kind}.{i}.npy` (the reference's fixtures): FILE_NOT_FOUND before, compared now."""
    root = tmp_path / "case"
    generate_case(root, full_coverage_spec())
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    loose = tmp_path / "loose"
    renamed = 0
    for side in ("af_open", "af_close"):
        source = root / manifest["data"][side]
        shutil.copytree(source, loose / side)
        for path in (loose / side).rglob("*.npy"):
            match = _STRICT.fullmatch(path.name)
            if match is not None:
                path.rename(path.with_name(f"dump.{match[2]}.{match[5]}.{match[6]}.{match[7]}.npy"))
                renamed += 1
    assert renamed > 100
    graphs = [root / manifest["graphs"][side] for side in ("af_open", "af_close")]
    strict = run_mode1(RunSpec(*graphs, root / manifest["data"]["af_open"], root / manifest["data"]["af_close"]))
    lenient = run_mode1(RunSpec(*graphs, loose / "af_open", loose / "af_close"))
    assert [(row.key, row.status, row.verdict) for row in strict.rows] == [
        (row.key, row.status, row.verdict) for row in lenient.rows]
    assert any(notice.kind == "loose_npy_names" for notice in lenient.notices)
