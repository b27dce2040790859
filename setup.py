"""Build hook for the optional native precision kernel; all other metadata lives in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "autofuse_studio.core.precision._kernel",
            ["app/autofuse_studio/core/precision/_kernel.c"],
            # No -march=native: the bundle and CI machines differ; the kernel picks AVX2 at run time.
            extra_compile_args=["-O3", "-std=c99"],
            # Without a compiler the install still succeeds and metrics.py uses its numpy path.
            optional=True,
        )
    ]
)
