"""Honest numpy evaluation of both runs: af-close op by op, af-open fused group by fused group."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from tests.synth.dag import Array, Dag, Group, OrigOp, Ref
from tests.synth.numerics import add_noise, quantize, wrong_constant


@dataclass
class StepValues:
    """Logical values (origin layout; float32, or int32) of every op output in both runs of one step."""

    close: dict[Ref, Array]
    open: dict[Ref, Array]
    culprit_delta: float | None = None


def seeded(seed: int, step: int, name: str) -> np.random.Generator:
    """A generator that depends only on (seed, step, name): stable across runs and Python versions."""
    return np.random.default_rng([seed, step, zlib.crc32(name.encode())])


def draw_input(op: OrigOp, seed: int, step: int) -> Array:
    """Per-step random values of a Data input (NaN/Inf sprinkled in when asked)."""
    info = op.outputs[0]
    x = seeded(seed, step, op.name).standard_normal(info.shape).astype(np.float32)
    if op.nan_inf and x.size >= 8:
        flat = x.reshape(-1)
        flat[[1, 5]] = np.nan
        flat[3], flat[7] = np.inf, -np.inf
    return quantize(x, info.dtype)


def _source(op: OrigOp, seed: int, step: int) -> Array:
    """Value of a Data or Const op."""
    if op.type == "Data":
        return draw_input(op, seed, step)
    assert op.value is not None, f"Const {op.name} has no value"
    return quantize(op.value, op.outputs[0].dtype)


def _run_op(op: OrigOp, values: dict[Ref, Array]) -> Array:
    """Apply an original op's kernel to already computed inputs (float32 maths)."""
    assert op.kernel is not None, f"{op.type} {op.name} has no kernel"
    return op.kernel([values[r].astype(np.float32) for r in op.inputs])


def evaluate_close(dag: Dag, seed: int, step: int) -> dict[Ref, Array]:
    """Fusion disabled: every original op rounds its output to its dtype."""
    values: dict[Ref, Array] = {}
    for op in dag.ops.values():
        if op.kernel is None:
            values[Ref(op.name)] = _source(op, seed, step)
        else:
            values[Ref(op.name)] = quantize(_run_op(op, values), op.outputs[0].dtype)
    return values


def _run_group(dag: Dag, group: Group, values: dict[Ref, Array], close: dict[Ref, Array],
               target: float | None) -> tuple[dict[Ref, Array], float | None]:
    """One fused kernel: float32 inside, the culprit's last Add gets a wrong constant."""
    local = dict(values)
    delta = None
    for name in group.ops:
        local[Ref(name)] = _run_op(dag.ops[name], local)
    if group.culprit and target is not None:
        last = Ref(group.ops[-1])
        assert dag.ops[last.op].type == "Add", "the culprit group must end with Add + Const"
        delta = wrong_constant(local[last], close[last], target)
        local[last] = local[last] + np.float32(delta)
    return local, delta


def evaluate_open(dag: Dag, close: dict[Ref, Array], seed: int, step: int,
                  target: float | None) -> tuple[dict[Ref, Array], float | None]:
    """Fusion enabled: groups compute in float32 and round (plus kernel noise) only their outputs.

    `target` is the culprit's output cosine; None computes the culprit group right (a rank without the bug).
    """
    values: dict[Ref, Array] = {}
    delta: float | None = None
    for unit in dag.units():
        if isinstance(unit, OrigOp):
            ref = Ref(unit.name)
            if unit.kernel is None:
                values[ref] = _source(unit, seed, step)
            else:
                values[ref] = quantize(_run_op(unit, values), unit.outputs[0].dtype)
            continue
        local, group_delta = _run_group(dag, unit, values, close, target)
        delta = group_delta if group_delta is not None else delta
        rng = seeded(seed, step, "noise:" + unit.name)
        for ref in unit.outputs:
            values[ref] = quantize(add_noise(local[ref], rng), dag.info(ref).dtype)
    return values, delta


def evaluate_step(dag: Dag, seed: int, step: int, target: float | None) -> StepValues:
    """Both runs of one step; NaN/Inf inputs are intentional, so numpy float warnings are muted."""
    with np.errstate(all="ignore"):
        close = evaluate_close(dag, seed, step)
        opened, delta = evaluate_open(dag, close, seed, step, target)
    return StepValues(close, opened, delta)
