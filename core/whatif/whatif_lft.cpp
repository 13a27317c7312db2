// What-if re-routing with the captured forwarding tables (docs/ANALYSIS.md "What-if"): the load of
// a failed direction is split over the host LIDs the transmitting switch's table sends out of it,
// and each LID's share follows what the subnet manager would do after the change: the same table
// entry where it is still a live min-hop port, else the remaining min-hop ports split evenly.
#include "core/whatif/whatif_lft.h"

#include "core/once_by_index.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace fabscope::whatif_detail {

namespace {
constexpr int kFar = std::numeric_limits<int>::max();
}

// Everything that follows from the tables alone; the caches fill as changes ask, from any number
// of threads (each change's LftRouting is one thread's).
struct LftTables::Impl {
    const Fabric& f;
    std::vector<SwitchRoutes> tables;
    std::vector<const SwitchRoutes*> tableOf;        // by node
    std::vector<std::optional<LinkId>> linkOfPort;   // by port
    std::vector<std::vector<std::uint32_t>> swLinks; // by switch: its links to other switches
    struct Peer {
        std::uint32_t link, node;  // a link to another switch, and that switch
        bool fromA;                // this switch is the link's `a` end
    };
    std::vector<std::vector<Peer>> swPeers;          // by switch, in swLinks' order
    std::vector<bool> hasHosts;                      // a switch with a CA attached (a leaf)
    std::vector<std::vector<std::int32_t>> portByNumber;     // node -> port id by number (-1: none)
    struct Dest {
        NodeId leaf;  // the switch the host port hangs off
        PortId port;  // the host port
    };
    std::unordered_map<int, Dest> hostLid;
    std::vector<std::optional<PortId>> hostPort;     // by CA: its first port linked to a switch
    OnceByIndex<std::vector<int>> distBefore;  // by leaf: hops to it with every link up
    OnceByIndex<std::vector<int>> lidsOut;     // by port: host LIDs its switch's table sends out of it

    explicit Impl(const Fabric& fabric) : f(fabric), distBefore(fabric.nodes.size()), lidsOut(fabric.ports.size()) {}
};

struct LftRouting::Impl {
    LftTables::Impl& shared;
    const Fabric& f;
    const std::vector<const SwitchRoutes*>& tableOf;
    const std::vector<std::optional<LinkId>>& linkOfPort;
    const std::vector<std::vector<std::uint32_t>>& swLinks;
    const std::vector<bool>& hasHosts;
    const std::vector<std::vector<std::int32_t>>& portByNumber;
    using Dest = LftTables::Impl::Dest;
    const std::unordered_map<int, Dest>& hostLid;
    const std::vector<std::optional<PortId>>& hostPort;
    OnceByIndex<std::vector<int>>& lidsOut;  // shared: no change alters a table
    std::vector<bool> deadLink, deadNode;
    std::vector<std::uint32_t> deadSwitchLinks;
    std::vector<bool> cut;  // by switch: every link to another switch failed
    // Hops to a leaf after the change: a search's, or those before with the switches cut off out
    // of reach. Those are read through `cut`, not written into a copy: a top-tier switch's failure
    // cuts it off from every leaf, and a copy per leaf moved 138 MB a change on the k=48 tree.
    struct After {
        const std::vector<int>* hops = nullptr;
        const std::vector<bool>* cutOff = nullptr;  // null: `hops` as they are
        std::uint32_t leaf = 0;                     // never cut off from itself
        int operator[](std::size_t n) const { return cutOff && (*cutOff)[n] && n != leaf ? kFar : (*hops)[n]; }
    };
    mutable std::unordered_map<std::uint32_t, std::vector<int>> distAfter;  // leaf -> hops after, where searched
    mutable std::unordered_map<std::uint32_t, After> afterOf;              // leaf -> hops after
    // LID -> switch -> load still to carry toward it: the walk is linear in the load, so moveLoad
    // sums what every re-routed share leaves at a switch and walks once per LID (a 3-tier
    // fabric's failure hands one LID back to thousands of switches, many of them the same).
    mutable std::map<int, std::map<std::uint32_t, Amount>> pending;
    // Likewise the shares handed back upstream, by depth, then (LID, switch): each handed back once.
    static constexpr int kMaxDepth = 8;
    mutable std::vector<std::map<std::pair<int, std::uint32_t>, Amount>> handBack =
        std::vector<std::map<std::pair<int, std::uint32_t>, Amount>>(kMaxDepth + 1);
    void queue(int depth, int lid, NodeId s, Amount amt) const {
        Amount& q = handBack[static_cast<std::size_t>(depth)][{lid, s.value()}];
        q.p95 += amt.p95;
        q.peak += amt.peak;
    }

    explicit Impl(LftTables::Impl& tables)
        : shared(tables), f(tables.f), tableOf(tables.tableOf), linkOfPort(tables.linkOfPort), swLinks(tables.swLinks),
          hasHosts(tables.hasHosts), portByNumber(tables.portByNumber), hostLid(tables.hostLid), hostPort(tables.hostPort),
          lidsOut(tables.lidsOut) {}

    NodeId nodeOf(PortId p) const { return f.port(p).node; }
    bool isSwitch(NodeId n) const { return f.node(n).type == NodeType::Switch; }
    Dir dirOf(PortId tx) const {
        const LinkId l = *linkOfPort[tx.value()];
        return {static_cast<std::uint32_t>(l.value()), f.link(l).a == tx};
    }
    PortId txOf(Dir d) const { return d.second ? f.links[d.first].a : f.links[d.first].b; }
    NodeId rxNode(Dir d) const { return nodeOf(d.second ? f.links[d.first].b : f.links[d.first].a); }
    NodeId peer(std::uint32_t link, NodeId n) const {
        const NodeId a = nodeOf(f.links[link].a);
        return a == n ? nodeOf(f.links[link].b) : a;
    }

    // The port the table of switch `s` sends LID `lid` out of; nullopt without a linked entry.
    std::optional<PortId> entry(NodeId s, int lid) const {
        const SwitchRoutes* t = tableOf[s.value()];
        if (!t || lid < 0 || static_cast<std::size_t>(lid) >= t->egress.size()) return std::nullopt;
        const int out = t->egress[static_cast<std::size_t>(lid)];
        if (out == SwitchRoutes::kNoRoute) return std::nullopt;
        const auto& byNumber = portByNumber[s.value()];
        if (static_cast<std::size_t>(out) >= byNumber.size() || byNumber[static_cast<std::size_t>(out)] < 0) return std::nullopt;
        const PortId port(static_cast<std::uint32_t>(byNumber[static_cast<std::size_t>(out)]));
        if (!linkOfPort[port.value()]) return std::nullopt;
        return port;
    }

    // Host LIDs the table of `s` sends out of port `tx`.
    const std::vector<int>& lidsVia(PortId tx) const {
        return lidsOut.get(tx.value(), [&] {
            std::vector<int> lids;
            if (const SwitchRoutes* t = tableOf[nodeOf(tx).value()])
                for (std::size_t l = 0; l < t->egress.size(); ++l)
                    if (t->egress[l] == f.port(tx).number && hostLid.count(static_cast<int>(l))) lids.push_back(static_cast<int>(l));
            return lids;
        });
    }

    // Hops from every switch to `leaf` over switch links, before (shared by every change) and after.
    std::pair<const std::vector<int>&, const After&> distances(NodeId leaf) const {
        const auto bfs = [&](bool after) {
            std::vector<int> d(f.nodes.size(), kFar);
            std::vector<std::uint32_t> queue{leaf.value()};
            d[leaf.value()] = 0;
            for (std::size_t i = 0; i < queue.size(); ++i) {
                const NodeId n(queue[i]);
                for (const auto& p : shared.swPeers[n.value()]) {
                    if (after && deadLink[p.link]) continue;
                    if (d[p.node] != kFar) continue;
                    d[p.node] = d[n.value()] + 1;
                    queue.push_back(p.node);
                }
            }
            return d;
        };
        const std::vector<int>& before = shared.distBefore.get(leaf.value(), [&] { return bfs(false); });
        auto a = afterOf.find(leaf.value());
        if (a == afterOf.end()) a = afterOf.emplace(leaf.value(), afterFrom(leaf, before, bfs)).first;
        return {before, a->second};
    }

    // The hops after the change without a search where the dead links leave them as they were: a
    // switch that lost a link toward `leaf` (one hop closer) keeps its distance if another live
    // link still leads one hop closer (by induction over the levels, so does every switch below
    // it); a switch that lost every link is out of reach. Otherwise the search.
    template <class Bfs>
    After afterFrom(NodeId leaf, const std::vector<int>& before, const Bfs& bfs) const {
        bool isolated = false;
        for (std::uint32_t l : deadSwitchLinks)
            for (const bool aLower : {true, false}) {
                const NodeId u = nodeOf(aLower ? f.links[l].a : f.links[l].b), v = nodeOf(aLower ? f.links[l].b : f.links[l].a);
                if (before[v.value()] == kFar || before[u.value()] != before[v.value()] + 1) continue;
                bool live = false, anyLive = false;
                for (std::uint32_t k : swLinks[u.value()]) {
                    if (deadLink[k]) continue;
                    anyLive = true;
                    if (before[peer(k, u).value()] == before[u.value()] - 1) live = true;
                }
                if (live) continue;
                if (anyLive || u == leaf) return {&distAfter.emplace(leaf.value(), bfs(true)).first->second};
                isolated = true;  // u: every link failed, so cut
            }
        return {&before, isolated ? &cut : nullptr, leaf.value()};
    }

    // Where switch `s` sends `lid` after the change, with each direction's share, into `out`
    // (a buffer the caller reuses: a spine's failure asks this ~10^6 times on a 32k-GPU fabric).
    void nextHops(NodeId s, int lid, const After& after, std::vector<std::pair<Dir, double>>& out) const {
        out.clear();
        const int here = after[s.value()];
        if (here == kFar || here == 0) return;
        const auto minHop = [&](std::uint32_t l) { return !deadLink[l] && after[peer(l, s).value()] == here - 1; };
        if (const auto p = entry(s, lid)) {
            const Dir d = dirOf(*p);
            if (isSwitch(rxNode(d)) && minHop(d.first)) {
                out.emplace_back(d, 1.0);
                return;
            }
        }
        for (const auto& p : shared.swPeers[s.value()])  // each peer kept: no port lookups
            if (!deadLink[p.link] && after[p.node] == here - 1) out.emplace_back(Dir{p.link, p.fromA}, 0.0);
        for (auto& [d, share] : out) share = 1.0 / static_cast<double>(out.size());
    }

    // Carries the load in `level` (switch -> amount) toward `lid` along the routes after the
    // change; every step is one hop closer, so the walk ends. Amounts meeting at a switch travel on together.
    void forward(int lid, std::map<std::uint32_t, Amount> level, const ShiftFn& shift) const {
        const Dest& dest = hostLid.at(lid);
        const auto& after = distances(dest.leaf).second;
        std::vector<std::pair<Dir, double>> hops;
        while (!level.empty()) {
            std::map<std::uint32_t, Amount> next;
            for (const auto& [n, a] : level) {
                nextHops(NodeId(n), lid, after, hops);
                for (const auto& [d, share] : hops) {
                    shift(d, a.p95 * share, a.peak * share);
                    Amount& m = next[rxNode(d).value()];
                    m.p95 += a.p95 * share;
                    m.peak += a.peak * share;
                }
            }
            level = std::move(next);
        }
    }

    // Takes `amt` off the rest of the old route toward `lid` from node `n` (links that failed
    // carry nothing anyway).
    void subtractOld(NodeId n, int lid, Amount amt, const ShiftFn& shift) const {
        const NodeId leaf = hostLid.at(lid).leaf;
        for (int hop = 0; hop < 64 && n != leaf && isSwitch(n); ++hop) {
            const auto p = entry(n, lid);
            if (!p) return;
            const Dir d = dirOf(*p);
            if (!deadLink[d.first]) shift(d, -amt.p95, -amt.peak);
            n = rxNode(d);
        }
    }

    // The share `amt` of the traffic toward `lid` that switch `s` sent into a failed element:
    // re-routed where the subnet manager would re-route it. A transit switch that the change put
    // farther from the destination is no longer on a min-hop route, so its upstream switches
    // send that traffic elsewhere: the share goes back to the live links whose tables pointed at
    // `s` for this LID, in proportion to their measured per-LID load (queued: moveLoad hands each
    // (depth, LID, switch) back once, the shares summed).
    void reroute(NodeId s, int lid, Amount amt, int depth, const UseFn& use, const ShiftFn& shift) const {
        const auto& [before, after] = distances(hostLid.at(lid).leaf);
        if (!hasHosts[s.value()] && depth < kMaxDepth && after[s.value()] > before[s.value()]) {
            std::vector<std::pair<Dir, double>> in;
            double sum = 0;
            for (std::uint32_t l : swLinks[s.value()]) {
                const NodeId p = peer(l, s);
                if (deadLink[l] || deadNode[p.value()]) continue;
                const auto e = entry(p, lid);
                if (!e || *linkOfPort[e->value()] != LinkId(l)) continue;
                const double perLid = use(dirOf(*e)).p95Gbps / static_cast<double>(std::max<std::size_t>(1, lidsVia(*e).size()));
                in.emplace_back(dirOf(*e), perLid);
                sum += perLid;
            }
            // No table upstream sends this LID here (the measured load and the tables disagree):
            // every live link into `s` hands it back by its load, so the route keeps its length.
            if (in.empty())
                for (std::uint32_t l : swLinks[s.value()]) {
                    const NodeId p = peer(l, s);
                    if (deadLink[l] || deadNode[p.value()]) continue;
                    const Dir d{l, nodeOf(f.links[l].a) == p};
                    in.emplace_back(d, use(d).p95Gbps);
                    sum += in.back().second;
                }
            if (!in.empty()) {
                for (const auto& [d, w] : in) {
                    const double share = sum > 0 ? w / sum : 1.0 / static_cast<double>(in.size());
                    const Amount part{amt.p95 * share, amt.peak * share};
                    shift(d, -part.p95, -part.peak);
                    queue(depth + 1, lid, nodeOf(txOf(d)), part);
                }
                return;
            }
        }
        Amount& p = pending[lid][s.value()];
        p.p95 += amt.p95;
        p.peak += amt.peak;
    }
};

LftTables::LftTables(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LftTables::~LftTables() = default;

std::unique_ptr<LftTables> LftTables::load(const AnalysisContext& ctx) {
    const Fabric& f = ctx.fabric();
    const auto snap = ctx.store().latestSnapshot();
    if (!snap) return nullptr;
    auto m = std::make_unique<Impl>(f);
    m->tables = ctx.store().routes(snap->id);
    if (m->tables.empty()) return nullptr;
    std::unordered_map<std::string, std::uint32_t> byGuid;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (f.nodes[i].type == NodeType::Switch) byGuid.emplace(f.nodes[i].guid, i);
    m->tableOf.assign(f.nodes.size(), nullptr);
    for (const SwitchRoutes& t : m->tables)
        if (auto it = byGuid.find(t.nodeGuid); it != byGuid.end()) m->tableOf[it->second] = &t;
    // Partial tables cannot say where the rest of the traffic goes: the ECMP model then.
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (f.nodes[i].type == NodeType::Switch && !m->tableOf[i]) return nullptr;

    m->linkOfPort.resize(f.ports.size());
    m->portByNumber.resize(f.nodes.size());
    for (std::size_t p = 0; p < f.ports.size(); ++p) {
        m->linkOfPort[p] = ctx.linkOf(PortId(static_cast<std::uint32_t>(p)));
        const Port& port = f.ports[p];
        if (port.number > 0 && port.number < 255) {
            auto& byNumber = m->portByNumber[port.node.value()];
            if (byNumber.size() <= static_cast<std::size_t>(port.number)) byNumber.resize(static_cast<std::size_t>(port.number) + 1, -1);
            if (byNumber[static_cast<std::size_t>(port.number)] < 0) byNumber[static_cast<std::size_t>(port.number)] = static_cast<std::int32_t>(p);
        }
    }
    m->swLinks.resize(f.nodes.size());
    m->swPeers.resize(f.nodes.size());
    m->hasHosts.assign(f.nodes.size(), false);
    m->hostPort.assign(f.nodes.size(), std::nullopt);
    const auto isSwitch = [&f](NodeId n) { return f.node(n).type == NodeType::Switch; };
    for (std::uint32_t l = 0; l < f.links.size(); ++l) {
        const NodeId a = f.port(f.links[l].a).node, b = f.port(f.links[l].b).node;
        const bool sa = isSwitch(a), sb = isSwitch(b);
        if (sa && sb && a != b) {
            m->swLinks[a.value()].push_back(l);
            m->swLinks[b.value()].push_back(l);
            m->swPeers[a.value()].push_back({l, b.value(), true});
            m->swPeers[b.value()].push_back({l, a.value(), false});
        }
        if (sa && !sb) m->hasHosts[a.value()] = true;
        if (sb && !sa) m->hasHosts[b.value()] = true;
        for (const auto& [host, sw, hp] : {std::tuple{a, b, f.links[l].a}, std::tuple{b, a, f.links[l].b}}) {
            if (isSwitch(host) || !isSwitch(sw)) continue;
            if (f.port(hp).lid > 0) m->hostLid.emplace(f.port(hp).lid, Impl::Dest{sw, hp});
            if (!m->hostPort[host.value()] || hp.value() < m->hostPort[host.value()]->value()) m->hostPort[host.value()] = hp;
        }
    }
    return std::unique_ptr<LftTables>(new LftTables(std::move(m)));
}

LftRouting::LftRouting(const LftTables& tables, const std::set<std::uint32_t>& failedLinks,
                       const std::set<std::uint32_t>& failedNodes)
    : impl_(std::make_unique<Impl>(*tables.impl_)) {
    Impl& m = *impl_;
    m.deadLink.assign(m.f.links.size(), false);
    for (std::uint32_t l : failedLinks) {
        m.deadLink[l] = true;
        const NodeId a = m.nodeOf(m.f.links[l].a), b = m.nodeOf(m.f.links[l].b);
        if (m.isSwitch(a) && m.isSwitch(b) && a != b) m.deadSwitchLinks.push_back(l);
    }
    m.deadNode.assign(m.f.nodes.size(), false);
    for (std::uint32_t n : failedNodes) m.deadNode[n] = true;
    m.cut.assign(m.f.nodes.size(), false);
    for (std::uint32_t l : m.deadSwitchLinks)
        for (const PortId end : {m.f.links[l].a, m.f.links[l].b}) {
            const NodeId n = m.nodeOf(end);
            const auto& links = m.swLinks[n.value()];
            m.cut[n.value()] = std::all_of(links.begin(), links.end(), [&m](std::uint32_t k) { return m.deadLink[k]; });
        }
}

LftRouting::~LftRouting() = default;

void LftRouting::moveLoad(const UseFn& use, const ShiftFn& out) const {
    const Impl& m = *impl_;
    // Summed here per direction (by link * 2 + from `a`) and handed on once each, in that order:
    // a spine's failure moves ~10^5 LID shares.
    std::vector<Amount> sum(m.f.links.size() * 2);
    std::vector<bool> touched(sum.size());
    const ShiftFn shift = [&sum, &touched](Dir d, double p95, double peak) {
        const std::size_t k = std::size_t{d.first} * 2 + (d.second ? 1 : 0);
        sum[k].p95 += p95;
        sum[k].peak += peak;
        touched[k] = true;
    };
    for (std::uint32_t l = 0; l < m.f.links.size(); ++l) {
        if (!m.deadLink[l]) continue;
        for (const bool fromA : {true, false}) {
            const Dir d{l, fromA};
            const PortId tx = m.txOf(d);
            const NodeId s = m.nodeOf(tx);
            // A failed switch's own sends are the traffic that entered it, moved from where it
            // entered; a host's traffic has nowhere else to go.
            if (m.deadNode[s.value()] || !m.isSwitch(s)) continue;
            const std::vector<int>& lids = m.lidsVia(tx);
            const DirectionUse u = use(d);
            if (lids.empty() || (u.p95Gbps <= 0 && u.peakGbps <= 0)) continue;
            const Amount per{u.p95Gbps / static_cast<double>(lids.size()), u.peakGbps / static_cast<double>(lids.size())};
            for (int lid : lids) {
                const Impl::Dest& dest = m.hostLid.at(lid);
                if (m.deadLink[m.linkOfPort[dest.port.value()]->value()]) continue;  // its host is cut off
                const NodeId n = m.rxNode(d);
                if (m.isSwitch(n)) m.subtractOld(n, lid, per, shift);
                m.queue(0, lid, s, per);
            }
        }
    }
    for (int depth = 0; depth <= Impl::kMaxDepth; ++depth) {
        for (const auto& [key, amt] : m.handBack[static_cast<std::size_t>(depth)])
            m.reroute(NodeId(key.second), key.first, amt, depth, use, shift);
        m.handBack[static_cast<std::size_t>(depth)].clear();
    }
    for (auto& [lid, level] : m.pending) m.forward(lid, std::move(level), shift);
    m.pending.clear();
    for (std::size_t k = 0; k < sum.size(); ++k)
        if (touched[k]) out({static_cast<std::uint32_t>(k / 2), (k & 1) != 0}, sum[k].p95, sum[k].peak);
}

std::vector<std::string> LftRouting::disconnected() const {
    const Impl& m = *impl_;
    const Fabric& f = m.f;
    std::vector<int> comp(f.nodes.size(), -1);
    std::vector<std::vector<std::uint32_t>> links(f.nodes.size());
    for (std::uint32_t l = 0; l < f.links.size(); ++l)
        if (!m.deadLink[l]) {
            links[f.port(f.links[l].a).node.value()].push_back(l);
            links[f.port(f.links[l].b).node.value()].push_back(l);
        }
    std::vector<std::size_t> hosts;  // per component
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i) {
        if (comp[i] >= 0 || !m.isSwitch(NodeId(i)) || m.deadNode[i]) continue;
        const int c = static_cast<int>(hosts.size());
        hosts.push_back(0);
        std::vector<std::uint32_t> queue{i};
        comp[i] = c;
        for (std::size_t k = 0; k < queue.size(); ++k) {
            const NodeId n(queue[k]);
            if (!m.isSwitch(n)) continue;  // hosts are not transit
            for (std::uint32_t l : links[n.value()]) {
                const NodeId q = m.peer(l, n);
                if (comp[q.value()] >= 0) continue;
                comp[q.value()] = c;
                if (!m.isSwitch(q)) ++hosts[static_cast<std::size_t>(c)];
                queue.push_back(q.value());
            }
        }
    }
    const auto main = std::max_element(hosts.begin(), hosts.end()) - hosts.begin();
    std::vector<std::string> out;
    for (std::uint32_t i = 0; i < f.nodes.size(); ++i)
        if (m.hostPort[i] && comp[i] != main) out.push_back(f.nodes[i].description);
    std::sort(out.begin(), out.end());
    return out;
}

LftRouting::PairRoute LftRouting::route(NodeId src, NodeId dst) const {
    const Impl& m = *impl_;
    PairRoute r;
    const auto a = m.hostPort[src.value()], b = m.hostPort[dst.value()];
    if (!a || !b || src == dst) return r;
    const int lid = m.f.port(*b).lid;
    const auto dest = m.hostLid.find(lid);
    if (dest == m.hostLid.end()) return r;
    const NodeId leaf = dest->second.leaf;
    const Dir first = m.dirOf(*a);
    const Dir last{m.dirOf(*b).first, !m.dirOf(*b).second};  // the leaf to the destination host
    // Now: the tables' route.
    r.before.push_back(first);
    NodeId n = m.rxNode(first);
    for (int hop = 0; hop < 64 && n != leaf; ++hop) {
        const auto p = m.entry(n, lid);
        if (!p) break;
        r.before.push_back(m.dirOf(*p));
        n = m.rxNode(r.before.back());
    }
    r.before.push_back(last);
    // After: the new routes, which may split.
    if (m.deadLink[first.first] || m.deadLink[last.first]) return r;
    const NodeId from = m.rxNode(first);
    if (m.distances(leaf).second[from.value()] == kFar) return r;
    r.alive = true;
    r.after.push_back(first);
    std::set<Dir> seen;
    m.forward(lid, {{from.value(), Amount{1, 1}}}, [&](Dir d, double, double) {
        if (seen.insert(d).second) r.after.push_back(d);
    });
    r.after.push_back(last);
    return r;
}

} // namespace fabscope::whatif_detail
