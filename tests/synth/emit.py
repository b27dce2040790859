"""Graph JSON in the atc --mode=5 dialect (sorted keys, attr lists, defaults omitted, subgraphs appended)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.synth.dag import Dag, Group, OrigOp, Ref
from tests.synth.numerics import GE_DTYPES
from tests.synth.storage import OPEN, Desc, desc_of

Json = dict[str, Any]
NO_DUMP_TYPES = frozenset({"Data", "Const", "NetOutput", "PartitionedCall"})


def attr(key: str, value: Json) -> Json:
    """One map entry as atc prints it."""
    return {"key": key, "value": value}


def list_s(values: list[str]) -> Json:
    """A list.s attr value."""
    return {"list": {"s": values, "val_type": "VT_LIST_STRING"}}


def list_i(values: tuple[int, ...] | list[int]) -> Json:
    """A list.i attr value (the empty list keeps only val_type, as atc prints it)."""
    body: Json = {"val_type": "VT_LIST_INT"}
    if values:
        body["i"] = list(values)
    return {"list": body}


def desc_json(desc: Desc, extra: list[Json] | None = None) -> Json:
    """A TensorDescriptor: dtype, layout, shape (omitted for scalars) and the origin_* attrs."""
    attrs = [*(extra or []), attr("origin_format", {"s": desc.origin_format}),
             attr("origin_shape", list_i(desc.origin_shape)), attr("origin_shape_initialized", {"b": True})]
    out: Json = {"attr": attrs, "dtype": GE_DTYPES[desc.dtype], "layout": desc.layout}
    if desc.shape:
        out["shape"] = {"dim": list(desc.shape)}
    return out


@dataclass
class Unit:
    """One op of an emitted graph before edges are resolved."""

    name: str
    type: str
    region: str
    inputs: list[Ref]
    outputs: list[Ref]
    ctrl: list[str] = field(default_factory=list)
    attrs: list[Json] = field(default_factory=list)
    out_attrs: list[list[Json]] = field(default_factory=list)


def side_units(dag: Dag, side: str) -> list[Unit]:
    """Execution-ordered units of one side: original ops (af-close) or groups + leftovers (af-open)."""
    members: list[OrigOp | Group] = dag.units() if side == OPEN else list(dag.ops.values())
    units = []
    for m in members:
        if isinstance(m, Group):
            units.append(_group_unit(dag, m))
        else:
            outs = [Ref(m.name, p) for p in range(len(m.outputs))]
            units.append(Unit(m.name, m.type, m.region, list(m.inputs), outs, list(m.ctrl)))
    if side == OPEN:  # control sources that were fused now live in their group
        for unit in units:
            unit.ctrl = [n for n in dict.fromkeys(_unit_name(dag, c) for c in unit.ctrl) if n != unit.name]
    return units


def _unit_name(dag: Dag, op: str) -> str:
    """Name of the af-open unit holding original op `op`."""
    group = dag.group_of.get(op)
    return group.name if group else op


def _group_unit(dag: Dag, group: Group) -> Unit:
    """A fused op with its _datadump_* mapping attrs."""
    types = [dag.ops[n].type for n in group.ops]
    attrs = [attr("_datadump_original_op_names", list_s(group.ops)),
             attr("_datadump_original_op_types", list_s(types))]
    mapped = "no_mapping" not in group.defects
    out_attrs = [
        [attr("_datadump_origin_name", {"s": r.op}), attr("_datadump_origin_output_index", {"i": r.port})]
        if mapped else []
        for r in group.outputs
    ]
    ctrl = [c for n in group.ops for c in dag.ops[n].ctrl]
    return Unit(group.name, group.type, group.region, list(group.inputs), list(group.outputs), ctrl, attrs,
                out_attrs)


def port_of(dag: Dag, side: str, ref: Ref) -> tuple[str, int]:
    """(op name, output index) of a logical tensor in the graph of `side`."""
    group = dag.group_of.get(ref.op) if side == OPEN else None
    return (group.name, group.outputs.index(ref)) if group else (ref.op, ref.port)


def _op_json(unit: Unit, ident: int, inputs: list[str], in_descs: list[Json], out_descs: list[Json],
             attrs: list[Json] | None = None) -> Json:
    """One OpDef; empty lists and id 0 are omitted like proto3 defaults."""
    op: Json = {"name": unit.name, "type": unit.type}
    fields = (("attr", attrs if attrs is not None else unit.attrs), ("input", inputs), ("input_desc", in_descs),
              ("output_desc", out_descs), ("id", ident))
    for key, value in fields:
        if value:
            op[key] = value
    return op


class GraphEmitter:
    """Resolves edges across the root graph / PartitionedCall subgraph boundary and emits both graphs."""

    def __init__(self, dag: Dag, side: str, root_name: str) -> None:
        self.dag, self.side, self.root_name = dag, side, root_name
        self.sub_name = root_name.rsplit("_", 1)[0] + "_sub_0_unknow"
        self.pc_name = self.sub_name + "_PartitionedCall_0"
        self.units = side_units(dag, side)
        self.region = {r: u.region for u in self.units for r in u.outputs}
        sub = [u for u in self.units if u.region == "sub"]
        self.sub_in = list(dict.fromkeys(r for u in sub for r in u.inputs if self.region[r] == "root"))
        root_reads = [r for u in self.units if u.region == "root" for r in u.inputs] + dag.outputs
        self.sub_out = list(dict.fromkeys(r for r in root_reads if self.region[r] == "sub"))
        datas = [u.name for u in self.units if u.type == "Data" and u.region == "root"]
        self.data_index = {name: k for k, name in enumerate(datas)}

    def ref_str(self, ref: Ref, region: str) -> str:
        """"name:port" of `ref` as seen by an op of `region`."""
        if self.region[ref] == region:
            name, port = port_of(self.dag, self.side, ref)
            return f"{name}:{port}"
        if region == "sub":
            return f"{self.sub_name}_Data_{self.sub_in.index(ref)}:0"
        return f"{self.pc_name}:{self.sub_out.index(ref)}"

    def desc(self, ref: Ref, extra: list[Json] | None = None) -> Json:
        """Desc of a tensor on this side."""
        return desc_json(desc_of(self.dag, self.side, ref), extra)

    def _unit_json(self, unit: Unit, ident: int) -> Json:
        """A compute/Data/Const op."""
        inputs = [self.ref_str(r, unit.region) for r in unit.inputs] + [f"{c}:-1" for c in unit.ctrl]
        extras = unit.out_attrs or [[] for _ in unit.outputs]
        outs = [self.desc(r, extra) for r, extra in zip(unit.outputs, extras, strict=True)]
        ins = [self.desc(r) for r in unit.inputs]
        if unit.type == "Data":  # real Build graphs give Data one unconnected input
            index = [attr("index", {"i": self.data_index[unit.name]})]
            return _op_json(unit, ident, [""], list(outs), outs, index)
        return _op_json(unit, ident, inputs, ins, outs)

    def _netoutput(self, name: str, refs: list[Ref], region: str, ident: int) -> Json:
        """NetOutput; in a subgraph each input_desc names the parent output it feeds."""
        descs = [self.desc(r) for r in refs]
        if region == "sub":
            for k, d in enumerate(descs):
                d["attr"].insert(0, attr("_parent_node_index", {"i": k}))
        return _op_json(Unit(name, "NetOutput", region, [], []), ident,
                        [self.ref_str(r, region) for r in refs], descs, [])

    def _partitioned_call(self, ident: int) -> Json:
        """The root-graph op that runs the subgraph."""
        op = _op_json(Unit(self.pc_name, "PartitionedCall", "root", [], []), ident,
                      [self.ref_str(r, "root") for r in self.sub_in], [self.desc(r) for r in self.sub_in],
                      [self.desc(r) for r in self.sub_out])
        op["subgraph_name"] = [self.sub_name]
        return op

    def model(self) -> Json:
        """The whole ModelDef: root graph first, then the subgraph (if any)."""
        root: list[Json] = []
        sub: list[Json] = []
        for k, ref in enumerate(self.sub_in):
            parent = [attr("_parent_node_index", {"i": k})]
            sub.append(_op_json(Unit(f"{self.sub_name}_Data_{k}", "Data", "sub", [], []), len(sub), [""],
                                [self.desc(ref)], [self.desc(ref)], parent))
        placed = False
        for unit in self.units:
            if unit.region == "sub":
                if not placed:  # the PartitionedCall runs where its first inner op would run
                    root.append(self._partitioned_call(len(root)))
                    placed = True
                sub.append(self._unit_json(unit, len(sub)))
            else:
                root.append(self._unit_json(unit, len(root)))
        root.append(self._netoutput("NetOutput", self.dag.outputs, "root", len(root)))
        graphs = [{"name": self.root_name, "op": root}]
        if sub:
            sub.append(self._netoutput(f"{self.sub_name}_NetOutput", self.sub_out, "sub", len(sub)))
            graphs.append({"name": self.sub_name, "op": sub})
        return {"graph": graphs, "name": self.root_name}
