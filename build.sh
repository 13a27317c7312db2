#!/usr/bin/env bash
# FabScope set-up in one command:
#   ./build.sh run      install missing packages, build, open the GUI on the demo fabric
#                       (no display: print the demo's store summary and analysis instead)
#   ./build.sh test     install missing packages, build, run the whole suite (dev + ASan/UBSan + fuzz)
#   ./build.sh build    just configure and build the dev preset
#   ./build.sh configure  install missing packages and configure the dev preset (the fresh-machine check)
#   ./build.sh package  build the Debian package (build/package/fabscope_*.deb)
set -euo pipefail
cd "$(dirname "$0")"

BUILD_PACKAGES=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libboost-graph-dev
                libsqlite3-dev nlohmann-json3-dev libssl-dev libgl-dev libxkbcommon-dev)
TEST_PACKAGES=(sqlite3 dpkg-dev poppler-utils prometheus fonts-dejavu-core  # prometheus: tst_prometheus_pull round trip; fonts: texts drawn offscreen
               clang libclang-rt-14-dev)  # the libFuzzer runs (fuzz preset); clang only recommends its runtime
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

install_missing() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        log "installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "missing packages: ${missing[*]}" >&2
        echo "install them with: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
}

build_preset() {
    local preset="$1"
    log "configuring ($preset)"
    cmake --preset "$preset" >/dev/null
    # Free space in the log: the three builds and their ~200 test binaries must fit on CI's disk
    # (debug info is kept small for it: split DWARF in dev, line tables in asan/fuzz; CMakePresets.json).
    log "building ($preset, $JOBS jobs; $(df -h --output=avail . | tail -n 1 | tr -d ' ') free on this disk)"
    cmake --build --preset "$preset" -j "$JOBS"
}

demo_store() {
    local dir=build/demo
    if [ ! -f "$dir/demo.sqlite" ]; then
        rm -rf "$dir"
        build/app/fabscope demo --out "$dir/files"
        build/app/fabscope import --db "$dir/demo.sqlite" --snapshot demo "$dir/files"
    fi
    echo "$dir/demo.sqlite"
}

cmd="${1:-run}"
case "$cmd" in
configure)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    log "configuring (dev)"
    cmake --preset dev >/dev/null
    ;;
build)
    install_missing "${BUILD_PACKAGES[@]}"
    build_preset dev
    ;;
run)
    install_missing "${BUILD_PACKAGES[@]}"
    build_preset dev
    store="$(demo_store)"
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
        log "opening the GUI on $store"
        exec build/app/fabscope gui "$store"
    fi
    log "no display: the demo store and its analysis"
    build/app/fabscope info --db "$store"
    build/app/fabscope analyze --db "$store"
    ;;
test)
    install_missing "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    export QT_QPA_PLATFORM=offscreen
    build_preset dev
    log "tests (dev; fuzz targets run in the sanitizer build)"
    ctest --preset dev -j "$JOBS" -LE fuzz
    if command -v dpkg-deb >/dev/null; then
        # The package of the dev build (same install rules and CPack set-up as `package`, without a
        # second, release build): its files, its dependencies, and its binary run from it.
        log "Debian package check (cpack of the dev build)"
        (cd build && cpack -G DEB -B package >/dev/null)
        packaging/deb/check-package.sh build/package
    fi
    build_preset asan
    log "tests (ASan + UBSan, with bounded fuzz runs)"
    UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -j "$JOBS" -LE package
    if command -v clang++ >/dev/null; then
        # Coverage-guided: libFuzzer, 8 s per target; new inputs kept in build-fuzz/corpus/<target>/,
        # crashers in build-fuzz/crashers/ (tests/fuzz/CMakeLists.txt).
        build_preset fuzz
        log "libFuzzer runs (clang, ASan + UBSan)"
        UBSAN_OPTIONS=print_stacktrace=1 ctest --preset fuzz -j "$JOBS"
    else
        log "no clang++: libFuzzer runs skipped (the standalone fuzz driver ran in the ASan build)"
    fi
    log "disk used by the builds: $(du -sh build build-asan build-fuzz 2>/dev/null | awk '{printf "%s %s  ", $2, $1}')"
    ;;
package)
    install_missing "${BUILD_PACKAGES[@]}" dpkg-dev
    build_preset release
    (cd build-release && cpack -G DEB -B package >/dev/null)
    deb=$(ls -t build-release/package/fabscope_*.deb | head -1)
    dpkg-deb -I "$deb"
    log "built $deb"
    ;;
*)
    echo "usage: $0 run|test|build|configure|package" >&2
    exit 2
    ;;
esac
