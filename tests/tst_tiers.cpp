// Switches in their true tier (#23): a leaf whose hosts are all down links only to spines, so by
// distance from the hosts it sat a tier above them, with the cores or in a row of its own.
#include "core/fabric_builder.h"
#include "core/tiers.h"

#include <QtTest>

#include <map>

using namespace fabscope;

namespace {

// A fabric drawn by hand: named switches and hosts, links between them on fresh ports.
class HandFabric {
public:
    void sw(const std::string& name) { add(name, NodeType::Switch); }
    void host(const std::string& name) { add(name, NodeType::Ca); }
    void link(const std::string& a, const std::string& b) {
        const auto pa = b_.port(ids_.at(a), std::to_string(++ports_[a]), ports_[a]);
        const auto pb = b_.port(ids_.at(b), std::to_string(++ports_[b]), ports_[b]);
        b_.link(pa, pb, 4, "HDR");
    }
    [[nodiscard]] std::map<std::string, int> tiers() const {
        const Fabric& f = b_.fabric();
        const auto t = computeTiers(f);
        std::map<std::string, int> out;
        for (std::size_t i = 0; i < f.nodes.size(); ++i) out[f.nodes[i].description] = t[i];
        return out;
    }

private:
    void add(const std::string& name, NodeType type) {
        Node n;
        n.type = type;
        n.description = name;
        n.guid = "0x" + std::to_string(100 + ids_.size());
        ids_[name] = b_.node(n);
    }
    FabricBuilder b_;
    std::map<std::string, NodeId> ids_;
    std::map<std::string, int> ports_;
};

// Two pods of two leaves with a host each and one leaf whose hosts are gone, two spines per pod;
// with `cores`, two cores over every spine.
HandFabric twoPods(bool cores) {
    HandFabric h;
    for (int pod = 1; pod <= 2; ++pod) {
        const std::string p = "pod" + std::to_string(pod);
        for (int s = 1; s <= 2; ++s) h.sw(p + "-spine" + std::to_string(s));
        for (int l = 1; l <= 3; ++l) {
            const std::string leaf = p + "-leaf" + std::to_string(l);
            h.sw(leaf);
            for (int s = 1; s <= 2; ++s) h.link(leaf, p + "-spine" + std::to_string(s));
            if (l == 3) continue;  // the leaf without hosts
            h.host(p + "-gpu" + std::to_string(l));
            h.link(p + "-gpu" + std::to_string(l), leaf);
        }
    }
    if (cores)
        for (int c = 1; c <= 2; ++c) {
            h.sw("core" + std::to_string(c));
            for (int pod = 1; pod <= 2; ++pod)
                for (int s = 1; s <= 2; ++s) h.link("core" + std::to_string(c), "pod" + std::to_string(pod) + "-spine" + std::to_string(s));
        }
    return h;
}

} // namespace

class TestTiers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Two tiers of switches: the host-less leaves are leaves, not a third row of two switches.
    void hostlessLeavesOfATwoTierFabricAreLeaves() {
        const auto t = twoPods(false).tiers();
        QCOMPARE(t.at("pod1-leaf3"), 1);
        QCOMPARE(t.at("pod2-leaf3"), 1);
        QCOMPARE(t.at("pod1-leaf1"), 1);
        QCOMPARE(t.at("pod1-spine1"), 2);
        QCOMPARE(t.at("pod2-spine2"), 2);
        QCOMPARE(t.at("pod1-gpu1"), 0);
        int top = 0;
        for (const auto& [name, tier] : t) top = std::max(top, tier);
        QCOMPARE(top, 2);
    }

    // Three tiers: cores, which also link to spines only, stay on top, the host-less leaves drop
    // to the leaves' row.
    void coresStayAboveHostlessLeaves() {
        const auto t = twoPods(true).tiers();
        QCOMPARE(t.at("pod1-leaf3"), 1);
        QCOMPARE(t.at("pod2-leaf3"), 1);
        QCOMPARE(t.at("pod2-spine1"), 2);
        QCOMPARE(t.at("core1"), 3);
        QCOMPARE(t.at("core2"), 3);
    }

    // A switch over a spine that also links to a switch above it is no leaf: only switches whose
    // every link goes to spines are taken for host-less leaves.
    void aSwitchWithALinkAboveStaysAbove() {
        HandFabric h;
        h.sw("leaf1");
        h.host("gpu1");
        h.link("gpu1", "leaf1");
        h.sw("spine1");
        h.link("leaf1", "spine1");
        h.sw("top1");
        h.link("top1", "spine1");
        h.sw("top2");
        h.link("top1", "top2");
        const auto t = h.tiers();
        QCOMPARE(t.at("spine1"), 2);
        QCOMPARE(t.at("top1"), 3);
        QCOMPARE(t.at("top2"), 4);
    }
};

QTEST_GUILESS_MAIN(TestTiers)
#include "tst_tiers.moc"
