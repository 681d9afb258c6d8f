"""Imported by the fork server alone (core/processes.py preloads it, after the pass's modules):
builds the tables every pass worker would otherwise build for itself on its first text
(:func:`~neardup_gui.core.fingerprints.build_tables`), so that the workers it forks share them."""

from __future__ import annotations

from neardup_gui.core.fingerprints import build_tables

build_tables()
