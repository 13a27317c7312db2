// Fuzz target: the perftest importer (parse only; its results go through writeProbes, covered by tests).
#include "importers/perftest_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::PerftestImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        (void)importer.parse({"ib_write_lat_gpu001_gpu009.txt", bytes, 0, nullptr}, diag, {});
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
