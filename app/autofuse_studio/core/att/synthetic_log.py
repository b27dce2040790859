"""Generates ATT logs with known content (tests, benchmarks and demos): [PROF] records in noise."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

NOISE = ("[INFO] GE(12345,python):2024-01-01-00:00:00.000.000 [tiling_func.cc:{n}] "
         "Set input params for tiling case of AscGraph. S0 = 512. S1 = 512. padding {pad}\n")
VALUE_NAMES = ("s0t_size", "s1t_size", "ub_size", "block_dim", "AIV_MTE2", "AIV_MTE3")


@dataclass(frozen=True)
class SyntheticShape:
    """How many operators, results, groups and cases, and noise lines between [PROF] lines."""

    operators: int = 3
    results: int = 2
    groups: int = 2
    cases: int = 2
    noise_per_case: int = 2
    noise_width: int = 0


def value_of(op: int, result: int, group: int, case: int, index: int) -> float:
    """The deterministic value written for a tiling value (index into VALUE_NAMES)."""
    return float(op * 1000 + result * 100 + group * 10 + case + index) + 0.5


def objective_of(op: int, result: int, group: int, case: int) -> float:
    """The objective written for a case; case 0 is always the cheapest (hence the selection)."""
    return 1000.0 * (case + 1) + op + result + group


def selected_result(op: int, results: int) -> int:
    """The schedule result announced as the best for an operator."""
    return op % results


def _operator_lines(op: int, shape: SyntheticShape, noise: str) -> list[str]:
    name = f"Op{op}"
    lines: list[str] = []
    for result in range(shape.results):
        for group in range(shape.groups):
            for case in range(shape.cases):
                label = f"graph0_result{result}_g{group}_{case}"
                lines += [noise] * shape.noise_per_case
                for index, value_name in enumerate(VALUE_NAMES):
                    value = value_of(op, result, group, case, index)
                    lines.append(f"[{name}] [PROF]The value of {value_name} is {value} in {label}.\n")
                objective = objective_of(op, result, group, case)
                lines.append(f"[{name}] [PROF]The objective value of the tiling data is {objective} in {label}.\n")
            lines.append(f"[{name}] [PROF]Among the templates, tiling case 0 of graph0_result{result}_g{group} "
                         "is the best choice.\n")
        lines.append(f"[{name}] The value of graph0_result{result} is {objective_of(op, result, 0, 0)}.\n")
    best = selected_result(op, shape.results)
    lines.append(f"[{name}] [PROF]Among all schedule results, graph0_result{best} is the best choice.\n")
    return lines


def write_synthetic_log(path: Path, shape: SyntheticShape) -> int:
    """Write the log; returns its size in bytes."""
    noise = NOISE.format(n=1234, pad="x" * shape.noise_width)
    size = 0
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        for op in range(shape.operators):
            text = "".join(_operator_lines(op, shape, noise))
            handle.write(text)
            size += len(text.encode("utf-8"))
    return size
