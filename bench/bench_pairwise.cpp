// Pairwise benchmarks (issue 18): from a folder of nccl-tests runs to the slow pairs and hosts.
//   FabScope: `fabscope import` of the folder into a new store + `fabscope analyze --json`, run as a
//             user runs them (two processes, a fresh store each time)
//   baseline: a plain Python script doing what sweep summarisers do (xxrjun/nccl-tests-cluster's
//             summarize_nccl_logs.py): parse every log, mean busbw over the table, flag a pair below
//             80 % of its benchmark x GPU-count median or without a result
// Both print how many host pairs they name; the two counts must agree. Target: under 2 s.
//   bench_pairwise --fabscope build/app/fabscope --work DIR
#include "bench/bench_util.h"
#include "tests/pair_bench_fixture.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

constexpr const char* kPython = R"py(import os, re, sys, statistics
runs = []
for name in os.listdir(sys.argv[1]):
    text = open(os.path.join(sys.argv[1], name)).read()
    for block in text.split("# nccl-tests version")[1:]:
        tool = re.search(r"Collective test starting: (\S+)", block).group(1)
        hosts = sorted(set(re.findall(r"Rank\s+\d+ .* on (\S+) device", block)))
        g = len(re.findall(r"Rank\s+\d+ ", block)) // 2
        rows = [l.split() for l in block.splitlines() if l and not l.startswith("#") and l.split()[0].isdigit()]
        failed = "failure" in block or not rows or any(r[8] not in ("0", "N/A") or r[12] not in ("0", "N/A") for r in rows)
        bw = None if failed else sum(float(r[7]) for r in rows) / len(rows)
        runs.append((tool, g, tuple(hosts), bw))
medians = {}
for key in {(t, g) for t, g, _, _ in runs}:
    medians[key] = statistics.median([bw for t, g, _, bw in runs if (t, g) == key and bw is not None])
bad = {h for t, g, h, bw in runs if bw is None or bw < 0.8 * medians[(t, g)]}
print(len(bad))
)py";

long long slowPairsIn(const std::string& jsonFile) {
    std::ifstream in(jsonFile);
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    long long n = 0;
    for (std::size_t at = 0; (at = text.find("\"kind\": \"slow_pair\"", at)) != std::string::npos; ++at) ++n;
    return n;
}

} // namespace

int main(int argc, char** argv) {
    std::string fabscope = "build/app/fabscope", work = "/tmp/fabscope-bench-pairwise";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--fabscope")) fabscope = argv[i + 1];
        if (!std::strcmp(argv[i], "--work")) work = argv[i + 1];
    }
    namespace fs = std::filesystem;
    fs::remove_all(work);
    const std::string logs = work + "/logs", db = work + "/s.sqlite", out = work + "/out.json", py = work + "/baseline.py";
    const pairbench::Sweep sweep;
    const int files = sweep.write(logs);
    std::ofstream(py) << kPython;
    std::printf("sweep: %d hosts, %d files, %zu runs\n", sweep.hosts, files, sweep.tools.size() * static_cast<std::size_t>(files));

    const double ours = bench::medianOf(3, [&] {
        fs::remove(db);
        const double t0 = bench::now();
        if (bench::runTimed({fabscope, "import", "--db", db, logs}) < 0) return -1.0;
        if (bench::runTimed({fabscope, "analyze", "--db", db, "--json"}, out) < 0) return -1.0;
        return bench::now() - t0;
    });
    const long long ourPairs = slowPairsIn(out);
    const double baseline = bench::medianOf(3, [&] { return bench::runTimed({"/usr/bin/python3", py, logs}, out); });
    const long long theirPairs = baseline > 0 ? std::stoll(bench::firstLine(out)) : -1;

    // No ratio target: the script keeps nothing, FabScope writes a store (hashes, one transaction
    // per file) the GUI and reports then open. The issue's target is the absolute 2 s.
    std::printf("%-40s %10.3f s    target < 2 s: %s\n", "import + analyze of the sweep", ours, ours > 0 && ours < 2 ? "MET" : "NOT MET");
    std::printf("%-40s %10.3f s    (FabScope takes %.1fx its time; the script stores nothing)\n", "  python summariser", baseline,
                baseline > 0 ? ours / baseline : 0.0);
    bench::agreeLine("  host pairs named", ourPairs, theirPairs, "python");
    std::printf("%-40s %lld\n", "  host pairs the sweep planted", static_cast<long long>(sweep.badPairs().size()));
    fs::remove_all(work);
    return ours > 0 && ourPairs == static_cast<long long>(sweep.badPairs().size()) ? 0 : 1;
}
