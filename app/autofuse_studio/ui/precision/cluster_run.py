"""ClusterRunChoice: the case dock's "Run on a Dask cluster" box (scheduler address, path map file)."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QLineEdit, QWidget

from autofuse_studio.core.run.spec import OnCluster
from autofuse_studio.ui.widgets.retranslate import Retranslating


class ClusterRunChoice(Retranslating, QGroupBox):
    """A checkable box: when checked, Analyse compares on the cluster of the scheduler typed here."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clusterRun")
        self.setCheckable(True)
        self.setChecked(False)
        self.address = QLineEdit()
        self.address.setObjectName("clusterScheduler")
        self.path_map_file = QLineEdit()
        self.path_map_file.setObjectName("clusterPathMap")
        self.address_label, self.path_map_label = QLabel(), QLabel()
        form = QFormLayout(self)
        form.addRow(self.address_label, self.address)
        form.addRow(self.path_map_label, self.path_map_file)
        self.toggled.connect(self._on_toggled)
        self._on_toggled(False)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.setTitle(self.tr("Run on a Dask cluster"))
        self.address_label.setText(self.tr("Scheduler"))
        self.path_map_label.setText(self.tr("Path map"))
        self.address.setPlaceholderText("tcp://HOST:8786")
        self.path_map_file.setPlaceholderText(self.tr("optional file: WORKER:CLIENT_PREFIX=LOCAL_PREFIX lines"))
        self.setToolTip(self.tr("Compare where the dumps are: each pair on a Dask worker that sees its files; "
                                "the rows are those of a run on this computer."))

    def _on_toggled(self, checked: bool) -> None:
        for widget in (self.address, self.path_map_file, self.address_label, self.path_map_label):
            widget.setVisible(checked)

    def use_cluster(self, address: str, path_map_file: str = "") -> None:
        """Check the box with this scheduler (and path map file)."""
        self.setChecked(True)
        self.address.setText(address)
        self.path_map_file.setText(path_map_file)

    def where(self) -> OnCluster | None:
        """The checked cluster of the run, or None for a local run; raises the AppError of a bad address or file.

        dask itself is imported by the run, off the GUI thread (about a second); without it the run fails with
        the sentence naming the extra.
        """
        if not self.isChecked():
            return None
        from autofuse_studio.core.cluster.address import parse_scheduler_address
        from autofuse_studio.core.cluster.pathmap import load_path_map

        path_map_file = self.path_map_file.text().strip() or None
        address = parse_scheduler_address(self.address.text())
        load_path_map([], path_map_file)  # a bad file is said now, before the run starts
        return OnCluster(str(address), (), path_map_file)

    def progress_text(self, done: int, total: int) -> str:
        """'Compared 3 of 48 tasks on the cluster'."""
        return self.tr("Compared %1 of %2 tasks on the cluster").replace("%1", str(done)).replace("%2", str(total))
