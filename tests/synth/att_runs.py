"""Generated run roots (tests, benchmarks, demos): a default and a candidate run whose operators differ on purpose.

Each operator's lines follow att_log (values, objectives, template selections, result perf, best result)
with optional [PERF] lines from att_perf_log; `changes` alters single operators in the candidate.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, cast

from tests.synth.att_log import (
    NOISE,
    VALUE_NAMES,
    SyntheticShape,
    objective_of,
    selected_result,
    value_of,
)
from tests.synth.att_perf_log import pipe_terms

PREFIX = "[INFO] GE(4242,python):2024-05-01-10:00:00.000.000 [tiling_func.cc:88] "
# What a change does to one operator of the candidate run.
CASE, RESULT, SLOWER, FASTER, VALUES, GONE = "case", "result", "slower", "faster", "values", "gone"


@dataclass(frozen=True)
class Variant:
    """The choices written for one operator."""

    best: int
    case: int = 0  # the case selected in group 0 (other groups select case 0)
    perf_scale: float = 1.0
    value_shift: float = 0.0


def variant(op: int, shape: SyntheticShape, change: str | None) -> Variant:
    """The variant of an operator under a change (None: as in the default run)."""
    best = selected_result(op, shape.results)
    if change == CASE:
        return Variant(best, case=min(2, shape.cases - 1))
    if change == RESULT:
        return Variant((best + 1) % shape.results)
    if change in (SLOWER, FASTER):
        return Variant(best, perf_scale=1.25 if change == SLOWER else 0.8)
    if change == VALUES:
        return Variant(best, value_shift=1.0)
    return Variant(best)


def operator_lines(op: int, shape: SyntheticShape, var: Variant, noise: str, prefix: str,
                   perf: bool) -> list[str]:
    """Every line of one operator; ATT lines carry `prefix` (e.g. a GE slog header)."""
    name, lines = f"Op{op}", []
    for result in range(shape.results):
        for group in range(shape.groups):
            for case in range(shape.cases):
                label = f"graph0_result{result}_g{group}_{case}"
                lines += [noise] * shape.noise_per_case
                for index, value_name in enumerate(VALUE_NAMES):
                    value = value_of(op, result, group, case, index) + (var.value_shift if index == 0 else 0.0)
                    lines.append(f"{prefix}[{name}] [PROF]The value of {value_name} is {value} in {label}.\n")
                lines.append(f"{prefix}[{name}] [PROF]The objective value of the tiling data is "
                             f"{objective_of(op, result, group, case)} in {label}.\n")
                if perf:
                    lines += _perf_lines(name, op, result, group, case, prefix)
            chosen = var.case if group == 0 else 0
            lines.append(f"{prefix}[{name}] [PROF]Among the templates, tiling case {chosen} of "
                         f"graph0_result{result}_g{group} is the best choice.\n")
        perf_value = round(objective_of(op, result, 0, 0) * var.perf_scale, 6)
        lines.append(f"{prefix}[{name}] The value of graph0_result{result} is {perf_value}.\n")
    lines.append(f"{prefix}[{name}] [PROF]Among all schedule results, graph0_result{var.best} is the best choice.\n")
    return lines


def _perf_lines(name: str, op: int, result: int, group: int, case: int, prefix: str) -> list[str]:
    lines = []
    for node, node_type, pipe, terms in pipe_terms(op, group, case):
        formula = " + ".join(f"{term}={value:g}" for term, value in terms.items())
        lines.append(f"{prefix}[{name}] [PERF][graph0_result{result}_g{group}_R{case}] {node}[{node_type}]: "
                     f"{pipe} = ({formula}) = {sum(terms.values()):g}\n")
    return lines


@dataclass
class RunLogSpec:
    """One generated log: where (relative to the side), which operators, prefixed lines or not."""

    path: str
    operators: Sequence[int]
    prefixed: bool = False
    perf: bool = False
    changes: Mapping[int, str] = field(default_factory=dict)


def _chunks(spec: RunLogSpec, shape: SyntheticShape) -> Iterator[str]:
    noise = NOISE.format(n=1234, pad="x" * shape.noise_width)
    prefix = PREFIX if spec.prefixed else ""
    for op in spec.operators:
        change = spec.changes.get(op)
        if change != GONE:
            yield "".join(operator_lines(op, shape, variant(op, shape, change), noise, prefix, spec.perf))


def write_run_log(side: Path, spec: RunLogSpec, shape: SyntheticShape) -> int:
    """Write one log (gzip when its name ends in .gz); returns the uncompressed size in bytes."""
    path = side / spec.path
    path.parent.mkdir(parents=True, exist_ok=True)
    size = 0
    handle: IO[bytes]
    with cast(IO[bytes], gzip.open(path, "wb") if path.name.endswith(".gz") else path.open("wb")) as handle:
        for chunk in _chunks(spec, shape):
            data = chunk.encode("utf-8")
            handle.write(data)
            size += len(data)
    return size


def write_extras(side: Path) -> None:
    """The folders a field run has besides logs: kernel_meta/ and dump/ (never parsed), profiling/, a README."""
    (side / "kernel_meta").mkdir(parents=True, exist_ok=True)
    (side / "kernel_meta" / "te_op_0.o").write_bytes(b"\x7fELF\x00binary")
    (side / "kernel_meta" / "te_op_0.json").write_text('{"kernelName": "[Op0] [PROF]not a log"}\n')
    (side / "dump" / "step0").mkdir(parents=True, exist_ok=True)
    # A dump file that looks like a log: dump/ is never parsed, so Op0 must not gain a value from it.
    (side / "dump" / "step0" / "Add.0.output.0.log").write_text(
        "[Op0] [PROF]The value of x is 1 in graph0_result0_g0_0.\n")
    (side / "profiling").mkdir(parents=True, exist_ok=True)
    (side / "profiling" / "op_summary.csv").write_text("Op Name,Task Duration(us)\nOp0,12.5\n")
    (side / "profiling" / "msprof.txt").write_text("profiling finished\n")


def write_run_root(root: Path, shape: SyntheticShape, default: Sequence[RunLogSpec],
                   candidate: Sequence[RunLogSpec], candidate_name: str = "pgo", default_name: str = "default",
                   extras: bool = True) -> Path:
    """A run root with the two runs' logs (and, with `extras`, kernel_meta/, dump/ and profiling/ folders)."""
    for name, specs in ((default_name, default), (candidate_name, candidate)):
        side = root / name
        side.mkdir(parents=True, exist_ok=True)
        for spec in specs:
            write_run_log(side, spec, shape)
        if extras:
            write_extras(side)
    return root
