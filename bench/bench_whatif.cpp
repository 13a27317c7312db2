// bench_whatif: what-if with forwarding tables on a large fat tree (issue 22). Generates a 2-tier
// fat tree (default 32 spines x 128 leaves x 16 hosts) or the k-ary 3-tier demo tree (--k48), its
// counters (every switch port, 20-70 % by port) and min-hop D-mod-K forwarding tables written as
// `ibroute` text and read through the real importer (k=48: straight into Store::writeRoutes); then times on one context: the analysis
// (the report's own), one leaf uplink and one top-tier switch what-if, and the report's single
// points of stress with one shared WhatIfModel against a model per change, checking both give the
// same numbers. Usage: bench_whatif [--spines S --leaves L --hosts H | --k48] [--samples N] [--switches N]
// [--uplinks N] [--check N] [--work DIR] [--keep]
#include "core/analysis/analyze.h"
#include "core/analysis/context.h"
#include "core/demo_fabric.h"
#include "core/fabric_builder.h"
#include "core/report/stress.h"
#include "core/store/sample_writer.h"
#include "core/store/store.h"
#include "core/tiers.h"
#include "core/whatif/whatif.h"
#include "core/whatif/whatif_model.h"
#include "importers/import_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

using namespace fabscope;
namespace fs = std::filesystem;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void connect(FabricBuilder& b, NodeId x, int px, NodeId y, int py) {
    const PortId a = b.port(x, std::to_string(px), px), c = b.port(y, std::to_string(py), py);
    b.link(a, c, 4, "HDR");
    b.link(c, a, 4, "HDR");
}

std::string hex(std::uint64_t v) {
    char s[24];
    std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
    return s;
}

Fabric twoTier(int spines, int leaves, int hosts) {
    FabricBuilder b;
    const auto add = [&b](NodeType t, std::uint64_t guid, const std::string& desc, int ports) {
        Node n;
        n.type = t;
        n.guid = hex(guid);
        n.description = desc;
        n.numPorts = ports;
        return b.node(n);
    };
    std::vector<NodeId> sp, lf;
    for (int s = 1; s <= spines; ++s) sp.push_back(add(NodeType::Switch, 0x1000000 + static_cast<unsigned>(s), "spine" + std::to_string(s), leaves));
    for (int l = 1; l <= leaves; ++l) lf.push_back(add(NodeType::Switch, 0x2000000 + static_cast<unsigned>(l), "leaf" + std::to_string(l), hosts + spines));
    for (int l = 0; l < leaves; ++l) {
        for (int h = 1; h <= hosts; ++h) {
            const int i = l * hosts + h;
            connect(b, lf[static_cast<std::size_t>(l)], h, add(NodeType::Ca, 0x3000000 + static_cast<unsigned>(i), "gpu" + std::to_string(i) + " mlx5_0", 1), 1);
        }
        for (int s = 0; s < spines; ++s) connect(b, lf[static_cast<std::size_t>(l)], hosts + s + 1, sp[static_cast<std::size_t>(s)], l + 1);
    }
    Fabric f = b.take();
    int lid = 1;
    for (Node& n : f.nodes)
        if (n.type == NodeType::Switch) n.lid = lid++;
    for (Port& p : f.ports) p.lid = f.nodes[p.node.value()].type == NodeType::Switch ? f.nodes[p.node.value()].lid : lid++;
    return f;
}

struct Tables {
    std::vector<SwitchRoutes> routes;             // by switch, egress by LID
    std::vector<std::pair<int, std::string>> hosts;  // host LID, description
    std::size_t entries = 0;
};

// Every switch's table: each host LID out of its leaf's host port, elsewhere out of one of the
// min-hop ports toward the host's leaf, chosen by LID modulo their count (D-mod-K).
Tables tablesFor(const Fabric& f) {
    constexpr int kFar = std::numeric_limits<int>::max();
    const auto isSwitch = [&f](NodeId n) { return f.node(n).type == NodeType::Switch; };
    Tables t;
    std::vector<std::pair<NodeId, PortId>> hostAt;  // host LID -> (leaf, leaf's port)
    std::vector<std::vector<std::pair<PortId, NodeId>>> nbr(f.nodes.size());  // switch -> (its port, switch beyond)
    for (const Link& l : f.links) {
        const NodeId a = f.port(l.a).node, c = f.port(l.b).node;
        if (isSwitch(a) && isSwitch(c)) {
            nbr[a.value()].emplace_back(l.a, c);
            nbr[c.value()].emplace_back(l.b, a);
        }
        for (const auto& [sw, sp, host, hp] : {std::tuple{a, l.a, c, l.b}, std::tuple{c, l.b, a, l.a}})
            if (isSwitch(sw) && !isSwitch(host) && f.port(hp).lid > 0) {
                const auto lid = static_cast<std::size_t>(f.port(hp).lid);
                if (hostAt.size() <= lid) hostAt.resize(lid + 1, {NodeId(0U), PortId(0U)});
                hostAt[lid] = {sw, sp};
                t.hosts.emplace_back(f.port(hp).lid, f.node(host).description);
            }
    }
    std::sort(t.hosts.begin(), t.hosts.end());
    std::vector<std::vector<int>> dist(f.nodes.size());  // leaf -> hops from every switch
    for (const auto& [lid, desc] : t.hosts) {
        const NodeId leaf = hostAt[static_cast<std::size_t>(lid)].first;
        if (!dist[leaf.value()].empty()) continue;
        std::vector<int> d(f.nodes.size(), kFar);
        std::vector<std::uint32_t> q{leaf.value()};
        d[leaf.value()] = 0;
        for (std::size_t i = 0; i < q.size(); ++i)
            for (const auto& [p, m] : nbr[q[i]])
                if (d[m.value()] == kFar) {
                    d[m.value()] = d[q[i]] + 1;
                    q.push_back(m.value());
                }
        dist[leaf.value()] = std::move(d);
    }
    std::vector<int> alt;
    for (std::uint32_t s = 0; s < f.nodes.size(); ++s) {
        if (!isSwitch(NodeId(s))) continue;
        SwitchRoutes r{f.nodes[s].guid, std::vector<std::uint8_t>(hostAt.size(), SwitchRoutes::kNoRoute)};
        for (const auto& [lid, desc] : t.hosts) {
            const auto [leaf, hostPort] = hostAt[static_cast<std::size_t>(lid)];
            int port = 0;
            if (leaf.value() == s) port = f.port(hostPort).number;
            else {
                const std::vector<int>& d = dist[leaf.value()];
                alt.clear();
                for (const auto& [p, m] : nbr[s])
                    if (d[m.value()] == d[s] - 1) alt.push_back(f.port(p).number);
                if (alt.empty()) continue;
                port = alt[static_cast<std::size_t>(lid) % alt.size()];
            }
            r.egress[static_cast<std::size_t>(lid)] = static_cast<std::uint8_t>(port);
            ++t.entries;
        }
        t.routes.push_back(std::move(r));
    }
    return t;
}

// The tables as `ibroute` prints them, one block per switch.
void writeIbroute(const Fabric& f, const Tables& t, const std::string& path) {
    std::unordered_map<std::string, const Node*> byGuid;
    for (const Node& n : f.nodes) byGuid.emplace(n.guid, &n);
    std::ofstream out(path);
    char buf[256];
    for (const SwitchRoutes& r : t.routes) {
        const Node& n = *byGuid.at(r.nodeGuid);
        out << "Unicast lids [0x0-0x" << std::hex << r.egress.size() << std::dec << "] of switch Lid " << n.lid << " guid " << n.guid
            << " (" << n.description << "):\n  Lid  Out   Destination\n       Port     Info\n";
        std::size_t count = 0;
        for (const auto& [lid, desc] : t.hosts) {
            const int port = r.egress[static_cast<std::size_t>(lid)];
            if (port == SwitchRoutes::kNoRoute) continue;
            std::snprintf(buf, sizeof buf, "0x%04x %03d : (Channel Adapter portguid 0x%016x: '%s')\n", lid, port, 0x4000000 + lid,
                          desc.c_str());
            out << buf;
            ++count;
        }
        out << count << " valid lids dumped\n";
    }
}

// Every switch port: xmit and rcv at 20-70 % of 200 Gb/s by port, varying +-20 % by sample.
void writeCounters(Store& store, const Fabric& f, int samples) {
    Store::Transaction tx(store);
    SampleWriter writer(store);
    const CounterInfo xmit = *canonicalCounter("xmit_bytes"), rcv = *canonicalCounter("rcv_bytes");
    std::size_t k = 0;
    for (const Port& p : f.ports) {
        const Node& node = f.node(p.node);
        if (node.type != NodeType::Switch) continue;
        const double ux = 0.2 + 0.5 * static_cast<double>((k * 37) % 101) / 100, ur = 0.2 + 0.5 * static_cast<double>((k * 53) % 101) / 100;
        ++k;
        const auto hx = writer.series(node.guid, p.name, xmit), hr = writer.series(node.guid, p.name, rcv);
        double bx = 0, br = 0;  // counters: cumulative bytes, each 10 s at the rate x 0.8..1.2
        for (int s = 0; s < samples; ++s) {
            const std::int64_t t = (1700000000LL + 10LL * s) * 1000;
            const double wobble = 0.8 + 0.1 * ((s * 7 + static_cast<int>(k)) % 5);
            writer.add(hx, t, bx);
            writer.add(hr, t, br);
            bx += ux * 25e9 * 10 * wobble;
            br += ur * 25e9 * 10 * wobble;
        }
    }
    writer.flush();
    store.recordImport("bench_whatif counters", "bench-whatif-counters", "bench", writer.samples());
    tx.commit();
}

std::string fingerprint(const WhatIfReport& r) {
    std::string out = r.routing;
    char b[64];
    const auto num = [&](double v) {
        std::snprintf(b, sizeof b, " %.17g", v);
        out += b;
    };
    num(r.totalBeforeGbps);
    num(r.totalAfterGbps);
    for (const WhatIfLink& l : r.links) {
        out += "\n" + l.ports[0].guid + l.ports[0].port + ">" + l.ports[1].guid + l.ports[1].port;
        for (double v : {l.before.p95Gbps, l.before.peakGbps, l.after.p95Gbps, l.after.peakGbps, l.after.capacityGbps}) num(v);
    }
    for (const auto& h : r.disconnected) out += "\n" + h;
    for (const JobImpact& j : r.jobs)
        for (double v : {j.worstBefore, j.worstAfter, j.slowdown}) num(v);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::string work = "/tmp/fabscope-bench-whatif";
    bool keep = false, k48 = false;
    int spines = 32, leaves = 128, hosts = 16, samples = 60, check = 1 << 20, stressSwitches = 48, stressUplinks = 48;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as it comes (a k=48 run takes minutes)
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&] { return i + 1 < argc ? std::stoi(argv[++i]) : 0; };
        if (a == "--work" && i + 1 < argc) work = argv[++i];
        else if (a == "--keep") keep = true;
        else if (a == "--k48") k48 = true;
        else if (a == "--spines") spines = next();
        else if (a == "--leaves") leaves = next();
        else if (a == "--hosts") hosts = next();
        else if (a == "--samples") samples = next();
        else if (a == "--check") check = next();
        else if (a == "--switches") stressSwitches = next();  // the stress section's limits (the report's: 48, 48)
        else if (a == "--uplinks") stressUplinks = next();  // rows also run with a model each (the slow path)
    }
    fs::remove_all(work);
    fs::create_directories(work);
    const std::string storePath = work + "/whatif.sqlite", tablesPath = work + "/ibroute.txt";

    double t0 = now();
    const Fabric fabric = k48 ? demoFabric(DemoOptions::Scale::Large) : twoTier(spines, leaves, hosts);
    {
        Store store(storePath);
        {
            Store::Transaction tx(store);
            const auto sid = store.writeSnapshot(fabric, "whatif", 1700000000);
            store.recordImport("bench_whatif topology", "bench-whatif-topology", "bench", 0, sid);
            tx.commit();
        }
        writeCounters(store, fabric, samples);
        const Tables tables = tablesFor(fabric);
        const double t1 = now();
        if (k48) {  // 80 M entries are ~6 GB of ibroute text: written where the importer ends, Store::writeRoutes
            Store::Transaction tx(store);
            store.writeRoutes(store.latestSnapshot()->id, tables.routes);
            tx.commit();
        } else {
            writeIbroute(fabric, tables, tablesPath);
            ImporterRegistry registry;
            if (ImportRunner(store, registry).run({tablesPath}, ImportOptions{}).anyFailed()) {
                std::fprintf(stderr, "importing %s failed\n", tablesPath.c_str());
                return 1;
            }
        }
        std::printf("%s: %zu switches, %zu hosts, %zu links, %zu table entries (%s %.1f s), set-up %.1f s\n",
                    k48 ? "k=48 fat tree" : "2-tier fat tree", fabric.count(NodeType::Switch), fabric.count(NodeType::Ca),
                    fabric.links.size(), tables.entries, k48 ? "Store::writeRoutes" : "ibroute text and import", now() - t1, now() - t0);
    }

    const Store store(storePath, Store::Mode::ReadOnly);
    const auto [w0, w1] = resolveWindow(store, AnalysisWindow{});
    const Store::ReadTransaction read(store);
    t0 = now();
    const AnalysisContext ctx(store, w0, w1, AnalysisConfig{});
    const auto findings = analyze(store, ctx);
    const double analysis = now() - t0;
    std::printf("%-44s %8.2f s  (%zu findings)\n", "analysis (the report's own)", analysis, findings.findings.size());

    // One leaf uplink and one top-tier switch, each on its own (the CLI's path, context given).
    const std::vector<int> tier = computeTiers(ctx.fabric());
    const Fabric& f = ctx.fabric();
    std::optional<WhatIfChange> uplink, top;
    const int topTier = *std::max_element(tier.begin(), tier.end());
    for (const Link& l : f.links)
        for (const auto& [mine, theirs] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
            const NodeId a = f.port(mine).node, b = f.port(theirs).node;
            if (!uplink && f.node(a).type == NodeType::Switch && tier[a.value()] == 1 && tier[b.value()] == 2)
                uplink = WhatIfChange{WhatIfChange::Fail, f.node(a).guid, f.port(mine).name, ""};
            if (!top && f.node(a).type == NodeType::Switch && tier[a.value()] == topTier)
                top = WhatIfChange{WhatIfChange::Fail, f.node(a).guid, "", ""};
        }
    if (!uplink || !top) return 1;
    for (const auto& [what, change] : {std::pair{"one what-if, a leaf uplink", *uplink}, std::pair{"one what-if, a top-tier switch", *top}}) {
        t0 = now();
        const WhatIfReport r = whatIf(ctx, {change});
        std::printf("%-44s %8.3f s  routing %s, %zu directions, p95 %.0f -> %.0f Gb/s\n", what, now() - t0, r.routing.c_str(), r.links.size(),
                    r.totalBeforeGbps, r.totalAfterGbps);
    }

    // The stress section with one model, then each of its rows with a model of its own.
    t0 = now();
    const StressReport s = singlePointsOfStress(ctx, true, static_cast<std::size_t>(stressSwitches), static_cast<std::size_t>(stressUplinks));
    const double shared = now() - t0;
    std::size_t same = 0, rows = 0;
    t0 = now();
    for (const auto* list : {&s.rows, &s.uplinkRows})
        for (const SwitchStress& row : *list) {
            if (rows == static_cast<std::size_t>(check)) break;
            ++rows;
            same += fingerprint(whatIf(ctx, {WhatIfChange{WhatIfChange::Fail, row.guid, row.port, ""}})) == fingerprint(row.report);
        }
    const double perCall = now() - t0;
    const std::size_t all = s.rows.size() + s.uplinkRows.size();
    std::printf("%-44s %8.2f s  (%zu + %zu what-ifs, %.0f ms each; %.2fx the analysis)\n", "stress section, one shared model", shared,
                s.rows.size(), s.uplinkRows.size(), 1000 * shared / static_cast<double>(std::max<std::size_t>(1, all)), shared / analysis);
    const double perCallAll = perCall / static_cast<double>(std::max<std::size_t>(1, rows)) * static_cast<double>(all);
    std::printf("%-44s %8.2f s  (%zu of its rows; all %zu: ~%.2f s, %.1fx the shared model)\n", "  the same what-ifs, a model each", perCall,
                rows, all, perCallAll, perCallAll / shared);
    std::printf("%-44s %zu of %zu rows identical: %s\n", "  both paths agree", same, rows, same == rows ? "yes" : "NO");
    if (keep) std::printf("store kept: %s\n", storePath.c_str());
    else fs::remove_all(work);
    return same == rows ? 0 : 1;
}
