// Fuzz target: the rdma statistic / hw_counters importer writing into an in-memory store, rolled back each time.
#include "core/store/store.h"
#include "importers/rdma_stat_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fabscope::Store store(":memory:");
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::RdmaStatImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    fabscope::Store::Transaction tx(store);  // never committed
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        fabscope::SampleWriter writer(store);
        importer.parse({"gpu01.rdma.txt", bytes, 0, nullptr}, writer, diag, {});
        writer.flush();
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
