#!/usr/bin/env bash
# Build the one-folder bundle dist/neardup/ (executables `neardup-gui` and `neardup`) and the
# archive dist/neardup-<version>-linux-<arch>.tar.gz. Usage: packaging/build.sh [python]
# (default .venv/bin/python, which must have the project and PyInstaller installed:
# `pip install -e '.[package]'`; `make package` does all of this).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
py="${1:-.venv/bin/python}"

version="$("$py" -c 'import neardup_gui; print(neardup_gui.__version__)')"
arch="$(uname -m)"
echo "Building neardup $version for linux-$arch" >&2

start=$(date +%s)
"$py" -m PyInstaller --noconfirm --clean --log-level WARN \
    --workpath build/pyinstaller --distpath dist packaging/neardup.spec

bundle=dist/neardup
install -m 0755 packaging/install.sh "$bundle/install.sh"
# The desktop environment's icon sizes, next to the desktop entry, for install.sh.
mkdir -p "$bundle/_internal/share/icons"
cp -r resources/icons/hicolor "$bundle/_internal/share/icons/"

archive="dist/neardup-$version-linux-$arch.tar.gz"
tar -C dist -czf "$archive" neardup
end=$(date +%s)
echo "Built $bundle ($(du -sh "$bundle" | cut -f1)) and $archive ($(du -sh "$archive" | cut -f1)) in $((end - start)) s" >&2
