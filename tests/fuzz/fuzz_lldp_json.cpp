// Fuzz target: the lldpctl-json topology importer (parse only; it never touches a store).
#include "importers/lldp_json_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::LldpJsonImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        (void)importer.parse({"leaf01.json", bytes, 0, nullptr}, diag, {});
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
