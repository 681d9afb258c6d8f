"""Frozen entry point of the `neardup` command line (the PyInstaller bundle's `neardup`)."""

import multiprocessing

if __name__ == "__main__":
    # Extraction workers are started with 'spawn': in the bundle a worker is this same
    # executable run again with multiprocessing's arguments. freeze_support() recognises them,
    # runs the worker and exits, so a worker never reaches the command line below.
    multiprocessing.freeze_support()

    from neardup_gui.cli import main

    raise SystemExit(main())
