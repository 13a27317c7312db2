// Fuzz target: the ibdiagnet2.fdbs parser must either return tables or throw ImportError.
#include "importers/ibdiagnet_fdbs_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::IbdiagnetFdbsImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        const auto r = importer.parse({"fuzz", bytes, 0}, diag, {});
        for (const auto& l : r.fabric.links)
            if (l.a.value() >= r.fabric.ports.size() || l.b.value() >= r.fabric.ports.size()) __builtin_trap();
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
