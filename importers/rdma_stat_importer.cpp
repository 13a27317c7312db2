#include "importers/rdma_stat_importer.h"

#include "importers/line_reader.h"
#include "importers/sonic_table.h"
#include "importers/text_util.h"

#include <cmath>
#include <map>
#include <unordered_map>

namespace fabscope {
namespace {

struct Sample {
    std::string port;  // "mlx5_0/1"
    std::string counter;
    std::uint64_t value;
    double time;
    std::int64_t line;
};

// "/sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent:12" -> port, name, value text.
bool sysfsLine(std::string_view l, std::string& port, std::string_view& name, std::string_view& value) {
    constexpr std::string_view root = "/sys/class/infiniband/";
    if (!l.starts_with(root)) return false;
    const auto rest = l.substr(root.size());
    const auto ports = rest.find("/ports/");
    const auto hw = rest.find("/hw_counters/");
    const auto colon = rest.find(':', hw == std::string_view::npos ? 0 : hw);
    if (ports == std::string_view::npos || hw == std::string_view::npos || colon == std::string_view::npos || hw < ports)
        return false;
    port = std::string(rest.substr(0, ports)) + "/" + std::string(rest.substr(ports + 7, hw - ports - 7));
    name = rest.substr(hw + 13, colon - hw - 13);
    value = trim(rest.substr(colon + 1));
    return true;
}

} // namespace

std::optional<CounterInfo> rdmaCounter(std::string_view n) {
    if (n == "lifespan") return std::nullopt;  // the sysfs refresh period (ms), a setting
    if (n == "np_cnp_sent" || n == "rp_cnp_handled" || n == "np_ecn_marked_roce_packets") return canonicalCounter(n);
    const bool error = n.find("err") != std::string_view::npos;
    return CounterInfo{std::string(n), error ? "errors" : "packets", n.starts_with("rx_") || n.starts_with("np_") ? "rx" : ""};
}

int RdmaStatImporter::detect(std::string_view head) const {
    LineReader r(head);
    std::string_view l;
    while (r.next(l) && r.number() < 200) {
        const auto t = trim(l);
        if (t.starts_with("link ") && (t.find(" rx_write_requests") != std::string_view::npos ||
                                       t.find(" out_of_sequence") != std::string_view::npos ||
                                       t.find(" np_cnp_sent") != std::string_view::npos))
            return 85;
        if (t.starts_with("/sys/class/infiniband/") && t.find("/hw_counters/") != std::string_view::npos) return 85;
    }
    if (head.find("rdma statistic") != std::string_view::npos || head.find("rdma stat ") != std::string_view::npos) return 40;
    return 0;
}

std::int64_t RdmaStatImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                     const ProgressFn& progress) const {
    const std::string node = nodeFromFileName(in.file);
    if (node.empty()) diag.fail(0, "the file name gives no host (expected HOST.rdma.txt)");
    std::vector<Sample> samples;
    std::map<std::string, std::string> netdevOf;  // "mlx5_0/1" -> "ens1f0np0"
    std::string port;  // the `link DEV/PORT` record being read
    // Its `name value` tokens: one line, or wrapped over several (pairs may straddle lines), or
    // one pair per line (`-p`).
    std::vector<std::pair<std::string_view, std::int64_t>> pending;
    double time = in.mtime;
    bool sawTime = false;
    auto flush = [&] {
        if (pending.size() % 2 != 0)
            diag.fail(pending.back().second, "counter names and values of " + port + " do not pair up (truncated record?)");
        for (std::size_t i = 0; i + 1 < pending.size(); i += 2) {
            const auto [name, line] = pending[i];
            const auto v = parseU64(pending[i + 1].first);
            if (!v) diag.fail(pending[i + 1].second, "counter " + std::string(name) + " of " + port + " has no integer value: " +
                                                          std::string(pending[i + 1].first.substr(0, 30)));
            samples.push_back({port, std::string(name), *v, time, line});
        }
        pending.clear();
        port.clear();
    };
    LineReader reader(in.bytes, &progress);
    std::string_view raw;
    while (reader.next(raw)) {
        const auto l = trim(raw);
        if (l.empty()) {
            flush();
            continue;
        }
        if (auto t = parseTimeLine(l)) {
            flush();
            if (sawTime && *t < time) diag.warn(reader.number(), "capture time goes backwards");
            time = *t;
            sawTime = true;
            continue;
        }
        const auto t = splitWhitespace(l);
        const bool prompt = t[0].find('@') != std::string_view::npos && (l.find("$ ") != std::string_view::npos || l.find("# ") != std::string_view::npos);
        if (l.starts_with('#') || l.starts_with('$') || prompt) {  // comments and prompts end a record
            flush();
            continue;
        }
        // ibdev2netdev: "mlx5_0 port 1 ==> ens1f0np0 (Up)"
        if (t.size() >= 5 && t[1] == "port" && t[3] == "==>") {
            flush();
            netdevOf[std::string(t[0]) + "/" + std::string(t[2])] = std::string(t[4]);
            continue;
        }
        std::string sysPort;
        std::string_view name, value;
        if (sysfsLine(l, sysPort, name, value)) {
            flush();
            if (value.starts_with("N/A")) continue;  // "N/A (no PMA)"
            const auto v = parseU64(value);
            if (!v) diag.fail(reader.number(), "hw counter " + std::string(name) + " has no integer value");
            samples.push_back({sysPort, std::string(name), *v, time, reader.number()});
            continue;
        }
        if (t[0] == "link" && t.size() >= 2) {
            flush();
            port = std::string(t[1]);
            // `rdma link show`: "link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0np0"
            if (t.size() > 2 && t[2] == "state") {
                for (std::size_t i = 2; i + 1 < t.size(); ++i)
                    if (t[i] == "netdev") netdevOf[port] = std::string(t[i + 1]);
                port.clear();
                continue;
            }
            for (std::size_t i = 2; i < t.size(); ++i) pending.emplace_back(t[i], reader.number());
            continue;
        }
        if (port.empty()) continue;  // prompts, commands, notes between records
        for (std::size_t i = t[0] == "Optional-set:" ? 1 : 0; i < t.size(); ++i) pending.emplace_back(t[i], reader.number());
    }
    flush();
    if (samples.empty()) diag.fail(0, "no `link DEV/PORT name value ...` record or hw_counters line in the capture");
    if (!sawTime) diag.warn(samples.front().line, "no `date +%s` line before the capture: the file's mtime is used");
    std::unordered_map<std::string, SampleWriter::Handle> handles;
    std::int64_t rows = 0;
    for (const auto& s : samples) {
        const auto counter = rdmaCounter(s.counter);
        if (!counter) continue;
        const auto nd = netdevOf.find(s.port);
        const std::string& portName = nd == netdevOf.end() ? s.port : nd->second;
        const std::string key = portName + '\n' + counter->name;
        auto h = handles.find(key);
        if (h == handles.end()) h = handles.emplace(key, out.series(node, portName, *counter)).first;
        out.add(h->second, std::llround(s.time * 1000.0), static_cast<double>(s.value));
        ++rows;
    }
    return rows;
}

std::string RdmaStatImporter::nameFromPath(std::string_view path, std::string_view /*text*/) const { return nodeFromFileName(path); }

} // namespace fabscope
