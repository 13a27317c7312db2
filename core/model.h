#pragma once
// The fabric as FabScope sees it: nodes, their connected ports, and physical links, for one
// topology snapshot. Plain data, no Qt; ids index the vectors.
#include "core/ids.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabscope {

enum class NodeType : std::uint8_t { Switch = 0, Ca = 1, Router = 2 };
std::string_view toString(NodeType t);
std::optional<NodeType> nodeTypeFromString(std::string_view s);

enum class PortState : std::uint8_t { Unknown = 0, Down = 1, Init = 2, Armed = 3, Active = 4 };

struct Node {
    NodeType type = NodeType::Ca;
    std::string guid;         // "0x..." lower-case, no leading zeros; empty for Ethernet
    std::string description;  // as the fabric reports it (IB NodeDesc, LLDP system name, host name)
    std::string systemName;   // LLDP sysname / host name when distinct from description
    int numPorts = 0;
    int lid = 0;              // switch port-0 LID, 0 when unknown
};

struct Port {
    NodeId node;
    std::string name;             // "33" on InfiniBand, "Ethernet8" on Ethernet
    int number = 0;               // IB port number, 0 on Ethernet
    std::string portGuid;         // where known
    int lid = 0;
    std::optional<int> width;     // lanes; nullopt when the file says "??"
    std::string speed;            // "HDR", "???" when unknown
    std::uint64_t capacityBps = 0;
    PortState state = PortState::Active;
};

struct Link {
    PortId a;                 // in the order first seen
    PortId b;
    std::optional<int> width;
    std::string speed;
    std::uint64_t capacityBps = 0;
    bool seenFromBothEnds = true;
};

struct Fabric {
    std::vector<Node> nodes;
    std::vector<Port> ports;
    std::vector<Link> links;

    [[nodiscard]] const Node& node(NodeId id) const { return nodes[id.value()]; }
    [[nodiscard]] const Port& port(PortId id) const { return ports[id.value()]; }
    [[nodiscard]] const Link& link(LinkId id) const { return links[id.value()]; }
    [[nodiscard]] std::size_t count(NodeType t) const;
};

// A switch's internal SHARP aggregation node: a CA in the fabric ("Mellanox Technologies
// Aggregation Node", behind port 41 of a QM8700 or 65 of a QM9700/9701) that is not a host, so
// host counts, host-link classes and job placement leave it out.
// One flag per node, in one pass over the links.
[[nodiscard]] std::vector<bool> findAggregationNodes(const Fabric& f);
[[nodiscard]] std::size_t countHosts(const Fabric& f);  // CAs that are not aggregation nodes

struct SnapshotInfo {
    std::int64_t id = 0;
    std::string label;
    double time = 0;  // UNIX seconds
    bool planned = false;  // a cabling plan (what should be cabled), not a discovered fabric
};

} // namespace fabscope
