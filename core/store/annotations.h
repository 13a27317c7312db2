#pragma once
// Annotations: a note pinned to a time range and optionally to ports, kept in the store so the
// GUI, the CLI and reports share them ("16:05 maintenance on spine01", "job 4711 started").
// The table comes with schema v4 (core/store_schema.cpp); ports are kept as JSON
// [{"node","guid","port"}].
#include "core/analysis/findings.h"
#include "core/store/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabscope {

struct Annotation {
    std::int64_t id = 0;          // set by addAnnotation
    double start = 0, end = 0;    // UNIX seconds; end == start for an instant
    std::string note;
    std::string author;
    double createdAt = 0;         // UNIX seconds; 0: now
    std::vector<PortRef> ports;   // empty: the whole fabric
};

// Throws std::invalid_argument when end < start or the note is empty, StoreError on failures.
std::int64_t addAnnotation(Store& store, const Annotation& a);
// False when there was no such annotation.
bool removeAnnotation(Store& store, std::int64_t id);
// Annotations overlapping [from, to] (either end open), by start time.
std::vector<Annotation> annotations(const Store& store, std::optional<double> from = std::nullopt,
                                    std::optional<double> to = std::nullopt);

} // namespace fabscope
