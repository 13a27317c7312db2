#pragma once
// A pairwise nccl-tests sweep written as the real ones are (xxrjun/nccl-tests-cluster's
// pairwise/logs: one file per host pair and GPU count, nccl_N2_G<g>_<a>_<b>.log, holding one run
// per benchmark, no `date` line, tables from 32 MiB up, `N/A` in-place #wrong), with faults a
// test names: one host whose NIC runs at half speed, independent slow pairs, failed runs.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace pairbench {

struct SlowRun {
    std::string a, b, tool;
    int g = 0;
    double factor = 1;  // busbw x this
};
struct FailedRun {
    std::string a, b, tool;
    int g = 0;
    enum Kind { NcclError, NoTable, Wrong } kind = NcclError;
};

struct Sweep {
    int hosts = 17;
    std::vector<std::string> tools{"alltoall_perf", "sendrecv_perf", "all_reduce_perf"};
    std::vector<int> gpus{1, 4, 8};
    std::string halfSpeedHost = "node-07";  // its NIC at half speed: every run with it at ~50%
    // Hosts behind a leaf whose uplink runs at half speed: their runs with hosts elsewhere at ~50%,
    // among themselves at full speed.
    std::set<std::string> behindSlowUplink;
    std::vector<SlowRun> slow{{"node-02", "node-11", "alltoall_perf", 4, 0.6},
                              {"node-02", "node-11", "sendrecv_perf", 4, 0.62},
                              {"node-05", "node-14", "all_reduce_perf", 8, 0.55}};
    std::vector<FailedRun> failed{{"node-03", "node-09", "alltoall_perf", 1, FailedRun::NcclError},
                                  {"node-12", "node-16", "sendrecv_perf", 8, FailedRun::NoTable},
                                  {"node-01", "node-15", "all_reduce_perf", 4, FailedRun::Wrong}};

    [[nodiscard]] std::string host(int i) const {
        char b[32];
        std::snprintf(b, sizeof b, "node-%02d", i + 1);
        return b;
    }
    // Every pair with a slow or failed run, as "a|b" with a < b.
    [[nodiscard]] std::set<std::string> badPairs() const {
        std::set<std::string> out;
        for (int i = 0; i < hosts; ++i)
            for (int j = i + 1; j < hosts; ++j)
                if (host(i) == halfSpeedHost || host(j) == halfSpeedHost) out.insert(host(i) + "|" + host(j));
                else if (behindSlowUplink.count(host(i)) != behindSlowUplink.count(host(j))) out.insert(host(i) + "|" + host(j));
        for (const auto& s : slow) out.insert(s.a + "|" + s.b);
        for (const auto& f : failed) out.insert(f.a + "|" + f.b);
        return out;
    }

    // Writes the sweep under `dir`; returns the number of files.
    int write(const std::filesystem::path& dir) const {
        std::filesystem::create_directories(dir);
        std::uint64_t rng = 0x9e3779b97f4a7c15ULL;
        const auto noise = [&rng] {  // +-2 %, deterministic
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            return 0.98 + 0.04 * static_cast<double>(rng >> 11) / static_cast<double>(1ULL << 53);
        };
        int files = 0;
        for (int g : gpus)
            for (int i = 0; i < hosts; ++i)
                for (int j = i + 1; j < hosts; ++j) {
                    const std::string a = host(i), b = host(j);
                    std::ofstream out(dir / ("nccl_N2_G" + std::to_string(g) + "_" + a + "_" + b + ".log"));
                    for (const auto& tool : tools) writeRun(out, tool, g, a, b, noise);
                    ++files;
                }
        return files;
    }

private:
    template <class Noise>
    void writeRun(std::ofstream& out, const std::string& tool, int g, const std::string& a, const std::string& b, Noise& noise) const {
        out << "# nccl-tests version 2.17.6 nccl-headers=22807 nccl-library=22807\n"
            << "# Collective test starting: " << tool << "\n"
            << "# nThread 1 nGpus 1 minBytes 33554432 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg "
               "iters: 1 validation: 1 graph: 0\n#\n# Using devices\n";
        int rank = 0;
        for (const std::string* h : {&a, &b})
            for (int d = 0; d < g; ++d, ++rank)
                out << "#  Rank " << rank << " Group  0 Pid " << 4000 + rank << " on " << *h << " device  " << d
                    << " [0000:1b:00] NVIDIA H100 80GB HBM3\n";
        out << "#\n#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   "
               "busbw  #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             "
               "(us)  (GB/s)  (GB/s)\n";
        const FailedRun* fail = nullptr;
        for (const auto& f : failed)
            if (f.a == a && f.b == b && f.tool == tool && f.g == g) fail = &f;
        if (fail && fail->kind == FailedRun::NoTable) return;  // the job was killed: nothing after the header
        if (fail && fail->kind == FailedRun::NcclError) {
            out << b << ": Test NCCL failure " << tool.substr(0, tool.size() - 5)
                << ".cu:274 'remote process exited or there was a network error / '\n .. " << b
                << " pid 4001: Test failure common.cu:484\n";
            return;
        }
        // The healthy figure: sendrecv and alltoall near one 200G NIC per GPU pair, all_reduce
        // on the host's NICs.
        double busbw = tool == "all_reduce_perf" ? 22.0 * g : tool == "alltoall_perf" ? 21.5 * (g == 1 ? 1 : 1.6) : 22.5;
        if (a == halfSpeedHost || b == halfSpeedHost) busbw *= 0.5;
        if (behindSlowUplink.count(a) != behindSlowUplink.count(b)) busbw *= 0.5;
        for (const auto& s : slow)
            if (s.a == a && s.b == b && s.tool == tool && s.g == g) busbw *= s.factor;
        double avg = 0;
        int rows = 0;
        for (std::int64_t size = 33554432; size <= 1073741824; size *= 2, ++rows) {
            const double bw = busbw * noise();
            const double alg = tool == "alltoall_perf" ? bw * 2 : tool == "all_reduce_perf" ? bw / 1.5 : bw;
            const double us = static_cast<double>(size) / (alg * 1e3);
            const int wrong = fail && fail->kind == FailedRun::Wrong && rows == 2 ? 3 : 0;
            char line[256];
            std::snprintf(line, sizeof line, "%12lld  %12lld    double     sum      -1  %7.1f  %6.2f  %6.2f  %6d  %7.1f  %6.2f  %6.2f    N/A\n",
                          static_cast<long long>(size), static_cast<long long>(size / 8), us, alg, bw, wrong, us, alg, bw);
            out << line;
            avg += bw;
        }
        out << "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : " << avg / rows << " \n#\n# Collective test concluded: "
            << tool << "\n\n";
    }
};

} // namespace pairbench
