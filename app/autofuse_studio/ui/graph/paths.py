"""QPainterPaths straight from numpy arrays: line segments and closed polygons, thousands per millisecond.

A path built in Python costs a QPointF and a call per point (about a second for the 100k edges of a big
graph); Qt can instead read a whole path from its binary QDataStream form, which numpy writes at once
(the trick pyqtgraph's arrayToQPath uses).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QByteArray, QDataStream
from PySide6.QtGui import QPainterPath

__all__ = ["polygons_path", "segments_path"]

MOVE_TO, LINE_TO = 0, 1  # QPainterPath.ElementType values in the stream
_ELEMENT = np.dtype([("type", ">i4"), ("x", ">f8"), ("y", ">f8")])


def _from_elements(types: NDArray[np.int32], xy: NDArray[np.float64]) -> QPainterPath:
    """Deserialise a path: element count, (type, x, y) per element, start of the current subpath, fill rule."""
    path = QPainterPath()
    if not len(types):
        return path
    elements = np.empty(len(types), dtype=_ELEMENT)
    elements["type"], elements["x"], elements["y"] = types, xy[:, 0], xy[:, 1]
    data = np.array([len(types)], dtype=">i4").tobytes() + elements.tobytes() + np.array([0, 0], dtype=">i4").tobytes()
    buffer = QByteArray(data)  # kept in a name: the stream only points at it
    stream = QDataStream(buffer)
    stream >> path
    return path


def segments_path(start: NDArray[np.float64], end: NDArray[np.float64]) -> QPainterPath:
    """One path of separate line segments start[i] -> end[i] (arrays of shape (N, 2))."""
    xy = np.empty((2 * len(start), 2))
    xy[0::2], xy[1::2] = start, end
    types = np.tile(np.array([MOVE_TO, LINE_TO], dtype=np.int32), len(start))
    return _from_elements(types, xy)


def polygons_path(corners: NDArray[np.float64]) -> QPainterPath:
    """One path of closed polygons, corners of shape (N, K, 2) (K corners each) for filling."""
    count, k = corners.shape[0], corners.shape[1]
    closed = np.concatenate((corners, corners[:, :1]), axis=1).reshape(-1, 2)
    types = np.tile(np.array([MOVE_TO] + [LINE_TO] * k, dtype=np.int32), count)
    return _from_elements(types, closed)
