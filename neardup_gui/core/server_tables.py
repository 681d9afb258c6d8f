"""Imported by the fork server alone (core/processes.py preloads it, after the pass's modules):
builds the tables every pass worker would otherwise build for itself on its first text, so that
the workers it forks share them. The folds of look-alike letters and traditional characters
(core/folding.py, read from OpenCC's table: about 55 ms a process) are the one that counts."""

from __future__ import annotations

from neardup_gui.core import folding

folding.fold_map()
folding.fold_table()
