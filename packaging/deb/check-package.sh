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
for f in usr/bin/fabscope usr/share/applications/fabscope.desktop usr/share/icons/hicolor/scalable/apps/fabscope.svg \
         usr/share/metainfo/io.github.fabscope.FabScope.metainfo.xml usr/share/man/man1/fabscope.1; do
    [ -e "$tmp/$f" ] || { echo "missing $f in $deb"; exit 1; }
done
"$tmp/usr/bin/fabscope" --version | grep -q '^fabscope '
"$tmp/usr/bin/fabscope" demo --out "$tmp/demo" 2>/dev/null
"$tmp/usr/bin/fabscope" import --db "$tmp/s.sqlite" "$tmp/demo" 2>/dev/null
"$tmp/usr/bin/fabscope" info --db "$tmp/s.sqlite" --json | grep -q '"links": 96'
echo "package ok: $deb"
