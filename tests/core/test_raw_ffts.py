"""FFTS+ ops: several thread files of one op dump merged into the whole tensor, indexed once, compared once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autofuse_studio.core.dumps.index import DumpIndex
from autofuse_studio.core.dumps.tensors import open_dump_tensor, tensor_path
from autofuse_studio.core.precision.pair import PairSide, compare_pair
from autofuse_studio.core.precision.pair_batch import compare_pairs
from tests.synth.raw_writer import RawDumpSpec, RawTensorSpec, write_raw_dump

STAMP = 1736172181000000


def _slices(shape: tuple[int, ...], axis: int, threads: int) -> list[list[dict[str, int]]]:
    """Per thread, the [lower, higher) of every dim of one tensor cut evenly along `axis`."""
    step = shape[axis] // threads
    return [[{"lower": number * step if dim == axis else 0,
              "higher": (number + 1) * step if dim == axis else shape[dim]} for dim in range(len(shape))]
            for number in range(threads)]


def _thread_files(folder: Path, whole: np.ndarray, axis: int, threads: int, slicing: dict[str, Any] | None,
                  name: str = "Conv2D.conv1.5.2", header_shape_whole: bool = False,
                  style: str = "aicpu") -> list[Path]:
    """Write one FFTS+ op dump as `threads` thread files, each holding its slice of output 0 and input 0."""
    folder.mkdir(parents=True, exist_ok=True)
    parts = np.array_split(whole, threads, axis=axis)
    paths = []
    for number, part in enumerate(parts):
        output = RawTensorSpec.of(part)
        if header_shape_whole:  # auto mode: the header carries the whole tensor's shape, the bytes the slice
            output.shape = whole.shape
        spec = RawDumpSpec("conv1", [RawTensorSpec.of(part)], [output], dump_time=STAMP + number, slicing=slicing)
        if style == "aicpu":
            file_name = f"{name}.{STAMP + number}.4.330.{number}.0"
        elif style == "host":
            file_name = f"{name}.{STAMP + number}.FFTSPLUS.7.{number}.0"
        else:  # manual (lx-slice) mode
            op_type, op_name, *rest = name.split(".")
            file_name = ".".join([op_type, f"{op_name}_lxslice{number}", *rest, str(STAMP + number), "4", "330", "0",
                                  "0"])
        write_raw_dump(folder / file_name, spec)
        paths.append(folder / file_name)
    return paths


WHOLE = np.arange(2 * 8 * 3 * 4, dtype=np.float32).reshape(2, 8, 3, 4)


@pytest.mark.parametrize("style", ["aicpu", "host", "manual"])
@pytest.mark.parametrize("threads", [2, 4])
def test_threads_merged_by_the_slice_ranges(tmp_path: Path, style: str, threads: int) -> None:
    slicing = {"threadMode": style != "manual", "slice_instance_num": threads,
               "outputCutList": [[1, threads, 1, 1]], "input_tensor_slice": [[s] for s in _slices(WHOLE.shape, 1,
                                                                                                   threads)],
               "output_tensor_slice": [[s] for s in _slices(WHOLE.shape, 1, threads)]}
    _thread_files(tmp_path, WHOLE, 1, threads, slicing, header_shape_whole=style != "manual", style=style)
    index = DumpIndex.build(tmp_path)
    assert index.counts["raw"] == 1  # one op dump, not `threads` occurrences
    assert len(index.occurrences("conv1", "output", 0)) == 1
    for kind in ("output", "input"):
        tensor, _ = open_dump_tensor(index.paths("conv1", kind, 0, None, None)[0])
        np.testing.assert_array_equal(tensor.materialize(), WHOLE)
        assert f"merged from {threads} FFTS+ thread files" in tensor.note


def test_threads_concatenated_along_the_cut_axis(tmp_path: Path) -> None:
    slicing = {"threadMode": False, "slice_instance_num": 2, "outputCutList": [[1, 1, 1, 2]]}
    _thread_files(tmp_path, WHOLE, 3, 2, slicing)
    path = DumpIndex.build(tmp_path).paths("conv1", "output", 0, None, None)[0]
    tensor, _ = open_dump_tensor(path)
    np.testing.assert_array_equal(tensor.materialize(), WHOLE)
    assert "along axis 3" in tensor.note


def test_without_a_description_the_newest_thread_is_used_and_said(tmp_path: Path) -> None:
    files = _thread_files(tmp_path, WHOLE, 1, 2, None)
    path = DumpIndex.build(tmp_path).paths("conv1", "output", 0, None, None)[0]
    tensor, _ = open_dump_tensor(path)
    np.testing.assert_array_equal(tensor.materialize(), np.array_split(WHOLE, 2, axis=1)[1])
    assert "no slice description" in tensor.note and files[1].name in tensor.note


def test_a_missing_thread_file_is_said(tmp_path: Path) -> None:
    slicing = {"threadMode": True, "slice_instance_num": 3, "outputCutList": [[1, 3, 1, 1]]}
    whole = WHOLE[:, :6]
    files = _thread_files(tmp_path, whole, 1, 3, slicing)
    files[2].unlink()
    path = DumpIndex.build(tmp_path).paths("conv1", "output", 0, None, None)[0]
    tensor, _ = open_dump_tensor(path)
    assert tensor.shape == (2, 4, 3, 4)
    assert "2 thread files for 3 slices" in tensor.note


def test_merged_pairs_compare_with_the_note_in_the_message(tmp_path: Path) -> None:
    slicing = {"threadMode": True, "slice_instance_num": 2, "outputCutList": [[1, 2, 1, 1]]}
    _thread_files(tmp_path / "open", WHOLE, 1, 2, slicing)
    origin = tmp_path / "close" / f"Conv2D.conv1.9.9.{STAMP}"
    origin.parent.mkdir()
    write_raw_dump(origin, RawDumpSpec("conv1", [], [RawTensorSpec.of(WHOLE)]))
    fused_path = DumpIndex.build(tmp_path / "open").paths("conv1", "output", 0, None, None)[0]
    key = (PairSide(Path(fused_path), None, "fused"), PairSide(Path(tensor_path(origin, "output", 0)), None, "o"))
    single = compare_pair(*key)
    assert single.status == "OK" and single.metrics is not None and single.metrics.max_abs_err == 0
    assert "merged from 2 FFTS+ thread files" in single.message
    assert compare_pairs([key])[key] == single  # the batched path leaves FFTS+ pairs to compare_pair


def test_a_thread_whose_bytes_do_not_fit_its_slice(tmp_path: Path) -> None:
    slicing = {"threadMode": True, "slice_instance_num": 2,
               "output_tensor_slice": [[s] for s in _slices((2, 8, 3, 5), 1, 2)]}  # one column too many
    _thread_files(tmp_path, WHOLE, 1, 2, slicing)
    path = DumpIndex.build(tmp_path).paths("conv1", "output", 0, None, None)[0]
    with pytest.raises(Exception, match="FFTS\\+ thread file"):
        open_dump_tensor(path)
