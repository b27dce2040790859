"""The robustness harness itself: it sees exit codes, streams, peak memory and tracebacks."""

from __future__ import annotations

import pytest

from tests.robustness.conftest import run_cli, run_python_peak


def test_run_cli_reports_exit_code_and_streams() -> None:
    run = run_cli("--version")
    assert run.returncode == 0
    assert "Autofuse Studio" in run.output
    assert run.peak_mib > 1


def test_run_cli_fails_the_test_on_a_traceback() -> None:
    with pytest.raises(AssertionError, match="traceback reached the user"):
        run_python_traceback()


def run_python_traceback() -> None:
    """A child that dies with a traceback must be caught by the same check run_cli applies."""
    run_python_peak("raise RuntimeError('boom')")


def test_run_python_peak_measures_the_child() -> None:
    _, small = run_python_peak("x = 1")
    _, big = run_python_peak("x = b'1' * (200 << 20)")
    assert small < 40
    assert big > small + 150
