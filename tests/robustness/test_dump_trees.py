"""Hostile dump trees through the real CLI: links out of the chosen folder, an unreadable root, empty trees."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from tests.robustness.conftest import run_cli
from tests.synth import CaseManifest, generate_case
from tests.synth.spec import multi_rank_spec


@pytest.fixture
def case(tmp_path: Path) -> tuple[Path, CaseManifest]:
    root = tmp_path / "case"
    return root, generate_case(root, multi_rank_spec(ranks=2, culprit_rank=1, steps=1))


def _args(root: Path, manifest: CaseManifest, *extra: str) -> list[str]:
    return ["nwa", "--af-open-graph", str(root / manifest.graphs["af_open"]),
            "--af-close-graph", str(root / manifest.graphs["af_close"]),
            "--af-open-data", str(root / manifest.data["af_open"]),
            "--af-close-data", str(root / manifest.data["af_close"]), *extra]


def test_links_out_of_the_dump_folder_are_not_followed(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    root, manifest = case
    rank_dir = root / manifest.rank_dirs["af_open"]["0"]["0"]
    # A foreign NPY for the culprit op, newer than every real dump: picked if the link were followed.
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    real = next(rank_dir.glob("AscBackend.autofuse_0_*.output.0.npy"))
    parts = real.name.split(".")
    parts[4] = "9999999999999999"
    np.save(foreign / ".".join(parts), np.full(np.load(real).shape, 1e4, dtype=np.float16))
    (rank_dir / "escape_to_root").symlink_to("/", target_is_directory=True)
    (rank_dir / "escape_to_foreign").symlink_to(foreign, target_is_directory=True)
    out = tmp_path / "out.json"
    run = run_cli(*_args(root, manifest, "--output", str(out)), timeout=60)
    assert run.returncode == 0
    assert "2 links under" in run.stdout and "were not followed" in run.stdout
    document = json.loads(out.read_text(encoding="utf-8"))
    data_root = str(root)
    assert all(row["fused_file"] is None or row["fused_file"].startswith(data_root) for row in document["rows"])
    assert {row["verdict"] for row in document["rows"] if row["rank"] == "0"} == {"OK"}
    assert document["first_divergence"]["rank"] == "1"


def test_a_file_given_as_dump_folder_and_an_empty_tree(case: tuple[Path, CaseManifest], tmp_path: Path) -> None:
    root, manifest = case
    empty = tmp_path / "empty"
    empty.mkdir()
    args = _args(root, manifest)
    args[args.index("--af-close-data") + 1] = str(empty)
    run = run_cli(*args)
    assert run.returncode == 0  # nothing to compare is a result (as the reference), every row says why
    assert f"The af-close dump folder {empty} holds no dump files" in run.stdout
    assert "RANK_NOT_FOUND 12" in run.stdout
    args[args.index("--af-close-data") + 1] = str(root / manifest.graphs["af_close"])
    run = run_cli(*args)
    assert run.returncode == 1
    assert "datadump 目录不存在" in run.output and str(root / manifest.graphs["af_close"]) in run.output


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads every folder")
def test_unreadable_dump_root_is_an_input_error(case: tuple[Path, CaseManifest]) -> None:
    root, manifest = case
    data = root / manifest.data["af_close"]
    data.chmod(0)
    try:
        run = run_cli(*_args(root, manifest))
    finally:
        data.chmod(0o755)
    assert run.returncode == 1
    assert f"Cannot read the dump folder {data}" in run.output
