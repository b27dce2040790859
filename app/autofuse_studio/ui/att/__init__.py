"""The ATT tab: perf-formula canvas, summary and compare tables, evidence export, split-slog browser."""
