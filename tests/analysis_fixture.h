#pragma once
// Shared by the tst_analysis_* tests: build a small fabric, write it as ibnetdiscover text plus a
// long CSV of counters, import both into a fresh store, and run the analysis.
#include "core/analysis/analyze.h"
#include "core/demo_fabric.h"
#include "core/fabric_builder.h"
#include "core/store/sqlite_stmt.h"
#include "importers/import_runner.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace atest {

using namespace fabscope;

constexpr std::int64_t kT0 = 1700000000;

class MiniFabric {
public:
    NodeId sw(const std::string& desc, int ports = 36) { return add(NodeType::Switch, desc, ports); }
    NodeId host(const std::string& desc) { return add(NodeType::Ca, desc, 1); }
    void link(NodeId a, int pa, NodeId b, int pb, int width = 4, const std::string& speed = "HDR") {
        const PortId x = b_.port(a, std::to_string(pa), pa), y = b_.port(b, std::to_string(pb), pb);
        if (b_.fabric().node(b).type == NodeType::Ca) b_.portRef(y).portGuid = guid(0x40000 + ++ports_);
        if (b_.fabric().node(a).type == NodeType::Ca) b_.portRef(x).portGuid = guid(0x40000 + ++ports_);
        b_.link(x, y, width, speed);
        b_.link(y, x, width, speed);
    }
    Fabric build() {
        Fabric f = b_.fabric();
        int lid = 1;
        for (auto& n : f.nodes)
            if (n.type == NodeType::Switch) n.lid = lid++;
        for (auto& p : f.ports) {
            const Node& n = f.nodes[p.node.value()];
            p.lid = n.type == NodeType::Switch ? n.lid : lid++;
        }
        return f;
    }

private:
    static std::string guid(std::uint64_t v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(0x0c42a10300000000ULL | v));
        return buf;
    }
    NodeId add(NodeType t, const std::string& desc, int nports) {
        Node n;
        n.type = t;
        n.description = desc;
        n.guid = guid(static_cast<std::uint64_t>(++nodes_) << 8);
        n.numPorts = nports;
        return b_.node(n);
    }
    FabricBuilder b_;
    int nodes_ = 0, ports_ = 0;
};

// Long-CSV rows of one counter of one port, one sample every `step` seconds from kT0.
inline std::string rows(const std::string& node, int port, const std::string& counter, const std::vector<double>& values,
                        int step = 10) {
    std::ostringstream s;
    s.precision(17);
    for (std::size_t i = 0; i < values.size(); ++i)
        s << kT0 + static_cast<std::int64_t>(i) * step << ',' << node << ',' << port << ',' << counter << ',' << values[i] << '\n';
    return s.str();
}

// A cumulative counter from its per-interval increments.
inline std::vector<double> cumulative(const std::vector<double>& perInterval) {
    std::vector<double> v{0};
    for (double d : perInterval) v.push_back(v.back() + d);
    return v;
}

// Cumulative xmit_bytes of a 4xHDR (200 Gb/s) port from per-interval utilisations (10 s steps).
inline std::vector<double> hdrBytes(const std::vector<double>& util) {
    std::vector<double> d;
    for (double u : util) d.push_back(u * 200e9 / 8 * 10);
    return cumulative(d);
}

class Stores {
public:
    explicit Stores(QTemporaryDir& dir) : dir_(dir) {}

    // A fresh store holding `fabric` (snapshot "A" at kT0) and the CSV rows.
    std::string make(const Fabric& fabric, const std::string& csvRows) {
        const std::string base = path("s" + std::to_string(++n_));
        std::filesystem::create_directories(base + "/topo");
        {
            std::ofstream topo(base + "/topo/topology.ibnetdiscover");
            writeIbnetdiscover(fabric, topo, kT0);
        }
        const std::string db = base + ".sqlite";
        Store store(db);
        run(store, base + "/topo", "A", kT0);
        if (!csvRows.empty()) {
            std::ofstream(base + "/counters.csv") << "timestamp,node,port,counter,value\n" << csvRows;
            run(store, base + "/counters.csv", "", std::nullopt);
        }
        return db;
    }

    // A fresh store from a real topology capture (tests/data/...), no counters.
    std::string makeFromCapture(const std::string& relPath) {
        const std::string base = path("s" + std::to_string(++n_));
        std::filesystem::create_directories(base + "/topo");
        std::filesystem::copy_file(std::string(FABSCOPE_TEST_DATA "/") + relPath, base + "/topo/topology.txt");
        const std::string db = base + ".sqlite";
        Store store(db);
        run(store, base + "/topo", "A", kT0);
        return db;
    }

    // Adds a later topology snapshot to an existing store.
    void addSnapshot(const std::string& db, const Fabric& fabric, const std::string& label, double time) {
        const std::string dirName = db + "." + label;
        std::filesystem::create_directories(dirName);
        {
            std::ofstream topo(dirName + "/topology.ibnetdiscover");
            writeIbnetdiscover(fabric, topo, static_cast<std::int64_t>(time));
        }
        Store store(db);
        run(store, dirName, label, time);
    }

    std::string path(const std::string& name) const { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

private:
    void run(Store& store, const std::string& p, const std::string& label, std::optional<double> time) {
        ImportOptions o;
        o.snapshotLabel = label;
        o.snapshotTime = time;
        const auto summary = ImportRunner(store, registry_).run({p}, o);
        for (const auto& d : summary.diagnostics) qWarning("%s", d.format().c_str());
        if (summary.anyFailed()) throw std::runtime_error("import failed: " + p);
    }
    QTemporaryDir& dir_;
    ImporterRegistry registry_;
    int n_ = 0;
};

inline FindingsReport analyzeStore(const std::string& db, const AnalysisConfig& cfg = {}) {
    const Store store(db, Store::Mode::ReadOnly);
    return analyze(store, {}, cfg);
}

inline std::vector<Finding> ofKind(const FindingsReport& r, FindingKind kind) {
    std::vector<Finding> out;
    for (const auto& f : r.findings)
        if (f.kind == kind) out.push_back(f);
    return out;
}

inline std::string sev(const Finding& f) { return std::string(toString(f.severity)); }
inline std::string label(const PortRef& p) { return p.node + ":" + p.port; }
inline std::vector<std::string> labels(const std::vector<PortRef>& ps) {
    std::vector<std::string> out;
    for (const auto& p : ps) out.push_back(label(p));
    return out;
}

inline std::string metricText(const Finding& f, const std::string& key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key) return std::holds_alternative<std::string>(v) ? std::get<std::string>(v) : std::to_string(std::get<double>(v));
    return {};
}

inline double metric(const Finding& f, const std::string& key) {
    for (const auto& [k, v] : f.metrics)
        if (k == key && std::holds_alternative<double>(v)) return std::get<double>(v);
    return -1;
}

} // namespace atest
