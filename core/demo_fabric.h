#pragma once
// `fabscope demo`: a synthetic fat-tree fabric written in real formats (ibnetdiscover + long CSV)
// with faults whose answers are known, so the GUI and the analysis have something true to show.
#include "core/analysis/finding_kind.h"
#include "core/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct DemoOptions {
    enum class Scale { Small, Large } scale = Scale::Small;
    // Dragonfly and rail are small fabrics (core/demo_topologies.h); the scale applies to the fat tree.
    enum class Topology { FatTree, Dragonfly, Rail } topology = Topology::FatTree;
    int samples = 0;                 // 0 = default for the scale (60 small, 360 large)
    std::int64_t startTime = 1700000000;
    int intervalSeconds = 10;
};

struct DemoFault {
    FindingKind kind = FindingKind::HotLink;  // what the analysis should report
    std::string node;      // node description
    std::string port;      // port number
    std::string peerNode;  // the other end
    std::string peerPort;
    std::int64_t start = 0, end = 0;
};

struct DemoManifest {
    std::vector<std::string> files;
    std::vector<DemoFault> faults;
    std::size_t switches = 0, cas = 0, links = 0, rows = 0;
    std::vector<std::vector<std::string>> groups;  // dragonfly groups / rails' NICs, by description
};

// "fat-tree", "dragonfly", "rail"; nullopt for anything else.
std::optional<DemoOptions::Topology> parseDemoTopology(const std::string& name);

// Writes DIR/topology.ibnetdiscover, DIR/counters.csv and DIR/.expected-findings.json (hidden, so
// `fabscope import DIR` skips it). Throws std::runtime_error on I/O errors.
DemoManifest writeDemo(const std::string& dir, const DemoOptions& options);

// The demo's topology as a Fabric (used by writeDemo and by tests).
Fabric demoFabric(DemoOptions::Scale scale);

// Writes a fabric as `ibnetdiscover` prints it (switch blocks, then CA blocks).
void writeIbnetdiscover(const Fabric& fabric, std::ostream& out, std::int64_t generatedAt);

} // namespace fabscope
