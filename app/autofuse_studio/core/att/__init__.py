"""ATT-ANALYZE: single-pass log scanner and the summary/compare/evidence/split-slog/perf-formula tools."""
