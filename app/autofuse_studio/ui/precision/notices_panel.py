"""NoticesPanel: a run's warnings above the table, collapsible, with a count badge and the files they concern."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, Qt
from PySide6.QtGui import QAction, QColor, QGuiApplication, QKeySequence, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QStyle,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.messages import render_all
from autofuse_studio.core.notices import Notice
from autofuse_studio.core.precision.dump_pairs import CLOSE_SIDE, OPEN_SIDE
from autofuse_studio.core.precision.engine import LoadedCase
from autofuse_studio.core.precision.explain import (
    NO_COMMON_STEPS,
    NO_FUSED_OPS,
    NOTHING_COMPARED,
    CasePaths,
)
from autofuse_studio.ui.i18n import translations
from autofuse_studio.ui.precision.notices_model import COUNT, FILES, MESSAGE, NoticesModel
from autofuse_studio.ui.widgets.retranslate import Retranslating

_BADGE_STYLE = ("QLabel { background: #e0a100; color: black; border-radius: 8px; padding: 0px 6px; "
                "font-weight: bold; }")
_AMBER = QColor("#e0a100")
BODY_HEIGHT = 170


def _mix(base: QColor, tint: QColor, amount: float) -> QColor:
    return QColor.fromRgbF(*(b + (t - b) * amount for b, t in zip(
        (base.redF(), base.greenF(), base.blueF()), (tint.redF(), tint.greenF(), tint.blueF()), strict=True)))


def frame_style(palette: QPalette) -> str:
    """An amber tint over the palette's own window colour: cream on a light desktop, dark amber on a dark one,
    so the palette's text colour always reads on it."""
    window = palette.color(QPalette.ColorRole.Window)
    background = _mix(window, _AMBER, 0.14).name()
    border = _mix(window, _AMBER, 0.6).name()
    return f"#noticesPanel {{ background: {background}; border: 1px solid {border}; }}"


def empty_result_text(reason: str) -> str:
    """The status-line sentence for a run without rows (reason: explain.empty_reason), translated."""
    texts = {
        NO_FUSED_OPS: QCoreApplication.translate(
            "NoticesPanel", "0 rows: the af-open graph has no fused operators (no AscBackend/FusedAscBackend op "
                            "and no _datadump_origin_name attribute)"),
        NO_COMMON_STEPS: QCoreApplication.translate(
            "NoticesPanel", "0 rows: the two dump folders have no rank and step in common"),
        NOTHING_COMPARED: QCoreApplication.translate(
            "NoticesPanel", "0 rows: nothing could be paired for comparing"),
    }
    return texts.get(reason, texts[NOTHING_COMPARED])


class NoticesPanel(Retranslating, QFrame):
    """Hidden without notices; the header names the first one, the body lists every notice and its items."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noticesPanel")
        self._follow_palette()
        self.model = NoticesModel(self)
        self._notices: list[Notice] = []  # as core made them; the model holds them rendered in the UI language
        self._paths = CasePaths()
        self.toggle = QToolButton()
        self.toggle.setObjectName("noticesToggle")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.toggled.connect(self._on_toggle_toggled)
        self.badge = QLabel()
        self.badge.setObjectName("noticesBadge")
        self.badge.setStyleSheet(_BADGE_STYLE)
        self.icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self.icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(size))
        self.summary = QLabel()  # the first notice, elided to the width it gets: it never widens the tab
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.view = self._make_view()
        self.details = QLabel()
        self.details.setObjectName("noticeDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body = QWidget()
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.view)
        body.addWidget(self.details)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        for widget in (self.icon, self.toggle, self.badge):
            header.addWidget(widget)
        header.addWidget(self.summary, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.setSpacing(2)
        layout.addLayout(header)
        layout.addWidget(self.body)
        self._on_toggle_toggled(False)
        self.hide()
        self.retranslate()

    def _follow_palette(self) -> None:
        style = frame_style(QGuiApplication.palette())  # the application's: the frame's own holds the tint
        if style != self.styleSheet():
            self.setStyleSheet(style)

    def changeEvent(self, event: QEvent) -> None:
        """Re-tint when the desktop palette changes (light/dark)."""
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._follow_palette()
        super().changeEvent(event)

    def _make_view(self) -> QTreeView:
        view = QTreeView()
        view.setObjectName("noticesView")
        view.setModel(self.model)
        view.setUniformRowHeights(True)  # a notice may hold 100k items
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.header().setStretchLastSection(False)
        view.header().setSectionResizeMode(MESSAGE, QHeaderView.ResizeMode.Stretch)
        view.header().setSectionResizeMode(FILES, QHeaderView.ResizeMode.Interactive)
        view.header().setSectionResizeMode(COUNT, QHeaderView.ResizeMode.ResizeToContents)
        view.setColumnWidth(FILES, 260)
        view.selectionModel().currentChanged.connect(self._on_view_current_changed)
        self.copy_action = QAction(self)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.copy_action.triggered.connect(self.copy_selection)
        view.addAction(self.copy_action)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        return view

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.toggle.setText(self.tr("Warnings"))
        self.toggle.setToolTip(self.tr("Show or hide what the analysis had to say about the inputs"))
        self.copy_action.setText(self.tr("Copy"))
        self.model.retranslate()
        if self._notices:  # the sentences themselves: rendered again from their codes in the new language
            current = self.view.currentIndex()
            row = (current.row() if current.internalId() == 0 else current.internalId() - 1) if current.isValid() else 0
            self.model.set_notices(render_all(self._notices, translations().language), self._paths)
            self.view.setCurrentIndex(self.model.index(row, 0))
            self._elide_summary()
        self._show_details(self.view.currentIndex())

    def set_notices(self, notices: Sequence[Notice], paths: CasePaths, expanded: bool = False) -> None:
        """Show a run's notices (hidden when there are none); `expanded` opens the list (e.g. for 0 rows).

        Each notice is shown in the UI language, rendered from its code (core/messages.py).
        """
        self._notices, self._paths = list(notices), paths
        self.model.set_notices(render_all(self._notices, translations().language), paths)
        count = len(self.model.notices)
        self.badge.setText(f"{count:,}")
        self.badge.setToolTip(self.tr("%n kind(s) of warning", "", count))
        self.setVisible(count > 0)
        self._fit_view(count)
        self.toggle.setChecked(expanded and count > 0)
        self._elide_summary()
        if count:
            self.view.setCurrentIndex(self.model.index(0, MESSAGE))
        self._show_details(self.view.currentIndex())

    def _fit_view(self, count: int) -> None:
        """As tall as a few notices need (up to BODY_HEIGHT): one notice should not take half the tab."""
        row = max(self.view.sizeHintForRow(0), self.view.fontMetrics().height() + 4)
        wanted = self.view.header().sizeHint().height() + row * (min(count, 5) + 1) + 2 * self.view.frameWidth()
        self.view.setFixedHeight(min(BODY_HEIGHT, wanted))

    def clear(self) -> None:
        """Forget the notices (before a new run)."""
        self.set_notices([], CasePaths())

    def copy_selection(self) -> None:
        """Copy the selected lines (notice or item text, then its files) as tab-separated text."""
        lines = []
        for index in sorted(self.view.selectionModel().selectedRows(MESSAGE),
                            key=lambda index: (self.model.parent(index).row(), index.row())):
            files = self.model.data(index.siblingAtColumn(FILES), Qt.ItemDataRole.ToolTipRole) or ""
            lines.append(f"{self.model.data(index)}\t{files.replace(chr(10), ' ')}")
        if lines:
            QGuiApplication.clipboard().setText("\n".join(lines))

    def _on_toggle_toggled(self, checked: bool) -> None:
        self.body.setVisible(checked)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if checked else Qt.ArrowType.RightArrow)

    def _on_view_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_details(current)

    def _show_details(self, index: QModelIndex) -> None:
        """The whole sentence of the current notice (or item) and every file it concerns, wrapped."""
        notice = self.model.notice_of(index)
        if notice is None:
            self.details.clear()
            return
        text = self.model.data(index.siblingAtColumn(MESSAGE)) or notice.message
        files = self.model.data(index.siblingAtColumn(FILES), Qt.ItemDataRole.ToolTipRole) or ""
        label = self.tr("Concerns:")
        self.details.setText(f"{text}\n{label} {files.replace(chr(10), ', ')}" if files else text)

    def _elide_summary(self) -> None:
        notices = self.model.notices
        text = notices[0].message if notices else ""
        self.summary.setToolTip(text)
        width = max(40, self.summary.width())
        self.summary.setText(self.summary.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, width))

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Re-elide the header's summary to the new width."""
        super().resizeEvent(event)
        self._elide_summary()


def case_paths(case: LoadedCase | None) -> CasePaths:
    """The graph and dump folder of each side of a loaded case (empty for mode 2)."""
    if case is None:
        return CasePaths()
    return CasePaths({OPEN_SIDE: case.af_open.path, CLOSE_SIDE: case.af_close.path},
                     {OPEN_SIDE: str(case.open_index.root), CLOSE_SIDE: str(case.close_index.root)})
