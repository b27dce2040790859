"""The CLI's error boundary: expected failures become one `ERROR:` line on stderr and an exit code."""

from __future__ import annotations

import sys
from collections.abc import Callable

from autofuse_studio.core.errors import AppError

EXIT_INTERRUPTED = 130


def run_guarded(work: Callable[[], int]) -> int:
    """Run `work`; AppError -> its sentence on stderr (prefixed ERROR: like the reference) and its exit code."""
    try:
        return work()
    except AppError as error:
        message = str(error)
        print(message if message.startswith("ERROR") else f"ERROR: {message}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
