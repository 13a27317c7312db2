// Fuzz target for every importer of the registry: the format comes from FABSCOPE_FUZZ_FORMAT (one
// ctest per format of tests/data/format_samples.txt, seeded from its samples' folders), so a new
// importer is fuzzed once its sample is listed. An input must either parse or throw ImportError,
// and what it parses must hold together:
//   topology: every port on a node of the fabric, every link between two of its ports, distinct;
//     module readings (ibdiagnet2.cables) on a named port, in range, lanes round-tripping as stored;
//     ibdiagnet's warnings and errors on a node, with a port 1-255 or none;
//   counters: a row count >= 0, written in a transaction that is rolled back;
//   job: ranks sorted, hosts named; probes: counts >= 0, latencies finite and >= 0.
#include "core/store/store.h"
#include "importers/registry.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace fabscope;

// Traps (the fuzzer's crash) naming the broken invariant on stderr.
#define check(ok) checkAt((ok), #ok)
void checkAt(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz_importer: invariant broken: %s\n", what);
    __builtin_trap();
}

void checkTopology(const TopologyResult& r) {
    const Fabric& f = r.fabric;
    for (const Port& p : f.ports) check(p.node.value() < f.nodes.size());
    for (const Link& l : f.links) {
        check(l.a.value() < f.ports.size() && l.b.value() < f.ports.size());
        check(!(l.a == l.b));
    }
    // Module readings: a port on a GUID, finite readings in range, lanes as stored read back alike.
    for (const PortOptics& o : r.optics) {
        check(!o.nodeGuid.empty() && !o.port.empty() && o.line > 0);
        if (o.temperatureC) check(std::isfinite(*o.temperatureC));
        for (const auto* lanes : {&o.rxPowerDbm, &o.txPowerDbm}) {
            for (const auto& v : *lanes)
                if (v) check(*v >= -60 && *v <= 30);
            check(lanesFromText(lanesText(*lanes)) == *lanes);
        }
        for (const auto& v : o.txBiasMa)
            if (v) check(std::isfinite(*v));
    }
    // Bit error rates: a port 1-255 on a GUID, each rate a number from 0 to 1, something read.
    for (const PortBer& b : r.ber) {
        check(!b.nodeGuid.empty() && b.line > 0 && std::stoi(b.port) >= 1 && std::stoi(b.port) <= 255);
        for (const auto& v : {b.rawBer, b.effectiveBer, b.symbolBer})
            if (v) check(std::isfinite(*v) && *v >= 0 && *v <= 1);
        check(!b.fecMode.empty() || b.hasRates() || b.symbolErrors || b.effectiveErrors);
    }
    // A tool's warnings and errors: on a node, a port number 1-255 or none, named and placed.
    for (const FabricEvent& e : r.events) {
        check(!e.nodeGuid.empty() && !e.check.empty() && e.line > 0);
        check(e.port.empty() || (e.port.find_first_not_of("0123456789") == std::string::npos && std::stoi(e.port) >= 1 &&
                                 std::stoi(e.port) <= 255));
    }
}

void checkJob(const JobResult& j) {
    for (std::size_t i = 1; i < j.ranks.size(); ++i) check(j.ranks[i - 1].rank <= j.ranks[i].rank);
    for (const JobRank& r : j.ranks) check(!r.host.empty());
    check(!j.details.time || std::isfinite(*j.details.time));
}

void checkProbes(const ProbeImportResult& r) {
    check(r.rows() >= 0);
    for (const ProbeResult& p : r.probes) {
        check(p.sent >= 0 && p.lost >= 0);
        if (p.latencyUs) check(std::isfinite(*p.latencyUs) && *p.latencyUs >= 0);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const ImporterRegistry registry;
    static const Importer* importer = [] {
        const char* name = std::getenv("FABSCOPE_FUZZ_FORMAT");
        const Importer* i = name ? registry.byName(name) : nullptr;
        if (!i) std::abort();  // the ctest names a format the registry does not have
        return i;
    }();
    static Store store(":memory:");
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    DiagnosticSink diag("fuzz");
    const ImportInput in{"fuzz", bytes, 0, nullptr};
    try {
        (void)importer->detect(bytes.substr(0, 16384));
        if (const auto* t = dynamic_cast<const TopologyImporter*>(importer)) {
            checkTopology(t->parse(in, diag, {}));
        } else if (const auto* c = dynamic_cast<const CounterImporter*>(importer)) {
            const Store::Transaction tx(store);  // never committed
            SampleWriter writer(store);
            check(c->parse(in, writer, diag, {}) >= 0);
            writer.flush();
        } else if (const auto* j = dynamic_cast<const JobImporter*>(importer)) {
            checkJob(j->parse(in, diag, {}));
        } else if (const auto* p = dynamic_cast<const ProbeImporter*>(importer)) {
            checkProbes(p->parse(in, diag, {}));
        }
    } catch (const ImportError&) {
    }
    return 0;
}
