// Fuzz target: the prometheus_json importer writing into an in-memory store, rolled back each time.
#include "core/store/store.h"
#include "importers/prometheus_json_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fabscope::Store store(":memory:");
    static const fabscope::FabricIndex index{{{7, "0x200004"}}, {}};
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::PrometheusJsonImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    fabscope::Store::Transaction tx(store);  // never committed
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        fabscope::SampleWriter writer(store);
        importer.parse({"0x1.out", bytes, 0, &index}, writer, diag, {});
        writer.flush();
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
