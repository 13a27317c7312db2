// Fuzz target: the NetQ topology importer (parse only; it never touches a store).
#include "importers/netq_topology_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::NetqTopologyImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        (void)importer.parse({"topologyGraph.json", bytes, 0, nullptr}, diag, {});
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
