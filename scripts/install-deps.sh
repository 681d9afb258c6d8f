#!/usr/bin/env bash
# Install the Debian packages that the app and the test suite need, when they are missing.
# Used by `make run`, `make test` and CI. Needs root (or sudo) and apt-get; otherwise it prints
# the exact command to run and exits non-zero.
set -euo pipefail

what="${1:-test}"   # run | test | package
pkgs_run=(libxkbcommon-x11-0 libegl1 libgl1 libxcb-cursor0 libxcb-icccm4 libxcb-image0
          libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xinerama0
          libxcb-xkb1 libfontconfig1 libdbus-1-3 fonts-noto-cjk fonts-dejavu-core
          gcc libc6-dev)  # (the compiled parts, neardup_gui/core/*.c: optional, faster)
pkgs_test=("${pkgs_run[@]}" libreoffice-writer-nogui poppler-utils qpdf xvfb xauth chromium
           groff-base bsdextrautils)  # (man pages rendered with their formatting, tests/core/extract/test_terminal_formatting.py)
case "$what" in
  run) pkgs=("${pkgs_run[@]}") ;;
  test) pkgs=("${pkgs_test[@]}") ;;
  package) pkgs=("${pkgs_run[@]}" binutils appstream desktop-file-utils) ;;  # PyInstaller needs objdump
  *) echo "usage: $0 run|test|package" >&2; exit 2 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "neardup needs these system packages: ${missing[*]} (no apt-get here: install them with your package manager)" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; else
    echo "neardup needs these Debian packages. Please run:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi
echo "Installing system packages: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
