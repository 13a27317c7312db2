#pragma once
// `fabscope import --prometheus URL --from --to [--step] [--match...]`: pulls counter series from
// a Prometheus server's /api/v1/query_range, in chunks the server accepts, and stores them like
// an imported query_range file: same label -> fabric port mapping, one transaction, one import
// record (format "prometheus-pull"). The header is Qt-free so the CLI stays so.
#include "core/store/store.h"
#include "importers/import_runner.h"

#include <string>
#include <vector>

namespace fabscope {

struct PullOptions {
    std::string url;                     // the server (http://host:9090[/prefix]) or its .../api/v1/query_range
    double from = 0, to = 0;             // UNIX seconds, both included
    double step = 60;                    // seconds between evaluated instants; use the scrape interval
    std::vector<std::string> selectors;  // empty = the fabric metrics FabScope maps (defaultFabricSelectors)
    int timeoutMs = 60000;               // per request, without a byte received
    int attempts = 3;                    // per request, on timeouts, resets, HTTP 502/503/504
    int backoffMs = 500;                 // before the 2nd attempt; doubles
    std::int64_t maxPoints = 11000;      // per series and query: the server's own limit
};

// The exporters' counters FabScope maps (treydock and guilbaults infiniband exporters,
// node_exporter's infiniband and ethtool collectors), one selector each.
std::vector<std::string> defaultFabricSelectors();

// Pulls and stores. Input problems (server down, HTTP or API errors, nothing to import) come back
// as a failed outcome with its diagnostic and leave the store as it was; a pull identical to an
// earlier one (same URL, selectors, window and step) is a no-op that says so. Throws
// std::invalid_argument for unusable options, StoreError when the store fails. Needs no running
// event loop; creates a QCoreApplication for the call when the process has none (the CLI).
ImportSummary pullPrometheus(Store& store, const PullOptions& options, const ProgressFn& progress = {});

} // namespace fabscope
