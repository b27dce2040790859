"""Autofuse Studio: a workbench for debugging CANN Autofuse precision and tiling."""

import os

# We parallelise over blocks and pairs ourselves; OpenBLAS's own threads would then spin against ours
# (measured: np.dot up to 200x slower on 2 busy cores). Only effective before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
APP_NAME = "Autofuse Studio"
