"""Expected failures: every AppError's str() is a full sentence naming the file, line or operator."""

from __future__ import annotations

from pathlib import Path


class AppError(Exception):
    """An expected failure whose message can be shown to the user as is."""

    exit_code = 1


class UsageError(AppError):
    """The arguments do not make sense together (CLI exit code 2)."""

    exit_code = 2


class InputError(AppError):
    """An input file or folder is missing, unreadable or malformed."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(message)


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

    def __init__(self, message: str, path: str | Path | None = None) -> None:
        self.path = str(path) if path is not None else None
        super().__init__(message)


def os_error_sentence(exc: OSError) -> str:
    """An OSError as a sentence naming its path(s), without the raw '[Errno N]' prefix."""
    reason = (exc.strerror or str(exc)).rstrip(".")
    names = [f"'{name}'" for name in (exc.filename, exc.filename2) if name is not None]
    return f"{' -> '.join(names)}: {reason[:1].lower()}{reason[1:]}." if names else f"{reason}."
