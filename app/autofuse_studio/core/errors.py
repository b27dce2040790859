"""Expected failures: every AppError's str() is a full sentence naming the file, line or operator.

An error may also carry a code and its parameters (`InputError.of("dump_folder_missing", path=root)`): its
English sentence (str()) then comes from the catalogue in core/error_messages.py, and a front end renders it
in its own language there (render_error). Errors without a code show their sentence as is in every language.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from autofuse_studio.core.error_messages import english

_E = TypeVar("_E", bound="AppError")


class AppError(Exception):
    """An expected failure whose message can be shown to the user as is."""

    exit_code = 1

    def __init__(self, *args: object, code: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(*args)
        self.code = code
        self.params: dict[str, Any] = dict(params) if params else {}

    @classmethod
    def of(cls: type[_E], code: str, /, **params: Any) -> _E:
        """The error of catalogue code `code`: its English sentence from the catalogue, `params` kept to render
        it in another language (paths become text)."""
        values = {key: os.fspath(value) if isinstance(value, os.PathLike) else value for key, value in params.items()}
        return cls._coded(english(code, values), code, values)

    @classmethod
    def _coded(cls: type[_E], message: str, code: str, params: dict[str, Any]) -> _E:
        return cls(message, code=code, params=params)


class UsageError(AppError):
    """The arguments do not make sense together (CLI exit code 2)."""

    exit_code = 2


class InputError(AppError):
    """An input file or folder is missing, unreadable or malformed."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None, *,
                 code: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(message, code=code, params=params)

    @classmethod
    def _coded(cls: type[_E], message: str, code: str, params: dict[str, Any]) -> _E:
        """`path` (and `line`) of the params are the error's attributes too (the GUI outlines that field)."""
        return cls(message, params.get("path"), params.get("line"), code=code, params=params)


class GraphParseError(InputError):
    """A GE dump graph cannot be parsed."""


class NpyLoadError(InputError):
    """An NPY file cannot be loaded safely (garbage, truncated, pickled objects, bad dtype)."""


class FormatUnsupported(AppError):
    """No conversion exists between the two tensor layouts."""


class FormatConversionError(AppError):
    """A layout conversion exists but the shapes are inconsistent with it."""


class Cancelled(Exception):
    """Raised by CancelToken.check() when the user cancelled; callers stay silent."""


class OutputError(AppError):
    """An output file or folder cannot be written (a folder in the way, no permission, no space)."""

    def __init__(self, message: str, path: str | Path | None = None, *, code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        self.path = str(path) if path is not None else None
        super().__init__(message, code=code, params=params)

    @classmethod
    def _coded(cls: type[_E], message: str, code: str, params: dict[str, Any]) -> _E:
        return cls(message, params.get("path"), code=code, params=params)


def coded_fields(error: AppError) -> dict[str, Any]:
    """The code and JSON-safe params of a coded error, for a record that relays it (a host's stream); {} without
    a code."""
    from autofuse_studio.core.notices import wire_params

    return {"code": error.code, "params": wire_params(error.params)} if error.code else {}


def os_error_sentence(exc: OSError) -> str:
    """An OSError as a sentence naming its path(s), without the raw '[Errno N]' prefix."""
    reason = (exc.strerror or str(exc)).rstrip(".")
    names = [f"'{name}'" for name in (exc.filename, exc.filename2) if name is not None]
    return f"{' -> '.join(names)}: {reason[:1].lower()}{reason[1:]}." if names else f"{reason}."
