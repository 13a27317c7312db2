// Fuzz target: the nccl_log job importer (parse only; the ImportRunner writes the job).
#include "importers/nccl_log_importer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fabscope::NcclLogImporter importer;
    fabscope::DiagnosticSink diag("fuzz");
    try {
        (void)importer.detect(bytes.substr(0, 16384));
        (void)importer.parse({"train.log", bytes, 0, nullptr}, diag, {});
    } catch (const fabscope::ImportError&) {
    }
    return 0;
}
