#pragma once
// `fabscope demo`: a synthetic fat-tree fabric written in real formats (ibnetdiscover + long CSV)
// with faults whose answers are known, so the GUI and the analysis have something true to show.
#include "core/model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fabscope {

struct DemoOptions {
    enum class Scale { Small, Large } scale = Scale::Small;
    int samples = 0;                 // 0 = default for the scale (60 small, 360 large)
    std::int64_t startTime = 1700000000;
    int intervalSeconds = 10;
};

struct DemoFault {
    std::string kind;      // finding kind the analysis should report
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
};

// Writes DIR/topology.ibnetdiscover, DIR/counters.csv and DIR/.expected-findings.json (hidden, so
// `fabscope import DIR` skips it). Throws std::runtime_error on I/O errors.
DemoManifest writeDemo(const std::string& dir, const DemoOptions& options);

// The demo's topology as a Fabric (used by writeDemo and by tests).
Fabric demoFabric(DemoOptions::Scale scale);

// Writes a fabric as `ibnetdiscover` prints it (switch blocks, then CA blocks).
void writeIbnetdiscover(const Fabric& fabric, std::ostream& out, std::int64_t generatedAt);

} // namespace fabscope
