"""The coarser GIL switch interval of a run's loading: held while any run loads, given back once loaded or failed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from autofuse_studio.core.progress import NEVER_CANCELLED
from autofuse_studio.core.run.spec import RunSpec
from autofuse_studio.ui import loading_interval
from autofuse_studio.ui.app import GUI_SWITCH_INTERVAL
from autofuse_studio.ui.loading_interval import LOADING_SWITCH_INTERVAL, LoadingInterval
from autofuse_studio.ui.precision import analysis
from tests.ui.test_analysis_lookups import demo_spec


def test_held_while_any_run_loads_then_given_back(app_switch_interval: None) -> None:
    first = LoadingInterval()
    assert sys.getswitchinterval() == pytest.approx(LOADING_SWITCH_INTERVAL, rel=0.02)
    second = LoadingInterval()  # a newer run starts while the cancelled one still loads
    first.end()
    assert sys.getswitchinterval() == pytest.approx(LOADING_SWITCH_INTERVAL, rel=0.02)
    first.end()  # again: nothing more given back
    assert sys.getswitchinterval() == pytest.approx(LOADING_SWITCH_INTERVAL, rel=0.02)
    second.end()
    assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL, rel=0.02)
    assert loading_interval._loading == 0


def test_never_shorter_than_it_was() -> None:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        held = LoadingInterval()
        assert sys.getswitchinterval() == pytest.approx(0.005, rel=0.02)
        held.end()
        assert sys.getswitchinterval() == pytest.approx(0.005, rel=0.02)
    finally:
        sys.setswitchinterval(before)


def test_a_run_loads_at_the_loading_interval_and_fills_the_table_at_the_windows(app_switch_interval: None) -> None:
    while_progress: list[float] = []
    while_rows: list[float] = []

    def notify(kind: str, _value: object) -> None:
        if kind == "rows":
            while_rows.append(sys.getswitchinterval())

    analysis.analyse(demo_spec(), notify, progress=lambda *_: while_progress.append(sys.getswitchinterval()),
                     cancel=NEVER_CANCELLED)
    assert while_progress and while_progress[0] == pytest.approx(LOADING_SWITCH_INTERVAL, rel=0.02)
    assert while_rows and all(value == pytest.approx(GUI_SWITCH_INTERVAL, rel=0.02) for value in while_rows)
    assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL, rel=0.02)


def test_a_failed_run_gives_the_interval_back(app_switch_interval: None, tmp_path: Path) -> None:
    missing = RunSpec(tmp_path / "a.json", tmp_path / "b.json", tmp_path / "a", tmp_path / "b", jobs=1)
    with pytest.raises(Exception):  # noqa: B017 (whatever the run's error, the interval comes back)
        analysis.analyse(missing, lambda *_: None, progress=lambda *_: None, cancel=NEVER_CANCELLED)
    assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL, rel=0.02)
    assert loading_interval._loading == 0
