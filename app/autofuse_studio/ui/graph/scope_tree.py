"""ScopeTree: the '/'-scopes of a model's op names as a lazy tree (Model Explorer's layers), with op counts.

`model/layer1/conv` is listed as model > layer1 (the last component is the op itself, counted, not listed).
The index is built on a worker (`scope_index`: one pass over the names); the tree creates an item's children
only when it is expanded, so a 100k-op model shows its first level at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from autofuse_studio.core.gc_pause import long_lived_result
from autofuse_studio.core.ge.model import Model
from autofuse_studio.core.progress import NEVER_CANCELLED, CancelToken, Progress, no_progress
from autofuse_studio.ui.tasks import TaskHandle, TaskRunner
from autofuse_studio.ui.widgets.retranslate import Retranslating

MAX_CHILDREN = 500  # an expanded scope lists this many children, then one "… N more" line
SCOPE_ROLE = Qt.ItemDataRole.ToolTipRole  # a scope item's whole scope: its tooltip too (one call an item)
_EXPANDABLE = QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator  # a scope with children not made yet
_COUNT_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter  # made once: PySide's flags are slow


@dataclass
class ScopeIndex:
    """Op counts per scope and each scope's child scopes, in first-seen (execution) order; '' is the root."""

    counts: dict[str, int] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)
    total: int = 0

    def scopes(self) -> int:
        """How many scopes there are (0: a model without '/' names)."""
        return len(self.counts)


@long_lived_result
def scope_index(model: Model, *, progress: Progress = no_progress,
                cancel: CancelToken = NEVER_CANCELLED) -> ScopeIndex:
    """Count the ops under every '/'-scope of the model's op names (a worker's task: ~0.3 s at 100k ops)."""
    counts: dict[str, int] = {}
    children: dict[str, list[str]] = {"": []}
    total = 0
    for number, op in enumerate(model.ops_in_order()):
        if number % 20000 == 0:
            cancel.check()
        total += 1
        parent = ""
        parts = op.name.strip("/").split("/")[:-1]
        for depth in range(len(parts)):
            scope = "/".join(parts[: depth + 1])
            found = counts.get(scope)
            if found is None:
                counts[scope] = 1
                children.setdefault(parent, []).append(scope)
                children[scope] = []
            else:
                counts[scope] = found + 1
            parent = scope
    return ScopeIndex(counts, children, total)


def ops_in_scope(model: Model, scope: str) -> list[str]:
    """The op names under a scope, in execution order."""
    prefix = scope + "/"
    return [op.name for op in model.ops_in_order() if op.name.strip("/").startswith(prefix)]


class ScopeTree(Retranslating, QWidget):
    """The scope tree of one model; clicking a scope emits scopeChosen(scope)."""

    scopeChosen = Signal(str)
    indexed = Signal()  # the model's scopes are listed (or there are none)

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphScopeTree")
        self.runner = runner
        self.model: Model | None = None
        self.index = ScopeIndex()
        self._task: TaskHandle | None = None
        self.heading = QLabel()
        self.heading.setStyleSheet("font-weight: bold; padding: 2px;")
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setUniformRowHeights(True)  # fast with many rows
        self.tree.itemExpanded.connect(self._fill)
        self.tree.itemClicked.connect(self._on_tree_item_clicked)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.heading)
        column.addWidget(self.tree, 1)
        self.setMinimumWidth(160)
        self.retranslate()

    def retranslate(self) -> None:
        """Texts in the current language."""
        self.heading.setText(self.tr("Layers (op name scopes)"))
        self.tree.setHeaderLabels([self.tr("Scope"), self.tr("Ops")])
        self.tree.setToolTip(self.tr("Click a scope to select and show its ops"))

    def set_model(self, model: Model | None) -> None:
        """List the scopes of `model` (indexed on a worker; None empties the tree)."""
        if self._task is not None:
            self._task.finished.disconnect(self._on_task_finished)
            self._task.cancel()
            self._task = None
        self.model = model
        self.index = ScopeIndex()
        self.tree.clear()
        if model is None:
            self.indexed.emit()
            return
        self._task = self.runner.start(scope_index, model)
        self._task.finished.connect(self._on_task_finished)

    def busy(self) -> bool:
        """True while the scopes are being counted."""
        return self._task is not None

    def _on_task_finished(self, index: ScopeIndex) -> None:
        self._task = None
        self.index = index
        self.tree.clear()
        root = self.tree.invisibleRootItem()
        self._add_children(root, "")
        only = self.tree.topLevelItem(0) if self.tree.topLevelItemCount() == 1 else None
        if only is not None:
            self.tree.expandItem(only)  # one model scope: open it (its layers show)
        self.tree.resizeColumnToContents(1)
        self.indexed.emit()

    def _add_children(self, parent: QTreeWidgetItem, scope: str) -> None:
        # Three Qt calls an item and one insertion for all: each PySide call gives the GIL back to a worker and
        # waits to take it again, so seven calls an item (an insertion each) made the first level of a big
        # model 20-85 ms of the GUI thread beside the graph's layout worker.
        kids = self.index.children.get(scope, [])
        counts, children = self.index.counts, self.index.children
        items = []
        for child in kids[:MAX_CHILDREN]:
            item = QTreeWidgetItem([child.rpartition("/")[2], str(counts[child])])
            item.setData(0, SCOPE_ROLE, child)  # the tooltip too
            item.setTextAlignment(1, _COUNT_ALIGNMENT)
            if children.get(child):
                item.setChildIndicatorPolicy(_EXPANDABLE)  # its children are made when it is expanded (_fill)
            items.append(item)
        if len(kids) > MAX_CHILDREN:
            more = QTreeWidgetItem([QCoreApplication.translate("ScopeTree", "… %1 more").replace(
                "%1", str(len(kids) - MAX_CHILDREN))])
            more.setFlags(Qt.ItemFlag.NoItemFlags)
            items.append(more)
        parent.addChildren(items)

    def _fill(self, item: QTreeWidgetItem) -> None:
        """Create an expanded scope's children (once)."""
        if item.childCount() == 0 and item.childIndicatorPolicy() == _EXPANDABLE:
            item.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.DontShowIndicatorWhenChildless)
            self._add_children(item, str(item.data(0, SCOPE_ROLE)))

    def item_of(self, scope: str) -> QTreeWidgetItem | None:
        """The tree item of a scope, expanding its parents (None when it is not listed)."""
        parts = scope.split("/")
        parent = self.tree.invisibleRootItem()
        found = None
        for depth in range(len(parts)):
            wanted = "/".join(parts[: depth + 1])
            if parent is not self.tree.invisibleRootItem():
                self._fill(parent)
            kids = (parent.child(i) for i in range(parent.childCount()))
            found = next((kid for kid in kids if kid is not None and kid.data(0, SCOPE_ROLE) == wanted), None)
            if found is None:
                return None
            parent = found
        return found

    def _on_tree_item_clicked(self, item: QTreeWidgetItem) -> None:
        scope = item.data(0, SCOPE_ROLE)
        if scope:
            self.scopeChosen.emit(str(scope))
