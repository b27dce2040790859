"""[PERF] terms are built only when a command reads them, with the same nodes, warnings and outputs as eagerly."""

from __future__ import annotations

import gzip
import random
import shutil
from pathlib import Path

import pytest

from autofuse_studio.core.att import lines, scanner
from autofuse_studio.core.att.lines import MAX_PERF_TERMS, IdTooLong, may_overflow, parse_perf_counted, scan_perf
from autofuse_studio.core.att.model import PerfLine, PerfNode, SourceRef
from autofuse_studio.core.att.summary import build_summary
from tests.core.att_random_logs import write_random_log
from tests.core.scan_paths import SCAN_PATHS, use_scan_path
from tests.core.test_att_scan_equivalence import _run_all, _run_root
from tests.synth.att_log import SyntheticShape, write_synthetic_log
from tests.synth.att_perf_log import write_synthetic_perf_log

SRC = SourceRef("x.log", 1)
HEAVY = SyntheticShape(operators=3, results=2, groups=2, cases=2, noise_per_case=0, noise_per_record=4,
                       prefix="ge", perf_every=12, perf_terms=(10, 40), prof_tail=300, seed=3)
HOSTILE = [
    "[Add] [PERF][graph0_result0_g0_R0] Load_0[Load]: AIV_MTE2 = (a=1 + b=2) = 3",
    "[Add] [PERF][graph0_result0_g0_R0] Load_0[Load]: AIV_MTE2 = (a=1e400 + b=2) = 3",
    "[Add] [PERF][graph0_result0_g0_R0] Load_0[Load]: AIV_MTE2 = (a=1 + b=2) = 1E+309",
    "[Add] [PERF][graph0_result0_g0_R1] Load_0[Load]: AIV_MTE2 = (a=" + "9" * 400 + ")",
    "[Add] [PERF][graph0_result0_g0_R1] Load_0[Load]: AIV_MTE2 = (a=1e-400 + b=7e99) = 8",
    "[Add] [PERF][graph0_result0_g1_R0] Add_0[Add]: AIV_VEC = " + " + ".join(f"t{i}={i}" for i in range(150)),
    "[Add] [PERF][graph0_result0_g1_R0] Add_1[Add]: AIV_VEC = " + " + ".join(f"t{i}={i}" for i in range(100)),
    "[Add] [PERF][graph" + "1" * 30 + "_result0_g0_R0] Load_0[Load]: AIV_MTE2 = a=1",
    "[Add] [PERF] Mul_0[Mul]: AIV_VEC = (a=\u0661\u0662 + b=3)",
    "[Add] [PERF] Mul_1[Mul]: AIV_VEC = (a=" + "\u0669" * 400 + ")",
    "[Add] [PERF] Cast_0[Cast]: AIV_VEC = (a=1 + b=2) = -4",
    "[Add] [PERF] broken line without a body = 3",
    "[PERF] [PERF] Cast_0[Cast]: AIV_VEC = a=1",
    "[Add] [PROF]The value of ub_size is 512 in graph0_result0_g0_0. [PERF] tail",
]


def _eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scanner as it was: every [PERF] line parsed into terms while scanning."""
    monkeypatch.setattr(scanner, "scan_perf", parse_perf_counted)


def _scan_repr(path: Path) -> str:
    scan = scanner.scan_file(path)
    for op in scan.operators.values():
        assert all(isinstance(node, PerfNode) for node in op.perf_nodes)
        assert op.perf_pending == 0
    return repr(scan)


@pytest.fixture(params=SCAN_PATHS)
def scan_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run on the C line scanner and on the regex fallback."""
    return use_scan_path(str(request.param), monkeypatch)


@pytest.mark.usefixtures("scan_path")
@pytest.mark.parametrize("seed", range(40))
def test_deferred_scan_parses_to_the_eager_scan(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    path = tmp_path / ("r.log.gz" if seed % 4 == 0 else "r.log")
    if seed % 3 == 0:
        write_synthetic_log(path, HEAVY)
    else:
        write_random_log(path, rng, rng.choice((50, 400)))
        if seed % 3 == 1:
            tail = ("\n".join(HOSTILE) + "\n").encode()
            # A second gzip member: readers go on to the end of the file.
            path.write_bytes(path.read_bytes() + (gzip.compress(tail) if path.suffix == ".gz" else tail))
    deferred = _scan_repr(path)
    _eager(monkeypatch)
    assert deferred == _scan_repr(path)


def test_hostile_lines_warn_and_skip_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "h.log"
    path.write_text("\n".join(HOSTILE) + "\n", encoding="utf-8")
    scan = scanner.scan_file(path)
    op = scan.operators["Add"]
    assert op.perf_pending == 3  # lines 1, 7 (100 terms) and 11; the others were parsed (or refused) at once
    deferred = (scan.warnings, op.perf_nodes)
    _eager(monkeypatch)
    eager = scanner.scan_file(path)
    assert deferred == (eager.warnings, eager.operators["Add"].perf_nodes)
    assert len(scan.warnings) == 6  # three infinite costs, the 150 terms, a long id, 400 Arabic-Indic nines
    assert [node.source.line for node in op.perf_nodes] == [1, 5, 6, 7, 9, 11]


@pytest.mark.parametrize("line", HOSTILE)
def test_scan_perf_defers_only_what_parses_quietly(line: str) -> None:
    try:
        eager = parse_perf_counted(line, SRC)
    except lines.UnreadableNumber as exc:
        with pytest.raises(type(exc)):
            scan_perf(line, SRC)
        return
    kept, dropped = scan_perf(line, SRC)
    assert dropped == eager[1]
    if isinstance(kept, PerfLine):
        assert eager == (lines.parse_perf(kept.text, kept.source), 0)
        assert eager[0] is not None
        assert kept.operator == eager[0].operator
    else:
        assert kept == eager[0]


def test_long_ids_are_refused_while_scanning() -> None:
    with pytest.raises(IdTooLong):
        scan_perf("[Add] [PERF][graph" + "1" * 30 + "_result0_g0_R0] Load_0[Load]: AIV_MTE2 = a=1", SRC)


@pytest.mark.parametrize("rhs", ["(a=1e400)", "a=1E+309", "a=2e-0400", "a=1e0100", "a=" + "1" * 20,
                                 "a=12345678901234567890.5", "a=\u0661", "x1e500=3"])
def test_may_overflow_flags_big_numbers(rhs: str) -> None:
    assert may_overflow(rhs)


@pytest.mark.parametrize("rhs", ["(base_cycles=172.2 + head_cost=27.01) = 199.21", "a=1e99 + b=-2E-99 = 1",
                                 "a=" + "9" * 19 + "e99", "tile=.5e+12"])
def test_may_overflow_passes_ordinary_formulas(rhs: str) -> None:
    assert not may_overflow(rhs)


def test_no_overflow_flag_means_finite_terms() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        terms = []
        for index in range(rng.randint(1, MAX_PERF_TERMS)):
            mantissa = "9" * rng.randint(1, 25) + rng.choice(("", ".5", "."))
            exponent = rng.choice(("", f"e{rng.randint(-120, 120)}", f"E+{rng.randint(0, 400)}"))
            terms.append(f"t{index}={mantissa}{exponent}")
        line = f"[Op] [PERF] N[T]: P = ({' + '.join(terms)})"
        if not may_overflow(line.split(" = ", 1)[1]):
            node, dropped = parse_perf_counted(line, SRC)  # must not raise InfiniteCost
            assert node is not None
            assert dropped == 0


def test_summary_never_builds_terms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "heavy.log"
    write_synthetic_log(path, HEAVY)
    calls: list[int] = []
    real = lines.parse_perf_counted

    def counting(text: str, source: SourceRef) -> tuple[PerfNode | None, int]:
        calls.append(source.line)
        return real(text, source)

    monkeypatch.setattr(lines, "parse_perf_counted", counting)
    scan = scanner.scan_file(path)
    rows = build_summary([scan]).export_rows
    assert len(rows) == 3 * 2  # operators x groups of the best result
    perf_lines = sum(op.perf_pending for op in scan.operators.values())
    assert perf_lines == path.read_text(encoding="utf-8").count("[PERF]") > 20
    assert calls == []
    nodes = [node for op in scan.operators.values() for node in op.perf_nodes]
    assert len(nodes) == len(calls) == perf_lines
    assert all(10 <= len(node.items) <= 40 for node in nodes)
    assert nodes[0].total == pytest.approx(sum(item.value for item in nodes[0].items), abs=0.01)


@pytest.mark.parametrize("seed", range(2))
def test_every_subcommand_writes_what_the_eager_scan_wrote(seed: int, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(500 + seed)
    logs = tmp_path / "logs"
    logs.mkdir()
    write_synthetic_log(logs / "heavy.log", HEAVY)
    write_synthetic_perf_log(logs / "perf.log", SyntheticShape(operators=3, results=2, groups=2, cases=3, seed=seed))
    write_random_log(logs / "random.log", rng, 400)
    (logs / "hostile.log").write_text("\n".join(HOSTILE) + "\n", encoding="utf-8")
    root = _run_root(tmp_path / "root", [logs / "heavy.log", logs / "hostile.log"],
                     [logs / "perf.log", logs / "random.log"])
    outputs = []
    out = tmp_path / "out"  # one folder for both: the outputs name it
    for eager in (False, True):
        if eager:
            _eager(monkeypatch)
        out.mkdir()
        outputs.append(_run_all(logs, root, out))
        shutil.rmtree(out)
    assert outputs[0] == outputs[1]
