#!/usr/bin/env bash
# Install (or with --uninstall remove) this neardup bundle for the current user, or system-wide
# with --prefix /usr/local (as root). Run from the unpacked bundle: ./install.sh
#   - copies the bundle to PREFIX/lib/neardup
#   - links PREFIX/bin/neardup and PREFIX/bin/neardup-gui
#   - adds the menu entry, the icons and the AppStream metadata under PREFIX/share
set -euo pipefail

prefix="$HOME/.local"
action=install
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --uninstall) action=uninstall; shift ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done

app_id=io.github.neardup.NearDup
here="$(cd "$(dirname "$0")" && pwd)"
dest="$prefix/lib/neardup"
share="$prefix/share"
sizes="16 24 32 48 64 128 256 512"

remove() {
  rm -f "$prefix/bin/neardup" "$prefix/bin/neardup-gui"
  rm -f "$share/applications/$app_id.desktop" "$share/metainfo/$app_id.metainfo.xml"
  rm -f "$share/icons/hicolor/scalable/apps/$app_id.svg"
  for s in $sizes; do rm -f "$share/icons/hicolor/${s}x${s}/apps/$app_id.png"; done
  rm -rf "$dest"
}

refresh() {
  command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$share/applications" || true
  # Only where a theme index exists (system-wide): a cache in a user's icon folder would go stale.
  if [ -f "$share/icons/hicolor/index.theme" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q "$share/icons/hicolor" || true
  fi
}

if [ "$action" = uninstall ]; then
  remove
  refresh
  echo "neardup removed from $prefix"
  exit 0
fi

[ -x "$here/neardup-gui" ] && [ -x "$here/neardup" ] || { echo "install.sh: run it from the unpacked neardup folder" >&2; exit 1; }
if [ "$here" != "$dest" ]; then
  rm -rf "$dest"
  mkdir -p "$dest"
  cp -a "$here/." "$dest/"
fi
mkdir -p "$prefix/bin" "$share/applications" "$share/metainfo"
ln -sf "$dest/neardup" "$prefix/bin/neardup"
ln -sf "$dest/neardup-gui" "$prefix/bin/neardup-gui"
# The menu entry starts the installed executable by its full path: PREFIX/bin need not be on PATH.
sed "s|^Exec=neardup-gui|Exec=$dest/neardup-gui|" "$dest/_internal/share/$app_id.desktop" \
  > "$share/applications/$app_id.desktop"
cp "$dest/_internal/share/$app_id.metainfo.xml" "$share/metainfo/"
mkdir -p "$share/icons"
cp -r "$dest/_internal/share/icons/hicolor" "$share/icons/"  # merges into an existing hicolor/
refresh
echo "neardup installed in $dest"
echo "  window:       $prefix/bin/neardup-gui (also in the applications menu)"
echo "  command line: $prefix/bin/neardup"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "  (add $prefix/bin to PATH to type 'neardup' in a terminal)";; esac
