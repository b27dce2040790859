"""Frozen-bundle entry point: the PyInstaller executable runs autofuse_studio.cli.main()."""

from __future__ import annotations

import multiprocessing
import sys

from autofuse_studio.cli import main

if __name__ == "__main__":
    # Worker processes of a frozen app re-run this executable; freeze_support() turns those runs into
    # workers instead of a second copy of the app.
    multiprocessing.freeze_support()
    sys.exit(main())
