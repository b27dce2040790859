"""Dump folders as msaccucmp convert leaves them: NPY names, timestamps, mapping.csv, broken files."""

from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from autofuse_studio.core.synth.dag import Array, Dag, Ref
from autofuse_studio.core.synth.emit import NO_DUMP_TYPES, Unit, side_units
from autofuse_studio.core.synth.evaluate import seeded
from autofuse_studio.core.synth.storage import CLOSE, OPEN, device_array, stale_array

TIME_DIR = {OPEN: "20250106142301", CLOSE: "20250106141733"}
BASE_US = {OPEN: 1736172181000000, CLOSE: 1736171853000000}  # 16-digit µs epoch timestamps
STREAM_ID = {OPEN: 44, CLOSE: 9}
MODEL_ID = "1"
MAX_NAME = 255  # longer NPY names are renamed to a uuid (msaccucmp)
FILE_DEFECTS = ("missing_npy", "garbage_npy", "pickle_npy")


def sanitise(name: str) -> str:
    """Dump-name form of an op name or type: '/', '\\', '.', ' ' become '_'."""
    return re.sub(r"[/\\. ]", "_", name)


def npy_name(op_type: str, op_name: str, task: int, stream: int, stamp: int, kind: str, index: int) -> str:
    """`{type}.{name}.{task_id}.{stream_id}.{timestamp}.{input|output}.{i}.npy`."""
    return f"{sanitise(op_type)}.{sanitise(op_name)}.{task}.{stream}.{stamp}.{kind}.{index}.npy"


def timestamp(side: str, step: int, order: int) -> int:
    """µs timestamp of the order-th kernel of a step: strictly increasing in execution order."""
    return BASE_US[side] + step * 60_000_000 + order * 173


class PickleTrap:
    """An object whose unpickling creates `marker`: proof that a loader ran pickle."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        """Unpickling calls os.makedirs(marker)."""
        return (os.makedirs, (self.marker,))


@dataclass
class StepWriter:
    """Writes one step folder and its mapping.csv; counts files and bytes."""

    directory: Path
    marker: str
    mapping: list[str] = field(default_factory=list)
    files: int = 0
    size: int = 0

    def _path(self, name: str) -> Path:
        """Where `name` goes; names of 255+ chars become `<uuid3 hex>.npy` listed in mapping.csv."""
        if len(name) >= MAX_NAME:
            new = uuid.uuid3(uuid.NAMESPACE_DNS, name).hex + ".npy"
            self.mapping.append(f"{new},{name}")
            name = new
        return self.directory / name

    def save(self, name: str, array: Array, defect: str = "") -> None:
        """Write one NPY (or the requested broken variant of it)."""
        path = self._path(name)
        if defect == "garbage_npy":
            path.write_bytes(b"\x93NUMPY" + seeded(0, 0, name).bytes(58))
        elif defect == "pickle_npy":
            trap = np.empty(1, dtype=object)
            trap[0] = PickleTrap(self.marker)
            np.save(path, trap, allow_pickle=True)
        else:
            np.save(path, array, allow_pickle=False)
        self.files += 1
        self.size += path.stat().st_size

    def finish(self) -> None:
        """Write mapping.csv (`new,old` lines, no header) when names were renamed."""
        if self.mapping:
            (self.directory / "mapping.csv").write_text("\n".join(self.mapping) + "\n", encoding="utf-8")


def _unit_files(dag: Dag, side: str, unit: Unit, values: dict[Ref, Array], seed: int,
                step: int) -> list[tuple[str, int, Array]]:
    """(kind, index, array) of every tensor a unit dumps: outputs, plus inputs for fused ops."""
    files = [("output", k, device_array(dag, side, r, values[r], seed, step)) for k, r in enumerate(unit.outputs)]
    if unit.type in ("AscBackend", "FusedAscBackend"):
        files += [("input", i, device_array(dag, side, r, values[r], seed, step))
                  for i, r in enumerate(unit.inputs)]
    return files


def write_step(dag: Dag, side: str, values: dict[Ref, Array], seed: int, step: int, directory: Path,
               marker: str) -> StepWriter:
    """Dump every kernel of one step of one run into `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    writer = StepWriter(directory, marker)
    for order, unit in enumerate(side_units(dag, side)):
        if unit.type in NO_DUMP_TYPES:
            continue
        group = dag.group_of.get(unit.outputs[0].op) if side == OPEN else None
        defects = group.defects if group else frozenset()
        stamp = timestamp(side, step, order)
        files = _unit_files(dag, side, unit, values, seed, step)
        if "stale_duplicate" in defects:  # an earlier execution of the same kernel, now stale
            for kind, index, array in files:
                old = npy_name(unit.type, unit.name, order + 1, STREAM_ID[side], stamp - 61, kind, index)
                writer.save(old, stale_array(array, seed, step, old))
        for kind, index, array in files:
            defect = next((d for d in FILE_DEFECTS if d in defects), "") if kind == "output" else ""
            if defect == "missing_npy":
                continue
            writer.save(npy_name(unit.type, unit.name, order + 1, STREAM_ID[side], stamp, kind, index),
                        array, defect)
    writer.finish()
    return writer
