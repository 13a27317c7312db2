#pragma once
// Maps Prometheus series of the InfiniBand exporters to FabScope (node, port, counter):
// treydock infiniband_exporter (infiniband_{switch,hca}_port_*, bytes), guilbaults
// infiniband-exporter (infiniband_<perfquery name>_total, 4-byte words), node_exporter
// (node_infiniband_*, node_ethtool_*). Shared by the text and query_range JSON importers.
#include "core/counters.h"
#include "importers/importer.h"

#include <map>
#include <optional>
#include <string>

namespace fabscope {

using Labels = std::map<std::string, std::string, std::less<>>;

struct PromTarget {
    std::string node;  // GUID or "host device" (the node description convention)
    std::string port;
    CounterInfo counter;
    double scale = 1;
};

// `fileHost`: the host a node_exporter scrape file came from when no `instance` label says it
// (the file name stem, "gpu007.prom" -> "gpu007"). nullopt: not a counter FabScope stores
// (gauges, info metrics, other exporters); `why` then says which kind.
std::optional<PromTarget> mapPromSeries(std::string_view metric, const Labels& labels, const FabricIndex* fabric,
                                        const std::string& fileHost, std::string& why);

// "dir/gpu007.prom" -> "gpu007"
std::string hostFromFileName(std::string_view path);

} // namespace fabscope
