"""Report writers (xlsx, csv, json, text) with atomic writes."""
