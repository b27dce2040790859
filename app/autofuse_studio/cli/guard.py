"""The CLI's error boundary: expected failures become one `ERROR:` line and an exit code.

The reference tools print their `ERROR:` / `Error:` lines on stdout (fusion_precision_analyzer.py,
att.py summary, perf-formula, verify-tiling) and scripts grep stdout for them, so those commands pass
`stdout=True`; our own commands (report, hosts) keep errors on stderr. Either way only the first line
of a message is the error line: any further detail goes to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from autofuse_studio.core.errors import AppError

EXIT_INTERRUPTED = 130


def print_error(message: str, *, stdout: bool) -> None:
    """Print an error's first line on stdout (as the reference does) or stderr; further lines on stderr."""
    headline, _, detail = message.partition("\n")
    if stdout:
        print(headline, flush=True)
    else:
        print(headline, file=sys.stderr)
    if detail:
        print(detail, file=sys.stderr)


def run_guarded(work: Callable[[], int], *, stdout: bool = False) -> int:
    """Run `work`; AppError -> its sentence (prefixed ERROR: like the reference) and its exit code."""
    try:
        return work()
    except AppError as error:
        message = str(error)
        print_error(message if message.startswith("ERROR") else f"ERROR: {message}", stdout=stdout)
        return error.exit_code
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
