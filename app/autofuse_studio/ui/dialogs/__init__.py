"""Dialogs opened from the main window's menus."""
