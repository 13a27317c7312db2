#include "importers/netq_topology_importer.h"

#include "core/fabric_builder.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace fabscope {
namespace {
using json = nlohmann::json;

std::int64_t lineAt(std::string_view bytes, std::size_t pos) {
    pos = std::min(pos, bytes.size());
    return 1 + std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
}

// The line of `"id": "<id>"` for diagnostics about one node or link.
std::int64_t lineOfId(std::string_view bytes, const std::string& id) {
    for (std::string_view sep : {"\": \"", "\":\""}) {
        const auto at = bytes.find("\"id" + std::string(sep) + id + "\"");
        if (at != std::string_view::npos) return lineAt(bytes, at);
    }
    return 0;
}

std::string str(const json& o, const char* key) {
    if (!o.is_object()) return {};
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Nodes are grouped by tier ("compounded_nodes"); a device is an object with node_type "device"
// (or with a device_type), at any depth of that grouping.
void collectNodes(const json& j, std::vector<const json*>& out) {
    if (j.is_array()) {
        for (const auto& e : j) collectNodes(e, out);
        return;
    }
    if (!j.is_object()) return;
    if (auto c = j.find("compounded_nodes"); c != j.end()) {
        collectNodes(*c, out);
        return;
    }
    if (str(j, "node_type") == "device" || j.contains("device_type")) out.push_back(&j);
}

// A link between two nodes bundles the interface pairs ("compounded_links"); a plain link names
// its interfaces directly.
void collectLinks(const json& j, std::vector<const json*>& out) {
    if (j.is_array()) {
        for (const auto& e : j) collectLinks(e, out);
        return;
    }
    if (!j.is_object()) return;
    if (auto c = j.find("compounded_links"); c != j.end() && c->is_array() && !c->empty()) {
        collectLinks(*c, out);
        return;
    }
    out.push_back(&j);
}

} // namespace

int NetqTopologyImporter::detect(std::string_view head) const {
    const auto b = head.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos || (head[b] != '[' && head[b] != '{')) return 0;
    int score = 0;
    if (head.find("\"compounded_links\"") != std::string_view::npos) score += 60;
    if (head.find("\"compounded_nodes\"") != std::string_view::npos) score += 60;
    if (head.find("\"links\"") != std::string_view::npos && head.find("\"interfaces\"") != std::string_view::npos) score += 20;
    if (head.find("\"device_type\"") != std::string_view::npos) score += 20;
    return std::min(score, 90);
}

TopologyResult NetqTopologyImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    json doc;
    try {
        doc = json::parse(in.bytes.begin(), in.bytes.end());
    } catch (const json::parse_error& e) {
        diag.fail(lineAt(in.bytes, e.byte > 0 ? e.byte - 1 : 0), std::string("not valid JSON: ") + e.what());
    } catch (const json::exception& e) {
        diag.fail(1, std::string("unreadable JSON: ") + e.what());
    }
    // The export is a list holding one {"links", "nodes"} object; accept that object alone too.
    std::vector<const json*> nodes, links;
    bool sawGraph = false;
    auto graph = [&](const json& g) {
        if (!g.is_object() || !g.contains("nodes")) return;
        sawGraph = true;
        collectNodes(g["nodes"], nodes);
        if (auto l = g.find("links"); l != g.end()) collectLinks(*l, links);
    };
    if (doc.is_array())
        for (const auto& g : doc) graph(g);
    else
        graph(doc);
    if (!sawGraph) diag.fail(1, "no \"nodes\" member: not a NetQ topology export");

    FabricBuilder b;
    std::unordered_map<std::string, NodeId> byId;  // NetQ node id ("node9") -> node
    for (const json* n : nodes) {
        const std::string id = str(*n, "id");
        const std::string name = str(*n, "name");
        if (id.empty() || name.empty()) {
            diag.warn(id.empty() ? 0 : lineOfId(in.bytes, id), "a node without \"id\" or \"name\": skipped");
            continue;
        }
        Node node;
        node.systemName = name;
        node.description = name;
        // "switch" is a NetQ-managed switch; hosts appear as "discovered_via_lldp" (or "host").
        node.type = str(*n, "device_type") == "switch" ? NodeType::Switch : NodeType::Ca;
        if (!byId.emplace(id, b.node(node)).second) diag.warn(lineOfId(in.bytes, id), "node id " + id + " listed twice");
    }
    std::size_t done = 0;
    for (const json* l : links) {
        const std::string id = str(*l, "id");
        const auto line = lineOfId(in.bytes, id);
        const auto ifs = l->find("interfaces");
        if (ifs == l->end() || !ifs->is_array() || ifs->size() != 2) {
            diag.warn(line, "link " + id + ": \"interfaces\" must name two ends: skipped");
            continue;
        }
        PortId ends[2];
        bool ok = true;
        for (int e = 0; e < 2 && ok; ++e) {
            const json& end = (*ifs)[static_cast<std::size_t>(e)];
            const std::string node = str(end, "node"), iface = str(end, "interface");
            const auto it = byId.find(node);
            if (it == byId.end()) {
                diag.warn(line, "link " + id + ": node " + node + " is not in \"nodes\": skipped");
                ok = false;
            } else if (iface.empty()) {
                diag.warn(line, "link " + id + ": no interface on " + node + ": skipped");
                ok = false;
            } else {
                ends[e] = b.port(it->second, iface, 0);
            }
        }
        if (!ok) continue;
        // NetQ reports the link it reconciled from both ends' LLDP: kept as seen from both.
        if (b.link(ends[0], ends[1], std::nullopt, "") == FabricBuilder::LinkReport::Conflict) {
            diag.warn(line, "link " + id + ": a port already has another link; the first is kept");
            continue;
        }
        b.link(ends[1], ends[0], std::nullopt, "");
        if (progress && ++done % 256 == 0 && !progress(static_cast<double>(done) / static_cast<double>(links.size())))
            throw ImportCancelled();
    }
    if (b.fabric().links.empty()) diag.warn(0, "no link between interfaces in the export");
    TopologyResult r;
    r.fabric = b.take();
    return r;
}

} // namespace fabscope
