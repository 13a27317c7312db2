// Fuzz target: the ibdiagnet2.db_csv parser must return a consistent fabric and finite samples,
// or throw ImportError.
#include "importers/ibdiagnet_db_csv_importer.h"

#include <cmath>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::IbdiagnetDbCsvImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        const auto r = importer.parse({"fuzz", bytes, 0}, diag, {});
        for (const auto& l : r.fabric.links)
            if (l.a.value() >= r.fabric.ports.size() || l.b.value() >= r.fabric.ports.size()) __builtin_trap();
        for (const auto& p : r.fabric.ports)
            if (p.node.value() >= r.fabric.nodes.size()) __builtin_trap();
        for (const auto& s : r.samples)
            if (!std::isfinite(s.value) || s.value < 0 || s.node.empty()) __builtin_trap();
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
