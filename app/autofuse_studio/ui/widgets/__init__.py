"""Reusable widgets shared by several panels."""
