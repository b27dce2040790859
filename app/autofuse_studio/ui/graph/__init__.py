"""Graph view UI: synchronised af-open / af-close panes, overlay, details, search, filters and exports."""
