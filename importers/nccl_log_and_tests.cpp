#include "importers/nccl_log_and_tests.h"

#include "core/store/probes.h"

namespace fabscope {

void alsoAJob(Store& store, const ImporterRegistry& registry, const PendingFile& pf, const ImportInput& in, DiagnosticSink& diag,
              std::int64_t importId) {
    const Importer* log = registry.byName("nccl-log");
    if (!log || pf.importer == log || log->detect(pf.text.substr(0, kDetectBytes)) == 0) return;
    DiagnosticSink jobDiag(pf.path);
    try {
        auto job = log->asJob()->parse(in, jobDiag, {});
        if (!job.details.time) job.details.time = in.mtime;
        writeJob(store, job.name, importId, job.ranks, job.details);
        for (const auto& d : jobDiag.items()) diag.warn(d.line, d.message);
    } catch (const ImportError& e) {
        diag.warn(e.diagnostic().line, "its NCCL INFO lines give no job: " + e.diagnostic().message);
    }
}

void alsoABenchmark(Store& store, const ImporterRegistry& registry, const PendingFile& pf, const ImportInput& in,
                    DiagnosticSink& diag, std::int64_t importId) {
    const Importer* bench = registry.byName("nccl-tests");
    if (!bench || pf.importer == bench || bench->detect(pf.text.substr(0, kDetectBytes)) == 0) return;
    DiagnosticSink benchDiag(pf.path);
    try {
        const auto result = bench->asProbes()->parse(in, benchDiag, {});
        writeProbes(store, importId, result.probes);
        for (const auto& run : result.runs) writeCollectiveRun(store, importId, run);
        for (const auto& d : benchDiag.items()) diag.warn(d.line, d.message);
    } catch (const ImportError& e) {
        diag.warn(e.diagnostic().line, "its nccl-tests lines give no benchmark: " + e.diagnostic().message);
    }
}

} // namespace fabscope
