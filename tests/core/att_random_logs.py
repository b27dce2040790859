"""Random ATT logs for the equivalence tests: every line kind the grammars know, dressed in hostile ways."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

PREFIXES = ("", "", "[INFO] GE(12345,python):2026-01-01-12:00:00.123.456 [tiling_log.cc:88]12345 ",
            "[DEBUG] FE(7):2026 [a.cc:1] ", "[WARNING] TEFUSION(9,tbe):x [b.h:2]3 ", "TilingSummary:",
            "[INFO] GE(1,python): TilingSummary:", "[PROF] ", "[中文] ", "[x]\t", "[a][b] ")
OPS = ("Add", "Op1", "Fused_Mul_7", "PROF", "DFX", "中算子", "a b", "x\x1cy", "=HYPER")
SPACES = (" ", " ", " ", "  ", "\t", "\x1c", "\u3000", "\xa0", "")
NUMBERS = ("128", "0.5", "1.5e3", "2E+03", "-7", "+.5", "5.", "1e999", "12345678901234567890", "1_0", "nan",
           "٣", "3.2.1", "0x10")
IDS = ("0", "1", "2", "-1", "12345678901234567890123", "R1", "٢")


def _pick(rng: random.Random, options: tuple[str, ...]) -> str:
    return options[rng.randrange(len(options))]


def _label(rng: random.Random) -> str:
    graph, result = _pick(rng, ("0", "0", "1", "99999999999999999999")), _pick(rng, ("0", "1", "2"))
    return f"graph{graph}_result{result}_g{_pick(rng, ('0', '1', '-1', '2'))}_{_pick(rng, IDS)}"


def _record(rng: random.Random) -> str:
    """One line of some ATT kind (or close to one), without its prefix."""
    op, sp, num = f"[{_pick(rng, OPS)}]", _pick(rng, SPACES), _pick(rng, NUMBERS)
    name = _pick(rng, ("s0t_size", "ub_size", "block_dim", "AIV_MTE2", "a[PERF]b", "x中", "graph0_result0"))
    kind = rng.randrange(14)
    if kind < 4:
        return f"{op}{sp}[PROF]{_pick(rng, SPACES)}The value of{sp or ' '}{name} is {num} in {_label(rng)}."
    if kind == 4:
        return f"{op} [PROF]The objective value of the tiling data is{sp or ' '}{num} in {_label(rng)}."
    if kind == 5:
        return f"{op} [PROF]Among the templates, tiling case {_pick(rng, IDS)} of graph0_result{rng.randrange(3)}" \
               f"_g{rng.randrange(3)} is the best choice."
    if kind == 6:
        return f"{op} [PROF]Among all schedule results, graph0_result{rng.randrange(3)} is the best choice."
    if kind == 7:
        return f"{op}{sp}The value of {_pick(rng, ('graph', 'graph', ' graph'))}0_result{rng.randrange(3)} is {num}."
    if kind == 8:
        tag = f"[graph0_result{rng.randrange(2)}_g{rng.randrange(2)}_R{rng.randrange(3)}]" if rng.random() < 0.7 else ""
        return f"{op} [PERF]{tag} Load_0[Load]: AIV_MTE2 = (base={num} + head=2) = {_pick(rng, NUMBERS)}"
    if kind == 9:
        return _pick(rng, (
            f"[DFX]Begin to gen model info for asc graph 0, schedule result {rng.randrange(2)}, schedule group 0, "
            f"tiling_case size 2, graph name {_pick(rng, OPS)}.",
            f"[DFX]End to gen model info for graph0_result{rng.randrange(2)}_g0 tiling_case size 2, graph name Add.",
            f"[DFX]Begin to generate model info for graph Add of tiling case id {rng.randrange(3)}",
            f"[DFX]End to generate model info for graph Add of tiling case id {rng.randrange(3)}"))
    if kind == 10:
        return (f'[ATT][FINAL_TILING] schema=1 source="runtime" selection_mode="default" operator="{_pick(rng, OPS)}" '
                f'graph=0 result=0 group={rng.randrange(2)} case_id={rng.randrange(3)} tiling_key=5 score=1 '
                f'sub_case_tag="" template="T" repr_kind="full_json" pipe_estimates="{{\\"M2\\":1.5}}" '
                f'tiling_repr="{{\\"tile_m\\":64}}"')
    if kind == 11:  # two records in one line: only the first kind counts
        return _record(rng) + " " + _record(rng)
    if kind == 12:
        return f"{op} {op}[PROF]The value of {name} is {num} in {_label(rng)} [PERF] tail"
    return f"{op} noise [{_pick(rng, OPS)}] The value of graph0 [PRO F] [DFX [ATT] {num}"


def random_log(rng: random.Random, lines: int) -> bytes:
    """A log of `lines` lines: records among noise, random line ends, some invalid UTF-8, maybe no last newline."""
    out = []
    for _ in range(lines):
        roll = rng.random()
        if roll < 0.45:
            text = _pick(rng, PREFIXES) + _record(rng)
        elif roll < 0.9:
            text = _pick(rng, PREFIXES) + "noise [tag] [Add] value " + "x" * rng.choice((0, 5, 80, 700))
        else:
            text = ""
        data = text.encode("utf-8")
        if rng.random() < 0.03:
            cut = rng.randrange(len(data) + 1)
            data = data[:cut] + rng.choice((b"\xff", b"\xe4\xb8", b"\xc3\x28", b"\r")) + data[cut:]
        out.append(data + rng.choice((b"\n", b"\n", b"\n", b"\r\n", b"\r\r\n")))
    log = b"".join(out)
    return log[:-1] if rng.random() < 0.3 else log


def write_random_log(path: Path, rng: random.Random, lines: int) -> Path:
    """Write random_log to `path` (gzip when it ends in .gz)."""
    data = random_log(rng, lines)
    path.write_bytes(gzip.compress(data, compresslevel=1) if path.name.endswith(".gz") else data)
    return path
