#pragma once
// The RoCE leaf-spine of the PFC tests, imported the usual way: per-device `lldpctl -f json` files
// whose neighbour entries state the port speed as lldpd's MAU type, host NIC counters as
// `ethtool -S` of mlx5 (`tx_prio3_pause_duration`, `rx_prio3_pause`), switch counters by SAI name
// (`SAI_PORT_STAT_PFC_3_TX_PKTS`, `SAI_PORT_STAT_IF_OUT_OCTETS`) in the long CSV. Shared by
// tst_analysis_roce_pfc (the findings) and tst_view_roce_storm (the fabric view).
#include "analysis_fixture.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace rocetest {

using namespace atest;

constexpr int kIntervals = 11;  // 12 samples, 10 s apart
constexpr double kDt = 10;
constexpr double kBps = 400e9;
// A pause frame holds 65535 x 512 bit times; a port kept paused refreshes it twice per quanta.
constexpr double kSecondsPerFrame = 65535 * 512 / kBps / 2;

// Per interval share of time, 0 outside [from, to).
inline std::vector<double> during(double share, int from = 1, int to = kIntervals) {
    std::vector<double> v(kIntervals, 0);
    for (int i = from; i < to; ++i) v[static_cast<std::size_t>(i)] = share;
    return v;
}

struct Neighbour {
    std::string local, system, remote;
};

inline std::string lldpJson(const std::vector<Neighbour>& ns) {
    std::string s = "{\n  \"lldp\": {\n    \"interface\": [\n";
    for (std::size_t i = 0; i < ns.size(); ++i) {
        const auto& n = ns[i];
        const bool host = n.system.starts_with("gpu");
        const std::string mac = "0c:42:a1:00:" + std::to_string(10 + n.system.size()) + ":" + std::to_string(10 + n.system.back() % 80);
        s += std::string(i ? ",\n" : "") + R"({")" + n.local + R"(": {"via": "LLDP", "rid": "1", "age": "0 day, 01:00:00",
      "chassis": {")" + n.system + R"(": {"id": {"type": "mac", "value": ")" + mac + R"("}, "descr": "x",
        "capability": [{"type": "Bridge", "enabled": )" + (host ? "false" : "true") + R"(}, {"type": "Router", "enabled": )" +
             (host ? "false" : "true") + R"(}]}},
      "port": {"id": {"type": "ifname", "value": ")" + n.remote + R"("}, "descr": ")" + n.remote + R"(", "ttl": "120", "mfs": "9236",
        "auto-negotiation": {"supported": false, "enabled": false, "current": "400GbaseR - 400GBASE-R PCS/PMA over undefined PHY"}}}})";
    }
    return s + "\n    ]\n  }\n}\n";
}

class RoceFabric {
public:
    // spine01/02; leaf01 (gpu1, gpu2), leaf02 (gpu3, gpu4), leaf03 (gpu5, gpu6, gpu7); each leaf's
    // Ethernet48 to spine01 and Ethernet52 to spine02, spine port Ethernet(4 x leaf index).
    RoceFabric() {
        for (int l = 1; l <= 3; ++l) {
            const std::string leaf = "leaf0" + std::to_string(l), sp = "Ethernet" + std::to_string(4 * (l - 1));
            add(leaf, "Ethernet48", "spine01", sp);
            add(leaf, "Ethernet52", "spine02", sp);
        }
        const std::vector<std::pair<std::string, int>> hosts{{"leaf01", 2}, {"leaf02", 2}, {"leaf03", 3}};
        int g = 0;
        for (const auto& [leaf, n] : hosts)
            for (int i = 0; i < n; ++i) add(leaf, "Ethernet" + std::to_string(4 * i), "gpu" + std::to_string(++g), "eth2");
    }

    // The share of each interval `port` of `node` held its peer paused (priority 3); the peer's
    // rx counters say the same (RX of one end is TX of the other).
    void pauses(const std::string& node, const std::string& port, const std::vector<double>& share) {
        sent_[{node, port}] = share;
    }
    // What `port` of `node` itself counted as received, where it disagrees with its peer's sent.
    void received(const std::string& node, const std::string& port, const std::vector<double>& share) {
        received_[{node, port}] = share;
    }
    void bytes(const std::string& node, const std::string& port, const std::vector<double>& util) { util_[{node, port}] = util; }
    // A job file (the documented job CSV) imported with the counters.
    void job(std::string csv) { job_ = std::move(csv); }

    std::string store(Stores& stores, const std::string& name) const {
        const std::string dir = stores.path(name);
        std::filesystem::create_directories(dir + "/lldp");
        std::filesystem::create_directories(dir + "/ethtool");
        for (const auto& [dev, ns] : neighbours_) std::ofstream(dir + "/lldp/" + dev + ".json") << lldpJson(ns);
        std::ostringstream csv;
        csv.precision(15);
        csv << "timestamp,node,port,counter,value\n";
        std::map<std::string, std::ostringstream> ethtool;  // host -> capture
        for (int t = 0; t <= kIntervals; ++t) {
            const std::int64_t ts = kT0 + static_cast<std::int64_t>(t * kDt);
            for (const auto& [dev, ns] : neighbours_) {
                for (const auto& n : ns) {
                    const double tx = total(sent_, dev, n.local, t);
                    const double rx = received_.count({dev, n.local}) ? total(received_, dev, n.local, t) : total(sent_, n.system, n.remote, t);
                    if (dev.starts_with("gpu")) {
                        auto& e = ethtool[dev];
                        if (n.local == ns.front().local) e << ts << "\n";
                        e << "ethtool -S " << n.local << "\nNIC statistics:\n"
                          << "     tx_prio3_pause: " << std::llround(tx / kSecondsPerFrame) << "\n"
                          << "     tx_prio3_pause_duration: " << std::llround(tx * 1e6) << "\n"
                          << "     rx_prio3_pause: " << std::llround(rx / kSecondsPerFrame) << "\n"
                          << "     rx_prio3_pause_duration: " << std::llround(rx * 1e6) << "\n";
                    } else {
                        csv << ts << ',' << dev << ',' << n.local << ",SAI_PORT_STAT_PFC_3_TX_PKTS," << std::llround(tx / kSecondsPerFrame) << '\n'
                            << ts << ',' << dev << ',' << n.local << ",SAI_PORT_STAT_PFC_3_RX_PKTS," << std::llround(rx / kSecondsPerFrame) << '\n'
                            << ts << ',' << dev << ',' << n.local << ",SAI_PORT_STAT_IF_OUT_OCTETS,"
                            << std::llround(total(util_, dev, n.local, t) * kBps / 8) << '\n';
                    }
                }
            }
        }
        for (const auto& [host, text] : ethtool) std::ofstream(dir + "/ethtool/" + host + ".ethtool.txt") << text.str();
        std::ofstream(dir + "/counters.csv") << csv.str();
        const std::string db = dir + ".sqlite";
        Store s(db);
        ImporterRegistry registry;
        std::vector<std::string> inputs{dir + "/lldp", dir + "/ethtool", dir + "/counters.csv"};
        if (!job_.empty()) {
            std::ofstream(dir + "/job.csv") << job_;
            inputs.push_back(dir + "/job.csv");
        }
        for (const std::string& p : inputs) {
            const auto summary = ImportRunner(s, registry).run({p}, {});
            if (summary.anyFailed()) {
                for (const auto& d : summary.diagnostics) qWarning("%s", d.format().c_str());
                throw std::runtime_error("import failed: " + p);
            }
        }
        return db;
    }

private:
    using Key = std::pair<std::string, std::string>;
    void add(const std::string& a, const std::string& pa, const std::string& b, const std::string& pb) {
        neighbours_[a].push_back({pa, b, pb});
        neighbours_[b].push_back({pb, a, pa});
    }
    // Cumulative seconds (or bytes x 8 / capacity) up to sample t.
    static double total(const std::map<Key, std::vector<double>>& m, const std::string& node, const std::string& port, int t) {
        const auto it = m.find({node, port});
        if (it == m.end()) return 0;
        double sum = 0;
        for (int i = 0; i < t; ++i) sum += it->second[static_cast<std::size_t>(i)] * kDt;
        return sum;
    }
    std::map<std::string, std::vector<Neighbour>> neighbours_;
    std::map<Key, std::vector<double>> sent_, received_, util_;
    std::string job_;
};

} // namespace rocetest
