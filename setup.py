"""Packages (with resources/ as package data) and the optional native precision kernel; the rest is pyproject.toml."""

import os

from setuptools import Extension, find_packages, setup

# The repository's resources/ (demo case, icons, translations, desktop entry) travels inside the wheel as the
# data-only package autofuse_studio.resources, where core/resources.py finds it; a checkout reads the folder.
RESOURCES = "autofuse_studio.resources"
RESOURCE_FILES = ["demo/**/*", "icons/*.svg", "icons/*.png", "desktop/*", "translations/*.qm"]

setup(
    package_dir={"": "app", RESOURCES: "resources"},
    packages=[*find_packages("app"), RESOURCES],
    package_data={"autofuse_studio": ["py.typed"], RESOURCES: RESOURCE_FILES},
    include_package_data=False,
    ext_modules=[
        Extension(
            "autofuse_studio.core.precision._kernel",
            ["app/autofuse_studio/core/precision/_kernel.c"],
            # No -march=native: the bundle and CI machines differ; the kernel picks AVX2 at run time.
            extra_compile_args=["-O3", "-std=c99"],
            # Without a compiler the install still succeeds and metrics.py uses its numpy path.
            optional=True,
        ),
        Extension(
            "autofuse_studio.core.precision._transform",
            ["app/autofuse_studio/core/precision/_transform.c"],
            # -ffp-contract=off: tol and |x - moved| rounded op by op, as numpy computes them (same signatures).
            extra_compile_args=["-O3", "-std=c99", "-ffp-contract=off"],
            # Optional too: without it signature.py searches the named transforms in numpy.
            optional=True,
        ),
        Extension(
            "autofuse_studio.core.att._linescan",
            ["app/autofuse_studio/core/att/_linescan.c"],
            extra_compile_args=["-O3", "-std=c99"],
            # Optional too: without it the ATT scanner keeps its regex path (scanner.py).
            optional=True,
        ),
        Extension(
            "autofuse_studio.core.reports._rowjoin",
            ["app/autofuse_studio/core/reports/_rowjoin.c"],
            # The vendored Ryu (ryu/, included by _rowjoin.c) names its headers "ryu/...".
            include_dirs=["app/autofuse_studio/core/reports"],
            depends=["app/autofuse_studio/core/reports/ryu/d2s.c", "app/autofuse_studio/core/reports/ryu/ryu.h",
                     "app/autofuse_studio/core/reports/ryu/common.h", "app/autofuse_studio/core/reports/ryu/digit_table.h",
                     "app/autofuse_studio/core/reports/ryu/d2s_intrinsics.h",
                     "app/autofuse_studio/core/reports/ryu/d2s_full_table.h"],
            extra_compile_args=["-O3", "-std=c99"],
            # Optional too: without it the result writers join rows in Python (precision_csv, xlsx_stream).
            optional=True,
        ),
        Extension(
            "autofuse_studio.core.dumps._rawscan",
            ["app/autofuse_studio/core/dumps/_rawscan.c"],
            extra_compile_args=["-O2", "-std=c99"],
            # Optional too: without it raw dump headers are located through protobuf alone (raw_header.py).
            optional=True,
        ),
        Extension(
            "autofuse_studio.core.dumps._statsscan",
            ["app/autofuse_studio/core/dumps/_statsscan.c"],
            extra_compile_args=["-O2", "-std=c99"],
            # Optional too: without it statistics CSV lines are matched by stats_rows' regex.
            optional=True,
        ),
        # POSIX only (a SIGBUS handler): memory-mapped dumps that shrink mid-read become a row status, not a
        # crash. Optional: without it big dumps are mapped unguarded, as before (core/dumps/mapped.py).
        *([Extension(
            "autofuse_studio.core.dumps._mapguard",
            ["app/autofuse_studio/core/dumps/_mapguard.c"],
            extra_compile_args=["-O2", "-std=c99"],
            optional=True,
        )] if os.name == "posix" else []),
    ],
)
