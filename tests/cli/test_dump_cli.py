"""`autofuse-studio dump convert`: NPYs from the raw twin of a case, exit codes, --force, refused folders, links."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from autofuse_studio.cli import main
from tests.core.test_dump_convert import _real_names
from tests.synth import full_coverage_spec, generate_case
from tests.synth.case import load_manifest
from tests.synth.raw_twin import twin_case
from tests.synth.raw_writer import RawDumpSpec, RawTensorSpec, write_raw_dump

SIDES = ("af_open", "af_close")
NAME = "Add.op_{}.3.4.1736172181001234"


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    root = tmp_path_factory.mktemp("dump_cli") / "case"
    generate_case(root, full_coverage_spec())
    manifest = load_manifest(root)
    return {"npy": {side: root / manifest["data"][side] for side in SIDES},
            "raw": twin_case(root, root.parent / "raw", "raw", nano_every=3)}


def _names(root: Path) -> dict[str, Path]:
    """Relative real name (mapping.csv resolved) -> file, for every NPY under root."""
    return {name: path for name, path in _real_names(root).items() if name.endswith(".npy")}


def _values(path: Path) -> np.ndarray:
    array: np.ndarray = np.load(path, allow_pickle=False)
    if array.dtype.kind == "V":  # bf16 bits in the case's NPYs; converted dumps hold float32
        decoded: np.ndarray = (array.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        return decoded
    return array


def _dump(folder: Path, op: str, *arrays: np.ndarray) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NAME.format(op)
    write_raw_dump(path, RawDumpSpec(f"op_{op}", outputs=[RawTensorSpec.of(array) for array in arrays]))
    return path


def test_convert_writes_the_case_npys(case: dict[str, dict[str, Path]], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    for side in SIDES:
        out = tmp_path / side
        assert main(["dump", "convert", str(case["raw"][side]), "-o", str(out)]) == 0
        captured = capsys.readouterr()
        assert captured.out.startswith("Converted ") and str(out) in captured.out
        original, ours = _names(case["npy"][side]), _names(out)
        assert ours and set(ours) <= set(original)
        for name, path in ours.items():
            mine, theirs = np.load(path), _values(original[name])
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs, equal_nan=True), name
        missing = set(original) - set(ours)
        # Only the case's garbage and pickled NPYs (their raw tensors cannot be read) are left out, with a warning.
        assert len(missing) == (4 if side == "af_open" else 0)
        assert ("WARNING: 4 tensors could not be read" in captured.err) == (side == "af_open")


def test_force_is_needed_for_an_occupied_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "in", tmp_path / "out"
    _dump(source, "a", np.arange(6, dtype=np.float32))
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    assert main(["dump", "convert", str(source), "-o", str(out)]) == 1
    assert "use --force" in capsys.readouterr().err
    assert sorted(path.name for path in out.iterdir()) == ["keep.txt"]
    assert main(["dump", "convert", str(source), "-o", str(out), "--force"]) == 0
    assert main(["dump", "convert", str(source), "-o", str(out), "--force"]) == 0  # again: replaced in place
    assert sorted(path.name for path in out.iterdir()) == [f"{NAME.format('a')}.output.0.npy", "keep.txt"]
    assert (out / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_output_inside_the_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in"
    _dump(source, "a", np.zeros(2, np.float16))
    assert main(["dump", "convert", str(source), "-o", str(source / "npy")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: The output folder") and "inside the input folder" in err
    assert not (source / "npy").exists()


def test_missing_output_option_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["dump", "convert", str(tmp_path)])
    assert exited.value.code == 2


def test_hostile_files_warn_and_the_rest_converts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "in", tmp_path / "out"
    _dump(source, "good", np.arange(4, dtype=np.int32), np.ones((2, 2), np.float16))
    cut = _dump(source, "cut", np.arange(100, dtype=np.float32))
    cut.write_bytes(cut.read_bytes()[:200])
    (source / NAME.format("past_end")).write_bytes(struct.pack("<Q", 10_000) + bytes(40))
    assert main(["dump", "convert", str(source), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "Converted 2 tensors from 1 dump file" in captured.out
    warnings = [line for line in captured.err.splitlines() if line.startswith("WARNING:")]
    assert len(warnings) == 1 and "2 dump files under" in warnings[0] and "could not be read" in warnings[0]
    np.testing.assert_array_equal(np.load(out / f"{NAME.format('good')}.output.0.npy"), np.arange(4))


def test_nothing_converted_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / NAME.format("past_end")).write_bytes(struct.pack("<Q", 1 << 50) + bytes(40))
    assert main(["dump", "convert", str(source), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "WARNING: 1 dump file under" in err and "ERROR: No tensor could be converted" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["dump", "convert", str(empty), "-o", str(tmp_path / "out2")]) == 1
    assert "No raw or nano dump file was found under" in capsys.readouterr().err


def test_links_leading_outside_are_not_followed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, outside, out = tmp_path / "in", tmp_path / "outside", tmp_path / "out"
    _dump(source, "mine", np.zeros(3, np.float32))
    _dump(outside, "foreign", np.ones(3, np.float32))
    (source / "link").symlink_to(outside, target_is_directory=True)
    assert main(["dump", "convert", str(source), "-o", str(out)]) == 0
    assert "lead outside it and were not followed" in capsys.readouterr().err
    assert [path.name for path in out.rglob("*.npy")] == [f"{NAME.format('mine')}.output.0.npy"]


def test_origin_layout_names_carry_the_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "in", tmp_path / "out"
    folder = source / "0"
    folder.mkdir(parents=True)
    device = np.zeros((1, 1, 2, 3, 16), np.float16)
    device[..., :5] = np.arange(30, dtype=np.float16).reshape(1, 2, 3, 5)
    spec = RawDumpSpec("op_nz", outputs=[RawTensorSpec.of(device, "NC1HWC0", (1, 2, 3, 5))])
    write_raw_dump(folder / NAME.format("nz"), spec)
    assert main(["dump", "convert", str(source), "-o", str(out), "--origin-layout"]) == 0
    written = out / "0" / f"{NAME.format('nz')}.output.0.1x2x3x5.npy"
    np.testing.assert_array_equal(np.load(written), np.arange(30, dtype=np.float16).reshape(1, 2, 3, 5))
    assert "Converted 1 tensor from 1 dump file" in capsys.readouterr().out
