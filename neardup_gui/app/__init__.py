"""PySide6 front end: windows, views, models and the task bridge to core."""
