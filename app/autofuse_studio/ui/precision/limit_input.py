"""Threshold text typed by a user: parsing with decimal commas and full-width digits, validated as it is typed."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale, QObject
from PySide6.QtWidgets import QLineEdit

# Translations use the literal context "LimitInput" (pyside6-lupdate does not resolve variables).
# A plain number as Python writes it, without float()'s extras ("inf", "nan", "1_000", " 1 ").
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# What each limit may be: cosine similarity lies in [-1, 1], errors are never negative. The statistics
# limits (stats_*) are never 'not checked' and the NaN/Inf count difference is a whole number.
RANGES = {"cosine": (-1.0, 1.0), "max_abs": (0.0, math.inf), "max_rel": (0.0, math.inf),
          "stats_max_rel": (0.0, math.inf), "stats_abs_floor": (0.0, math.inf),
          "stats_max_nonfinite_diff": (0.0, math.inf)}
REQUIRED = frozenset({"stats_max_rel", "stats_abs_floor", "stats_max_nonfinite_diff"})
WHOLE = frozenset({"stats_max_nonfinite_diff"})
INVALID_STYLE = "QLineEdit { border: 2px solid #d62728; border-radius: 3px; }"


@dataclass(frozen=True)
class ParsedLimit:
    """A parsed limit: `value` (None = not checked) when `error` is empty, else why the text was refused."""

    value: float | None
    error: str = ""

    @property
    def valid(self) -> bool:
        """True when the text was accepted."""
        return not self.error


def _normalise(text: str) -> str:
    # NFKC turns full-width digits, "．" and "，" (Chinese input methods) into ASCII; "。" it leaves alone.
    text = unicodedata.normalize("NFKC", text).replace("。", ".").replace("−", "-")
    return "".join(text.split())  # spaces anywhere, including no-break and thin spaces


def _number(text: str, locale: QLocale) -> float | None:
    if _NUMBER.fullmatch(text):
        return float(text)
    # A decimal comma (European and many other locales), whatever the user's locale says.
    if text.count(",") == 1 and "." not in text and _NUMBER.fullmatch(text.replace(",", ".")):
        return float(text.replace(",", "."))
    value, ok = locale.toDouble(text)  # the user's own format, e.g. group separators
    return float(value) if ok else None


def _span(key: str) -> str:
    low, high = RANGES[key]
    if key in WHOLE:
        return QCoreApplication.translate("LimitInput", "a whole number ≥ %1").replace("%1", f"{low:g}")
    if math.isinf(high):
        return QCoreApplication.translate("LimitInput", "a number ≥ %1").replace("%1", f"{low:g}")
    return QCoreApplication.translate("LimitInput", "a number from %1 to %2").replace("%1", f"{low:g}").replace(
        "%2", f"{high:g}")


def accepted_text(key: str) -> str:
    """The tooltip of a limit field: what may be typed into it."""
    if key in WHOLE:
        return QCoreApplication.translate("LimitInput", "Accepted: %1, e.g. 0 or 2.").replace("%1", _span(key))
    if key in REQUIRED:
        text = QCoreApplication.translate("LimitInput", "Accepted: %1, written 0.01, 0,01 or 1e-3.")
        return text.replace("%1", _span(key))
    text = QCoreApplication.translate(
        "LimitInput", "Accepted: %1, written 0.99, 0,99 or 1e-3; leave empty for 'not checked'.")
    return text.replace("%1", _span(key))


def parse_limit_text(text: str, key: str, locale: QLocale | None = None) -> ParsedLimit:
    """Parse a limit for `key` ('cosine', 'max_abs', 'max_rel', 'stats_*'); empty text means not checked.

    A statistics limit (REQUIRED) is always checked: empty text is refused like any other invalid text.
    """
    cleaned = _normalise(text)
    if not cleaned:
        if key in REQUIRED:
            return ParsedLimit(None, QCoreApplication.translate("LimitInput", "This limit needs a number."))
        return ParsedLimit(None)
    value = _number(cleaned, locale if locale is not None else QLocale())
    if value is None or not math.isfinite(value):
        message = QCoreApplication.translate("LimitInput", "“%1” is not a number.").replace("%1", text.strip())
        return ParsedLimit(None, message)
    low, high = RANGES[key]
    if not low <= value <= high:
        message = QCoreApplication.translate("LimitInput", "%1 is not %2.").replace("%1", f"{value:g}").replace(
            "%2", _span(key))
        return ParsedLimit(None, message)
    if key in WHOLE:
        if not value.is_integer():
            message = QCoreApplication.translate("LimitInput", "%1 is not a whole number.").replace("%1", f"{value:g}")
            return ParsedLimit(None, message)
        return ParsedLimit(float(int(value)))
    return ParsedLimit(value)


def kept_text(error: str, value: float | None) -> str:
    """The sentence shown for refused text: the problem, then which value stays in force."""
    if value is None:
        return QCoreApplication.translate("LimitInput", "%1 The limit stays unchecked.").replace("%1", error)
    text = QCoreApplication.translate("LimitInput", "%1 Still using %2.")
    return text.replace("%2", f"{value:g}").replace("%1", error)


class LimitField(QObject):
    """Validates a QLineEdit as the user types (red outline, tooltip); `value` changes only on valid commits.

    The value in force is the one of the last commit (editing finished) with valid text, so clearing
    the field on the way to typing something invalid does not switch the check off either.
    """

    def __init__(self, edit: QLineEdit, key: str, value: float | None = None) -> None:
        super().__init__(edit)
        self.edit, self.key = edit, key
        self.value = value
        self.error = ""
        edit.textChanged.connect(self._on_edit_text_changed)
        self._show()

    def set_value(self, value: float | None, text: str) -> None:
        """Show `text` for a known-good `value`."""
        self.value = value
        self.edit.setText(text)
        self._on_edit_text_changed(text)

    def commit(self) -> bool:
        """Take the text's value when it is valid; True when the value in force changed."""
        parsed = parse_limit_text(self.edit.text(), self.key)
        if not parsed.valid or parsed.value == self.value:
            return False
        self.value = parsed.value
        return True

    def _on_edit_text_changed(self, text: str) -> None:
        parsed = parse_limit_text(text, self.key)
        self.error = parsed.error
        self._show()

    def _show(self) -> None:
        self.edit.setStyleSheet(INVALID_STYLE if self.error else "")
        tip = accepted_text(self.key)
        self.edit.setToolTip(self.message() + "\n" + tip if self.error else tip)

    def message(self) -> str:
        """The refusal sentence, or '' when the text is valid."""
        return kept_text(self.error, self.value) if self.error else ""

    def retranslate(self) -> None:
        """Re-validate so that messages follow the language."""
        self._on_edit_text_changed(self.edit.text())
