"""Imported by the fork server alone (core/processes.py preloads it): binds the server to the
process that started it, so that it ends with that process, and the pass's workers it forks with
it (each is bound to the server by the kernel's death signal, and to the first process by its
sentinel: core/lifeline.py)."""

from __future__ import annotations

import os

from neardup_gui.core.lifeline import PARENT_ENV, bind_to_process

_given = os.environ.pop(PARENT_ENV, "")
bind_to_process(int(_given) if _given.isdigit() else None)
