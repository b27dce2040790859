"""HostDialog's Test connection: real ssh against a throwaway sshd on 127.0.0.1, in the background."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from autofuse_studio.core.remote.profiles import HostProfile
from autofuse_studio.ui.runner.hosts import FIELDS, HostDialog
from tests.stub_sdk.sshd import LocalSshd, start_sshd

WAIT_MS = 30_000


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalSshd]:
    """One sshd for the module's tests."""
    yield from start_sshd(tmp_path_factory.mktemp("sshd"))


def _fill(dialog: HostDialog, profile: HostProfile) -> None:
    values = profile.to_dict()
    for field in FIELDS:
        value = values.get(field)
        dialog.edits[field].setText("" if value is None else str(value))


def _dialog(qtbot: QtBot, profile: HostProfile) -> HostDialog:
    dialog = HostDialog()
    qtbot.addWidget(dialog)
    _fill(dialog, profile)
    return dialog


def test_a_reachable_host_is_reported_and_the_window_keeps_painting(qtbot: QtBot, sshd: LocalSshd) -> None:
    dialog = _dialog(qtbot, sshd.profile())
    with qtbot.waitSignal(dialog.connectionTested, timeout=WAIT_MS) as blocker:
        assert dialog.test_connection()
        assert not dialog.test_button.isEnabled()  # running in the background: the call returned at once
        assert "Connecting to" in dialog.test_result.text()
    reached, text = blocker.args
    assert reached and text.startswith("Connected to ")
    assert dialog.test_result.text().startswith("✓ Connected to ")
    assert dialog.test_button.isEnabled()


def test_a_refused_key_is_one_sentence(qtbot: QtBot, sshd: LocalSshd) -> None:
    dialog = _dialog(qtbot, sshd.profile(identity_file=str(sshd.other_key)))
    with qtbot.waitSignal(dialog.connectionTested, timeout=WAIT_MS) as blocker:
        assert dialog.test_connection()
    reached, text = blocker.args
    assert not reached
    assert text.splitlines()[0] == "The connection test failed."
    assert "refused the key" in text and str(sshd.other_key) in text


def test_invalid_fields_are_not_tested(qtbot: QtBot, sshd: LocalSshd) -> None:
    dialog = _dialog(qtbot, sshd.profile())
    dialog.edits["proxy_jump"].setText("a$(touch${IFS}X)")
    with qtbot.waitSignal(dialog.connectionTested, timeout=1000) as blocker:
        assert not dialog.test_connection()
    assert not blocker.args[0] and not dialog.tester.is_running()
    assert dialog.test_result.text().startswith("✗ Fix the fields before testing.")


def test_closing_during_a_test_stops_ssh(qtbot: QtBot, sshd: LocalSshd) -> None:
    # A port where nothing answers would wait for the connect timeout; closing must not leave ssh behind.
    dialog = _dialog(qtbot, sshd.profile(destination="me@192.0.2.1"))
    assert dialog.test_connection()
    dialog.reject()
    assert not dialog.tester.is_running()


def test_the_dialog_is_wide_enough(qtbot: QtBot, sshd: LocalSshd) -> None:
    dialog = _dialog(qtbot, sshd.profile())
    dialog.show()
    assert dialog.width() >= 720
    assert dialog.test_button.isVisible() and dialog.test_button.text() == "Test connection"
