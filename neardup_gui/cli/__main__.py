"""`python -m neardup_gui.cli`: the `neardup` command line."""

from neardup_gui.cli import main

raise SystemExit(main())
