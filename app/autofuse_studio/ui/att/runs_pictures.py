"""Both sides' perf-formula pictures of one operator side by side (the perf tab's canvas and layout)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from autofuse_studio.core.att.perf_cases_render import OperatorPicture, operator_picture
from autofuse_studio.core.att.runs.session import RunSession
from autofuse_studio.core.att.runs.sides import ROLES
from autofuse_studio.ui.i18n import translations
from autofuse_studio.ui.widgets.display_canvas import DisplayCanvas
from autofuse_studio.ui.widgets.retranslate import Retranslating


class SidePictures(Retranslating, QWidget):
    """Two DisplayCanvas, default on the left and candidate on the right, each with a title line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.canvases = {role: DisplayCanvas() for role in ROLES}
        self.titles = {role: QLabel() for role in ROLES}
        self.pictures: dict[str, OperatorPicture | None] = dict.fromkeys(ROLES)
        self.session: RunSession | None = None
        self.operator: str | None = None
        splitter = QSplitter(Qt.Orientation.Horizontal)
        for role in ROLES:
            column = QWidget()
            layout = QVBoxLayout(column)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(self.titles[role])
            layout.addWidget(self.canvases[role], 1)
            self.canvases[role].hover_provider = lambda x, y, role=role: self._hover(role, x, y)
            splitter.addWidget(column)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self.retranslate()

    def retranslate(self) -> None:
        """Titles and messages in the current language."""
        self._titles()
        if self.operator is not None:
            self.show_operator(self.session, self.operator)

    def show_operator(self, session: RunSession | None, name: str | None) -> None:
        """Draw an operator on both sides; a side without [PERF] lines for it says so."""
        self.session, self.operator = session, name
        for role in ROLES:
            canvas = self.canvases[role]
            section = session.perf_operator(role, name) if session and name else None
            picture = operator_picture(section, translations().language) if section else None
            self.pictures[role] = picture
            if picture is not None:
                canvas.set_display_list(picture.items, picture.width, picture.height)
            elif name is None:
                canvas.set_display_list([], 0, 0)
            else:
                canvas.show_message(self.tr("No [PERF] lines for %1 in this run.").replace("%1", name))
        self._titles()

    def _titles(self) -> None:
        for role in ROLES:
            label = self.session.analysis.sides.side(role).label if self.session else "—"
            self.titles[role].setText(self.tr("%1: %2/").replace("%1", role).replace("%2", label))

    def _hover(self, role: str, x: float, y: float) -> str | None:
        picture = self.pictures[role]
        spot = picture.hotspot_at(x, y) if picture else None
        return spot.text if spot else None
