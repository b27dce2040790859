"""HostDialog: fields are checked as they are typed; Save refuses with a sentence naming the field."""

from __future__ import annotations

import json

from pytestqt.qtbot import QtBot

from autofuse_studio.core.remote.profiles import HostProfile, load_entries, load_profiles, profiles_path
from autofuse_studio.ui.runner.hosts import INVALID_STYLE, HostDialog


def _dialog(qtbot: QtBot) -> HostDialog:
    dialog = HostDialog()
    qtbot.addWidget(dialog)
    return dialog


def test_user_at_nothing_is_marked_and_not_saved(qtbot: QtBot) -> None:
    dialog = _dialog(qtbot)
    dialog.edits["name"].setText("box")
    dialog.edits["destination"].setText("me@")
    assert dialog.edits["destination"].styleSheet() == INVALID_STYLE
    assert "ssh destination 'me@'" in dialog.edits["destination"].toolTip()
    assert "ssh destination 'me@'" in dialog.problems.text()
    assert not dialog.save_current()
    assert "ssh destination" in dialog.problems.text()
    assert not profiles_path().exists()
    dialog.edits["destination"].setText("me@box")
    assert dialog.edits["destination"].styleSheet() == ""
    assert dialog.save_current()
    assert load_profiles() == [HostProfile("box", "me@box")]


def test_every_field_is_checked_while_typing(qtbot: QtBot) -> None:
    dialog = _dialog(qtbot)
    hostile = {"proxy_jump": "a$(touch${IFS}X)", "port": "9" * 5000, "identity_file": "key file",
               "known_hosts_file": "/kh;x", "work_dir": "relative", "ascend_home": "~/a", "python": "py thon",
               "name": "-x", "destination": "me@box:1"}
    for field, text in hostile.items():
        dialog.edits[field].setText(text)
    assert set(dialog.field_problems()) == set(hostile)
    for field in hostile:
        assert dialog.edits[field].styleSheet() == INVALID_STYLE, field
    assert not dialog.save_current()
    assert not profiles_path().exists()


def test_broken_entries_are_listed_kept_and_repairable(qtbot: QtBot) -> None:
    path = profiles_path()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hosts": [{"name": "bad", "destination": "a@b", "port": "abc"},
                                          {"name": "ok", "destination": "me@box", "known_hosts_file": "/kh"}]}))
    dialog = _dialog(qtbot)
    assert "invalid" in dialog.list.item(0).text()
    dialog.list.setCurrentRow(1)
    assert dialog.edits["known_hosts_file"].text() == "/kh"  # kept when the profile is saved again
    dialog.edits["port"].setText("2222")
    assert dialog.save_current()
    assert load_entries()[0].problem is not None  # the broken entry is still there, untouched
    assert load_profiles() == [HostProfile("ok", "me@box", port=2222, known_hosts_file="/kh")]
    dialog.list.setCurrentRow(0)
    assert dialog.edits["port"].styleSheet() == INVALID_STYLE
    dialog.edits["port"].setText("22")
    assert dialog.save_current(), dialog.problems.text()
    assert [profile.name for profile in load_profiles()] == ["bad", "ok"]


def test_a_damaged_file_is_shown_and_never_overwritten(qtbot: QtBot) -> None:
    path = profiles_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"{not json")
    dialog = _dialog(qtbot)
    assert "not valid JSON" in dialog.problems.text()
    dialog.edits["name"].setText("box")
    dialog.edits["destination"].setText("me@box")
    assert not dialog.save_current()
    assert path.read_bytes() == b"{not json"


def test_runner_form_lists_only_usable_hosts_and_says_why(qtbot: QtBot) -> None:
    from autofuse_studio.ui.runner.panel import RunnerPanel

    path = profiles_path()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hosts": [{"name": "h", "destination": "127.0.0.1", "proxy_jump": "a$(id)"},
                                          {"name": "ok", "destination": "me@box"}]}))
    panel = RunnerPanel()
    qtbot.addWidget(panel)
    panel.form.reload_hosts()
    names = [panel.form.host_combo.itemText(i) for i in range(panel.form.host_combo.count())]
    assert names[1:] == ["ok"]
    assert "Entry 1 ('h')" in panel.form.host_combo.toolTip()
    assert "ProxyJump" in panel.form.host_combo.toolTip()
