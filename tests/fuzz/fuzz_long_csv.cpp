// Fuzz target: the long CSV importer writing into an in-memory store, rolled back each time.
#include "core/store/store.h"
#include "importers/long_csv_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static fabscope::Store store(":memory:");
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::LongCsvImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    fabscope::Store::Transaction tx(store);  // never committed
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        fabscope::SampleWriter writer(store);
        importer.parse({"fuzz", bytes, 0}, writer, diag, {});
        writer.flush();
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
