"""The main window: case panel and thresholds docks, the precision workbench, menus, drops and settings."""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QGraphicsView,
    QMenu,
    QMessageBox,
    QScrollArea,
    QTabWidget,
    QWidget,
)

from autofuse_studio import APP_NAME, __version__
from autofuse_studio.core.case import (
    CASE_SUFFIX,
    CaseFiles,
    Detection,
    case_title,
    load_case_file,
    merge,
    recent_entry_usable,
)
from autofuse_studio.core.dropped import Dropped, sort_dropped
from autofuse_studio.core.errors import AppError
from autofuse_studio.core.phase import Phase, phase_of
from autofuse_studio.core.precision.dump_pairs import SidesSummary
from autofuse_studio.core.precision.explain import CasePaths, empty_reason
from autofuse_studio.core.precision.rows import PrecisionResult
from autofuse_studio.core.precision.thresholds import Thresholds
from autofuse_studio.core.resources import demo_case_dir
from autofuse_studio.core.run.spec import OnHost
from autofuse_studio.core.session import FocusChanged, ResultChanged, Session, ThresholdsChanged
from autofuse_studio.ui.att.workbench import AttWorkbench
from autofuse_studio.ui.errors import report_error, user_message
from autofuse_studio.ui.file_menu import FileMenuMixin, added_graph
from autofuse_studio.ui.fonts import ensure_cjk_font, show_font_notice
from autofuse_studio.ui.graph.browse import graphs_only_notice, missing_for_comparison
from autofuse_studio.ui.graph.workbench import GraphWorkbench
from autofuse_studio.ui.help_actions import HelpActions
from autofuse_studio.ui.i18n import LANGUAGES, resolve_language, translations
from autofuse_studio.ui.precision.analysis import Analysis
from autofuse_studio.ui.precision.case_panel import CasePanel
from autofuse_studio.ui.precision.notices_panel import empty_result_text
from autofuse_studio.ui.precision.remote_tensors import RemoteTensors
from autofuse_studio.ui.precision.row_text import describe_row_here
from autofuse_studio.ui.precision.run_controller import RunController
from autofuse_studio.ui.precision.thresholds_editor import ThresholdsEditor
from autofuse_studio.ui.precision.workbench import PrecisionWorkbench
from autofuse_studio.ui.result_steps import ResultSteps
from autofuse_studio.ui.runner.panel import RunnerPanel
from autofuse_studio.ui.session_adapter import SessionAdapter
from autofuse_studio.ui.settings import AppSettings
from autofuse_studio.ui.start_page import Covering, StartPage
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.theme import ThemeMenu
from autofuse_studio.ui.widgets.drops import accept_local_drag, take_local_drop
from autofuse_studio.ui.widgets.retranslate import Retranslating
from autofuse_studio.ui.widgets.tab_status import TabStatus

log = logging.getLogger(__name__)


def _scrollable(panel: QWidget) -> QScrollArea:
    """A tab page that scrolls when the window is smaller than the panel's minimum size (small laptops)."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(panel)
    return scroll


class MainWindow(Retranslating, FileMenuMixin):
    """Top-level window: open a case (drop, File menu, recent, *.afcase), analyse it, explore the table."""

    pathsOpened = Signal()  # open_paths() has applied what the paths are (an analysis may follow)
    resultShown = Signal(object)  # a finished Analysis is shown: table, selection, tensors, graph

    def __init__(self) -> None:
        super().__init__()
        self._sorting: TaskHandle | None = None  # the drop being looked at in the background
        self.setObjectName("mainWindow")
        self.resize(1280, 800)
        self.setAcceptDrops(True)
        self.settings = AppSettings()
        self.runner = TaskRunner(self)
        self.analysis = RunController(self.runner, self)  # here, on a host profile or on a Dask cluster
        self.remote_tensors = RemoteTensors(self.runner, self)  # a remote row's NPYs, copied when selected
        # The case, thresholds, result and focus every view follows (views observe it, nobody pushes to them).
        self.session = Session(self.settings.thresholds())
        self.session_events = SessionAdapter(self.session, self)
        self.workbench = PrecisionWorkbench(session=self.session_events)
        self._shown_result: PrecisionResult | None = None  # the session's, for what its summary said
        self._summary_shown: tuple[PrecisionResult, str] | None = None  # a result and the summary shown of it
        self.tabs = QTabWidget()
        self.tabs.addTab(self.workbench, "")
        self.graph = GraphWorkbench(self.runner)
        self.tabs.addTab(_scrollable(self.graph), "")
        self.result_steps = ResultSteps(self.workbench, self.graph, self)
        self.att = AttWorkbench(runner=self.runner)
        # A drop on the ATT tab goes where its content belongs (the window sorts it), not to the ATT loader;
        # the Runs view keeps its own drops (a run root dropped on it).
        self.att.setAcceptDrops(False)
        self.tabs.addTab(_scrollable(self.att), "")
        self.runner_panel = RunnerPanel(self)
        self.tabs.addTab(_scrollable(self.runner_panel), "")
        self.setCentralWidget(self.tabs)
        # Messages belong to their tab; the table and the graph show the same case.
        self.tab_status = TabStatus(self.statusBar(), self.tabs, [[self.workbench, self.graph]])
        self.case_panel = CasePanel()
        self.case_dock = self._dock("case_dock", self.case_panel, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.thresholds_editor = ThresholdsEditor()
        self.thresholds_editor.set_thresholds(self.settings.thresholds())
        self.thresholds_dock = self._dock("thresholds_dock", self.thresholds_editor,
                                          Qt.DockWidgetArea.LeftDockWidgetArea)
        self._files_indexed = 0
        self._docks_hidden_for: list[QDockWidget] = []
        self._opened_paths: list[str] = []
        self._pending_view: dict[str, object] = {}
        self._pending_filter: object = None  # a case file's table filter, shown once its result is
        # No case yet: a start page over the Precision tab (recent cases, demo, open, drop hint).
        self.start_page = StartPage(self.workbench)
        self._start_cover = Covering(self.start_page, self.workbench)
        # The tensor panel (made through export.tensor_panel_class(), typed as a QWidget) takes the per-op
        # trend's ranks and steps from the session.
        follow = getattr(self.workbench.tensor_panel, "follow_results_of", None)
        if callable(follow):
            follow(self.session)
        self._build_actions()
        self._build_menus()
        self._connect()
        self._connect_start_page()
        self.workbench.filter_bar.settings = self.settings  # its presets live with the window's settings
        last_filter = self.settings.last_filter()  # the table filter of the last session (validated)
        if last_filter is not None:
            self.workbench.filter_bar.set_state(last_filter)
        self.watch_table_exports()
        self._route_drops_to_window()
        self.retranslate()
        self._restore_layout()

    def _dock(self, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(self)
        dock.setObjectName(name)
        # Scrollable, so the two stacked docks never force a minimum window height (small laptop screens).
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(widget)
        dock.setWidget(scroll)
        self.addDockWidget(area, dock)
        return dock

    def _build_actions(self) -> None:
        def action(slot: object, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None) -> QAction:
            made = QAction(self)
            made.triggered.connect(slot)
            if shortcut is not None:
                made.setShortcut(shortcut)
            return made

        self.open_files_action = action(self._on_open_files_triggered, QKeySequence.StandardKey.Open)
        self.new_case_action = action(self.new_case, QKeySequence.StandardKey.New)  # file_menu.py
        self.close_action = action(self.close_current, QKeySequence.StandardKey.Close)
        self.open_folder_action = action(self._on_open_folder_triggered, "Ctrl+Shift+O")
        self.open_case_action = action(self._on_open_case_triggered)
        self.open_run_root_action = action(lambda: self._on_open_run_root_triggered())
        self.save_case_action = action(self._on_save_case_triggered, QKeySequence.StandardKey.Save)
        self.export_table_action = action(self._on_export_table_triggered, "Ctrl+E")
        self.export_picture_action = action(self._on_export_picture_triggered)
        self.quit_action = action(lambda: self.close(), QKeySequence.StandardKey.Quit)  # not the bound C++ method
        self.analyse_action = action(self.analyse, "F5")
        self.cancel_action = action(lambda: self._cancel_analysis(), "Esc")
        self.first_action = action(self.workbench.go_to_first_divergence, "Ctrl+D")
        self.about_action = action(self._on_about_triggered)
        self.language_group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code in ("", *LANGUAGES):
            item = QAction(LANGUAGES.get(code, ""), self.language_group)
            item.setCheckable(True)
            item.setData(code)
            item.triggered.connect(lambda _checked=False, code=code: self.set_language(code))
            self.language_actions[code] = item
        self.language_actions.get(self.settings.language(), self.language_actions[""]).setChecked(True)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.recent_menu = QMenu(self)
        self.file_menu.addAction(self.new_case_action)
        self.file_menu.addActions([self.open_files_action, self.open_folder_action, self.open_case_action])
        self.file_menu.addAction(self.open_run_root_action)
        self.file_menu.addMenu(self.recent_menu)
        self.file_menu.addSeparator()
        self.file_menu.addActions([self.save_case_action, self.export_table_action, self.export_picture_action])
        self.file_menu.addSeparator()
        self.file_menu.addActions([self.close_action, self.quit_action])
        self.view_menu = bar.addMenu("")
        self.view_menu.addActions([self.case_dock.toggleViewAction(), self.thresholds_dock.toggleViewAction()])
        self.language_menu = self.view_menu.addMenu("")
        self.language_menu.addActions(list(self.language_actions.values()))
        self.theme_menu = ThemeMenu(self.settings, self)  # View > Theme: system / light / dark (ui/theme.py)
        self.view_menu.addMenu(self.theme_menu)
        self.analysis_menu = bar.addMenu("")
        self.analysis_menu.addActions([self.analyse_action, self.cancel_action, self.first_action])
        self.help_menu = bar.addMenu("")
        self.help_menu.addAction(self.about_action)
        self.help_actions = HelpActions(self, self.help_menu)  # Documentation (F1), Keyboard shortcuts
        self._fill_recent_menu()

    def _connect(self) -> None:
        self.result_steps.shown.connect(self._on_result_steps_shown)  # before resultShown: the filter is shown
        self.case_panel.analyseRequested.connect(self.analyse)
        self.case_panel.cancelRequested.connect(self._cancel_analysis)
        self.thresholds_editor.thresholdsChanged.connect(self._on_thresholds_changed)
        self.analysis.rowsArrived.connect(self.workbench.append_rows)
        self.analysis.indexed.connect(self._on_analysis_indexed)
        self.analysis.progressed.connect(self._on_analysis_progressed)
        self.analysis.finished.connect(self._on_analysis_finished)
        self.analysis.failed.connect(self._on_analysis_failed)
        self.analysis.cancelled.connect(self._on_analysis_cancelled)
        # The graph follows the session (table -> session -> graph); its slots never emit, so this cannot loop.
        self.session_events.focusChanged.connect(self._on_session_focus_changed)
        self.session_events.caseChanged.connect(lambda _change: self._show_case_title())
        self.session_events.resultChanged.connect(self._on_session_result_changed)
        self.session_events.thresholdsChanged.connect(self._on_session_thresholds_changed)
        self.result_steps.shown.connect(self.resultShown)
        self.workbench.remoteRowSelected.connect(lambda host, row: self.remote_tensors.fetch(host, row))
        self.remote_tensors.ready.connect(lambda row: self.workbench.show_tensors(row))
        self.remote_tensors.failed.connect(lambda error: self.workbench.show_tensor_error(error))
        self.graph.rowsSelected.connect(self._on_graph_rows_selected)
        self.graph.unpaired.connect(self.forget_graph)  # file_menu.py
        self.graph.pictureExported.connect(
            lambda path: self.tab_status.show(self.tr("Wrote %1").replace("%1", str(path)), self.graph, 15000))
        self.att.statusMessage.connect(lambda text: self.tab_status.show(text, self.att, 15000))
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.runner_panel.statusMessage.connect(lambda text: self.tab_status.show(text, self.runner_panel, 15000))

    def _connect_start_page(self) -> None:
        page = self.start_page
        page.demoRequested.connect(self.open_demo)
        page.openCaseRequested.connect(self.open_folder_action.trigger)
        page.openGraphRequested.connect(self._on_open_graph_triggered)
        page.openRunRootRequested.connect(self.open_run_root_action.trigger)
        page.recentChosen.connect(self.open_paths)
        self.session_events.caseChanged.connect(self._on_session_case_changed)
        # A result shown (e.g. Analyse with paths typed into the case dock) is never hidden under the page.
        self.session_events.resultChanged.connect(self._on_session_case_changed)
        self.show_start_page()

    def show_start_page(self) -> None:
        """Show the start page over the Precision tab (no case open; File > New case calls this)."""
        self.start_page.set_recent(self.settings.recent_cases())
        self._start_cover.show()

    def hide_start_page(self) -> None:
        """Show the workbench (a case was opened)."""
        self.start_page.hide()

    def _on_session_case_changed(self, change: object) -> None:
        if getattr(change, "case", None) is not None or getattr(change, "result", None) is not None:
            self.hide_start_page()

    def open_demo(self) -> None:
        """Open the bundled demo case (the Precision tab, analysed at once)."""
        self.open_paths([str(demo_case_dir())])

    def _on_open_graph_triggered(self) -> None:
        """Open one graph to browse (or two to compare); a drop of the same files does the same."""
        filters = ";;".join((self.tr("GE graphs (*.json *.pbtxt *.txt *.pb)"), self.tr("All files (*)")))
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Open graph"), "", filters)
        if files:
            self.open_paths(files)

    def _route_drops_to_window(self) -> None:
        """Let drops over the canvases and graph views reach the window, which sorts them by content.

        A QGraphicsView takes drops by default and its scene accepts every drag that enters, then refuses the
        drop (no item takes it): a file dragged over the perf canvas or a graph could not be dropped there.
        """
        for view in self.findChildren(QGraphicsView):
            view.setAcceptDrops(False)
            view.viewport().setAcceptDrops(False)

    def _show_case_title(self) -> None:
        """The window title names the open case (its inputs' folder, or the two NPYs), then the app."""
        case = self.session.case
        title = case_title(case) if isinstance(case, CaseFiles) else ""
        self.setWindowTitle(f"{title} — {APP_NAME}" if title else APP_NAME)

    def retranslate(self) -> None:
        """Every window-level text in the current language."""
        self._show_case_title()
        for number, title in enumerate((self.tr("Precision"), self.tr("Graph"), self.tr("ATT"), self.tr("Runner"))):
            self.tabs.setTabText(number, title)
        self.case_dock.setWindowTitle(self.tr("Case"))
        self.thresholds_dock.setWindowTitle(self.tr("Thresholds"))
        self.file_menu.setTitle(self.tr("&File"))
        self.view_menu.setTitle(self.tr("&View"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.analysis_menu.setTitle(self.tr("&Analysis"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.recent_menu.setTitle(self.tr("Recent cases"))
        texts = {
            self.open_files_action: self.tr("&Open files…"), self.open_folder_action: self.tr("Open &folder…"),
            self.open_case_action: self.tr("Open &case file…"), self.save_case_action: self.tr("&Save case as…"),
            self.open_run_root_action: self.tr("Open &run root (ATT default vs PGO)…"),
            self.export_table_action: self.tr("&Export table (CSV, JSON, xlsx)…"),
            self.export_picture_action: self.tr("Export table &picture (PNG, SVG)…"),
            self.quit_action: self.tr("&Quit"), self.analyse_action: self.tr("&Analyse"),
            self.new_case_action: self.tr("&New case"), self.close_action: self.tr("&Close"),
            self.cancel_action: self.tr("&Cancel analysis"), self.first_action: self.tr("Go to first &divergence"),
            self.about_action: self.tr("&About %1").replace("%1", APP_NAME),
        }
        for item, text in texts.items():
            item.setText(text)
        self.language_actions[""].setText(self.tr("System language"))
        self.help_actions.retranslate()
        self._reword_summary()


    def _on_open_run_root_triggered(self) -> None:
        """File > Open run root…: the ATT tab's Runs view compares a field run's default and PGO logs."""
        for index in range(self.tabs.count()):
            page = self.tabs.widget(index)
            if page is not None and page.findChild(AttWorkbench) is self.att:
                self.tabs.setCurrentIndex(index)
        self.att.open_run_root_dialog()

    # --- opening cases -------------------------------------------------------------------------
    def open_paths(self, paths: list[str]) -> None:
        """Open dropped or given paths: a *.afcase file, or inputs whose roles are detected in the background.

        pathsOpened is emitted once the paths are applied (the analysis, when one starts, runs after it).
        """
        if len(paths) == 1 and paths[0].endswith(CASE_SUFFIX):
            self.open_case_file(paths[0])
            self.pathsOpened.emit()
            return
        if self._sorting is not None:
            self._sorting.cancel()  # a newer drop replaces one still being looked at
        handle = self._sorting = self.runner.start(sort_dropped, list(paths))
        handle.finished.connect(lambda dropped: self._on_dropped_sorted(handle, dropped))
        handle.failed.connect(lambda error: self._on_dropped_failed(handle, error))
        self.case_panel.set_progress(0, 0, self.tr("Looking at %n item(s)…", "", len(paths)))

    def _on_dropped_failed(self, handle: TaskHandle, error: BaseException) -> None:
        if handle is self._sorting:
            self._sorting = None
            self.case_panel.set_progress(0, 1, "")
            report_error(self, error, banner=self.case_panel.banner)
            self.pathsOpened.emit()

    def _on_dropped_sorted(self, handle: TaskHandle, dropped: Dropped) -> None:
        if handle is not self._sorting:
            return  # replaced by a newer drop
        self._sorting = None
        self.case_panel.set_progress(0, 1, "")
        # One rule: what was dropped goes where its content belongs, that tab is shown and says what it opened.
        if dropped.att_logs:  # an ATT log dropped anywhere opens in the ATT tab
            self.open_att_logs(dropped.att_logs)
        detection = dropped.detection
        if detection is not None and detection.found_anything():
            self._apply_detection(dropped.paths, detection)
        elif detection is not None:  # nothing of a case: say so in one place, keep the case as it was
            if dropped.att_logs:  # the ATT tab says what it opened, then what was left out
                text = " ".join((self._att_opened_text(dropped.att_logs), *detection.notes))
            else:
                text = self.tr("Nothing opened: %1").replace("%1", " ".join(detection.notes))
            shown = self.tabs.currentWidget()
            self.tab_status.show(text, shown if shown is not None else self.workbench, 15000)
        self.pathsOpened.emit()

    def _names(self, paths: list[str]) -> str:
        return ", ".join(Path(path).name or path for path in paths)

    def show_case_tab(self) -> None:
        """Show the Precision tab and the case dock (a case was opened, maybe from the ATT or Runner tab)."""
        self.tabs.setCurrentWidget(self.workbench)
        self.case_dock.show()
        self.case_dock.raise_()

    def _apply_detection(self, paths: list[str], detection: Detection) -> None:
        case = merge(self.case_panel.case(), detection.case)
        case.thresholds = self.thresholds_editor.thresholds()
        self.case_panel.set_case(case, detection.notes)
        self.session.set_case(case)
        used = [path for path in paths if path not in detection.ignored]
        self._remember(used)
        names = self._names(used)
        if case.graphs_only():  # a graph alone, or two without dumps: browse them, as in Netron
            self._browse_graphs(case, newest=added_graph(detection.case, case))
            self.tab_status.show(self.tr("Opened %1 in the Graph tab.").replace("%1", names), self.graph)
            return
        self.show_case_tab()
        if case.problems():
            text = self.tr("Opened %1; the case is not complete yet (see the case panel).").replace("%1", names)
        else:
            text = self.tr("Opened the case %1: analysing…").replace("%1", names)
        self.tab_status.show(text, self.workbench)
        self._analyse_if_complete(case)

    def _browse_graphs(self, case: CaseFiles, newest: Path | None = None) -> None:
        """Open graphs without dumps in the Graph tab; the Precision tab says what a comparison still needs."""
        self.hide_start_page()
        self.workbench.clear()
        self.workbench.notices.set_notices([graphs_only_notice(case)], CasePaths(), expanded=True)
        self.case_panel.set_progress(0, 1, missing_for_comparison(case))
        # `newest`: a graph added to one already open; unrelated to it, it replaces it (graph.unpaired).
        self.graph.open_graphs(case.af_open_graph, case.af_close_graph, self.case_panel.banner, newest)
        self.tabs.setCurrentIndex(self.tab_status.page(self.graph))

    def open_att_logs(self, paths: list[str]) -> None:
        """Open ATT logs (or folders of them) in the ATT tab and show it."""
        self.att.open_paths(paths)
        self.tabs.setCurrentIndex(self.tab_status.page(self.att))
        self.tab_status.show(self._att_opened_text(paths), self.att, 15000)

    def _att_opened_text(self, paths: list[str]) -> str:
        return self.tr("Opened the ATT logs %1: scanning…").replace("%1", self._names(paths))

    def open_case_file(self, path: str) -> None:
        """Open a saved *.afcase file: inputs, thresholds and view state."""
        self.show_case_tab()
        try:
            case = load_case_file(path)
        except AppError as error:
            self.case_panel.show_error(user_message(error))
            self.tab_status.show(self.tr("Nothing opened: %1").replace("%1", user_message(error)), self.workbench,
                                 15000)
            return
        self.thresholds_editor.set_thresholds(case.thresholds)
        self.session.set_thresholds(case.thresholds)  # what the editor shows is what judges the rows
        self.case_panel.set_case(case)
        self.session.set_case(case)
        self._pending_view = dict(case.view)
        self._remember([path])
        if case.problems():
            text = self.tr("Opened %1; the case is not complete yet (see the case panel).")
        else:
            text = self.tr("Opened the case %1: analysing…")
        self.tab_status.show(text.replace("%1", Path(path).name), self.workbench)
        self._analyse_if_complete(case)

    def _analyse_if_complete(self, case: CaseFiles) -> None:
        problems = case.problem_errors()
        if problems:
            self.case_panel.show_error(" ".join(user_message(problem) for problem in problems))
        else:
            self.analyse()

    def current_case(self) -> CaseFiles:
        """The case as shown, with the current thresholds and view state."""
        case = self.case_panel.case()
        case.thresholds = self.thresholds_editor.thresholds()
        case.view = self.workbench.view_state()
        case.view["filter"] = self.workbench.filter_bar.state()  # every chooser (signature too) and the text
        return case

    def _remember(self, paths: list[str]) -> None:
        """Remember opened paths in Recent cases: never ignored files, missing paths or empty folders."""
        self._opened_paths = [str(Path(path).resolve()) for path in paths]
        if recent_entry_usable(self._opened_paths):
            self.settings.add_recent_case(self._opened_paths)
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for entry in self.settings.recent_cases():
            if not recent_entry_usable(entry):  # moved, deleted or emptied since: not offered
                continue
            label = " + ".join(Path(path).name or path for path in entry)
            item = self.recent_menu.addAction(label)
            item.setToolTip("\n".join(entry))
            item.triggered.connect(lambda _checked=False, entry=entry: self.open_paths(list(entry)))
        self.recent_menu.setEnabled(not self.recent_menu.isEmpty())
        if self.start_page.isVisibleTo(self.workbench):
            self.start_page.set_recent(self.settings.recent_cases())

    # --- analysis ------------------------------------------------------------------------------
    def analyse(self) -> None:
        """Analyse the case shown in the case panel, in the background: here, on its host or on its cluster."""
        try:
            spec = self.case_panel.run_spec(self.current_case())
            self.analysis.start(spec)
        except AppError as error:
            self.case_panel.show_error(user_message(error))
            return
        self._analysis_started()
        self.workbench.remote_host = spec.where.host if isinstance(spec.where, OnHost) else None

    def _cancel_analysis(self) -> None:
        """Stop the run in progress, wherever it runs."""
        self.analysis.cancel()

    def _analysis_started(self) -> None:
        self.hide_start_page()  # the run's progress and rows show in the workbench
        self.result_steps.cancel()
        self.workbench.clear()
        self.case_panel.set_dump_summary(None)
        self._files_indexed = 0
        self.case_panel.banner.hide()
        self.case_panel.set_running(True)
        self.case_panel.set_progress(0, 0, self.tr("Parsing graphs and indexing dump folders…"))

    def _on_analysis_indexed(self, sides: SidesSummary) -> None:
        self._files_indexed = sides.files
        self.case_panel.set_dump_summary(sides)
        self.case_panel.set_progress(0, 0, self.tr("Indexed %1 files").replace("%1", str(sides.files)))

    def _on_analysis_progressed(self, done: int, total: int, message: str) -> None:
        phase = phase_of(message)
        if phase is Phase.COMPARING:
            text = self.tr("Indexed %1 files · compared %2 of %3 pairs")
            text = text.replace("%1", str(self._files_indexed)).replace("%2", str(done)).replace("%3", str(total))
            self.case_panel.set_progress(done, total, text)
        elif phase is Phase.COMPARING_CLUSTER:
            self.case_panel.set_progress(done, total, self.case_panel.cluster_run.progress_text(done, total))
        else:
            self.case_panel.set_progress(0, 0, message)

    def _on_analysis_finished(self, analysis: Analysis) -> None:
        self.case_panel.set_running(False)
        result = analysis.result
        self.workbench.set_analysis(analysis)
        # The limits that judge this case's rows in front: statistics rows (statistics dumps) or tensor rows.
        self.thresholds_editor.show_statistics_limits(analysis.facts.optional_columns.get("statistics", False)
                                                      if analysis.facts is not None and analysis.facts.of(result)
                                                      else any(row.stats is not None for row in result.rows))
        self._show_summary(result)
        # The selection, its tensors and the graph follow in steps, the window repainting in between.
        self._pending_filter = self._pending_view.get("filter")  # a case file's filter, once its rows are shown
        self.result_steps.start(analysis, self._pending_view)
        self._pending_view = {}

    def _on_result_steps_shown(self, _analysis: object) -> None:
        pending, self._pending_filter = self._pending_filter, None
        if pending is not None:
            self.workbench.filter_bar.set_state(pending)  # ignored unless a valid filter

    def _on_session_focus_changed(self, change: FocusChanged) -> None:
        if change.cell_changed:
            self.graph.set_focus(*change.focus.cell)
        row = change.focus.row
        if change.row_changed and row is not None and not self.result_steps.graph_pending:
            self.graph.select_row(row)  # (while pending, the graph selects it once it shows the new case)

    def _on_session_result_changed(self, change: ResultChanged) -> None:
        previous, self._shown_result = self._shown_result, change.result
        if change.result is not None:
            return
        if self.graph.result is not None:
            self.graph.set_precision(None)  # no colours of a result that is no longer shown (a run started)
        # Nor its summary ("58 rows; first divergence: …") above an empty table, e.g. after the next run failed.
        if previous is not None and self.statusBar().currentMessage() == self._summary_of(previous):
            self.tab_status.show("", self.workbench)

    def _show_summary(self, result: PrecisionResult) -> None:
        """A result's summary under the Analyse button and in the status line, worded again on a language switch."""
        summary = self._summary_of(result)
        self.case_panel.set_progress(1, 1, lambda: self._summary_of(result))
        self.tab_status.show(summary, self.workbench)
        self._summary_shown = (result, summary)

    def _reword_summary(self) -> None:
        """The shown result's status line in the current language (unless another message replaced it since)."""
        if self._summary_shown is None:
            return
        result, said = self._summary_shown
        if result is self._shown_result and self.tab_status.lasting(self.workbench) == said:
            self.tab_status.show(self._summary_of(result), self.workbench)
            self._summary_shown = (result, self._summary_of(result))

    def _summary_of(self, result: PrecisionResult) -> str:
        """The status line of a shown result: its rows and first divergence, or why it has no rows."""
        if (reason := empty_reason(result)) is not None:
            return empty_result_text(reason)  # say why, not just "0 rows"
        first = result.first_divergence
        summary = self.tr("%1 rows; first divergence: %2").replace("%1", str(len(result.rows)))
        return summary.replace("%2", describe_row_here(first) if first else "-")

    def _on_analysis_failed(self, error: BaseException) -> None:
        self.case_panel.set_running(False)
        self.case_panel.set_progress(0, 1, "")
        report_error(self, error, banner=self.case_panel.banner)
        self.case_panel.mark_failed_input(error)  # outline the field whose file failed

    def _on_analysis_cancelled(self) -> None:
        self.case_panel.set_running(False)
        self.case_panel.set_progress(0, 1, self.tr("Cancelled."))

    def _on_thresholds_changed(self, thresholds: object) -> None:
        assert isinstance(thresholds, Thresholds)
        self.settings.set_thresholds(thresholds)
        self.session.set_thresholds(thresholds)  # the table, overview, legend and graph follow

    def _on_session_thresholds_changed(self, change: ThresholdsChanged) -> None:
        result = self.session.result
        if change.summary is None or result is None or result is not self.workbench.result:
            return
        self.graph.set_precision(result)  # verdict colours follow the thresholds
        if result.rows:  # the old text named the old first divergence (0 rows: keep why)
            self._show_summary(result)

    def _on_tabs_current_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.tabs.widget(1):
            self.result_steps.hurry()  # the graph of a just finished run, without waiting for its tensors
        # The case and thresholds docks belong to the Precision tab; the Graph, ATT and runner tabs get the
        # whole width (two graph panes and the details need it on a 1280 px laptop), and the docks come back
        # as they were.
        case_tab = self.tabs.widget(index) is self.workbench
        if not case_tab and not self._docks_hidden_for:
            self._docks_hidden_for = [dock for dock in (self.case_dock, self.thresholds_dock) if dock.isVisible()]
            for dock in self._docks_hidden_for:
                dock.hide()
        elif case_tab and self._docks_hidden_for:
            for dock in self._docks_hidden_for:
                dock.show()
            self._docks_hidden_for = []

    def _on_graph_rows_selected(self, rows: object) -> None:
        if isinstance(rows, list) and rows:
            self.workbench.view.select_row(rows[0])

    # --- language, drops, files ------------------------------------------------------------------
    def set_language(self, code: str) -> None:
        """Switch the UI language now ('' = follow the system) and remember the choice."""
        self.settings.set_language(code)
        translations().apply(resolve_language(code))
        show_font_notice(self, ensure_cjk_font(resolve_language(code)))
        if code in self.language_actions:
            self.language_actions[code].setChecked(True)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Accept local files and folders."""
        accept_local_drag(event)

    def dropEvent(self, event: QDropEvent) -> None:
        """Open whatever was dropped."""
        paths = take_local_drop(event)
        if paths:
            self.open_paths(paths)

    def about_text(self) -> str:
        """The text of the About box."""
        return (f"<b>{APP_NAME}</b> {__version__}<br>"
                + self.tr("A workbench for CANN Autofuse: fusion precision and ATT tiling analysis."))

    def _on_about_triggered(self) -> None:
        QMessageBox.about(self, self.tr("About %1").replace("%1", APP_NAME), self.about_text())

    # --- layout persistence --------------------------------------------------------------------
    def _restore_layout(self) -> None:
        geometry, state = self.settings.window_geometry(), self.settings.window_state()
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        self._split_docks_pending = state is None

    def showEvent(self, event: QShowEvent) -> None:
        """On a first start, give the case dock more of the left column than the thresholds dock."""
        super().showEvent(event)
        if getattr(self, "_split_docks_pending", False):
            self._split_docks_pending = False
            # The case dock holds the roles, what the dumps hold and Analyse; the thresholds dock has room to spare
            # (its two pages). Sizes are shares: resizeDocks fits them to the column.
            self.resizeDocks([self.case_dock, self.thresholds_dock], [58, 42], Qt.Orientation.Vertical)
            # No wider than the case panel asks: on a 1280 px screen the Precision tab needs the rest.
            self.resizeDocks([self.case_dock], [self.case_panel.sizeHint().width()], Qt.Orientation.Horizontal)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Save the layout, stop background work, close."""
        for dock in self._docks_hidden_for:  # save the layout the user chose, not the tab-driven one
            dock.show()
        self.settings.save_window(self.saveGeometry(), self.saveState())
        self.settings.set_last_filter(self.workbench.filter_bar.state())
        self.settings.sync()
        self.att.shutdown()
        self.graph.shutdown()
        self.runner.shutdown(wait=True)
        self.workbench.shutdown()
        super().closeEvent(event)
