#pragma once
// One file, two readings: nccl-tests run with NCCL_DEBUG=INFO print the job's NCCL log between
// their table rows, and an NCCL log may hold an nccl-tests table. Whichever importer took the
// file, the other reading is stored too, under the same import record; its errors are warnings.
#include "core/store/store.h"
#include "importers/pending_file.h"
#include "importers/registry.h"

#include <cstdint>

namespace fabscope {

// The job an nccl-tests file's NCCL INFO lines give, when they give one.
void alsoAJob(Store& store, const ImporterRegistry& registry, const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag,
              std::int64_t importId);
// The benchmark an NCCL log's nccl-tests table gives, when it holds one.
void alsoABenchmark(Store& store, const ImporterRegistry& registry, const PendingFile& pf, const ImportInput& in,
                    DiagnosticSink& diag, std::int64_t importId);

} // namespace fabscope
