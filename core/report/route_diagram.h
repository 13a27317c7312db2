#pragma once
// A route drawn as a row of nodes (host -> leaf -> spine -> leaf -> host) with each hop's ports,
// the bottleneck hop highlighted: the picture a straggler-path finding needs. Standalone SVG that
// Qt Svg can render too (no markers, no CSS).
#include "core/analysis/findings.h"
#include "core/report/document.h"

#include <string>
#include <vector>

namespace fabscope {

// `path`: ports in order from the source host port to the destination host port, two per hop
// (transmitter, receiver), as in a straggler_path finding. `bad`: the hop to highlight
// (transmitter, receiver); `badNote` is written under it ("degraded_link, 25% headroom").
Diagram routeDiagram(const std::vector<PortRef>& path, const std::vector<PortRef>& bad, const std::string& badNote,
                     std::string caption);

} // namespace fabscope
