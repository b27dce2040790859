"""Heatmaps of the tensor panel: fused, origin, signed and absolute error, with numbered colour bars, and an
outline of where the row's signature puts its error (a tail range, slices, the first flagged element)."""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QCursor, QFontMetrics, QPainterPath, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGraphicsGridLayout,
    QGraphicsPathItem,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from autofuse_studio.core.precision.heatmap import Heatmap, HeatmapAxes
from autofuse_studio.core.precision.heatmap_scale import HeatmapScales, Levels, heatmap_scales, signed_error
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.ui.precision.signature_overlay import Rect, overlay_rects
from autofuse_studio.ui.precision.signature_text import signature_label, signature_sentence
from autofuse_studio.ui.precision.tensor_models import format_value
from autofuse_studio.ui.precision.tensor_plots import ScenePlots
from autofuse_studio.ui.widgets.retranslate import Retranslating

# Values in a sequential map; the signed error in a diverging one whose middle (white) is 0; |error| dark = 0.
COLOUR_MAPS = ("viridis", "viridis", "CET-D1A", "inferno")
BAR_AXIS_MIN_WIDTH = 36  # px; the bar's axis grows to its widest tick label
# Magenta: apart from every colour of viridis, inferno and the diverging map, so the outline shows on all four.
OUTLINE_COLOUR = "#ff00ff"
# Px of the outline: stripes (a tail along an inner axis, one per outer index) get a thin one, or they hide the image.
OUTLINE_WIDTH, STRIPES_WIDTH, MANY_RECTS = 2, 1, 8
TITLE_SIZE = "9pt"  # four titles side by side: at pyqtgraph's 11pt their widths alone overflowed a 1100 px panel
# Four heatmaps in a row need ~750 px (axes, titles, colour bars); a narrower panel shows two rows of two instead
# of cutting the right-most ones off, when it is tall enough for two rows of TWO_ROWS_MIN_HEIGHT px each.
WIDE_COLUMNS, NARROW_COLUMNS = 4, 2
TWO_ROWS_MIN_HEIGHT = 200


def _displayable(values: np.ndarray, levels: Levels) -> np.ndarray:
    """NaN (empty cell) -> the low level; +Inf (NaN or Inf involved) -> the high level: bad stays bright."""
    shown: np.ndarray = np.nan_to_num(values, nan=levels[0], posinf=levels[1], neginf=levels[0])
    return shown.astype(np.float32)


def axis_choices(names: list[str], shape: tuple[int, ...]) -> list[tuple[str, tuple[int, ...]]]:
    """Every run of adjacent axes, labelled with names and extents (e.g. 'N×C (2×16)')."""
    choices = []
    for first in range(len(shape)):
        for last in range(first + 1, len(shape) + 1):
            axes = tuple(range(first, last))
            choices.append((_axes_label(names, shape, axes), axes))
    return choices


def _axes_label(names: list[str], shape: tuple[int, ...], axes: tuple[int, ...]) -> str:
    return "×".join(names[a] for a in axes) + " (" + "×".join(str(shape[a]) for a in axes) + ")"


def _encode(axes: tuple[int, ...]) -> str:
    # Combo item data as text: Qt hands tuples back as lists, which findData() would not match.
    return ",".join(str(axis) for axis in axes)


def _decode(data: object) -> tuple[int, ...]:
    return tuple(int(axis) for axis in str(data).split(",") if axis) if data else ()


def _numbered_bar(colour_map: str) -> pg.ColorBarItem:
    """A colour bar whose axis shows plain numbers (SI prefixes like "×0.001" need a label nobody reads)."""
    bar = pg.ColorBarItem(colorMap=colour_map, interactive=False)
    bar.axis.enableAutoSIPrefix(False)
    return bar


def fit_bar_axis(bar: pg.ColorBarItem, levels: Levels) -> int:
    """Widen a colour bar's axis to its widest tick label for `levels`; returns the width set.

    pyqtgraph fixes the axis at 45 px and drops labels that do not fit, so a range like 0.2027–0.2033
    showed no numbers at all; growing it while painting cut the labels of the right-most bar instead.
    """
    axis = bar.axis
    texts = [text for spacing, values in axis.tickValues(levels[0], levels[1], max(axis.height(), 200.0))
             for text in axis.tickStrings(values, 1.0, spacing)]
    font = axis.style.get("tickFont") or axis.font()
    widest = max((QFontMetrics(font).horizontalAdvance(text) for text in texts), default=0)
    room = int(axis.style["tickTextOffset"][0]) + max(0, int(axis.style["tickLength"])) + 4
    width = max(BAR_AXIS_MIN_WIDTH, widest + room)
    axis.setWidth(width)
    return width


class TensorHeatmaps(Retranslating, ScenePlots):
    """Fused, origin, signed-error and |error| images with colour bars, axis pickers and hover details."""

    axesChanged = Signal(object)  # HeatmapAxes chosen by the user

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heatmap: Heatmap | None = None
        self.scales: HeatmapScales | None = None
        self.plots: list[pg.PlotItem] = []
        self.images: list[pg.ImageItem] = []
        self.bars: list[pg.ColorBarItem] = []
        self.signature: Signature | None = None
        self.outline_rects: list[Rect] = []  # in cell units of the images (see signature_overlay)
        self.outlines: list[QGraphicsPathItem] = []
        self._wrap = 0
        self._axis_labels: tuple[str, str] | None = None  # the bottom and left labels on show
        self.columns = WIDE_COLUMNS
        for column, colour_map in enumerate(COLOUR_MAPS):
            plot = self.graphics.addPlot(row=0, col=column)
            plot.invertY(True)  # row 0 at the top, like a matrix
            plot.setAspectLocked(False)
            image = pg.ImageItem(axisOrder="row-major")
            plot.addItem(image)
            bar = _numbered_bar(colour_map)
            bar.setImageItem(image, insert_in=plot)
            # The title spans the image and its colour bar (columns 1-5 of the plot's grid): over the image alone, a
            # long title set the image's minimum width and four plots needed ~1000 px.
            plot.layout.removeItem(plot.titleLabel)
            plot.layout.addItem(plot.titleLabel, 0, 1, 1, 5)
            self.plots.append(plot)
            self.images.append(image)
            self.bars.append(bar)
            outline = QGraphicsPathItem()
            outline.setZValue(10)  # over the image
            plot.addItem(outline, ignoreBounds=True)
            self.outlines.append(outline)
        self.graphics.scene().sigMouseMoved.connect(self._on_scene_mouse_moved)
        self.rows_combo, self.cols_combo = QComboBox(), QComboBox()
        self.rows_combo.activated.connect(lambda _i: self._on_combo_activated(self.rows_combo, self.cols_combo))
        self.cols_combo.activated.connect(lambda _i: self._on_combo_activated(self.cols_combo, self.rows_combo))
        self.shared_range = QCheckBox()
        self.shared_range.setChecked(True)
        self.shared_range.toggled.connect(self._on_shared_range_toggled)
        self.hover_label = QLabel()
        # The hover text may be cut at the right edge rather than widen the window (its tooltip has it all).
        self.hover_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.rows_label, self.cols_label = QLabel(), QLabel()
        bar_layout = QHBoxLayout()
        for widget in (self.rows_label, self.rows_combo, self.cols_label, self.cols_combo, self.shared_range):
            bar_layout.addWidget(widget)
        bar_layout.addWidget(self.hover_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar_layout)
        layout.addWidget(self.graphics, 1)
        self.retranslate()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Reflow the heatmaps to the new width."""
        super().resizeEvent(event)
        self.fit_columns()

    def row_width(self) -> float:
        """The px the four heatmaps need side by side (their minimum widths, spacing and margins)."""
        grid: QGraphicsGridLayout = self.graphics.ci.layout
        left, _top, right, _bottom = cast(tuple[float, float, float, float], grid.getContentsMargins())
        widths = [float(plot.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()) for plot in self.plots]
        return sum(widths) + grid.horizontalSpacing() * (len(widths) - 1) + left + right

    def fit_columns(self) -> None:
        """Four heatmaps in a row when they fit the panel's width (or two rows would be too low), else two by two."""
        fits = self.row_width() <= self.graphics.width() or self.graphics.height() < 2 * TWO_ROWS_MIN_HEIGHT
        columns = WIDE_COLUMNS if fits else NARROW_COLUMNS
        if columns == self.columns:
            return
        self.columns = columns
        layout = self.graphics.ci
        for plot in self.plots:
            layout.removeItem(plot)
        for number, plot in enumerate(self.plots):
            layout.addItem(plot, row=number // columns, col=number % columns)
        # The view sized the layout before it changed (to its old minimum width when that was larger): size it again.
        layout.setGeometry(self.graphics.range)

    def titles(self) -> tuple[str, str, str, str]:
        """The plot titles in the current language."""
        return (self.tr("Fused (mean)"), self.tr("Origin (mean)"), self.tr("Fused − Origin (mean)"),
                self.tr("|Fused − Origin| (max)"))

    def retranslate(self) -> None:
        """Titles, labels and pickers in the current language."""
        for plot, title in zip(self.plots, self.titles(), strict=True):
            plot.setTitle(title, size=TITLE_SIZE)
        self.fit_columns()  # titles in another language have other widths
        self.rows_label.setText(self.tr("Rows:"))
        self.cols_label.setText(self.tr("Columns:"))
        self.shared_range.setText(self.tr("Same colours for fused and origin"))
        self.shared_range.setToolTip(self.tr(
            "One colour range for both value panels, so one colour is one value on both sides."))
        self._show_hint()
        if self._wrap:
            for combo in (self.rows_combo, self.cols_combo):
                combo.setItemText(0, self._wrapped_text())
        if self.heatmap is not None:
            self._set_axis_labels(self.heatmap)

    def _show_hint(self) -> None:
        """The hover line before any hover: what to do, and what the outline marks when there is one."""
        text = self.tr("Hover a cell for its worst element.")
        if self.outline_rects and self.signature is not None:
            text += " " + self.tr("Outlined: %1.").replace("%1", signature_label(self.signature))
        self.hover_label.setText(text)
        self.hover_label.setToolTip(signature_sentence(self.signature) if self.signature is not None else "")

    def set_signature(self, signature: Signature | None) -> None:
        """Outline where `signature` (the shown row's; None: no outline) puts its error, on this and later heatmaps."""
        self.signature = signature
        self._draw_outline()

    def _draw_outline(self) -> None:
        self.outline_rects = overlay_rects(self.heatmap, self.signature) if self.heatmap is not None else []
        path = QPainterPath()
        for x0, y0, x1, y1 in self.outline_rects:
            path.addRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        pen = QPen(QColor(OUTLINE_COLOUR), STRIPES_WIDTH if len(self.outline_rects) > MANY_RECTS else OUTLINE_WIDTH)
        pen.setCosmetic(True)  # the same px on screen whatever the zoom
        for outline in self.outlines:
            outline.setPen(pen)
            outline.setPath(path)
        self._show_hint()

    def _wrapped_text(self) -> str:
        return self.tr("wrapped 1-D (%1 per row)").replace("%1", str(self._wrap))

    def _set_axis_labels(self, heatmap: Heatmap) -> None:
        labels = (self.tr("columns (%1 per cell)").replace("%1", str(heatmap.col_step)),
                  self.tr("rows (%1 per cell)").replace("%1", str(heatmap.row_step)))
        if labels == self._axis_labels:
            return  # the same pooling: eight setLabel calls re-lay the axes out for nothing (~1 ms a pair)
        self._axis_labels = labels
        for plot in self.plots:
            plot.setLabel("bottom", labels[0])
            plot.setLabel("left", labels[1])

    def set_axes_choices(self, names: list[str], shape: tuple[int, ...], axes: HeatmapAxes) -> None:
        """Fill the row/column pickers for a tensor and select `axes` (pickers are off for 1-D tensors)."""
        wrapped = bool(axes.wrap)
        self._wrap = axes.wrap or 0
        for combo, current in ((self.rows_combo, axes.rows), (self.cols_combo, axes.cols)):
            combo.clear()
            if wrapped:
                combo.addItem(self._wrapped_text(), _encode(current))
            else:
                choices = axis_choices(names, shape)
                if current not in [choice for _label, choice in choices]:
                    choices.insert(0, (_axes_label(names, shape, current), current))
                for label, choice in choices:
                    combo.addItem(label, _encode(choice))
                combo.setCurrentIndex(combo.findData(_encode(current)))
            combo.setEnabled(not wrapped)

    def current_axes(self) -> HeatmapAxes:
        """The axes the pickers show (wrap is kept by the panel, which knows the tensor)."""
        return HeatmapAxes(_decode(self.rows_combo.currentData()), _decode(self.cols_combo.currentData()))

    def select_axes(self, rows: tuple[int, ...], cols: tuple[int, ...]) -> None:
        """Pick rows and columns programmatically, as a user would (emits axesChanged)."""
        self.rows_combo.setCurrentIndex(self.rows_combo.findData(_encode(rows)))
        self.cols_combo.setCurrentIndex(self.cols_combo.findData(_encode(cols)))
        self._on_combo_activated(self.rows_combo, self.cols_combo)

    def _on_combo_activated(self, changed: QComboBox, other: QComboBox) -> None:
        chosen = set(_decode(changed.currentData()))
        if chosen & set(_decode(other.currentData())):
            # Rows and columns must not share an axis: move the other picker to the first disjoint choice.
            for number in range(other.count()):
                if not chosen & set(_decode(other.itemData(number))):
                    other.setCurrentIndex(number)
                    break
        self.axesChanged.emit(self.current_axes())

    def set_heatmap(self, heatmap: Heatmap) -> None:
        """Show the four pooled images."""
        self.heatmap = heatmap
        self._show_images()
        rows, cols = heatmap.cells
        for plot in self.plots:
            plot.setRange(xRange=(0, cols), yRange=(0, rows), padding=0)
        self._set_axis_labels(heatmap)
        self._draw_outline()

    def _show_images(self) -> None:
        heatmap = self.heatmap
        if heatmap is None:
            return
        self.scales = scales = heatmap_scales(heatmap, self.shared_range.isChecked())
        panels = ((heatmap.fused, scales.fused), (heatmap.origin, scales.origin),
                  (signed_error(heatmap), scales.signed_error), (heatmap.abs_error, scales.abs_error))
        for image, bar, (values, levels) in zip(self.images, self.bars, panels, strict=True):
            image.setImage(_displayable(values, levels), autoLevels=False, levels=levels)
            bar.setLevels(levels)
            fit_bar_axis(bar, levels)
        self.fit_columns()  # the colour bars' axes took the width of their labels

    def _on_shared_range_toggled(self, _checked: bool) -> None:
        self._show_images()

    def cell_text(self, row: int, col: int) -> str:
        """The hover text of a cell: its grid ranges, worst element index and both values."""
        info = self.heatmap.cell_info(row, col) if self.heatmap is not None else None
        if info is None:
            return ""
        values = (f"({row}, {col})", f"{info.rows[0]}–{info.rows[1] - 1}", f"{info.cols[0]}–{info.cols[1] - 1}",
                  str(info.elements), str(info.index), format_value(info.fused), format_value(info.origin),
                  format_value(info.max_abs_error), format_value(info.fused_mean), format_value(info.origin_mean))
        text = self.tr("cell %1: rows %2, cols %3, %4 elements\nworst at %5: fused %6, origin %7, |error| %8\n"
                       "means: fused %9, origin %10")
        for number in range(len(values), 0, -1):  # %10 before %1
            text = text.replace(f"%{number}", values[number - 1])
        return text

    def _on_scene_mouse_moved(self, scene_pos: QPointF) -> None:
        for image in self.images:
            if image.sceneBoundingRect().contains(scene_pos):
                point = image.mapFromScene(scene_pos)
                text = self.cell_text(math.floor(point.y()), math.floor(point.x()))
                if text:
                    self.hover_label.setText(text.replace("\n", " · "))
                    QToolTip.showText(QCursor.pos(), text, self)
                return
