"""Display lists and the SVG writer shared by the CLI pictures and the GUI canvases."""
