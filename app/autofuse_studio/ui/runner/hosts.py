"""HostDialog: add, edit and remove remote build host profiles (no passwords; keys or the ssh agent).

Every field is checked as it is typed with the same grammar the CLI and ssh argv builder use; an invalid
field gets a red frame and a tooltip, and Save refuses with a sentence naming the field.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.remote.profiles import (
    DEFAULT_WORK_DIR,
    HostProfile,
    StoredEntry,
    field_problem,
    load_entries,
    profile_from_dict,
    save_entries,
)
from autofuse_studio.core.remote.ssh import connection_test_argv, ssh_failure
from autofuse_studio.ui.errors import user_message
from autofuse_studio.ui.process_runner import ProcessOutcome, ProcessRunner

INVALID_STYLE = "QLineEdit { border: 1px solid #c0392b; }"
FIELDS = ("name", "destination", "port", "identity_file", "proxy_jump", "work_dir", "ascend_home", "python",
          "known_hosts_file")
_OPTIONAL = ("port", "identity_file", "proxy_jump", "ascend_home", "known_hosts_file")
_DEFAULTS = {"work_dir": DEFAULT_WORK_DIR, "python": "python3"}  # what an empty field means
TEST_TIMEOUT_S = 10  # ssh's ConnectTimeout; the whole test is stopped a little later


class HostDialog(QDialog):
    """Edits the saved host profiles; Save writes them, showing every problem first; Test connection tries ssh."""

    connectionTested = Signal(bool, str)  # reached, the sentence shown

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Build hosts"))
        self.setMinimumWidth(720)  # paths and ProxyJump lists fit; the list shows the whole description
        self._tested: HostProfile | None = None
        self._stderr = ""
        self.tester = ProcessRunner(self)
        self.tester.stderrOutput.connect(self._on_tester_stderr)
        self.tester.finished.connect(self._on_tester_finished)
        self.entries: list[StoredEntry] = []
        self.file_problem: str | None = None
        try:
            self.entries = load_entries()
        except AppError as exc:  # a damaged file is shown, and never overwritten from here
            self.file_problem = user_message(exc)
        self.list = QListWidget()
        self.edits = {name: QLineEdit() for name in FIELDS}
        self.edits["destination"].setPlaceholderText(self.tr("user@host or a ~/.ssh/config alias"))
        self.edits["port"].setPlaceholderText(self.tr("default (22)"))
        self.edits["proxy_jump"].setPlaceholderText(self.tr("[user@]host[:port], comma separated"))
        for name, default in _DEFAULTS.items():
            self.edits[name].setText(default)
        self.problems = QLabel(wordWrap=True)
        self.problems.setStyleSheet("color: #c0392b")
        self.save_button = QPushButton(self.tr("Save profile"))
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.setToolTip(self.tr("Runs ssh -o BatchMode=yes … true with these fields (no password is "
                                            "ever asked)"))
        self.test_result = QLabel(wordWrap=True)
        self.test_result.setObjectName("connectionTestResult")
        self._build_layout()
        self.list.currentRowChanged.connect(self._on_list_row_changed)
        for edit in self.edits.values():
            edit.textChanged.connect(self._on_field_text_changed)
        self._refresh_list()
        self._on_field_text_changed()

    def _build_layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        form = QFormLayout()
        labels = {"name": self.tr("name"), "destination": self.tr("destination"), "port": self.tr("port"),
                  "identity_file": self.tr("identity file"), "proxy_jump": self.tr("proxy jump"),
                  "work_dir": self.tr("work dir"), "ascend_home": self.tr("ascend home"), "python": self.tr("python"),
                  "known_hosts_file": self.tr("known_hosts file")}
        for name, edit in self.edits.items():
            form.addRow(labels[name], edit)
        layout.addLayout(form)
        layout.addWidget(self.problems)
        remove = QPushButton(self.tr("Remove profile"))
        self.save_button.clicked.connect(self.save_current)
        remove.clicked.connect(self.remove_current)
        self.test_button.clicked.connect(self.test_connection)
        row = QHBoxLayout()
        for button in (self.save_button, remove, self.test_button):
            row.addWidget(button)
        layout.addLayout(row)
        layout.addWidget(self.test_result)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _refresh_list(self) -> None:
        self.list.clear()
        for entry in self.entries:
            if entry.profile is not None:
                self.list.addItem(f"{entry.profile.name} — {entry.profile.describe()}")
            else:
                self.list.addItem(self.tr("⚠ {0} — invalid, select it to repair").format(entry.name or "?"))

    def _on_list_row_changed(self, row: int) -> None:
        if not 0 <= row < len(self.entries):
            return
        entry = self.entries[row]
        stored = entry.profile.to_dict() if entry.profile is not None else entry.raw
        stored = {**_DEFAULTS, **stored} if isinstance(stored, dict) else dict(_DEFAULTS)
        for name, edit in self.edits.items():
            value = stored.get(name)
            edit.setText("" if value is None else str(value))

    def field_values(self) -> dict[str, Any]:
        """The fields as profile values: empty optional fields are None, the port a number when it is one."""
        values: dict[str, Any] = {}
        for name, edit in self.edits.items():
            text = edit.text().strip()
            if name in _OPTIONAL and not text:
                values[name] = None
            elif name == "port":
                values[name] = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else text
            else:
                values[name] = text or _DEFAULTS.get(name, "")
        return values

    def field_problems(self) -> dict[str, str]:
        """Field name -> the sentence saying why its text is refused (only the invalid fields)."""
        values = self.field_values()
        problems = {name: field_problem(name, value) for name, value in values.items()}
        return {name: problem for name, problem in problems.items() if problem}

    def _on_field_text_changed(self) -> None:
        problems = self.field_problems()
        for name, edit in self.edits.items():
            edit.setStyleSheet(INVALID_STYLE if name in problems else "")
            edit.setToolTip(problems.get(name, ""))
        shown = [self.file_problem] if self.file_problem else []
        self.problems.setText("\n".join(f"✗ {text}" for text in [*shown, *problems.values()]))

    def current_profile(self) -> HostProfile:
        """The profile described by the fields; AppError naming the first invalid field."""
        return profile_from_dict(self.field_values())

    def save_current(self) -> bool:
        """Add or replace the profile with this name; False (and the problems shown) when invalid."""
        if self.file_problem:
            self.problems.setText(f"✗ {self.file_problem}")
            return False
        try:
            profile = self.current_profile()
        except AppError as exc:
            self.problems.setText(f"✗ {user_message(exc)}")
            return False
        entry = StoredEntry(profile.to_dict(), profile, None)
        names = [stored.name for stored in self.entries]
        if profile.name in names:
            self.entries[names.index(profile.name)] = entry
        else:
            self.entries.append(entry)
        return self._write()

    def remove_current(self) -> None:
        """Forget the profile with the name in the field."""
        if self.file_problem:
            return
        name = self.edits["name"].text().strip()
        self.entries = [entry for entry in self.entries if entry.name != name]
        self._write()

    def _write(self) -> bool:
        try:
            save_entries(self.entries)
        except AppError as exc:
            self.problems.setText(f"✗ {user_message(exc)}")
            return False
        self._refresh_list()
        self._on_field_text_changed()
        return True

    # --- Test connection -------------------------------------------------------------------------
    def test_connection(self) -> bool:
        """Try `ssh … true` with the fields in the background; False when the fields are invalid or a test runs."""
        if self.tester.is_running():
            return False
        try:
            profile = self.current_profile()
            argv = connection_test_argv(profile, TEST_TIMEOUT_S)  # validated again by the argv builder
        except AppError as exc:
            self._report(False, f"{self.tr('Fix the fields before testing.')}\n{user_message(exc)}")
            return False
        self._tested, self._stderr = profile, ""
        self.test_button.setEnabled(False)
        self.test_result.setStyleSheet("")
        self.test_result.setText(self.tr("Connecting to %1…").replace("%1", profile.describe()))
        self.tester.start(argv, timeout=TEST_TIMEOUT_S + 5, what="connection test", merge_channels=False)
        return True

    def done(self, result: int) -> None:
        """Closing stops a test still waiting for its host (ssh is killed, not left behind)."""
        self.tester.kill_and_wait()
        super().done(result)

    def _on_tester_stderr(self, text: str) -> None:
        self._stderr += text

    def _on_tester_finished(self, outcome: ProcessOutcome) -> None:
        self.test_button.setEnabled(True)
        profile = self._tested
        if profile is None or outcome.cancelled:  # closed while testing: nobody to tell
            return
        if outcome.ok:
            self._report(True, self.tr("Connected to %1: ssh works without a password.").replace(
                "%1", profile.describe()))
        elif outcome.exit_status == "not-started":
            self._report(False, self.tr("ssh could not be started: is the OpenSSH client installed?"))
        elif outcome.timed_out:
            self._report(False, self.tr("No answer from %1 within %2 s.").replace("%1", profile.describe()).replace(
                "%2", str(TEST_TIMEOUT_S)))
        else:
            # ssh's own reasons are sorted into one sentence by the same code as verify-tiling --host.
            failure = ssh_failure(profile, outcome.exit_code or 0, self._stderr, TEST_TIMEOUT_S)
            self._report(False, f"{self.tr('The connection test failed.')}\n{user_message(failure)}")

    def _report(self, reached: bool, text: str) -> None:
        self.test_result.setStyleSheet("color: #1e8449" if reached else "color: #c0392b")
        self.test_result.setText(("✓ " if reached else "✗ ") + text)
        self.connectionTested.emit(reached, text)
