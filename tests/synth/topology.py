"""Builds the logical DAG of a case: main chains of fused groups plus one branch per feature."""

from __future__ import annotations

import math

import numpy as np

from tests.synth import branches
from tests.synth.dag import Dag, DagBuilder, Ref, TensorInfo
from tests.synth.numerics import transpose
from tests.synth.patterns import SINGLE_INPUT, Ctx, affine, merge
from tests.synth.spec import CaseSpec

# How far back a merge may reach: keeps a 20k-op case linear to build (identical cases below this size).
_MERGE_WINDOW = 256
_NEARBY_CHAINS = 8


def shape_2d(elements: int) -> tuple[int, int]:
    """A near-square 2-D shape with exactly `elements` elements."""
    rows = max(d for d in range(1, math.isqrt(elements) + 1) if elements % d == 0)
    return rows, elements // rows


def build_dag(spec: CaseSpec) -> Dag:
    """The whole case topology for `spec`, deterministic for its seed."""
    ctx = Ctx(DagBuilder(), spec, np.random.default_rng([spec.seed, 1]))
    _main_chains(ctx)
    branches.add_all(ctx)
    if spec.has("control_edges"):
        _control_edges(ctx.b.dag)
    ctx.b.dag.finish()
    return ctx.b.dag


def _scope(j: int) -> str:
    """Alternate TF-style and PyTorch-style scopes ('.' in names makes sanitisation matter)."""
    return f"model/layer_{j}" if j % 2 == 0 else f"model/blocks.{j}/mlp"


def _main_chains(ctx: Ctx) -> None:
    """n_fused fused groups spread round-robin over `chains` chains, with merges and Transposes."""
    spec, b, rng = ctx.spec, ctx.b, ctx.rng
    shape = shape_2d(spec.elements)
    current = [ctx.data(f"model/input_{c}", shape) for c in range(spec.chains)]
    history: list[Ref] = []
    for j in range(spec.n_fused):
        chain, scope = j % spec.chains, _scope(j)
        x = current[chain]
        info = TensorInfo(b.dag.info(x).shape, spec.dtype)
        # Merges reach back a few layers and across neighbouring chains, as in real models.
        recent = history[-_MERGE_WINDOW - 2:-2]
        nearby = current[max(0, chain - _NEARBY_CHAINS):chain + _NEARBY_CHAINS + 1]
        partners = [r for r in [*nearby, *recent] if r != x and b.dag.info(r).shape == info.shape]
        with b.fused(culprit=j == spec.culprit):
            if j == spec.culprit:
                y = affine(ctx, x, scope, info)
            elif partners and rng.random() < 0.3:
                y = merge(ctx, x, partners[int(rng.integers(len(partners)))], scope, info)
            else:
                y = SINGLE_INPUT[int(rng.integers(len(SINGLE_INPUT)))](ctx, x, scope, info)
        # A non-fused op right after the culprit's consumer makes verdicts walk through it.
        forced = spec.culprit is not None and j == spec.culprit + spec.chains
        if j < spec.n_fused - spec.chains and (forced or rng.random() < 0.15):
            rows, cols = b.dag.info(y).shape
            y = b.op("Transpose", scope, [y], transpose(), TensorInfo((cols, rows), spec.dtype))
        history.append(y)
        current[chain] = y
    for ref in current:
        b.output(ref)


def _control_edges(dag: Dag) -> None:
    """Every third group waits (control edge) for the previous group of the same graph."""
    for k, group in enumerate(dag.groups):
        previous = dag.groups[k - 1] if k else None
        if k % 3 == 1 and previous is not None and previous.region == group.region:
            dag.ops[group.ops[0]].ctrl.append(previous.ops[-1])
