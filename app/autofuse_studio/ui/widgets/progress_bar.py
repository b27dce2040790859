"""ProgressBar: a QProgressBar whose new value is painted with the window's next paint, never at once.

QProgressBar.setValue repaints synchronously, and a synchronous repaint paints every dirty region of the window
then and there: at the end of a big model's analysis the progress event painted the 20k-row table (20-60 ms
while the workers held the GIL) inside the event's slot, and the table was painted again later in the same
event-loop turn once its rows' layout changed — two paints in one GUI block of 100-125 ms. Painted with the next
paint, the bar's value and the table share one.
"""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar


class ProgressBar(QProgressBar):
    """A progress bar whose setValue schedules its paint (update) rather than painting at once (repaint)."""

    def setValue(self, value: int) -> None:  # Qt's name, shadowed for Python callers
        """Set the value; the bar is painted with the window's next paint."""
        if value == self.value():
            return
        # With updates disabled QProgressBar's own repaint() returns at once; enabling them again schedules one
        # update() of the bar.
        self.setUpdatesEnabled(False)
        try:
            super().setValue(value)
        finally:
            self.setUpdatesEnabled(True)
