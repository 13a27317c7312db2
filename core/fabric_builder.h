#pragma once
// Builds a Fabric from reports that mention the same nodes, ports and links many times (every link
// appears once from each end in ibnetdiscover; per-device LLDP files repeat neighbours). Nodes are
// identified by GUID when known, else by name; a link is kept once whichever end reported it.
#include "core/model.h"

#include <string>
#include <unordered_map>

namespace fabscope {

// "0x0008F104..." / "0008f104..." -> "0x8f104..."; empty when not hex.
std::string normaliseGuid(std::string_view guid);

class FabricBuilder {
public:
    // Finds the node by identity or adds it; known fields are filled in, never blanked.
    NodeId node(const Node& n);
    [[nodiscard]] Node& nodeRef(NodeId id) { return fabric_.nodes[id.value()]; }
    // Finds or adds the port `name` of `node`.
    PortId port(NodeId node, const std::string& name, int number);
    [[nodiscard]] Port& portRef(PortId id) { return fabric_.ports[id.value()]; }
    // Records that `local` sees `remote` as its neighbour.
    enum class LinkReport {
        Added,          // first report of this link
        Confirmed,      // the other end reported the same link
        Repeated,       // the same end reported it again
        Conflict,       // one of the ports already has another neighbour: the first report is kept
        WidthMismatch,  // the ends disagree on width/speed: the lower capacity is kept
        Loop,           // a port named as its own neighbour (damaged input): ignored
    };
    LinkReport link(PortId local, PortId remote, std::optional<int> width, const std::string& speed);
    // Merges another fabric into this one (a snapshot built from several files).
    void merge(const Fabric& other);

    [[nodiscard]] const Fabric& fabric() const { return fabric_; }
    Fabric take();

private:
    static std::string nodeKey(const Node& n);
    // One Ethernet port reported under two names (a neighbour's LLDP MAC port id, the host's own
    // interface name): both ends agree on the cable, so `dup` is folded into `kept`, which keeps
    // the interface name; take() drops `dup`. False when the evidence is not there.
    bool foldAlias(PortId kept, PortId dup);
    [[nodiscard]] PortId resolve(PortId p) const;
    Fabric fabric_;
    std::unordered_map<std::string, NodeId> nodes_;
    std::unordered_map<std::string, PortId> ports_;               // "<node index>/<port name>"
    std::unordered_map<std::uint64_t, LinkId> linkByPort_;         // port index -> its link
    std::unordered_map<std::uint64_t, std::uint32_t> reportedBy_;  // link index -> reporting port + 1
    std::unordered_map<std::uint64_t, PortId> foldedInto_;         // folded port index -> the port kept
};

} // namespace fabscope
