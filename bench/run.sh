#!/bin/sh
# Every docs/PERFORMANCE.md figure in one run, each against its baseline measured in the same run:
#   bench/run.sh [BUILD_DIR]      (default: build; needs sqlite3, optionally python3-pandas)
# 0. judged.sh:      the judged figures of bench/shared/README.md (k=16 fabric, 2.46 M rows): import vs
#                    the sqlite3 shell, import + analyze vs pandas_hotlinks.py
# 1. fabscope_bench: import of a 10 M-row CSV slice vs the sqlite3 shell; hot links vs SQL and pandas;
#                    import + analyze from one CSV vs a pandas script; every side's result compared
# 2. bench_large:    the whole 200 M-sample scenario written to a store; full analysis; peak RSS
# 3. bench_pairwise: a 17-host nccl-tests sweep (408 files) imported and analysed vs a Python summariser
# 4. bench_views:    opening that store to a drawn fabric; scrub step vs full redraw and QGraphicsScene; heatmap redraw
# 5. bench_whatif:   what-if with forwarding tables on a 32x128x16 fat tree: the stress section, one shared model vs one each
# 6. bench_job_panel: the Job routes dock for jobs of 1k-64k ranks vs an item per cell; filter and sort
# 7. bench_job_routes: a 16,384-rank job placed and routed on the k=48 tree vs a scan per rank and a search per pair
# Needs ~3 GB free in ${TMPDIR:-/tmp}; takes ~10 minutes on 2 cores.
set -eu
build=${1:-build}
work=${TMPDIR:-/tmp}/fabscope-bench-$$
trap 'rm -rf "$work"' EXIT INT TERM
echo "== the judged figures (bench/shared/README.md)"
"$(dirname "$0")/judged.sh" "$build"
echo "== import and hot links (10 M-row slice)"
"$build/bench/fabscope_bench" --rows 10000000 --work "$work/slice"
echo "== the whole large scenario"
"$build/bench/bench_large" --work "$work/large" --keep
echo "== pairwise benchmarks (408 nccl-tests files)"
"$build/bench/bench_pairwise" --fabscope "$build/app/fabscope" --work "$work/pairwise"
echo "== views"
QT_QPA_PLATFORM=offscreen "$build/bench/bench_views" --store "$work/large/large.sqlite"
echo "== what-if with forwarding tables (32 spines x 128 leaves x 16 hosts)"
"$build/bench/bench_whatif" --work "$work/whatif"
echo "== the Job routes dock for large jobs"
QT_QPA_PLATFORM=offscreen "$build/bench/bench_job_panel"
echo "== a 16,384-rank job placed and routed on the k=48 fat tree"
"$build/bench/bench_job_routes" --work "$work/job-routes"
