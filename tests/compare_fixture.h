#pragma once
// A good run and a bad run of one fabric for `compare` (issue 19): 4 leaves x 3 spines (4xHDR),
// 2 hosts a leaf. Between the two runs the uplink leaf01 p20 <-> spine01 p1 went down and its
// load moved to leaf01's two other uplinks (0.45 -> 0.675), leaf03 p21 <-> spine02 p3 came back
// at 1x (and runs at 95 % of what is left), the job's NCCL log lost GPUDirect RDMA, and
// leaf04 p22 <-> spine03 p3 has counters in the good run only. Every other link carries 45 % +-2 %
// in both runs. Written as one store with two windows and two snapshots, and as two stores.
#include "analysis_fixture.h"

#include <utime.h>

#include <cmath>

namespace cmpfix {

using namespace atest;

constexpr double kGoodFrom = kT0, kGoodTo = kT0 + 600;          // 61 samples, 10 s apart
constexpr double kBadFrom = kT0 + 3600, kBadTo = kT0 + 4200;
constexpr double kBadSnapshot = kT0 + 3000;

inline Fabric fabric(bool bad) {
    MiniFabric m;
    std::vector<NodeId> spines, leaves;
    for (int s = 1; s <= 3; ++s) spines.push_back(m.sw("spine0" + std::to_string(s)));
    int host = 0;
    for (int l = 1; l <= 4; ++l) {
        const NodeId leaf = m.sw("leaf0" + std::to_string(l));
        for (int s = 0; s < 3; ++s) {
            if (bad && l == 1 && s == 0) continue;  // the uplink that went down
            m.link(leaf, 20 + s, spines[static_cast<std::size_t>(s)], l, bad && l == 3 && s == 1 ? 1 : 4);
        }
        for (int h = 1; h <= 2; ++h) {
            char name[32];
            std::snprintf(name, sizeof name, "gpu%02d mlx5_0", ++host);
            m.link(leaf, h, m.host(name), 1);
        }
    }
    return m.build();
}

// Utilisation (0..1 of the link's capacity then) of one direction in one run; < 0: no counters.
inline double util(int leaf, int spine, bool bad) {
    if (!bad) return 0.45;
    if (leaf == 1 && spine == 1) return -1;
    if (leaf == 1) return 0.675;
    if (leaf == 3 && spine == 2) return 0.95;
    if (leaf == 4 && spine == 3) return -1;
    return 0.45;
}

// xmit_bytes rows of both directions of every uplink over the chosen runs.
inline std::string counters(bool goodRun, bool badRun) {
    std::ostringstream out;
    out.precision(17);
    std::uint64_t rng = 12345;
    const auto noise = [&rng] {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        return (static_cast<double>(rng >> 11) / static_cast<double>(1ULL << 53) - 0.5) * 0.04;
    };
    for (int l = 1; l <= 4; ++l)
        for (int s = 1; s <= 3; ++s)
            for (int dir = 0; dir < 2; ++dir) {
                const std::string node = dir == 0 ? "leaf0" + std::to_string(l) : "spine0" + std::to_string(s);
                const int port = dir == 0 ? 19 + s : l;
                double bytes = 0;
                for (const bool bad : {false, true}) {
                    if ((bad && !badRun) || (!bad && !goodRun)) continue;
                    const double u = util(l, s, bad);
                    if (u < 0) continue;
                    const double gbps = bad && l == 3 && s == 2 ? 50 : 200;
                    const double from = bad ? kBadFrom : kGoodFrom;
                    for (int i = 0; i <= 60; ++i) {
                        if (i > 0) bytes += (u + noise()) * gbps * 1e9 / 8 * 10;
                        out << static_cast<std::int64_t>(from) + i * 10 << ',' << node << ',' << port << ",xmit_bytes," << bytes << '\n';
                    }
                }
            }
    return out.str();
}

// The job's NCCL log as the run wrote it, dated inside its window (NCCL logs carry no date).
inline std::string jobLog(const std::string& dir, bool bad) {
    std::ifstream in(FABSCOPE_TEST_DATA "/nccl-log/all_reduce-nccl2.22-ib-info.log");
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    if (bad)  // NCCL_NET_GDR_LEVEL too low after a driver update: data staged through host memory
        for (auto at = text.find("/GDRDMA"); at != std::string::npos; at = text.find("/GDRDMA")) text.erase(at, 7);
    const std::string path = dir + (bad ? "/bad-run.log" : "/good-run.log");
    std::ofstream(path) << text;
    utimbuf t{};
    t.actime = t.modtime = static_cast<time_t>(bad ? kBadFrom + 300 : kGoodFrom + 300);
    utime(path.c_str(), &t);
    return path;
}

inline void importFile(const std::string& db, const std::string& path) {
    Store store(db);
    ImporterRegistry registry;
    const auto summary = ImportRunner(store, registry).run({path}, ImportOptions{});
    if (summary.anyFailed()) throw std::runtime_error("import failed: " + path);
}

struct Stores2 {
    std::string one;        // both runs, snapshots "A" (good) and "B" (bad)
    std::string good, bad;  // each run on its own
};

inline Stores2 make(Stores& stores) {
    Stores2 s;
    const std::string logs = stores.path("logs");
    std::filesystem::create_directories(logs);
    const std::string goodLog = jobLog(logs, false), badLog = jobLog(logs, true);
    s.one = stores.make(fabric(false), counters(true, true));
    stores.addSnapshot(s.one, fabric(true), "B", kBadSnapshot);
    importFile(s.one, goodLog);
    importFile(s.one, badLog);
    s.good = stores.make(fabric(false), counters(true, false));
    importFile(s.good, goodLog);
    s.bad = stores.make(fabric(true), counters(false, true));
    importFile(s.bad, badLog);
    return s;
}

} // namespace cmpfix
