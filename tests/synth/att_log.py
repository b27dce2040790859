"""Generates ATT logs with known content (tests, benchmarks and demos): [PROF] records in noise."""

from __future__ import annotations

import gzip
import random
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from tests.synth.att_noise import LEGACY, FieldDress, exponent_form

NOISE = ("[INFO] GE(12345,python):2024-01-01-00:00:00.000.000 [tiling_func.cc:{n}] "
         "Set input params for tiling case of AscGraph. S0 = 512. S1 = 512. padding {pad}\n")
_TERMS = ("base_cycles", "head_cost", "tile_loop", "mte_bytes", "repeat", "sync_cost", "tail_cost")
_TYPES = ("Load", "Store", "Add", "Mul", "Cast", "Reduce", "MatMul", "Broadcast")
_PIPES = ("AIV_MTE2", "AIV_MTE3", "AIV_VEC", "AIV_VEC", "AIV_VEC", "AIV_VEC", "AIC_CUBE", "AIV_MTE2")
VALUE_NAMES = ("s0t_size", "s1t_size", "ub_size", "block_dim", "AIV_MTE2", "AIV_MTE3")


@dataclass(frozen=True)
class SyntheticShape:
    """How many operators, results, groups and cases, and how the log around the [PROF] lines looks.

    The defaults give the original log (noise before each case, records without prefix); the field
    knobs dress it like a real slog/plog: noise before every record, prefixes (see att_noise),
    exponent numbers every n-th value, CRLF line ends, a [PERF] formula line of `perf_terms` (min, max)
    terms after about every `perf_every` lines, `prof_tail` characters of context after every record.
    A path ending in `.gz` is written gzip-compressed.
    """

    operators: int = 3
    results: int = 2
    groups: int = 2
    cases: int = 2
    noise_per_case: int = 2
    noise_width: int = 0
    noise_per_record: int = 0
    prefix: str = LEGACY
    exponent_every: int = 0
    crlf: bool = False
    seed: int = 0
    perf_every: int = 0
    perf_terms: tuple[int, int] = (10, 40)
    prof_tail: int = 0


def value_of(op: int, result: int, group: int, case: int, index: int) -> float:
    """The deterministic value written for a tiling value (index into VALUE_NAMES)."""
    return float(op * 1000 + result * 100 + group * 10 + case + index) + 0.5


def objective_of(op: int, result: int, group: int, case: int) -> float:
    """The objective written for a case; case 0 is always the cheapest (hence the selection)."""
    return 1000.0 * (case + 1) + op + result + group


def selected_result(op: int, results: int) -> int:
    """The schedule result announced as the best for an operator."""
    return op % results


class _Writer:
    """Builds the lines of one log: records with prefixes and noise, numbers maybe in exponent form."""

    def __init__(self, shape: SyntheticShape) -> None:
        self.shape = shape
        self.dress = FieldDress(shape.prefix, shape.noise_width, shape.seed)
        self.legacy_noise = NOISE.format(n=1234, pad="x" * shape.noise_width)
        self.numbers = 0
        # Own generators, so the knobs above leave the lines of the other knobs as they were.
        self.perf_rng = random.Random(shape.seed + 7919)
        self.tail = f" | context {'y' * shape.prof_tail}" if shape.prof_tail else ""
        self.label = "graph0_result0_g0_0"
        self.since_perf = 0

    def noise(self, count: int, op: str) -> list[str]:
        if self.shape.prefix == LEGACY:
            return [self.legacy_noise] * count
        return self.dress.noise(count, op)

    def number(self, value: float) -> str:
        self.numbers += 1
        every = self.shape.exponent_every
        if every and self.numbers % every == 0:
            return exponent_form(value, self.numbers // every)
        return str(value)

    def record(self, lines: list[str], op: str, text: str) -> None:
        """Append the noise due before a record, then the record with its prefix."""
        if self.shape.noise_per_record:
            lines += self.noise(self.shape.noise_per_record, op)
        lines.append(f"{self.dress.prefix()}[{op}] {text}{self.tail}\n")
        if self.shape.perf_every:
            self.since_perf += self.shape.noise_per_record + 1
            if self.since_perf >= self.shape.perf_every:
                self.since_perf = 0
                lines.append(self.perf_line(op))

    def perf_line(self, op: str) -> str:
        """A [PERF] formula line of the current case, its term count drawn from shape.perf_terms."""
        rng = self.perf_rng
        low, high = self.shape.perf_terms
        values = [round(rng.uniform(0.0, 500.0), 2) for _ in range(rng.randint(low, high))]
        formula = " + ".join(f"{_TERMS[i % len(_TERMS)]}_{i}={v}" for i, v in enumerate(values))
        node = rng.randrange(8)
        graph, result, group, case = self.label.split("_")
        label = f"{graph}_{result}_{group}_R{case}"
        return (f"{self.dress.prefix()}[{op}] [PERF][{label}] Node_{node}[{_TYPES[node % len(_TYPES)]}]: "
                f"{_PIPES[node % len(_PIPES)]} = ({formula}) = {round(sum(values), 2)}\n")

    def operator_lines(self, op: int) -> list[str]:
        shape, name = self.shape, f"Op{op}"
        lines: list[str] = []
        for result in range(shape.results):
            for group in range(shape.groups):
                for case in range(shape.cases):
                    label = self.label = f"graph0_result{result}_g{group}_{case}"
                    lines += self.noise(shape.noise_per_case, name)
                    for index, value_name in enumerate(VALUE_NAMES):
                        value = self.number(value_of(op, result, group, case, index))
                        self.record(lines, name, f"[PROF]The value of {value_name} is {value} in {label}.")
                    objective = self.number(objective_of(op, result, group, case))
                    self.record(lines, name, f"[PROF]The objective value of the tiling data is {objective} in {label}.")
                self.record(lines, name, f"[PROF]Among the templates, tiling case 0 of graph0_result{result}_g{group} "
                                         "is the best choice.")
            perf = self.number(objective_of(op, result, 0, 0))
            self.record(lines, name, f"The value of graph0_result{result} is {perf}.")
        best = selected_result(op, shape.results)
        self.record(lines, name, f"[PROF]Among all schedule results, graph0_result{best} is the best choice.")
        return lines


def _open_plain(path: Path, newline: str) -> TextIO:
    return path.open("w", encoding="utf-8", newline=newline)


def _open_gzip(path: Path, newline: str) -> TextIO:
    return gzip.open(path, "wt", encoding="utf-8", newline=newline, compresslevel=6)


def write_synthetic_log(path: Path, shape: SyntheticShape) -> int:
    """Write the log; returns its size in bytes."""
    writer = _Writer(shape)
    newline = "\r\n" if shape.crlf else "\n"
    opener = _open_gzip if path.name.endswith(".gz") else _open_plain
    with opener(path, newline) as handle:
        for op in range(shape.operators):
            handle.write("".join(writer.operator_lines(op)))
    return path.stat().st_size
