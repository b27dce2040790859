"""Logical DAG of original ops (the af-close graph) plus the fusion groups that make the af-open graph."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

Array = np.ndarray
Kernel = Callable[[list[Array]], Array]

# GE truncates generated fused-op names to this length (utils/auto_fuse_config.h max_op_name_len).
MAX_FUSED_NAME = 140


@dataclass(frozen=True)
class Ref:
    """Output `port` of original op `op`."""

    op: str
    port: int = 0


@dataclass
class TensorInfo:
    """Logical tensor of one op output and how each side stores it on the device."""

    shape: tuple[int, ...]
    dtype: str = "float16"  # float16 | float32 | bfloat16 | int32
    origin_format: str = "ND"  # ND | NCHW
    close_layout: str = ""  # device layout of the original op's output; "" = origin_format
    open_storage: str = "plain"  # plain|nc1hwc0|nz|fp32|flatten|truncate|lstm|bad5hd (fused outputs only)


@dataclass
class OrigOp:
    """One original op of the af-close graph."""

    name: str
    type: str
    inputs: list[Ref]
    outputs: list[TensorInfo]
    kernel: Kernel | None = None
    region: str = "root"
    ctrl: list[str] = field(default_factory=list)
    value: Array | None = None  # Const payload
    nan_inf: bool = False  # Data input seeded with NaN / Inf


@dataclass
class Group:
    """Consecutive original ops replaced by one AscBackend / FusedAscBackend op in af-open."""

    name: str
    type: str
    ops: list[str]
    region: str
    defects: frozenset[str] = frozenset()  # no_mapping|missing_npy|garbage_npy|pickle_npy|stale_duplicate
    culprit: bool = False
    inputs: list[Ref] = field(default_factory=list)
    outputs: list[Ref] = field(default_factory=list)


@dataclass
class Dag:
    """All original ops in creation (= execution) order, fusion groups and graph outputs."""

    ops: dict[str, OrigOp] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    outputs: list[Ref] = field(default_factory=list)
    group_of: dict[str, Group] = field(default_factory=dict)

    def info(self, ref: Ref) -> TensorInfo:
        """The logical tensor behind a ref."""
        return self.ops[ref.op].outputs[ref.port]

    def units(self) -> list[OrigOp | Group]:
        """Execution order: ungrouped ops in place, each group at the position of its last op."""
        last = {g.ops[-1]: g for g in self.groups}
        order: list[OrigOp | Group] = []
        for name, op in self.ops.items():
            group = self.group_of.get(name)
            if group is None:
                order.append(op)
            elif last.get(name) is group:
                order.append(group)
        return order

    def producer(self, ref: Ref) -> OrigOp | Group:
        """The af-open unit (group or ungrouped op) that produces `ref`."""
        return self.group_of.get(ref.op) or self.ops[ref.op]

    def finish(self) -> None:
        """Compute every group's external inputs and outputs once all consumers exist."""
        consumers: dict[Ref, set[str]] = {}
        for op in self.ops.values():
            for ref in op.inputs:
                consumers.setdefault(ref, set()).add(op.name)
        graph_outputs = set(self.outputs)
        for group in self.groups:
            members = set(group.ops)
            group.inputs = []
            for name in group.ops:
                for ref in self.ops[name].inputs:
                    if ref.op not in members and ref not in group.inputs:
                        group.inputs.append(ref)
            group.outputs = [
                Ref(name, port)
                for name in group.ops
                for port in range(len(self.ops[name].outputs))
                if Ref(name, port) in graph_outputs or consumers.get(Ref(name, port), set()) - members
            ]


def fused_name(number: int, types: list[str], fused: bool) -> str:
    """GE-style fused op name: autofuse[_fused]_<n>_<types, de-duplicated and counted as 2Mul>."""
    counts = Counter(types)
    parts = [f"{counts[t]}{t}" if counts[t] > 1 else t for t in dict.fromkeys(types)]
    prefix = "autofuse_fused" if fused else "autofuse"
    return f"{prefix}_{number}_{'_'.join(parts)}"[:MAX_FUSED_NAME]


class DagBuilder:
    """Adds original ops with their kernels; ops added inside fused() form one group."""

    def __init__(self) -> None:
        self.dag = Dag()
        self.region = "root"
        self._group: list[str] | None = None
        self._counters: Counter[str] = Counter()

    def unique(self, scope: str, op_type: str) -> str:
        """TF-style unique name inside a scope: Mul, Mul_1, Mul_2 ..."""
        key = f"{scope}/{op_type}"
        n = self._counters[key]
        self._counters[key] += 1
        return key if n == 0 else f"{key}_{n}"

    def add(self, op: OrigOp) -> Ref:
        """Register an op (in the current region and group) and return its output 0."""
        if op.name in self.dag.ops:
            raise ValueError(f"duplicate op name {op.name}")
        op.region = self.region
        self.dag.ops[op.name] = op
        if self._group is not None:
            self._group.append(op.name)
        return Ref(op.name)

    def data(self, name: str, info: TensorInfo, nan_inf: bool = False) -> Ref:
        """A graph input whose values are drawn per step."""
        return self.add(OrigOp(name, "Data", [], [info], nan_inf=nan_inf))

    def const(self, name: str, value: Array, dtype: str) -> Ref:
        """A Const weight (same value in both runs and all steps)."""
        info = TensorInfo(tuple(value.shape), dtype)
        return self.add(OrigOp(name, "Const", [], [info], value=value.astype(np.float32)))

    def op(self, op_type: str, scope: str, inputs: list[Ref], kernel: Kernel, info: TensorInfo) -> Ref:
        """An original compute op named <scope>/<type>[_n]."""
        return self.add(OrigOp(self.unique(scope, op_type), op_type, inputs, [info], kernel))

    def output(self, ref: Ref) -> None:
        """Mark a tensor as a graph output (consumed by NetOutput)."""
        self.dag.outputs.append(ref)

    @contextmanager
    def fused(self, defects: frozenset[str] = frozenset(), culprit: bool = False) -> Iterator[None]:
        """Ops added inside this block become one fused op of the af-open graph."""
        if self._group is not None:
            raise RuntimeError("fused groups cannot nest")
        self._group = []
        try:
            yield
        finally:
            names, self._group = self._group, None
        compute = [n for n in names if self.dag.ops[n].type not in ("Const", "Data")]
        types = [self.dag.ops[n].type for n in compute]
        is_fused = len(types) >= 4
        name = fused_name(len(self.dag.groups), types, is_fused)
        group = Group(name, "FusedAscBackend" if is_fused else "AscBackend", compute, self.region,
                      defects, culprit)
        self.dag.groups.append(group)
        for n in compute:
            self.dag.group_of[n] = group

    @contextmanager
    def in_region(self, region: str) -> Iterator[None]:
        """Ops added inside this block live in a PartitionedCall subgraph."""
        previous, self.region = self.region, region
        try:
            yield
        finally:
            self.region = previous
