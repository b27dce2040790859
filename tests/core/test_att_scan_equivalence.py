"""The scanner's block feed against a frozen per-line reference: same scans, same output of every subcommand.

Random logs of many shapes (att_random_logs) are scanned by the current feed and by the frozen copy
(att_reference_feed), with blocks from a few bytes to MBs, cut lines, CRLF, gz, a truncated last line
and invalid UTF-8; then every subcommand that reads logs is run both ways on some of them. Every test
runs on both scanner paths (the C line scanner and the regex fallback). Any faster scanner path must
keep these passing.
"""

from __future__ import annotations

import io
import json
import random
import shutil
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from autofuse_studio.cli.att import main as att_main
from autofuse_studio.core.att import scanner
from tests.core.att_random_logs import write_random_log
from tests.core.att_reference_feed import reference_feed_block
from tests.core.scan_paths import SCAN_PATHS, use_scan_path
from tests.synth.att_log import SyntheticShape, write_synthetic_log
from tests.synth.att_perf_log import write_synthetic_perf_log

CURRENT_FEED = scanner._FileScanner.feed_block
BLOCK_SIZES = (1, 2, 7, 64, 300, 4096, 65536, 1 << 20)
LINE_CAPS = (48, 200, 1 << 20)
# Keys whose values are the time of the run, not the content.
TIMESTAMP_KEYS = ("generated_at_utc", "created")


@pytest.fixture(autouse=True, params=SCAN_PATHS)
def scan_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run each test on the C line scanner and on the regex fallback."""
    return use_scan_path(str(request.param), monkeypatch)


def _scan_both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.setattr(scanner._FileScanner, "feed_block", reference_feed_block)
    expected = repr(scanner.scan_file(path))
    monkeypatch.setattr(scanner._FileScanner, "feed_block", CURRENT_FEED)
    return repr(scanner.scan_file(path)), expected


@pytest.mark.parametrize("seed", range(120))
def test_random_logs_scan_alike(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    path = write_random_log(tmp_path / ("r.log.gz" if seed % 5 == 0 else "r.log"), rng, rng.choice((1, 20, 300)))
    monkeypatch.setattr(scanner, "BLOCK_SIZE", rng.choice(BLOCK_SIZES))
    monkeypatch.setattr(scanner, "MAX_LINE_BYTES", rng.choice(LINE_CAPS))
    new, old = _scan_both(path, monkeypatch)
    assert new == old


@pytest.mark.parametrize("shape", [
    SyntheticShape(operators=4, noise_per_record=3, prefix="ge", exponent_every=3),
    SyntheticShape(operators=4, noise_per_record=2, prefix="mixed", exponent_every=2, crlf=True, seed=5),
    SyntheticShape(operators=3, noise_per_case=4, prefix="none", noise_width=900),
])
@pytest.mark.parametrize("block_size", [5, 999, 1 << 20])
def test_field_logs_scan_alike(shape: SyntheticShape, block_size: int, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.log"
    write_synthetic_perf_log(path, shape)
    monkeypatch.setattr(scanner, "BLOCK_SIZE", block_size)
    new, old = _scan_both(path, monkeypatch)
    assert new == old
    assert "TilingValue(operator='Op0'" in new


def _snapshot(folder: Path) -> dict[str, object]:
    """Every file under `folder`: bytes, xlsx cell values, JSON without timestamps."""
    found: dict[str, object] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = str(path.relative_to(folder))
        if path.suffix == ".xlsx":
            from openpyxl import load_workbook

            book = load_workbook(path)
            found[name] = {sheet.title: [[c.value for c in row] for row in sheet.iter_rows()] for sheet in book}
        elif path.name in ("tool-manifest.json", "archive-manifest.json"):
            found[name] = _drop_times(json.loads(path.read_text(encoding="utf-8")))
        else:
            found[name] = path.read_bytes()
    return found


def _drop_times(value: object) -> object:
    if isinstance(value, dict):
        # An xlsx holds its write time, so its hash and even its zipped size vary from run to run.
        varying = {*TIMESTAMP_KEYS, "sha256", *(("bytes",) if str(value.get("path")).endswith(".xlsx") else ())}
        return {k: _drop_times(v) for k, v in value.items() if k not in varying}
    if isinstance(value, list):
        return [_drop_times(v) for v in value]
    return value


def _run_all(logs: Path, run_root: Path, out: Path) -> list[object]:
    """Run every log-reading subcommand; returns exit codes, output text and the files written."""
    commands = [
        ["summary", str(logs)], ["summary", str(logs), "-a", "--with-status", "-f", "csv", "-o", str(out / "s.csv")],
        ["summary", str(logs), "-f", "excel", "-o", str(out / "s.xlsx")],
        ["summary", str(logs), "-f", "console", "-o", str(out / "s.txt")],
        ["evidence", str(logs), "-o", str(out / "evidence")],
        ["split-slog", str(logs), "-o", str(out / "split")],
        ["perf-formula", str(logs), str(logs), "-o", str(out / "perf")],
        ["perf-formula", str(logs), str(logs), "--case", "r=0,1,g=0,c=1", "-o", str(out / "perf_case")],
        ["analyze", "--run-root", str(run_root), "--output", str(out / "report"), "--lang", "en",
         "--archive", str(out / "archive"), "--name", "run"],
    ]
    results: list[object] = []
    for argv in commands:
        stdout, stderr = io.StringIO(), io.StringIO()
        with redirect_stdout(stdout), redirect_stderr(stderr):
            code = att_main(argv)
        results.append((argv[0], code, stdout.getvalue(), stderr.getvalue()))
    compare_out = io.StringIO()
    with redirect_stdout(compare_out), redirect_stderr(compare_out):
        results.append(att_main(["compare", str(out / "s.csv"), str(out / "s.csv")]))
    results += [compare_out.getvalue(), _snapshot(out)]
    return results


def _both_ways(logs: Path, run_root: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    outputs = []
    feed: Callable[..., int]
    for feed in (reference_feed_block, CURRENT_FEED):
        monkeypatch.setattr(scanner._FileScanner, "feed_block", feed)
        out.mkdir()
        outputs.append(_run_all(logs, run_root, out))
        shutil.rmtree(out)
    return outputs[0], outputs[1]


def _run_root(root: Path, default: list[Path], candidate: list[Path]) -> Path:
    for side, logs in (("default", default), ("pgo", candidate)):
        for index, log in enumerate(logs):
            target = root / side / "logs" / f"{index}_{log.name}"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(log, target)
    return root


@pytest.mark.parametrize("seed", range(6))
def test_every_subcommand_writes_the_same(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(1000 + seed)
    logs = tmp_path / "logs"
    logs.mkdir()
    shape = SyntheticShape(operators=3, results=2, groups=2, cases=3, noise_per_record=rng.choice((0, 2)),
                           prefix=rng.choice(("legacy", "ge", "mixed")), exponent_every=rng.choice((0, 3)),
                           crlf=rng.random() < 0.5, seed=seed)
    write_synthetic_perf_log(logs / "perf.log", shape)
    write_synthetic_log(logs / "plain.log", shape)
    write_random_log(logs / "random.log", rng, 400)
    write_random_log(logs / "random.log.gz", rng, 200)
    monkeypatch.setattr(scanner, "BLOCK_SIZE", rng.choice(BLOCK_SIZES))
    root = _run_root(tmp_path / "root", [logs / "perf.log", logs / "random.log"],
                     [logs / "plain.log", logs / "random.log.gz"])
    old, new = _both_ways(logs, root, tmp_path / "out", monkeypatch)
    assert new == old


def test_reference_samples_write_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    samples = Path(__file__).resolve().parents[3] / "shared" / "samples" / "att"
    if not samples.is_dir():
        pytest.skip("../shared/samples is not here")
    logs = tmp_path / "logs"
    shutil.copytree(samples / "upstream-tests", logs)
    for log in (samples / "synthetic").glob("*.log"):
        shutil.copyfile(log, logs / log.name)
    root = _run_root(tmp_path / "root", sorted(logs.glob("test_*.log")), sorted(logs.glob("[!t]*.log")))
    old, new = _both_ways(logs, root, tmp_path / "out", monkeypatch)
    assert new == old
