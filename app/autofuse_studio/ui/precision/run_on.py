"""RunOnChooser: where the case dock's analysis runs — this machine or one of the saved host profiles."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QLineEdit, QWidget

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.remote.nwa_remote import remote_command_problem
from autofuse_studio.core.remote.profiles import load_profiles
from autofuse_studio.core.run.spec import DEFAULT_REMOTE_COMMAND
from autofuse_studio.ui.widgets.retranslate import Retranslating

LOCAL = ""


class _HostCombo(QComboBox):
    """Reloads the host profiles each time it opens (the Hosts… dialog may have changed them)."""

    aboutToShow = Signal()

    def showPopup(self) -> None:
        """Refresh, then open."""
        self.aboutToShow.emit()
        super().showPopup()


class RunOnChooser(Retranslating, QWidget):
    """'Run on: local / <host profiles>' plus the autofuse-studio command on the host."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = _HostCombo()
        self.combo.setObjectName("runOn")
        self.combo.aboutToShow.connect(self.refresh)
        self.combo.currentIndexChanged.connect(self._on_combo_current_index_changed)
        self.command_edit = QLineEdit(DEFAULT_REMOTE_COMMAND)
        self.command_edit.setObjectName("remoteCommand")
        self.command_edit.textChanged.connect(self._on_command_edit_text_changed)
        self.label = QLabel()
        self.command_label = QLabel()
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addRow(self.label, self.combo)
        layout.addRow(self.command_label, self.command_edit)
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.label.setText(self.tr("Run on"))
        self.command_label.setText(self.tr("Command there"))
        self.command_edit.setToolTip(self.tr("autofuse-studio on the host: a program name, an absolute path or a "
                                             "~/ path. Graph and dump paths above are paths on the host."))
        if self.combo.count():
            self.combo.setItemText(0, self.tr("local (this machine)"))

    def refresh(self) -> None:
        """Reload the host profiles, keeping the current choice when it still exists."""
        current = self.host()
        try:
            names = [profile.name for profile in load_profiles()]
        except AppError:  # an unreadable hosts.json: the Hosts… dialog says why; run locally meanwhile
            names = []
        self.combo.blockSignals(True)
        self.combo.clear()
        self.combo.addItem(self.tr("local (this machine)"), LOCAL)
        for name in names:
            self.combo.addItem(name, name)
        found = self.combo.findData(current) if current else 0
        self.combo.setCurrentIndex(max(found, 0))
        self.combo.blockSignals(False)
        self._update()

    def host(self) -> str | None:
        """The chosen host profile's name, or None for this machine."""
        data = self.combo.currentData()
        return str(data) if data else None

    def set_host(self, name: str | None) -> None:
        """Choose a host profile by name (None: local)."""
        self.refresh()
        index = self.combo.findData(name or LOCAL)
        self.combo.setCurrentIndex(max(index, 0))

    def remote_command(self) -> str:
        """The autofuse-studio command on the host."""
        return self.command_edit.text().strip() or DEFAULT_REMOTE_COMMAND

    def problem(self) -> str:
        """Why the command cannot be sent ('' when it can or the run is local)."""
        if self.host() is None:
            return ""
        problem = remote_command_problem(self.remote_command())
        return self.tr("This command cannot be sent to the host: %1").replace("%1", problem) if problem else ""

    def _update(self) -> None:
        remote = self.host() is not None
        self.command_edit.setVisible(remote)
        self.command_label.setVisible(remote)

    def _on_combo_current_index_changed(self, _index: int) -> None:
        self._update()
        self.changed.emit()

    def _on_command_edit_text_changed(self, _text: str) -> None:
        self.changed.emit()
