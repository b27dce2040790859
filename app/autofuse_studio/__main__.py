"""`python -m autofuse_studio` entry point."""

import sys

from autofuse_studio.cli import main

if __name__ == "__main__":
    sys.exit(main())
