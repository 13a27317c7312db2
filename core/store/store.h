#pragma once
// The FabScope store: one SQLite file holding topology snapshots, counter series in chunks, and
// the record of every import (docs/ARCHITECTURE.md). Not thread-safe: one Store per thread.
#include "core/model.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace fabscope {
namespace sql {
class Stmt;
}

struct ImportRecord {
    std::int64_t id = 0;
    std::string file;
    std::string sha256;
    std::string format;
    std::int64_t rows = 0;
    double importedAt = 0;  // UNIX seconds
    std::int64_t snapshotId = 0;  // the topology snapshot it was written with or attached to; 0 = none
    // What the records took from the file's path (a host, a job; Importer::nameFromPath), '' when
    // the content names everything: the same content under another host's name is another import.
    // nullopt for an import stored before names counted (schema < 17): a repeat by content alone.
    std::optional<std::string> nameKey = std::string();
};

struct SeriesInfo {
    std::int64_t id = 0;
    std::int64_t deviceId = 0;  // 0: not mapped to a fabric node
    std::string nodeRef;        // the node as the input named it
    std::string port;           // "33" or "Ethernet8"
    std::string counter;        // canonical name
    std::string unit;
};

// One series row as Store::forEachSeries() reads it: the texts view the row being read.
struct SeriesRow {
    std::int64_t id = 0;
    std::int64_t deviceId = 0;
    std::string_view nodeRef, port;
    std::size_t counterId = 0;  // the same for every row of one counter
    const std::string& counter;
    const std::string& unit;
};

struct SeriesData {
    std::vector<std::int64_t> timesMs;  // sorted
    std::vector<double> values;         // raw cumulative values as imported
};

struct StoreInfo {
    std::size_t switches = 0, cas = 0, routers = 0;
    std::size_t ports = 0, links = 0;
    std::size_t series = 0, samples = 0, unmappedSeries = 0, jobs = 0;
    std::optional<double> timeStart, timeEnd;  // UNIX seconds over all samples
    std::vector<std::string> snapshots;         // labels, oldest first
    std::vector<std::string> plans;             // cabling plans' labels, oldest first
    std::vector<ImportRecord> imports;
};

// A port's supported width/speed when it could run faster than it does (iblinkinfo "Could be").
struct PortHint {
    std::string nodeGuid;
    std::string port;
    std::optional<int> width;  // lanes
    std::string speed;         // "HDR"; empty when only the width is hinted
};

// A switch's unicast forwarding table: egress[L] is the output port for destination LID L
// (kNoRoute when the table has no entry), for path tracing.
struct SwitchRoutes {
    static constexpr std::uint8_t kNoRoute = 255;
    std::string nodeGuid;
    std::vector<std::uint8_t> egress;
};

class Store {
public:
    static constexpr int kSchemaVersion = 17;
    enum class Mode { ReadWrite, ReadOnly };

    // Opens (creating when needed) and migrates the store; throws StoreError.
    explicit Store(const std::string& path, Mode mode = Mode::ReadWrite);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    [[nodiscard]] int schemaVersion() const;
    [[nodiscard]] const std::string& path() const { return path_; }
    [[nodiscard]] bool readOnly() const { return !stmts_; }
    // Another read-only connection to the same file, for worker thread `i` (>= 1) of a parallel
    // read (core/parallel_connections.h): opened on first use and kept, with its prepared
    // statements, for the next one (an analysis reads in parallel six times). One thread's at a time.
    [[nodiscard]] const Store& sibling(std::size_t i) const;
    // Whether parallel work may split through siblings: a read-only store's may, a sibling's
    // own may not (it is already one share of such work; the analysis' window, read on
    // sibling 1, opened a third connection for its chunk totals, a third thread on two cores).
    [[nodiscard]] bool splitsWork() const { return readOnly() && !isSibling_; }

    // All writes of one imported file happen inside one Transaction; without commit() it rolls back.
    class Transaction {
    public:
        explicit Transaction(Store& s);
        ~Transaction();
        Transaction(const Transaction&) = delete;
        Transaction& operator=(const Transaction&) = delete;
        void commit();

    private:
        Store* store_;
        bool done_ = false;
    };

    // One read transaction over a burst of queries (an analysis loading thousands of series):
    // SQLite then takes its shared lock once instead of once per query (two fcntl calls and an
    // fstat each), and the burst reads one consistent state. Keep it short: while it is held a
    // writer's commit waits. A no-op inside a transaction already open on this connection.
    class ReadTransaction {
    public:
        explicit ReadTransaction(const Store& s);
        ~ReadTransaction();
        ReadTransaction(const ReadTransaction&) = delete;
        ReadTransaction& operator=(const ReadTransaction&) = delete;

    private:
        sqlite3* db_ = nullptr;  // null when nothing was begun here
    };

    // --- imports
    // Every import of this content, whatever names its path gave.
    [[nodiscard]] std::vector<ImportRecord> findImports(const std::string& sha256) const;
    // The import of this content under these names (or of this content before names counted).
    [[nodiscard]] std::optional<ImportRecord> findImport(const std::string& sha256, const std::string& nameKey = {}) const;
    std::int64_t recordImport(const std::string& file, const std::string& sha256, const std::string& format,
                              std::int64_t rows, std::int64_t snapshotId = 0, const std::string& nameKey = {});
    [[nodiscard]] std::vector<ImportRecord> imports() const;

    // --- topology
    // A cabling plan (`planned`) is stored as a snapshot too, but stays out of the runs' history:
    // snapshots() and latestSnapshot() give the discovered fabrics, and the plans only in a store
    // that holds nothing else (so a plan alone can be drawn, analysed and changed in a what-if).
    std::int64_t writeSnapshot(const Fabric& fabric, const std::string& label, double time, bool planned = false);
    [[nodiscard]] std::vector<SnapshotInfo> snapshots() const;     // oldest first
    [[nodiscard]] std::optional<SnapshotInfo> latestSnapshot() const;
    [[nodiscard]] std::vector<SnapshotInfo> plans() const;         // oldest first
    [[nodiscard]] std::optional<SnapshotInfo> snapshotByLabel(const std::string& label) const;
    [[nodiscard]] Fabric loadFabric(std::int64_t snapshotId) const;
    // The same from the snap_* tables alone, ignoring the v5 blob (tests compare the two).
    [[nodiscard]] Fabric loadFabricFromTables(std::int64_t snapshotId) const;
    // The snapshot's v5 fabric blob (core/fabric_codec.h) as stored; empty when there is none, so
    // a caller can decode it on another thread while this connection reads on.
    [[nodiscard]] std::string fabricBlob(std::int64_t snapshotId) const;
    // Device ids of the nodes of a loaded fabric, same order as fabric.nodes.
    [[nodiscard]] std::vector<std::int64_t> deviceIds(std::int64_t snapshotId) const;

    // Name -> device id for every name a node is known by (GUID, description, system name) in
    // the latest snapshot. Empty when there is no topology yet.
    [[nodiscard]] std::vector<std::pair<std::string, std::int64_t>> deviceNames() const;

    // --- series
    std::int64_t ensureSeries(std::int64_t deviceId, const std::string& nodeRef, const std::string& port,
                              const std::string& counter, const std::string& unit);
    // The ids of many series (SeriesInfo::id unused), created where absent: the same ids one
    // ensureSeries() each gives, the new rows inserted 64 to a statement (an import creates
    // tens of thousands, and one statement each was a fifth of its time).
    // `idsKnown`, when given, is called with the ids before the new rows are written: an
    // import's encoder thread starts on the samples while SQLite inserts the rows.
    std::vector<std::int64_t> ensureSeries(std::span<const SeriesInfo> series,
                                           const std::function<void(std::span<const std::int64_t>)>& idsKnown = {});
    void reserveSeries(std::size_t more);  // room in the series cache for `more` new series
    void appendChunk(std::int64_t seriesId, std::span<const std::int64_t> timesMs, std::span<const double> values);
    // The id the next recordImport() of this transaction gives: chunks written now carry it.
    [[nodiscard]] std::int64_t pendingImportId() const;
    [[nodiscard]] std::vector<SeriesInfo> series() const;
    // The same rows in id order, handed to `row` one at a time without a copy of their texts.
    void forEachSeries(const std::function<void(const SeriesRow&)>& row) const;
    [[nodiscard]] SeriesData loadSeries(std::int64_t seriesId, std::int64_t fromMs = INT64_MIN,
                                        std::int64_t toMs = INT64_MAX) const;

    [[nodiscard]] StoreInfo info() const;
    // The samples stored and their first and last times (ms), without the rest of info() (the
    // fabric's and the series' counts, jobs, imports): what the analysis window defaults to.
    struct SampleSpan {
        std::int64_t samples = 0;
        std::optional<std::int64_t> firstMs, lastMs;  // empty without samples
    };
    [[nodiscard]] SampleSpan sampleSpan() const;
    // By series id (the index into the result), the highest rate any interval of the series'
    // samples in [fromMs, toMs] can have: its chunk's stored peakRate() (core/analysis/rates.h),
    // read from the series index alone. 0 for a series without samples there; +infinity when
    // not known: a chunk written before schema 10, or two or more chunks in the window (the
    // interval between them is in neither's peak). Empty for a store before schema 10 opened
    // read-only. core/store/series_peaks.cpp.
    [[nodiscard]] std::vector<double> seriesPeaks(std::int64_t fromMs, std::int64_t toMs) const;

    // --- schema v3: port hints (writes skip nodes not in the snapshot)
    void writePortHints(std::int64_t snapshotId, const std::vector<PortHint>& hints);
    [[nodiscard]] std::vector<PortHint> portHints(std::int64_t snapshotId) const;
    // --- schema v3: forwarding tables (a switch not in the snapshot is skipped; returns how many were written)
    std::size_t writeRoutes(std::int64_t snapshotId, const std::vector<SwitchRoutes>& routes);
    [[nodiscard]] std::vector<SwitchRoutes> routes(std::int64_t snapshotId) const;

    // For the files of core/store/ and for tests: no SQL outside them (docs/ARCHITECTURE.md).
    [[nodiscard]] sqlite3* handle() const { return db_; }

private:
    void migrate();
    void begin();
    void commit();
    void rollback();
    std::int64_t deviceFor(const Node& node);

    std::string path_;
    sqlite3* db_ = nullptr;
    struct Statements;
    std::unique_ptr<Statements> stmts_;
    mutable std::unique_ptr<sql::Stmt> seriesQuery_;  // prepared once: analyses load many series
    mutable std::mutex siblingsMutex_;
    mutable std::map<std::size_t, std::unique_ptr<Store>> siblings_;  // closed before this connection
    bool isSibling_ = false;
};

} // namespace fabscope

// --- jobs (schema v2 tables jobs / job_ranks, v6 job_edges), written by job importers (NCCL
// logs, rank CSV) and read by the analysis, info and the views. core/store_jobs.cpp.
namespace fabscope {
struct JobRank {
    int rank = 0;
    std::string host;
    std::string device;    // "mlx5_0"; empty when unknown
    std::int64_t line = 0;  // where the input said so (file:line provenance); 0 when unknown
};
// "gpu005 mlx5_0", or the host alone when the device is unknown: how a rank's adapter is named
// (a host adapter's node description is "host device").
inline std::string adapterName(const std::string& host, const std::string& device) {
    return device.empty() ? host : host + " " + device;
}
// Who talks to whom in the job, as NCCL set it up: ring neighbours per channel, tree parent
// links, and the connections with their transport ("NET/IB/GDRDMA", "P2P/CUMEM", "SHM").
struct JobEdge {
    enum class Kind : int { Ring = 0, Tree = 1, Connection = 2 };
    Kind kind = Kind::Ring;
    int channel = 0;
    int src = 0, dst = 0;   // ranks; for a tree, child -> parent
    std::string transport;  // connections only
    std::int64_t line = 0;
};
struct JobDetails {
    std::string ncclVersion;  // "2.22.3+cuda12.6"; empty when unknown
    int nranks = 0;           // the communicator's size; more than ranks.size() when init hung
    std::vector<JobEdge> edges;
    // When the job ran, UNIX seconds: a job CSV's `# time:`, else its file's mtime (NCCL logs
    // carry no date); `compare`
    // puts a job on the side whose window holds it. Empty for stores written before v7.
    std::optional<double> time;
};
struct StoredJob {
    std::int64_t id = 0;
    std::string name;
    std::string file;  // the imported file
    std::vector<JobRank> ranks;
    JobDetails details;
};
// Inserts one job with its ranks inside the caller's transaction; returns the job id.
std::int64_t writeJob(Store& store, const std::string& name, std::int64_t importId, const std::vector<JobRank>& ranks,
                      const JobDetails& details = {});
// Every job of the store, oldest first, with ranks sorted and edges in input order.
std::vector<StoredJob> loadJobs(const Store& store);
} // namespace fabscope
