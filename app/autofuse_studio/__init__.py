"""Autofuse Studio: a workbench for debugging CANN Autofuse precision and tiling."""

__version__ = "0.1.0"
APP_NAME = "Autofuse Studio"
