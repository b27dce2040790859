"""Generated ATT logs with [PERF] formulas and [DFX] compiler blocks on top of att_log's [PROF] lines.

Per case three pipelines (MTE2, MTE3, VEC; CUBE on odd operators) whose costs depend on the case, so
the bottleneck moves between cases and the `tile` term is the most case-sensitive one.
"""

from __future__ import annotations

from pathlib import Path

from tests.synth.att_log import SyntheticShape, write_synthetic_log


def pipe_terms(op: int, group: int, case: int) -> list[tuple[str, str, str, dict[str, float]]]:
    """(node, type, pipe, terms) of one case; deterministic so tests can predict bottlenecks."""
    nodes = [
        ("Load_0", "Load", "AIV_MTE2", {"tile": 100.0 + 60.0 * case, "head": 20.0 + group}),
        ("Store_0", "Store", "AIV_MTE3", {"block": 220.0 - 50.0 * case, "head": 10.0}),
        ("Add_0", "Add", "AIV_VEC", {"base": 40.0 + op, "repeat": 0.0 if case % 2 else 5.0}),
    ]
    if op % 2:
        nodes.append(("MatMul_0", "MatMul", "AIC_CUBE", {"mac": 90.0 + 10.0 * group}))
    return nodes


def perf_lines(op: int, shape: SyntheticShape) -> list[str]:
    """The [PERF] lines of one operator, every result, group and case."""
    lines = []
    for result in range(shape.results):
        for group in range(shape.groups):
            for case in range(shape.cases):
                label = f"graph0_result{result}_g{group}_R{case}"
                for node, node_type, pipe, terms in pipe_terms(op, group, case):
                    formula = " + ".join(f"{name}={value:g}" for name, value in terms.items())
                    total = sum(terms.values())
                    lines.append(f"[Op{op}] [PERF][{label}] {node}[{node_type}]: {pipe} = ({formula}) = {total:g}\n")
    return lines


def dfx_lines(op: int, shape: SyntheticShape) -> list[str]:
    """[DFX] model-info blocks (compiler side) of one operator: outer per group, inner per case."""
    name = f"Op{op}"
    lines = []
    for result in range(shape.results):
        for group in range(shape.groups):
            lines.append(f"[DFX]Begin to gen model info for asc graph 0, schedule result {result}, schedule group "
                         f"{group}, tiling_case size {shape.cases}, graph name {name}.\n")
            for case in range(shape.cases):
                lines.append(f"[DFX]Begin to generate model info for graph {name} of tiling case id {case}\n")
                lines.append(f"model info of {name} result {result} group {group} case {case}: ub_size check ok\n")
                lines.append(f"[DFX]End to generate model info for graph {name} of tiling case id {case}\n")
            lines.append(f"[DFX]End to gen model info for graph0_result{result}_g{group} tiling_case size "
                         f"{shape.cases}, graph name {name}.\n")
    return lines


def write_synthetic_perf_log(path: Path, shape: SyntheticShape) -> int:
    """Write the [PROF] log of att_log, then [DFX] blocks and [PERF] lines; returns the size in bytes."""
    size = write_synthetic_log(path, shape)
    with path.open("a", encoding="utf-8", newline="\n") as handle:
        for op in range(shape.operators):
            text = "".join(dfx_lines(op, shape) + perf_lines(op, shape))
            handle.write(text)
            size += len(text.encode("utf-8"))
    return size
