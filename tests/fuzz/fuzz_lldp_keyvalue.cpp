// Fuzz target: the lldpctl-keyvalue topology importer (parse only; it never touches a store).
#include "importers/lldp_keyvalue_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::LldpKeyvalueImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        (void)importer.parse({"leaf01.kv", bytes, 0, nullptr}, diag, {});
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
