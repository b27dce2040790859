"""Role detection of dropped paths and *.afcase round trips (no Qt)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.core import case as case_module
from autofuse_studio.core.case import (
    CaseFiles,
    detect_roles,
    graph_has_fused_ops,
    load_case_file,
    merge,
    save_case,
    thresholds_from_dict,
)
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.thresholds import Limits, Thresholds
from tests.synth import demo_spec, generate_case

OPEN_GRAPH = {"graph": [{"name": "g", "op": [{"name": "autofuse_1_Mul", "type": "AscBackend", "output_desc": [
    {"attr": [{"key": "_datadump_origin_name", "value": {"s": "Mul_1"}}]}]}]}]}
CLOSE_GRAPH = {"graph": [{"name": "g", "op": [{"name": "Mul_1", "type": "Mul"}]}]}


def _npy(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, np.arange(4, dtype=np.float32))


def _run_folder(root: Path, open_name: str = "af_open", close_name: str = "af_close") -> Path:
    (root / open_name).mkdir(parents=True)
    (root / close_name).mkdir(parents=True)
    (root / open_name / "ge_proto_1_Build.json").write_text(json.dumps(OPEN_GRAPH))
    (root / close_name / "ge_proto_2_Build.json").write_text(json.dumps(CLOSE_GRAPH))
    _npy(root / open_name / "dump" / "0" / "AscBackend.autofuse_1_Mul.3.44.1783906987170021.output.0.npy")
    _npy(root / close_name / "dump" / "0" / "X.Mul_1.9.44.1783906974676130.output.0.npy")
    return root


def test_run_folder_gives_all_four_roles(tmp_path: Path) -> None:
    root = _run_folder(tmp_path / "run")
    found = detect_roles([root])
    assert found.case.af_open_graph == root / "af_open" / "ge_proto_1_Build.json"
    assert found.case.af_close_graph == root / "af_close" / "ge_proto_2_Build.json"
    assert found.case.af_open_data == root / "af_open" / "dump"
    assert found.case.af_close_data == root / "af_close" / "dump"
    assert found.case.mode == 1
    assert found.case.problems() == []


def test_content_beats_names_and_order(tmp_path: Path) -> None:
    # Folder names say the opposite of the content: the content (AscBackend) decides.
    root = _run_folder(tmp_path / "run", open_name="b_close", close_name="a_open")
    found = detect_roles([root / "a_open", root / "b_close"])
    assert found.case.af_open_graph is not None and found.case.af_open_graph.parent.name == "b_close"
    assert found.case.af_open_data == root / "b_close" / "dump"
    assert found.case.af_close_data == root / "a_open" / "dump"


def test_dump_folders_and_graph_files_separately(tmp_path: Path) -> None:
    root = _run_folder(tmp_path / "run")
    found = detect_roles([root / "af_close" / "dump", root / "af_open" / "ge_proto_1_Build.json",
                          root / "af_open" / "dump", root / "af_close" / "ge_proto_2_Build.json"])
    assert (found.case.af_open_data, found.case.af_close_data) == (root / "af_open" / "dump",
                                                                   root / "af_close" / "dump")
    assert found.case.af_open_graph is not None and found.case.af_open_graph.name == "ge_proto_1_Build.json"


def test_two_plain_dumps_use_name_hints(tmp_path: Path) -> None:
    _npy(tmp_path / "x_af_close" / "X.Mul_1.9.44.1.output.0.npy")
    _npy(tmp_path / "y_af_open" / "Mul.Mul_1.9.44.1.output.0.npy")
    found = detect_roles([tmp_path / "x_af_close", tmp_path / "y_af_open"])
    assert found.case.af_open_data == tmp_path / "y_af_open"
    assert found.case.af_close_data == tmp_path / "x_af_close"


def test_two_npys_are_mode_2_and_extras_are_noted(tmp_path: Path) -> None:
    paths = [tmp_path / f"{name}.npy" for name in "abc"]
    for path in paths:
        _npy(path)
    found = detect_roles(paths)
    assert found.case.mode == 2
    assert (found.case.npy_a, found.case.npy_b) == (paths[0], paths[1])
    assert any("c.npy" in note for note in found.notes)


def test_unknown_items_become_notes(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("hello")
    (tmp_path / "empty").mkdir()
    found = detect_roles([tmp_path / "notes.md", tmp_path / "empty"])
    assert len(found.notes) == 2
    assert found.case.problems()[0].startswith("The af-open graph is not set")


def test_generated_demo_case_is_detected(tmp_path: Path) -> None:
    manifest = generate_case(tmp_path / "demo", demo_spec())
    found = detect_roles([tmp_path / "demo"])
    assert found.case.af_open_graph == (tmp_path / "demo" / manifest.graphs["af_open"]).resolve()
    assert found.case.af_close_data == (tmp_path / "demo" / manifest.data["af_close"]).resolve()


def test_fused_marker_across_chunk_boundary(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(b'{"graph": [' + b" " * ((1 << 20) - 15) + b'"AscBackend"]}')
    assert graph_has_fused_ops(path)
    path.write_bytes(b'{"graph": []}')
    assert not graph_has_fused_ops(path)


def test_missing_inputs_are_sentences(tmp_path: Path) -> None:
    case = CaseFiles(tmp_path / "nope.json", tmp_path / "nope2.json", tmp_path / "nodir", tmp_path)
    problems = case.problems()
    assert len(problems) == 3
    assert all(problem.endswith(".") and ("nope" in problem or "nodir" in problem) for problem in problems)
    with pytest.raises(InputError):
        case.spec()


def test_merge_replaces_only_found_roles(tmp_path: Path) -> None:
    base = CaseFiles(af_open_graph=tmp_path / "a.json", af_close_data=tmp_path / "c")
    merged = merge(base, CaseFiles(af_close_data=tmp_path / "d"))
    assert merged.af_open_graph == tmp_path / "a.json"
    assert merged.af_close_data == tmp_path / "d"
    assert merge(merged, CaseFiles(npy_a=tmp_path / "x.npy")).af_open_graph is None


def test_case_file_round_trip_with_relative_paths(tmp_path: Path) -> None:
    root = _run_folder(tmp_path / "run")
    case = detect_roles([root]).case
    case.compare_input, case.step = True, "0"
    case.thresholds = Thresholds(Limits(0.995, None, 0.5), {"float16": Limits(0.98, 1e-3, None)})
    case.view = {"sort_column": "cosine", "text": "Mul"}
    path = save_case(case, root / "mine")
    assert path.name == "mine.afcase"
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["af_open_graph"] == "af_open/ge_proto_1_Build.json"
    moved = tmp_path / "moved"
    root.rename(moved)
    loaded = load_case_file(moved / "mine.afcase")
    assert loaded.af_open_data == (moved / "af_open" / "dump").resolve()
    assert loaded.thresholds == case.thresholds
    assert (loaded.compare_input, loaded.step, loaded.view) == (True, "0", case.view)


@pytest.mark.parametrize("text", ["{", "[]", '{"format": "other"}'])
def test_bad_case_files_raise_sentences(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.afcase"
    path.write_text(text)
    with pytest.raises(InputError, match=r"bad\.afcase"):
        load_case_file(path)


def test_thresholds_from_dict_rejects_text() -> None:
    assert thresholds_from_dict({}) == Thresholds()
    with pytest.raises(InputError):
        thresholds_from_dict({"default": {"cosine": "high"}})


def _sorted_scan(path: Path, depth: int, budget: list[int]) -> case_module._Tree:
    """The scan as it was: every entry in name order (the reference for the faster one)."""
    tree = case_module._Tree(path)
    for entry in sorted(os.scandir(path), key=lambda entry: entry.name):
        budget[0] -= 1
        if budget[0] < 0:
            break
        if entry.is_dir() and depth < case_module._MAX_DEPTH:
            child = _sorted_scan(Path(entry.path), depth + 1, budget)
            tree.children.append(child)
            tree.dumps += child.dumps
            tree.asc_dumps += child.asc_dumps
            tree.graphs += child.graphs
        elif entry.name.endswith(".npy"):
            tree.dumps += 1
            tree.asc_dumps += entry.name.startswith(case_module._ASC_PREFIXES)
        elif entry.is_file() and case_module.is_graph_file(Path(entry.path)):
            tree.graphs.append(Path(entry.path))
    return tree


@pytest.mark.parametrize("seed", range(12))
def test_the_folder_scan_counts_as_a_sorted_scan_and_cuts_huge_trees_alike_on_any_file_system(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "tree"

    def fill(folder: Path, depth: int) -> None:
        folder.mkdir(parents=True)
        for number in range(rng.randint(0, 40)):
            kind = rng.choice(["npy", "npy", "asc", "graph", "other", "dir", "dir_named_npy"])
            name = f"{rng.randint(0, 999):03d}_{number}"
            if kind in ("npy", "asc"):
                (folder / f"{'AscBackend.' if kind == 'asc' else 'Add.'}{name}.output.0.npy").write_bytes(b"x")
            elif kind == "graph":
                (folder / f"ge_proto_{name}_Build.json").write_text(json.dumps(CLOSE_GRAPH))
            elif kind == "other":
                (folder / f"{name}.txt").write_text("x")
            elif depth < 3:
                fill(folder / (f"{name}.npy" if kind == "dir_named_npy" else name), depth + 1)

    fill(root, 0)
    total = sum(1 for _ in root.rglob("*"))
    assert case_module._scan(root, 0, [total]) == _sorted_scan(root, 0, [total])
    full = case_module._scan(root, 0, [total + 5])
    assert full == _sorted_scan(root, 0, [total + 5])
    real_scandir = os.scandir

    class Shuffled:  # the same folder listed in another order, as another file system would
        def __init__(self, path: Path) -> None:
            self._scan = real_scandir(path)

        def __enter__(self) -> list[os.DirEntry[str]]:
            entries = list(self._scan.__enter__())
            rng.shuffle(entries)
            return entries

        def __exit__(self, *exc: object) -> None:
            self._scan.__exit__(*exc)

    for budget in (1, 7, total // 3, total // 2, total - 1):
        cut = case_module._scan(root, 0, [budget])  # a huge tree: cut short, but the same cut on any file system
        assert cut.dumps <= full.dumps and set(cut.graphs) <= set(full.graphs)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(case_module.os, "scandir", Shuffled)
            assert case_module._scan(root, 0, [budget]) == cut, budget


def test_a_case_title_names_the_folder_of_its_inputs(tmp_path: Path) -> None:
    from autofuse_studio.core.case import case_title

    job = tmp_path / "job42"
    case = CaseFiles(job / "open.json", job / "close.json", job / "af_open" / "dump", job / "af_close" / "dump")
    assert case_title(case) == "job42"
    assert case_title(CaseFiles(npy_a=tmp_path / "a.npy", npy_b=tmp_path / "b.npy")) == "a.npy vs b.npy"
    assert case_title(CaseFiles()) == ""
