"""The big model in the GUI vs the CLI: the whole run within 1.2x, and no GUI-thread block over 100 ms.

The case is test_bench_big_model's (20k fused ops, 100k original ops, ~148k tiny NPYs), with its graphs written
in several shapes of that benchmark's matrix (`GUI_BIG_MODEL_CELLS` picks some; `BIG_MODEL_DIR` keeps the
generated case between runs): indented as generated, compact with few attributes (the cheapest to load, so the
one where the GUI's own costs weigh most) and compact with many attributes and long name lists. The CLI runs as a
fresh `autofuse-studio nwa` process (interpreter start included); the GUI runs in a fresh process
(tests/bench/gui_big_model_run.py) from the drop to the finished result, then shows the Graph tab. Both
are run three times, alternated, and the best time of each is compared (2-core machines here are noisy:
the same CLI run took 7.0 and 9.2 s in one test). Blocks are gaps of a 10 ms heartbeat
on the GUI thread, reported per phase (analysing, showing the result, showing the Graph tab), each with how much of
it the GUI thread ran and waited in the run queue for a core (Linux schedstat; the rest it slept: the GIL, a lock, I/O).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import pytest

from tests.bench.test_bench_big_model import CELLS, Cell, cases, flushed_to_disk  # noqa: F401 (cases: shared)
from tests.synth.big_model import write_shape
from tests.synth.case import CaseManifest

pytestmark = pytest.mark.bench

SHAPES = ("indented", "compact-lean", "compact-heavy")
_PICKED = [name for name in os.environ.get("GUI_BIG_MODEL_CELLS", "").split(",") if name] or SHAPES
RATIO_TARGET, BLOCK_TARGET_MS = 1.2, 100
RUNNER = Path(__file__).with_name("gui_big_model_run.py")
RUNS = 3


def _environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def _cli(paths: list[str], out: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "autofuse_studio", "nwa", "--af-open-graph", paths[0], "--af-close-graph",
                    paths[1], "--af-open-data", paths[2], "--af-close-data", paths[3], "--output", str(out)],
                   check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def _gui(paths: list[str], env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run([sys.executable, str(RUNNER), json.dumps(paths)], capture_output=True, text=True,
                          env=env, check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in result, result
    return result


@pytest.mark.parametrize("cell", [c for c in CELLS if c.name in _PICKED], ids=lambda c: c.name)
def test_gui_big_model_against_the_cli(cell: Cell, cases: dict[bool, tuple[Path, CaseManifest]],  # noqa: F811
                                       tmp_path: Path) -> None:
    root, manifest = cases[False]
    size = write_shape(root, manifest.graphs, cell.shape) / 2**20
    flushed_to_disk()  # the case's 150k files and the graphs just written: their writeback is not timed
    paths = [str(root / manifest.graphs["af_open"]), str(root / manifest.graphs["af_close"]),
             str(root / manifest.data["af_open"]), str(root / manifest.data["af_close"])]
    env = _environment(tmp_path)
    cli_times, gui_runs = [], []
    for _ in range(RUNS):
        cli_times.append(_cli(paths, tmp_path / "cli.json", env))
        gui_runs.append(_gui(paths, env))
    cli, gui = min(cli_times), min(float(run["seconds"]) for run in gui_runs)  # type: ignore[arg-type]
    print(f"\nbig model in the GUI, {cell.name} ({size:.0f} MB graphs, {manifest.extra['fused_ops']} fused ops, "
          f"{manifest.npy_files} NPYs): "
          f"GUI {gui:.2f} s vs CLI {cli:.2f} s: ratio {gui / cli:.2f}x (target <= 1.2x); "
          f"all runs GUI {[round(float(run['seconds']), 2) for run in gui_runs]} "  # type: ignore[arg-type]
          f"CLI {[round(t, 2) for t in cli_times]}")
    for number, run in enumerate(gui_runs):
        blocks = cast(list[list[Any]], run["blocks"])
        worst = run["longest"]  # each phase's longest heartbeat gap (over 100 ms or not)
        print(f"  run {number + 1}: result at {float(run['arrived']) * 1000:.0f} ms, "  # type: ignore[arg-type]
              f"shown at {float(run['seconds']) * 1000:.0f} ms; "  # type: ignore[arg-type]
              f"GUI-thread blocks over 100 ms {len(blocks)}, longest per phase "
              f"{worst} ms; blocks [phase, at ms, ms, of it running, of it queued for a core] {blocks}; "
              f"collections over 30 ms {run['gc']}")
        if "gil" in run:  # GIL_WATCHDOG=1 (see gil_watchdog.py)
            gil = cast(dict[str, Any], run["gil"])
            print(f"    1 ms sleeper's wake-ups by lateness {dict(zip(gil['edges_ms'], gil['histogram'], strict=True))}; gaps over "
                  f"20 ms [ms, of it queued for a CPU, CPU of each thread of ours] "
                  f"{[[gap['ms'], gap['queued_ms'], gap['ran_ms']] for gap in gil['gaps']]}")
    expected = json.loads((tmp_path / "cli.json").read_text(encoding="utf-8"))
    assert all(run["rows"] == len(expected["rows"]) for run in gui_runs)
    assert all(run["first"] == expected["first_divergence"]["fused_op"] for run in gui_runs)
    assert gui / cli <= RATIO_TARGET, f"{cell.name}: GUI {gui / cli:.2f}x the CLI"
    blocked = [run["blocks"] for run in gui_runs if run["blocks"]]  # the runner lists the gaps over 100 ms
    assert not blocked, f"{cell.name}: GUI-thread blocks over {BLOCK_TARGET_MS} ms: {blocked}"
