#pragma once
// busbw-vs-message-size chart of nccl-tests runs as standalone SVG: x is log2 of the size with
// B/KiB/MiB/GiB ticks, y the bus bandwidth in GB/s; one solid line per run, in-place dashed.
#include "core/store/probes.h"

#include <string>
#include <vector>

namespace fabscope {

std::string renderBusbwChart(const std::vector<CollectiveRun>& runs, int width = 560, int height = 250);

} // namespace fabscope
