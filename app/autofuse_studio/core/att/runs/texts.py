"""Words of the run-root reports in English and Chinese (from core/messages.py): causes, headings, the overview.

root-cause.jsonl always uses English causes (scripts match them); report.md and the console follow --lang.
"""

from __future__ import annotations

import locale
import math
import os
from typing import Any

from autofuse_studio.core import messages
from autofuse_studio.core.att.runs.diff import Cause
from autofuse_studio.core.messages import PHRASES, WORDS

EN, ZH = messages.EN, messages.ZH
LANGUAGES = (EN, ZH)

# The phrases live in the one message catalogue (core/messages.py), with the notices' sentences.
_PHRASES = PHRASES
_WORDS = WORDS


def default_language() -> str:
    """zh when the locale (LC_ALL, LC_MESSAGES, LANG, or the system's) is Chinese, else en."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return ZH if value.lower().startswith("zh") else EN
    try:
        current = locale.getlocale()[0] or ""
    except ValueError:
        current = ""
    return ZH if current.lower().startswith("zh") else EN


def word(key: str, lang: str) -> str:
    """A status or role name in the language."""
    pair = _WORDS.get(key)
    return key if pair is None else pair[lang == ZH]


def number(value: float | int | None) -> str:
    """A value as written in the log's spirit: integers without `.0`, others in shortest form, `—` if absent."""
    if value is None:
        return "—"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def percent(value: float | None) -> str:
    """`+12.50%`, or `—` when unknown."""
    return "—" if value is None else f"{value:+.2f}%"


def _changes(changes: list[tuple[str, float | None, float | None]], lang: str, limit: int = 6) -> str:
    parts = [f"{name} {number(a)} → {number(b)}" for name, a, b in changes[:limit]]
    if len(changes) > limit:
        parts.append(word("more", lang).format(n=len(changes) - limit))
    return ", ".join(parts)


def cause_text(cause: Cause, lang: str = EN) -> str:
    """One cause as a sentence fragment in the language."""
    pair = _PHRASES.get(cause.kind)
    if pair is None:
        return cause.kind
    params: dict[str, Any] = dict(cause.params)
    for key in ("default", "candidate"):
        value = params.get(key)
        if isinstance(value, list):
            params[key] = ";".join(value) or "—"
        elif cause.kind != "best_result" and not isinstance(value, str):
            params[key] = number(value)
    if "side" in params:
        params["side"] = word(str(params["side"]), lang)
    if cause.kind == "tiling_values":
        params["changes"] = _changes(params["changes"], lang)
    if cause.kind == "result_perf":
        pct = params.get("delta_pct")
        params["pct"] = f" ({percent(pct)})" if pct is not None else ""
    return pair[lang == ZH].format(**params)
