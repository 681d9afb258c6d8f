"""`python -m neardup_gui` opens the desktop application."""

from neardup_gui.app.main import main

raise SystemExit(main())
