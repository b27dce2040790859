"""How the GUI words a row's signature: a short label per code (Qt-translated) and its sentence in the UI language."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from autofuse_studio.core.messages import render_signature
from autofuse_studio.core.precision.signature import Signature
from autofuse_studio.ui.i18n import translations

CONTEXT = "SignatureText"

# code -> short English label, as literal markers (pyside6-lupdate finds literals only); the order is the
# checks' order (core.precision.signature), which the filter bar follows too.
LABELS: dict[str, str] = {code: str(text) for code, text in (  # the stubs type QT_TRANSLATE_NOOP as object
    ("nonfinite_introduced", QT_TRANSLATE_NOOP("SignatureText", "NaN/Inf introduced")),
    ("overflow", QT_TRANSLATE_NOOP("SignatureText", "Overflow")),
    ("underflow", QT_TRANSLATE_NOOP("SignatureText", "Underflow")),
    ("layout_permutation", QT_TRANSLATE_NOOP("SignatureText", "Layout permutation")),
    ("tail_block", QT_TRANSLATE_NOOP("SignatureText", "Tail block")),
    ("localised", QT_TRANSLATE_NOOP("SignatureText", "Localised")),
    ("bias", QT_TRANSLATE_NOOP("SignatureText", "Bias")),
    ("scale", QT_TRANSLATE_NOOP("SignatureText", "Scale")),
    ("rounding", QT_TRANSLATE_NOOP("SignatureText", "Rounding")),
    ("uncorrelated", QT_TRANSLATE_NOOP("SignatureText", "Uncorrelated")),
    ("unclassified", QT_TRANSLATE_NOOP("SignatureText", "Unclassified")),
    ("mixed", QT_TRANSLATE_NOOP("SignatureText", "Mixed")),
)}
# A mixed signature's label names its parts: 'Mixed: Bias + Tail block'.
_MIXED = QT_TRANSLATE_NOOP("SignatureText", "Mixed: %1")


def code_label(code: str) -> str:
    """The short label of a code in the UI language (an unknown code, from another version, as it is)."""
    text = LABELS.get(code)
    return code if text is None else QCoreApplication.translate(CONTEXT, text)


def signature_label(signature: Signature) -> str:
    """The cell text of a signature: its code's label; a mixed one lists its parts' labels."""
    parts = signature.params.get("parts") if signature.code == "mixed" else None
    if not isinstance(parts, list) or not parts:
        return code_label(signature.code)
    names = " + ".join(code_label(str(part.get("code"))) for part in parts if isinstance(part, dict))
    return QCoreApplication.translate(CONTEXT, str(_MIXED)).replace("%1", names)


def signature_sentence(signature: Signature) -> str:
    """The signature's sentence in the UI language (English: core's sentence as is)."""
    return render_signature(signature.code, signature.params, signature.sentence, translations().language)


def signature_tooltip(signature: Signature) -> str:
    """The cell's tooltip: the sentence and how sure the signature is."""
    confidence = QCoreApplication.translate("SignatureText", "confidence %1")
    confidence = confidence.replace("%1", f"{signature.confidence:.0%}")
    return f"{signature_sentence(signature)}\n({confidence})"
