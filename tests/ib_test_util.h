#pragma once
// Helpers shared by the tst_ib_* tests: read tests/data files, import counters into an
// in-memory store (optionally over a topology), and look series up the way a user names them.
#include "core/analysis/findings.h"
#include "core/store/store.h"
#include "importers/ibnetdiscover_importer.h"
#include "importers/import_runner.h"
#include "importers/importer.h"

#include <QFile>
#include <QtTest>

#include <algorithm>
#include <memory>
#include <optional>

namespace ibtest {

using namespace fabscope;

inline std::string readData(const QString& rel) {
    QFile f(QStringLiteral(FABSCOPE_TEST_DATA "/") + rel);
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing test data %s", qPrintable(rel));
    return f.readAll().toStdString();
}

inline std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
    return s;
}

inline Fabric parseIbnetdiscover(const std::string& text) {
    DiagnosticSink diag("topology");
    return IbnetdiscoverImporter().parse(ImportInput{"topology", text, 0}, diag, {}).fabric;
}

struct CounterImport {
    std::unique_ptr<Store> store = std::make_unique<Store>(":memory:");
    std::int64_t rows = 0;
    std::vector<Diagnostic> warnings;

    // The samples of (node as stored in the series, port, counter); nullopt when no such series.
    [[nodiscard]] std::optional<SeriesData> series(const std::string& nodeRef, const std::string& port,
                                                   const std::string& counter) const {
        for (const auto& s : store->series())
            if (s.nodeRef == nodeRef && s.port == port && s.counter == counter) return store->loadSeries(s.id);
        return std::nullopt;
    }
    [[nodiscard]] bool warned(const std::string& words) const {
        return std::any_of(warnings.begin(), warnings.end(), [&](const Diagnostic& d) { return d.message.find(words) != std::string::npos; });
    }
};

// Imports `text` as `file` with `importer`; `topology` (ibnetdiscover text) is stored first.
inline CounterImport importCounters(const CounterImporter& importer, const std::string& text, const std::string& file,
                                    double mtime = 1700000000, const std::string& topology = {}) {
    CounterImport r;
    Store::Transaction tx(*r.store);
    std::optional<FabricIndex> index;
    if (!topology.empty()) {
        const Fabric f = parseIbnetdiscover(topology);
        r.store->writeSnapshot(f, "topology", 0);
        index = FabricIndex::from(f);
    }
    SampleWriter writer(*r.store);
    DiagnosticSink diag(file);
    r.rows = importer.parse(ImportInput{file, text, mtime, index ? &*index : nullptr}, writer, diag, {});
    writer.flush();
    tx.commit();
    r.warnings = diag.items();
    return r;
}

// 1-based number of the first line holding `what` (where a test expects an error to point).
inline std::int64_t lineOf(const std::string& text, const std::string& what) {
    const auto at = text.find(what);
    if (at == std::string::npos) qFatal("no '%s' in the test text", what.c_str());
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
}

// The error `parse()` throws for a broken variant (file, line, message), or a diagnostic at line
// -1 saying it imported, which fails the test's line check.
template <typename Parse>
Diagnostic failureOf(const std::string& file, Parse&& parse) {
    try {
        parse();
    } catch (const ImportError& e) {
        return e.diagnostic();
    }
    return {file, -1, Severity::Info, "imported without error"};
}

// Every diagnostic of an import, one per line (a failed check's message).
inline std::string messages(const ImportSummary& s) {
    std::string out;
    for (const auto& d : s.diagnostics) out += d.format() + "\n";
    return out;
}

// The first finding of `kind` naming port `port` of the node with GUID `guid`.
inline const Finding* findingOn(const FindingsReport& r, FindingKind kind, const std::string& guid, const std::string& port) {
    for (const auto& f : r.findings)
        if (f.kind == kind)
            for (const auto& p : f.ports)
                if (p.guid == guid && p.port == port) return &f;
    return nullptr;
}

} // namespace ibtest
