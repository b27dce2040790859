"""HostDialog: add, edit and remove remote build host profiles (no passwords; keys or the ssh agent)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.errors import AppError
from autofuse_studio.core.remote.profiles import HostProfile, load_profiles, profile_problems, save_profiles


class HostDialog(QDialog):
    """Edits the saved host profiles; Save writes them, showing every problem first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Build hosts"))
        try:
            self.profiles = load_profiles()
        except AppError:
            self.profiles = []
        self.list = QListWidget()
        self.edits = {name: QLineEdit() for name in ("name", "destination", "identity_file", "proxy_jump",
                                                        "work_dir", "ascend_home", "python")}
        self.edits["destination"].setPlaceholderText(self.tr("user@host or a ~/.ssh/config alias"))
        self.edits["work_dir"].setText("/tmp/autofuse-studio")
        self.edits["python"].setText("python3")
        self.port = QSpinBox(minimum=0, maximum=65535)
        self.port.setSpecialValueText(self.tr("default"))
        self.problems = QLabel(wordWrap=True)
        self._build_layout()
        self.list.currentRowChanged.connect(self._on_list_row_changed)
        self._refresh_list()

    def _build_layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        form = QFormLayout()
        labels = {"name": self.tr("name"), "destination": self.tr("destination"),
                  "identity_file": self.tr("identity file"), "proxy_jump": self.tr("proxy jump"),
                  "work_dir": self.tr("work dir"), "ascend_home": self.tr("ascend home"), "python": self.tr("python")}
        for name, edit in self.edits.items():
            form.addRow(labels[name], edit)
        form.addRow(self.tr("port"), self.port)
        layout.addLayout(form)
        layout.addWidget(self.problems)
        save, remove = QPushButton(self.tr("Save profile")), QPushButton(self.tr("Remove profile"))
        save.clicked.connect(self.save_current)
        remove.clicked.connect(self.remove_current)
        layout.addWidget(save)
        layout.addWidget(remove)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _refresh_list(self) -> None:
        self.list.clear()
        self.list.addItems([f"{p.name} — {p.describe()}" for p in self.profiles])

    def _on_list_row_changed(self, row: int) -> None:
        if 0 <= row < len(self.profiles):
            profile = self.profiles[row].to_dict()
            for name, edit in self.edits.items():
                edit.setText(str(profile.get(name) or ""))
            self.port.setValue(profile.get("port") or 0)

    def current_profile(self) -> HostProfile:
        """The profile described by the fields."""
        text = {name: edit.text().strip() for name, edit in self.edits.items()}
        return HostProfile(text["name"], text["destination"], self.port.value() or None,
                           text["identity_file"] or None, text["proxy_jump"] or None,
                           text["work_dir"] or "/tmp/autofuse-studio", text["ascend_home"] or None,
                           text["python"] or "python3")

    def save_current(self) -> bool:
        """Add or replace the profile with this name; False (and the problems shown) when invalid."""
        profile = self.current_profile()
        problems = profile_problems(profile)
        self.problems.setText("\n".join(problems))
        if problems:
            return False
        self.profiles = [p for p in self.profiles if p.name != profile.name] + [profile]
        save_profiles(self.profiles)
        self._refresh_list()
        return True

    def remove_current(self) -> None:
        """Forget the profile with the name in the field."""
        name = self.edits["name"].text().strip()
        self.profiles = [p for p in self.profiles if p.name != name]
        save_profiles(self.profiles)
        self._refresh_list()
