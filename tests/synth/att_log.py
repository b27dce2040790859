"""Generates ATT logs with known content (tests, benchmarks and demos): [PROF] records in noise."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.synth.att_noise import LEGACY, FieldDress, exponent_form

NOISE = ("[INFO] GE(12345,python):2024-01-01-00:00:00.000.000 [tiling_func.cc:{n}] "
         "Set input params for tiling case of AscGraph. S0 = 512. S1 = 512. padding {pad}\n")
VALUE_NAMES = ("s0t_size", "s1t_size", "ub_size", "block_dim", "AIV_MTE2", "AIV_MTE3")


@dataclass(frozen=True)
class SyntheticShape:
    """How many operators, results, groups and cases, and how the log around the [PROF] lines looks.

    The defaults give the original log (noise before each case, records without prefix); the field
    knobs dress it like a real slog/plog: noise before every record, prefixes (see att_noise),
    exponent numbers every n-th value, CRLF line ends.
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
        lines.append(f"{self.dress.prefix()}[{op}] {text}\n")

    def operator_lines(self, op: int) -> list[str]:
        shape, name = self.shape, f"Op{op}"
        lines: list[str] = []
        for result in range(shape.results):
            for group in range(shape.groups):
                for case in range(shape.cases):
                    label = f"graph0_result{result}_g{group}_{case}"
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


def write_synthetic_log(path: Path, shape: SyntheticShape) -> int:
    """Write the log; returns its size in bytes."""
    writer = _Writer(shape)
    with path.open("w", encoding="utf-8", newline="\r\n" if shape.crlf else "\n") as handle:
        for op in range(shape.operators):
            handle.write("".join(writer.operator_lines(op)))
    return path.stat().st_size
