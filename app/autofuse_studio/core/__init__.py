"""Qt-free core: parsers, engines and writers shared by the CLI and the GUI."""
