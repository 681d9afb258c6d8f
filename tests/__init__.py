"""neardup's tests (a package: a dependency installs a top-level ``tests`` package of its own)."""
