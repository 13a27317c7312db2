#include "views/finding_focus.h"

#include "core/analysis/findings.h"
#include "views/store_snapshot.h"

#include <algorithm>

namespace fabscope {

FindingFocus focusOf(const StoreSnapshot& s, const Finding& f) {
    FindingFocus out;
    auto add = [](std::vector<std::uint32_t>& v, std::uint32_t x) {
        if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
    };
    std::vector<const PortRef*> refs;
    for (const auto& p : f.ports) refs.push_back(&p);
    if (f.origin) refs.push_back(&*f.origin);
    for (const auto& p : f.path) refs.push_back(&p);
    for (const PortRef* r : refs) {
        const auto port = s.findPort(*r);
        if (!port) {
            // A port not in the topology (link down when it was taken): still frame its node.
            auto it = s.nodeByName.find(r->guid.empty() ? r->node : r->guid);
            if (it == s.nodeByName.end()) it = s.nodeByName.find(r->node);
            if (it != s.nodeByName.end()) add(out.nodes, it->second);
            continue;
        }
        const std::uint32_t node = s.fabric.port(*port).node.value();
        add(out.nodes, node);
        if (out.primaryNode < 0) out.primaryNode = static_cast<int>(node);
        if (auto l = s.linkOf(*port)) {
            add(out.links, l->value());
            if (out.primaryLink < 0) out.primaryLink = static_cast<int>(l->value());
        }
    }
    return out;
}

} // namespace fabscope
