#!/bin/sh
# One bounded libFuzzer run (a ctest of the fuzz preset, tests/fuzz/CMakeLists.txt):
#   libfuzzer_run.sh TARGET NAME SECONDS BUILD_DIR REGRESSIONS SEED_DIR...
# The files of the SEED_DIRs are copied into BUILD_DIR/corpus/NAME/ (kept between runs, so each
# run goes on from what the last one found), new inputs are saved there, crashers (and hangs)
# land in BUILD_DIR/crashers/NAME-*; REGRESSIONS is replayed read-only. A crash, a broken
# invariant, a leak or a 30 s input fails the run (libFuzzer's exit code).
set -eu
target=$1 name=$2 seconds=$3 build=$4 regressions=$5
shift 5
corpus="$build/corpus/$name"
crashers="$build/crashers"
mkdir -p "$corpus" "$crashers"
for dir in "$@"; do
    find "$dir" -type f ! -name '.*' -exec cp -n {} "$corpus/" \;
done
# 256 KiB: the standalone driver's cap too; larger seeds are read truncated.
exec "$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=262144 \
    -print_final_stats=1 -artifact_prefix="$crashers/$name-" "$corpus" "$regressions"
