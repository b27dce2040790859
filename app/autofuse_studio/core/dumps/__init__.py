"""Dump folders: NPY name parsing, recursive index, safe loading, layout conversion."""
