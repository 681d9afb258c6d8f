"""Frozen entry point of the desktop application (the PyInstaller bundle's `neardup-gui`)."""

import multiprocessing

if __name__ == "__main__":
    # Extraction workers are started with 'spawn': in the bundle a worker is this same
    # executable run again with multiprocessing's arguments. freeze_support() recognises them,
    # runs the worker and exits, so a worker never opens a second window.
    multiprocessing.freeze_support()

    from neardup_gui.app.main import main

    raise SystemExit(main())
