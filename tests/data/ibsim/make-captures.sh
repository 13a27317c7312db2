#!/bin/bash
# Regenerates the ibsim captures in this directory with the real infiniband-diags tools
# (tests/data/README.md). Needs: apt-get install -y ibsim-utils infiniband-diags opensm.
# The tests read the stored outputs; they never run this script.
#   fattree.net: 2 spines, 4 leaves, 8 HCAs at 4xHDR; leaf03 port 4 <-> gpu006 runs at 1x.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
net=$here/fattree.net
here=${OUT:-$here}          # OUT=dir writes the captures elsewhere (to compare runs)
work=$(mktemp -d)
cd "$work"
mkfifo console
ibsim -s "$net" < console > ibsim.log 2>&1 &
sim=$!
exec 3> console            # keeps ibsim's console open; commands are written to fd 3
mkdir osm
OSM_TMP_DIR=$work/osm OSM_CACHE_DIR=$work/osm ibsim-run opensm -f "$work/osm/opensm.log" > osm.out 2>&1 &
sm=$!
cleanup() { kill "$sm" "$sim" 2>/dev/null || true; sleep 1; kill -9 "$sm" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
sleep 10                   # LIDs stay 0 until opensm has swept the subnet

run() { ibsim-run "$@" 2>/dev/null; }
run ibnetdiscover        > "$here/ibnetdiscover.txt"
run ibnetdiscover -p     > "$here/ibnetdiscover-p.txt"
run ibnetdiscover -g     > "$here/ibnetdiscover-g.txt"
run iblinkinfo           > "$here/iblinkinfo.txt"
run iblinkinfo -l        > "$here/iblinkinfo-l.txt"

# Forwarding tables: one switch with ibroute, all of them with dump_fts (dump_lfts.sh in old releases).
run ibroute 7            > "$here/ibroute-leaf03.txt"
run dump_fts             > "$here/dump_fts.txt"

# LIDs of the ports sampled below, from the discovered fabric.
lid() { awk -v d="\"$1\"" '$0 ~ d" base port 0 lid" || ($0 ~ "# "d && /lmc/) {for(i=1;i<=NF;i++) if($i=="lid"){print $(i+1); exit}}' "$here/ibnetdiscover.txt"; }
leaf03=$(lid leaf03); spine01=$(lid spine01)
ports=("$leaf03 1" "$leaf03 3" "$leaf03 4" "$spine01 3")

snapshot() {  # one snapshot: a `date +%s` line, then perfquery [-x] of every sampled port
    date +%s
    for p in "${ports[@]}"; do run perfquery "$@" $p; done
}
snapshot -x > "$here/perfquery-x-series.txt"
snapshot    > "$here/perfquery-series.txt"

# Errors and traffic on the 1x link (leaf03 port 4) and on leaf03's up-link to spine01.
sleep 2
cat >&3 <<CMD
PerformanceSet "leaf03"[4] PortCounters.SymbolErrorCounter=17
PerformanceSet "leaf03"[4] PortCounters.LinkDownedCounter=2
PerformanceSet "leaf03"[4] PortCounters.PortRcvErrors=5
PerformanceSet "leaf03"[1] PortCounters.PortXmitData=4294967295
PerformanceSet "leaf03"[1] PortCounters.PortXmitWait=1000
CMD
sleep 2
snapshot -x >> "$here/perfquery-x-series.txt"
snapshot    >> "$here/perfquery-series.txt"
# --counters prints the data counters of every port; without it, the ports with errors.
run ibqueryerrors --counters --details > "$here/ibqueryerrors-counters.txt" || true
run ibqueryerrors --details            > "$here/ibqueryerrors-errors.txt" || true
echo "captured in $here"
