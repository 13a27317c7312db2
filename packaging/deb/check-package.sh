#!/usr/bin/env bash
# Extracts the built .deb into a temp dir and runs the installed binary from there:
# the package carries its files and declares its runtime dependencies.
set -euo pipefail
build_dir="$1"
deb=$(ls -t "$build_dir"/fabscope_*.deb | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
info=$(dpkg-deb -I "$deb")
echo "$info" | grep -q '^ Depends:.*libqt6widgets6' || { echo "no Qt runtime dependency in $deb"; echo "$info"; exit 1; }
echo "$info" | grep -q '^ Depends:.*libsqlite3' || { echo "no SQLite runtime dependency in $deb"; exit 1; }
dpkg-deb -x "$deb" "$tmp"
for f in usr/bin/fabscope usr/bin/fabscope-gui usr/share/applications/fabscope.desktop usr/share/icons/hicolor/scalable/apps/fabscope.svg \
         usr/share/metainfo/io.github.fabscope.FabScope.metainfo.xml usr/share/man/man1/fabscope.1; do
    [ -e "$tmp/$f" ] || { echo "missing $f in $deb"; exit 1; }
done
"$tmp/usr/bin/fabscope" --version | grep -q '^fabscope '
"$tmp/usr/bin/fabscope" demo --out "$tmp/demo" 2>/dev/null
"$tmp/usr/bin/fabscope" import --db "$tmp/s.sqlite" "$tmp/demo" 2>/dev/null
"$tmp/usr/bin/fabscope" info --db "$tmp/s.sqlite" --json | grep -q '"links": 96'
# The CLI starts without Qt's widgets; the desktop view and PDF reports are fabscope-gui's,
# which `fabscope` finds beside itself.
if ldd "$tmp/usr/bin/fabscope" | grep -q libQt6Widgets; then echo "usr/bin/fabscope loads Qt Widgets"; exit 1; fi
QT_QPA_PLATFORM=offscreen "$tmp/usr/bin/fabscope" report --db "$tmp/s.sqlite" --out "$tmp/r.pdf" 2>/dev/null
[ "$(head -c 4 "$tmp/r.pdf")" = "%PDF" ] || { echo "fabscope report --out r.pdf wrote no PDF"; exit 1; }
echo "package ok: $deb"
