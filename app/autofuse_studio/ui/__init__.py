"""Qt front end: everything that imports PySide6 or pyqtgraph lives here."""
