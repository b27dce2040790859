"""Dump folders as msaccucmp convert leaves them: NPY names, timestamps, mapping.csv, broken files."""

from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tests.synth.dag import Array, Dag, Ref
from tests.synth.emit import NO_DUMP_TYPES, Unit, side_units
from tests.synth.evaluate import seeded
from tests.synth.numerics import quantize
from tests.synth.storage import CLOSE, OPEN, device_array, stale_array

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


LOOP_OFFSET = 4.0  # what each earlier loop iteration adds to the looped op's outputs (on both sides)


@dataclass(frozen=True)
class Loop:
    """One fused op (af-open) and its original ops (af-close) dumped `count` times per step, like a While body."""

    group: str
    ops: frozenset[str]
    count: int
    extra_open_dump: bool = False  # one more, stale, af-open dump: the two sides' counts differ

    def dumps(self, side: str, unit: Unit) -> int:
        """How many times `unit` is dumped on `side` in one step."""
        if (side == OPEN and unit.name == self.group) or (side == CLOSE and unit.name in self.ops):
            return self.count + (1 if side == OPEN and self.extra_open_dump else 0)
        return 1


def loop_value(value: Array, dtype: str, occurrence: int, count: int) -> Array:
    """The looped op's output in iteration `occurrence` of `count` (the last one is the value used downstream)."""
    offset = (count - 1 - occurrence) * LOOP_OFFSET
    return value if offset == 0 else quantize(value + np.float32(offset), dtype)


def _unit_files(dag: Dag, side: str, unit: Unit, values: dict[Ref, Array], seed: int,
                step: int, occurrence: tuple[int, int] = (0, 1)) -> list[tuple[str, int, Array]]:
    """(kind, index, array) of every tensor a unit dumps: outputs, plus inputs for fused ops."""
    number, count = occurrence
    files = [("output", k, device_array(dag, side, r, loop_value(values[r], dag.info(r).dtype, number, count),
                                        seed, step)) for k, r in enumerate(unit.outputs)]
    if unit.type in ("AscBackend", "FusedAscBackend"):
        files += [("input", i, device_array(dag, side, r, values[r], seed, step))
                  for i, r in enumerate(unit.inputs)]
    return files


def write_step(dag: Dag, side: str, values: dict[Ref, Array], seed: int, step: int, directory: Path,
               marker: str, stamp_offset: int = 0, loop: Loop | None = None) -> StepWriter:
    """Dump every kernel of one step of one run into `directory` (timestamps shifted by `stamp_offset` µs)."""
    directory.mkdir(parents=True, exist_ok=True)
    writer = StepWriter(directory, marker)
    for order, unit in enumerate(side_units(dag, side)):
        if unit.type in NO_DUMP_TYPES:
            continue
        group = dag.group_of.get(unit.outputs[0].op) if side == OPEN else None
        defects = group.defects if group else frozenset()
        stamp = timestamp(side, step, order) + stamp_offset
        dumps = 1 if loop is None else loop.dumps(side, unit)
        count = 1 if loop is None else loop.count
        files = _unit_files(dag, side, unit, values, seed, step)
        oldest = stamp - 7 * (count - 1)
        if "stale_duplicate" in defects or dumps > count:  # an earlier execution of the same kernel, now stale
            for kind, index, array in files:
                old = npy_name(unit.type, unit.name, order + 1, STREAM_ID[side], oldest - 61, kind, index)
                writer.save(old, stale_array(array, seed, step, old))
        for number in range(min(dumps, count)):
            if dumps > 1:
                files = _unit_files(dag, side, unit, values, seed, step, (number, count))
            at = stamp - 7 * (min(dumps, count) - 1 - number)
            _save_files(writer, unit, side, order, at, files, defects)
    writer.finish()
    return writer


def _save_files(writer: StepWriter, unit: Unit, side: str, order: int, stamp: int,
                files: list[tuple[str, int, Array]], defects: frozenset[str]) -> None:
    for kind, index, array in files:
        defect = next((d for d in FILE_DEFECTS if d in defects), "") if kind == "output" else ""
        if defect == "missing_npy":
            continue
        writer.save(npy_name(unit.type, unit.name, order + 1, STREAM_ID[side], stamp, kind, index), array, defect)
