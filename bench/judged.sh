#!/bin/sh
# The two figures FabScope is judged on, run the way bench/shared/README.md sets them, on the
# files its gen_large.py writes (k=16 fat tree, 2.46 M counter rows), medians of 3 in one run:
#   import:     `fabscope import` of the CSV (topology imported first, not timed)
#               vs  sqlite3 with journal and sync off, `.import --csv` of the same CSV
#   end to end: `fabscope import` of topology and CSV + `fabscope analyze --json`
#               vs  bench/shared/pandas_hotlinks.py
# Both sides' results are compared (rows stored; hot-link runs found); a disagreement exits 1.
#   bench/judged.sh [BUILD_DIR]     (default: build; needs sqlite3 and python3-pandas)
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
fabscope=$build/app/fabscope
py=/usr/bin/python3  # Debian's python3, where python3-pandas is installed
work=$(mktemp -d "${TMPDIR:-/tmp}/fabscope-judged.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
csv=$work/counters.csv topo=$work/topology.ibnetdiscover

now() { date +%s.%N; }
# median of three numbers on stdin
median() { sort -n | sed -n 2p; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b / a }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t ? "met" : "NOT met") }'; }

"$py" "$here/shared/gen_large.py" --out "$work" --k 16 --samples 120
echo "CSV $(wc -c < "$csv") bytes, $(($(wc -l < "$csv") - 1)) rows; $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"

# --- import
: > "$work/ours" ; : > "$work/shell"
for run in 1 2 3; do
    rm -f "$work/s.sqlite"*
    "$fabscope" import --db "$work/s.sqlite" "$topo" > /dev/null 2>&1
    t0=$(now); "$fabscope" import --db "$work/s.sqlite" "$csv" > "$work/import.out" 2>&1; t1=$(now)
    echo "$t1 - $t0" | bc >> "$work/ours"
    rm -f "$work/x.db"
    t0=$(now)
    sqlite3 "$work/x.db" -cmd "PRAGMA journal_mode=OFF" -cmd "PRAGMA synchronous=OFF" ".import --csv $csv samples" > /dev/null
    t1=$(now)
    echo "$t1 - $t0" | bc >> "$work/shell"
done
ours=$(median < "$work/ours") shell=$(median < "$work/shell")
r=$(ratio "$ours" "$shell")
printf 'import:     fabscope %.3f s (runs %s), sqlite3 .import %.3f s (runs %s): %sx, target 15x, %s\n' \
    "$ours" "$(tr '\n' ' ' < "$work/ours")" "$shell" "$(tr '\n' ' ' < "$work/shell")" "$r" "$(verdict "$r" 15)"
ourRows=$(sed -n 's/.*(csv, \([0-9]*\) rows).*/\1/p' "$work/import.out")
shellRows=$(sqlite3 "$work/x.db" "SELECT count(*) FROM samples")
agree=yes
[ "$ourRows" = "$shellRows" ] || agree=no
echo "  rows stored: fabscope $ourRows, sqlite3 $shellRows: $( [ $agree = yes ] && echo agree || echo DISAGREE)"

# --- end to end
: > "$work/ours" ; : > "$work/imp" ; : > "$work/ana" ; : > "$work/pandas" ; : > "$work/start"
for run in 1 2 3; do
    rm -f "$work/e.sqlite"*
    t0=$(now)
    "$fabscope" import --db "$work/e.sqlite" "$topo" "$csv" > /dev/null 2>&1
    t1=$(now)
    "$fabscope" analyze --db "$work/e.sqlite" --json > "$work/analysis.json"
    t2=$(now)
    echo "$t2 - $t0" | bc >> "$work/ours"
    echo "$t1 - $t0" | bc >> "$work/imp"
    echo "$t2 - $t1" | bc >> "$work/ana"
    t0=$(now); "$py" "$here/shared/pandas_hotlinks.py" "$csv" > "$work/pandas.out"; t1=$(now)
    echo "$t1 - $t0" | bc >> "$work/pandas"
    t0=$(now); "$py" -c "import pandas"; t1=$(now)
    echo "$t1 - $t0" | bc >> "$work/start"
done
ours=$(median < "$work/ours") pandas=$(median < "$work/pandas")
r=$(ratio "$ours" "$pandas")
printf 'end to end: fabscope import + analyze %.3f s (runs %s; import %.3f s, analyze %.3f s), pandas %.3f s (runs %s): %sx, target 10x, %s\n' \
    "$ours" "$(tr '\n' ' ' < "$work/ours")" "$(median < "$work/imp")" "$(median < "$work/ana")" \
    "$pandas" "$(tr '\n' ' ' < "$work/pandas")" "$r" "$(verdict "$r" 10)"
printf '  of pandas: Python start-up and `import pandas` %.3f s\n' "$(median < "$work/start")"
ourHot=$(grep -o '"kind": *"hot_link"' "$work/analysis.json" | wc -l)
pandasHot=$(cat "$work/pandas.out")
[ "$ourHot" = "$pandasHot" ] || agree=no
echo "  hot links found: fabscope $ourHot, pandas $pandasHot: $( [ "$ourHot" = "$pandasHot" ] && echo agree || echo DISAGREE)"
[ $agree = yes ]
