#pragma once
// The interface every importer implements. An importer parses bytes; it never opens the store's
// transaction itself (the ImportRunner does), so a failure always leaves the store untouched.
#include "core/diagnostics.h"
#include "core/model.h"
#include "core/store/fabric_events.h"
#include "core/store/port_ber.h"
#include "core/store/port_optics.h"
#include "core/store/probes.h"
#include "core/store/sample_writer.h"
#include "core/store/store.h"
#include "importers/progress.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace fabscope {

// What counter importers may look up in the topology already stored (its latest snapshot):
// perfquery names ports by LID, exporters by port GUID. Built by the ImportRunner.
struct FabricIndex {
    std::unordered_map<int, std::string> nodeGuidByLid;                      // switch port-0 LID, CA port LIDs
    std::unordered_map<std::string, std::pair<std::string, int>> byPortGuid;  // port GUID -> (node GUID, port)
    std::unordered_set<std::string> nodeGuids;
    static FabricIndex from(const Fabric& f);
};

struct ImportInput {
    std::string file;        // as named to the user in diagnostics
    std::string_view bytes;  // whole file content
    double mtime = 0;        // UNIX seconds
    const FabricIndex* fabric = nullptr;  // null when no topology is known
    // Called by an importer that parses on every core (Importer::parsesOnAllCores) once the
    // first of its threads is done, from that thread: a core is free; may be empty.
    std::function<void()> parsed = {};
    // The caller read every byte already and found no NUL (the import runner's terminal-capture
    // pass), so checked() does not read a large file once more for them.
    bool nulFree = false;
    // Takes an importer's large buffers once its rows are written (the long CSV's parsed samples,
    // ~45 MB for 100 MB of text): the runner frees them beside the commit's fsync instead of on
    // the import's critical path (~4 ms). May be empty: the importer then frees them itself.
    std::function<void(std::shared_ptr<void>)> keepUntilCommitted = {};
};

class DiagnosticSink {
public:
    explicit DiagnosticSink(std::string file) : file_(std::move(file)) {}
    void warn(std::int64_t line, std::string msg) {
        items_.push_back({file_, line, Severity::Warning, std::move(msg)});
    }
    void info(std::int64_t line, std::string msg) { items_.push_back({file_, line, Severity::Info, std::move(msg)}); }
    [[noreturn]] void fail(std::int64_t line, const std::string& msg) const { throw ImportError(file_, line, msg); }
    [[nodiscard]] const std::vector<Diagnostic>& items() const { return items_; }
    [[nodiscard]] const std::string& file() const { return file_; }

private:
    std::string file_;
    std::vector<Diagnostic> items_;
};

struct TopologyResult {
    Fabric fabric;
    std::optional<double> time;   // the time the file says it was captured
    std::vector<PortHint> hints;  // supported width/speed above the active one (iblinkinfo)
    // Forwarding tables (ibroute, dump_fts). A result with routes and no nodes attaches them to
    // the latest stored snapshot instead of starting a new one.
    std::vector<SwitchRoutes> routes;
    // Counter samples the topology file also holds (ibdiagnet2.db_csv PM_INFO), written in the
    // snapshot's transaction after the snapshot, so they map onto its nodes.
    struct CounterSample {
        std::string node;  // node GUID
        std::string port;
        CounterInfo counter;
        std::int64_t timeMs = 0;
        double value = 0;
    };
    std::vector<CounterSample> samples;
    // What ports' modules reported (ibdiagnet2.cables); like routes, attached to the latest
    // stored snapshot when the result has no nodes.
    std::vector<PortOptics> optics;
    // Each port's FEC mode and bit error rates (ibdiagnet2.net_dump_ext); attached like optics.
    std::vector<PortBer> ber;
    // What the tool reported about nodes and ports (ibdiagnet's WARNINGS_/ERRORS_ rows).
    std::vector<FabricEvent> events;
};

class TopologyImporter;
class CounterImporter;
class JobImporter;
class ProbeImporter;

// Every importer is one of four kinds; `as()` hands the runner the kind's interface without a cast.
class Importer {
public:
    enum class Kind { Topology, Counters, Job, Probes };
    virtual ~Importer() = default;
    [[nodiscard]] virtual std::string_view name() const = 0;
    [[nodiscard]] virtual Kind kind() const = 0;
    // 0 = not this format; higher = more certain. Looks at the file's first kilobytes.
    [[nodiscard]] virtual int detect(std::string_view head) const = 0;
    [[nodiscard]] virtual const TopologyImporter* asTopology() const { return nullptr; }
    [[nodiscard]] virtual const CounterImporter* asCounters() const { return nullptr; }
    [[nodiscard]] virtual const JobImporter* asJob() const { return nullptr; }
    [[nodiscard]] virtual const ProbeImporter* asProbes() const { return nullptr; }
    // Whether read() looks names up in ImportInput::fabric. The runner builds that index (0.2-0.4 s
    // for an 83k-link fabric) only when a file's importer says so.
    [[nodiscard]] virtual bool usesFabricIndex() const { return true; }
    // Whether read() parses on every worker thread and calls ImportInput::parsed once a core no
    // longer does. The runner then hashes a large file after the parse instead of beside it, where the
    // hash took a share of the parse's cores.
    [[nodiscard]] virtual bool parsesOnAllCores() const { return false; }
    // The names read() takes from the file's path, not its content (a host, a job), or '' when the
    // content names everything. Part of the import's identity: two hosts' files of the same bytes
    // (idle switches' all-zero PFC counters) are two imports, not one "already imported".
    [[nodiscard]] virtual std::string nameFromPath(std::string_view /*path*/, std::string_view /*text*/) const { return {}; }

protected:
    // The checks every format shares, made once here before an importer's read(): no NUL bytes
    // (binary data; the runner names the line of the first), and the bytes without a UTF-8
    // byte-order mark. UTF-16 is named by the runner before a format is detected.
    [[nodiscard]] ImportInput checked(const ImportInput& in, const DiagnosticSink& diag) const;
};

// Each kind's parse() is checked(), then the importer's own read().
class TopologyImporter : public Importer {
public:
    [[nodiscard]] Kind kind() const final { return Kind::Topology; }
    [[nodiscard]] const TopologyImporter* asTopology() const final { return this; }
    TopologyResult parse(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
        return read(checked(in, diag), diag, progress);
    }
    // A cabling plan (what should be cabled), not a discovered fabric: stored as a snapshot of
    // its own that the discovered fabric is checked against (docs/ANALYSIS.md, topology_change).
    [[nodiscard]] virtual bool describesPlan() const { return false; }

protected:
    virtual TopologyResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const = 0;
};

class CounterImporter : public Importer {
public:
    [[nodiscard]] Kind kind() const final { return Kind::Counters; }
    [[nodiscard]] const CounterImporter* asCounters() const final { return this; }
    // Returns the number of rows (samples) read.
    std::int64_t parse(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag, const ProgressFn& progress) const {
        return read(checked(in, diag), out, diag, progress);
    }

protected:
    virtual std::int64_t read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                              const ProgressFn& progress) const = 0;
};

// A job: which host and device each rank ran on (NCCL INFO logs, `rank,host,device` CSV).
struct JobResult {
    std::string name;
    std::vector<JobRank> ranks;  // sorted by rank
    JobDetails details;          // NCCL logs: version, communicator size, rings, trees, transports
};

class JobImporter : public Importer {
public:
    [[nodiscard]] Kind kind() const final { return Kind::Job; }
    [[nodiscard]] const JobImporter* asJob() const final { return this; }
    JobResult parse(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
        return read(checked(in, diag), diag, progress);
    }

protected:
    virtual JobResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const = 0;
};

// Probe and benchmark results (pingmesh CSV, perftest, nccl-tests): what host pairs measured.
struct ProbeImportResult {
    std::vector<ProbeResult> probes;
    std::vector<CollectiveRun> runs;
    [[nodiscard]] std::int64_t rows() const;
};

class ProbeImporter : public Importer {
public:
    [[nodiscard]] Kind kind() const final { return Kind::Probes; }
    [[nodiscard]] const ProbeImporter* asProbes() const final { return this; }
    ProbeImportResult parse(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
        return read(checked(in, diag), diag, progress);
    }

protected:
    virtual ProbeImportResult read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const = 0;
};

} // namespace fabscope
