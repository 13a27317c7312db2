// Fuzz target: the UFM Telemetry JSON importer writing into an in-memory store, rolled back each time.
#include "core/store/store.h"
#include "importers/ufm_telemetry_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fabscope::Store store(":memory:");
    static const fabscope::FabricIndex index{{}, {{"0xc42a103007ab890", {"0xc42a103007ab88f", 1}}}};
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::UfmTelemetryImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    fabscope::Store::Transaction tx(store);  // never committed
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        fabscope::SampleWriter writer(store);
        importer.parse({"fuzz.json", bytes, 0, &index}, writer, diag, {});
        writer.flush();
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
