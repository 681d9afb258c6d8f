"""Algorithm core: pure Python and numpy. Never imports Qt (tests/core/test_no_qt.py enforces it)."""
