"""CasePanel: the detected roles of a case (editable, swappable, browsable), Analyse/Cancel and progress."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.case import MODE1_ROLES, PATH_ROLES, CaseFiles
from autofuse_studio.core.errors import InputError
from autofuse_studio.core.precision.dump_pairs import SideFacts, SidesSummary
from autofuse_studio.core.run.spec import LOCAL, OnHost, RunSpec, mode1_spec
from autofuse_studio.ui.errors import ErrorBanner, user_message
from autofuse_studio.ui.precision.cluster_run import ClusterRunChoice
from autofuse_studio.ui.precision.run_on import RunOnChooser
from autofuse_studio.ui.widgets.collapsible import CollapsibleSection
from autofuse_studio.ui.widgets.path_edit import PathEdit
from autofuse_studio.ui.widgets.progress_bar import ProgressBar
from autofuse_studio.ui.widgets.retranslate import Retranslating
from autofuse_studio.ui.widgets.wrap_label import WrapLabel

PREFERRED_WIDTH = 330  # paths elide in the middle; on a 1280 px screen the Precision tab needs the rest
_WARNING_STYLE = "QLabel { background: #fff3cd; color: #5c4400; padding: 4px; border: 1px solid #e0b252; }"


class CasePanel(Retranslating, QWidget):
    """Shows and edits a CaseFiles; the window runs the analysis when analyseRequested fires."""

    analyseRequested = Signal()
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("casePanel")
        self._case = CaseFiles()
        self._sides: SidesSummary | None = None
        self.banner = ErrorBanner(self)
        self.notes = WrapLabel()  # wraps paths and op names too: a long text never widens the dock
        self.notes.setObjectName("caseNotes")
        self.notes.hide()
        self.edits: dict[str, PathEdit] = {}
        # Where the analysis runs; with a host the paths are the host's and are not checked here.
        self.run_on = RunOnChooser()
        self.run_on.changed.connect(self._on_run_on_changed)
        self.browse_buttons: dict[str, QToolButton] = {}
        self.mode1_box, mode1_form = QGroupBox(), QFormLayout()
        self.mode1_box.setLayout(mode1_form)
        # Mode 2 and where to run are used less often: collapsed, so Analyse and the roles fit a laptop's dock.
        mode2_form = QFormLayout()
        self.mode2_box = CollapsibleSection(mode2_form)
        self.mode2_box.setObjectName("mode2Section")
        self.role_labels = {role: QLabel() for role in PATH_ROLES}
        for role in PATH_ROLES:
            (mode2_form if role.startswith("npy") else mode1_form).addRow(self.role_labels[role], self._path_row(role))
        # What the dump folders hold (ranks, steps, NPYs, raw dump files, statistics CSVs), filled in once they
        # are indexed: right under them, where it is seen without scrolling the dock.
        self.dump_summary = WrapLabel()
        self.dump_summary.setObjectName("dumpSummary")
        self.dump_summary.hide()
        mode1_form.addRow(self.dump_summary)
        self.swap_graphs = QPushButton()
        self.swap_graphs.setObjectName("swapGraphs")
        self.swap_data = QPushButton()
        self.swap_data.setObjectName("swapData")
        self.swap_graphs.clicked.connect(lambda: self._swap("af_open_graph", "af_close_graph"))
        self.swap_data.clicked.connect(lambda: self._swap("af_open_data", "af_close_data"))
        swaps = QHBoxLayout()
        swaps.addWidget(self.swap_graphs)
        swaps.addWidget(self.swap_data)
        mode1_form.addRow(swaps)
        self.compare_input = QCheckBox()
        self.step_edit = QLineEdit()
        mode1_form.addRow(self.compare_input)
        self.step_label = QLabel()
        mode1_form.addRow(self.step_label, self.step_edit)
        self.cluster_run = ClusterRunChoice()  # "Run on a Dask cluster" (docs/scale-out.md)
        self.cluster_run.toggled.connect(self._on_cluster_run_toggled)
        run_on_layout = QVBoxLayout()
        run_on_layout.addWidget(self.run_on)
        run_on_layout.addWidget(self.cluster_run)
        self.run_on_section = CollapsibleSection(run_on_layout)
        self.run_on_section.setObjectName("runOnSection")
        self.analyse_button = QPushButton()
        self.analyse_button.setObjectName("analyseButton")
        self.cancel_button = QPushButton()
        self.cancel_button.setEnabled(False)
        self.analyse_button.clicked.connect(self.analyseRequested)
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.progress = ProgressBar()
        self.progress.setTextVisible(True)
        self.progress_label = WrapLabel()
        self._progress_text: Callable[[], str] | None = None  # the label's text worded in the current language
        self.progress_label.setObjectName("progressLabel")
        buttons = QHBoxLayout()
        buttons.addWidget(self.analyse_button, 1)
        buttons.addWidget(self.cancel_button)
        # The roles and options scroll; the error banner, Analyse/Cancel, progress and the status line stay
        # pinned under them, visible at any dock height (a 1280x720 screen included).
        page = QWidget()
        page.setObjectName("caseOptions")
        options = QVBoxLayout(page)
        options.setContentsMargins(0, 0, 0, 0)
        for widget in (self.notes, self.run_on_section, self.mode1_box, self.mode2_box):
            options.addWidget(widget)
        options.addStretch(1)
        self.options_scroll = QScrollArea()
        self.options_scroll.setObjectName("caseOptionsScroll")
        self.options_scroll.setWidgetResizable(True)
        self.options_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.options_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.options_scroll.setWidget(page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.options_scroll, 1)
        layout.addWidget(self.banner)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.progress_label)
        self.retranslate()
        self.set_running(False)

    def sizeHint(self) -> QSize:
        """Wide enough for readable paths on a first start (the dock can still be made wider or narrower)."""
        return QSize(PREFERRED_WIDTH, super().sizeHint().height())

    def _path_row(self, role: str) -> QWidget:
        edit = PathEdit()
        edit.setObjectName(f"role_{role}")
        edit.textChanged.connect(lambda _text, role=role: self._validate(role))
        browse = QToolButton()
        browse.setText("…")
        browse.clicked.connect(lambda _checked=False, role=role: self._on_browse_clicked(role))
        self.edits[role] = edit
        self.browse_buttons[role] = browse
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(edit, 1)
        layout.addWidget(browse)
        return row

    def retranslate(self) -> None:
        """Texts in the current language."""
        labels = {
            "af_open_graph": self.tr("af-open graph"), "af_close_graph": self.tr("af-close graph"),
            "af_open_data": self.tr("af-open dumps"), "af_close_data": self.tr("af-close dumps"),
            "npy_a": self.tr("NPY A"), "npy_b": self.tr("NPY B"),
        }
        for role, label in self.role_labels.items():
            label.setText(labels[role])
        self.step_label.setText(self.tr("Step"))
        self.mode1_box.setTitle(self.tr("Graphs and dump folders (mode 1)"))
        self.mode2_box.setTitle(self.tr("Two NPY files (mode 2)"))
        self._title_run_on()
        self.swap_graphs.setText(self.tr("Swap graphs"))
        self.swap_data.setText(self.tr("Swap dumps"))
        self.compare_input.setText(self.tr("Compare fused op inputs too"))
        self.step_edit.setPlaceholderText(self.tr("every step"))
        self.analyse_button.setText(self.tr("Analyse"))
        self.cancel_button.setText(self.tr("Cancel"))
        for browse in self.browse_buttons.values():
            browse.setToolTip(self.tr("Browse…"))
        if self._progress_text is not None:
            self.progress_label.setText(self._progress_text())
        elif not self.notes.text():
            self.progress_label.setText(self.tr("Drop a run folder, dump folders, graphs or two NPY files here."))
        if self._sides is not None:
            self.set_dump_summary(self._sides)  # what the dump folders hold, in the new language


    def set_case(self, case: CaseFiles, notes: list[str] | None = None) -> None:
        """Show a case (and notes from role detection); hides any earlier error."""
        self._case = case
        for role in PATH_ROLES:
            path: Path | None = getattr(case, role)
            self.edits[role].setText("" if path is None else str(path))  # PathEdit keeps the tooltip
        self.compare_input.setChecked(case.compare_input)
        self.step_edit.setText(case.step or "")
        if case.npy_a is not None or case.npy_b is not None:
            self.mode2_box.set_expanded(True)
        self.banner.hide()
        self.notes.setText("\n".join(notes or []))
        self.notes.setVisible(bool(notes))

    def case(self) -> CaseFiles:
        """The case as edited (thresholds and view state are kept from set_case)."""
        paths: dict[str, Any] = {role: Path(text).expanduser() if (text := self.edits[role].text().strip()) else None
                 for role in PATH_ROLES}
        step = self.step_edit.text().strip() or None
        return replace(self._case, **paths, compare_input=self.compare_input.isChecked(), step=step)

    def host(self) -> str | None:
        """The host profile chosen under Run on, or None to analyse on this machine."""
        return self.run_on.host()

    def remote_paths(self) -> dict[str, str]:
        """The mode-1 paths exactly as typed (host paths: no ~ expansion, no resolving here)."""
        return {role: self.edits[role].text().strip() for role in PATH_ROLES if not role.startswith("npy")}

    def remote_problems(self) -> list[str]:
        """Why the case cannot be sent to the chosen host (empty when it can)."""
        problems = [self.run_on.problem()] if self.run_on.problem() else []
        for role, text in self.remote_paths().items():
            problem = _remote_problem(text)
            if problem:
                problems.append(f"{self.role_labels[role].text()}: {problem}")
        return problems

    def run_spec(self, case: CaseFiles) -> RunSpec:
        """The RunSpec of `case` run where the panel says: here, on the chosen host (paths as typed, the host's)
        or on the checked Dask cluster; an AppError naming the first problem."""
        host = self.host()
        if host is None:
            cluster = self.cluster_run.where() if case.mode == 1 else None
            return case.spec(where=cluster or LOCAL)
        problems = self.remote_problems()
        if problems:
            raise InputError(" ".join(problems))
        paths = self.remote_paths()
        return mode1_spec([paths[role] for role in MODE1_ROLES], compare_input=case.compare_input,
                          step=case.step or None, ranks=case.ranks, thresholds=case.thresholds,
                          where=OnHost(host, self.run_on.remote_command()))

    def set_dump_summary(self, sides: SidesSummary | None) -> None:
        """Show what each dump folder holds; warn (orange) when their ranks or steps differ."""
        self._sides = sides
        if sides is None:
            self.dump_summary.hide()
            return
        open_text = self.side_text(sides.open_facts) if sides.open_facts is not None else sides.af_open
        close_text = self.side_text(sides.close_facts) if sides.close_facts is not None else sides.af_close
        lines = [self.tr("af-open: %1").replace("%1", open_text),
                 self.tr("af-close: %1").replace("%1", close_text)]
        if sides.difference:
            lines.append(f"⚠ {sides.difference}")
        self.dump_summary.setText("\n".join(lines))
        self.dump_summary.setStyleSheet(_WARNING_STYLE if sides.difference else "")
        self.dump_summary.setToolTip(sides.difference or "")
        self.dump_summary.show()

    def side_text(self, facts: SideFacts) -> str:
        """'2 ranks (0, 1), 2 steps (0, 1), 18,344 raw dump files, 0 NPYs' or 'statistics dumps (1,200 CSVs), …'."""
        where = []
        if len(facts.ranks) > 1:
            where.append(self._counted(len(facts.ranks), self.tr("%1 rank (%2)"), self.tr("%1 ranks (%2)"))
                         .replace("%2", _listed(facts.ranks, 8)))
        if facts.steps:
            where.append(self._counted(len(facts.steps), self.tr("%1 step (%2)"), self.tr("%1 steps (%2)"))
                         .replace("%2", _listed(facts.steps, 6)))
        if facts.statistics_only:
            files = self._counted(facts.stats_csvs, self.tr("statistics dumps (%1 CSV)"),
                                  self.tr("statistics dumps (%1 CSVs)"))
            return ", ".join([files, *where])
        found = [self._counted(facts.npys, self.tr("%1 NPY"), self.tr("%1 NPYs"))]
        if facts.raw_files:
            found.insert(0, self._counted(facts.raw_files, self.tr("%1 raw dump file"), self.tr("%1 raw dump files")))
        if facts.stats_csvs:  # beside tensors they are not read (the index's notice says so too)
            found.append(self._counted(facts.stats_csvs, self.tr("%1 statistics CSV ignored"),
                                       self.tr("%1 statistics CSVs ignored")))
        return ", ".join(where + found)

    @staticmethod
    def _counted(count: int, one: str, many: str) -> str:
        """`one` or `many` (translated texts holding %1) with the count written 18,344."""
        return (one if count == 1 else many).replace("%1", f"{count:,}")

    def show_error(self, text: str) -> None:
        """Show a sentence in the panel's error banner."""
        self.banner.show_message(text)

    def set_running(self, running: bool) -> None:
        """Enable Cancel while an analysis runs, Analyse otherwise."""
        self.analyse_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setRange(0, 0)

    def set_progress(self, done: int, total: int, text: str | Callable[[], str]) -> None:
        """Show progress counts (busy indicator when the total is unknown) and a text; a function's text is worded
        again on a language switch (a result's summary), a plain one gives way to the drop hint."""
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))
        else:
            self.progress.setRange(0, 0)
        self._progress_text = text if callable(text) else None
        self.progress_label.setText(text() if callable(text) else text)

    def mark_failed_input(self, error: BaseException) -> bool:
        """Outline the field whose path an error names (a graph that cannot be parsed, …); True when one is."""
        named = getattr(error, "path", None)
        if not named:
            return False
        wanted = _resolved(Path(named))
        for role, edit in self.edits.items():
            text = edit.text().strip()
            if not text:
                continue
            path = _resolved(Path(text).expanduser())
            if wanted == path or (role.endswith("_data") and path in wanted.parents):
                edit.set_problem(user_message(error))
                return True
        return False

    def _on_run_on_changed(self) -> None:
        for role in PATH_ROLES:
            self._validate(role)
        self._title_run_on()

    def _on_cluster_run_toggled(self, _checked: bool) -> None:
        self._title_run_on()

    def _title_run_on(self) -> None:
        """The collapsed section still says where the analysis runs; a remote choice opens it."""
        host = self.run_on.host()
        if host is not None:
            where = host
        elif self.cluster_run.isChecked():
            where = self.tr("a Dask cluster")
        else:  # worded here, not read from the chooser: its own retranslation may come after this one
            where = self.tr("local (this machine)")
        self.run_on_section.setTitle(self.tr("Run on: %1").replace("%1", where))
        if host is not None or self.cluster_run.isChecked():
            self.run_on_section.set_expanded(True)

    def _validate(self, role: str) -> None:
        text = self.edits[role].text().strip()
        if self.run_on.host() is not None and not role.startswith("npy"):
            self.edits[role].set_problem(_remote_problem(text) if text else "")
            return
        self.edits[role].set_problem(self._path_problem(role, Path(text).expanduser()) if text else "")

    def _path_problem(self, role: str, path: Path) -> str:
        """What is wrong with a typed path for a role ('' when nothing is)."""
        if role.endswith("_data"):
            if path.is_dir():
                return ""
            return (self.tr("This is a file; choose the dump folder that holds the dump files.") if path.exists()
                    else self.tr("There is no folder at this path."))
        if path.is_file():
            return ""
        return (self.tr("This is a folder; choose a file.") if path.exists()
                else self.tr("There is no file at this path."))

    def _swap(self, first: str, second: str) -> None:
        one, two = self.edits[first].text(), self.edits[second].text()
        self.edits[first].setText(two)
        self.edits[second].setText(one)

    def _on_browse_clicked(self, role: str) -> None:
        start = self.edits[role].text() or str(Path.home())
        if role.endswith("_data"):
            chosen = QFileDialog.getExistingDirectory(self, self.tr("Choose a dump folder"), start)
        else:
            pattern = self.tr("NPY files (*.npy)") if role.startswith("npy") else self.tr(
                "GE graphs (*.json *.txt *.pbtxt);;All files (*)")
            chosen, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a file"), start, pattern)
        if chosen:
            self.edits[role].setText(chosen)


def _listed(names: tuple[str, ...], most: int) -> str:
    """'0, 1, 2' or '0, 1, …, 7' (the first `most - 1` names, an ellipsis and the last)."""
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join([*names[: most - 1], "…", names[-1]])


def _remote_problem(text: str) -> str:
    """What stops a path from travelling to the host ('' when nothing does); the host checks that it exists."""
    from autofuse_studio.core.remote.nwa_remote import word_problem

    problem = word_problem(text)
    if not problem:
        return ""
    return QCoreApplication.translate("CasePanel", "This path cannot be sent to the host: %1.").replace("%1", problem)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop: compare as written
        return path
