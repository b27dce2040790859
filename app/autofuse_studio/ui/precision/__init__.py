"""The precision workbench: case panel, result table, filters, thresholds and exports."""
