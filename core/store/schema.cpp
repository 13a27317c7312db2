#include "core/store/schema.h"

#include <array>

namespace fabscope {
namespace {

// Version 1: topology snapshots, counter series stored in chunks, import records.
constexpr std::string_view kV1 = R"sql(
CREATE TABLE imports(
  id INTEGER PRIMARY KEY, file TEXT NOT NULL, sha256 TEXT NOT NULL UNIQUE, format TEXT NOT NULL,
  rows INTEGER NOT NULL, imported_at REAL NOT NULL, snapshot_id INTEGER);
CREATE TABLE snapshots(id INTEGER PRIMARY KEY, label TEXT NOT NULL, time REAL NOT NULL);
-- One row per physical node across all snapshots: GUID on InfiniBand, system name on Ethernet.
CREATE TABLE devices(id INTEGER PRIMARY KEY, guid TEXT NOT NULL, name TEXT NOT NULL, UNIQUE(guid, name));
CREATE TABLE snap_nodes(
  snapshot_id INTEGER NOT NULL, device_id INTEGER NOT NULL, ord INTEGER NOT NULL, type INTEGER NOT NULL,
  description TEXT NOT NULL, system_name TEXT NOT NULL, num_ports INTEGER NOT NULL, lid INTEGER NOT NULL,
  PRIMARY KEY(snapshot_id, device_id)) WITHOUT ROWID;
CREATE TABLE snap_ports(
  snapshot_id INTEGER NOT NULL, device_id INTEGER NOT NULL, port TEXT NOT NULL, ord INTEGER NOT NULL,
  number INTEGER NOT NULL, port_guid TEXT NOT NULL, lid INTEGER NOT NULL, width INTEGER, speed TEXT NOT NULL,
  capacity_bps INTEGER NOT NULL, state INTEGER NOT NULL,
  PRIMARY KEY(snapshot_id, device_id, port)) WITHOUT ROWID;
CREATE TABLE snap_links(
  snapshot_id INTEGER NOT NULL, a_port_ord INTEGER NOT NULL, b_port_ord INTEGER NOT NULL, width INTEGER,
  speed TEXT NOT NULL, capacity_bps INTEGER NOT NULL, both_ends INTEGER NOT NULL);
CREATE INDEX snap_links_by_snapshot ON snap_links(snapshot_id);
CREATE TABLE counters(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, unit TEXT NOT NULL);
-- unmapped_ref is '' for series mapped to a device and the input's node name otherwise.
CREATE TABLE series(
  id INTEGER PRIMARY KEY, device_id INTEGER NOT NULL, unmapped_ref TEXT NOT NULL, node_ref TEXT NOT NULL,
  port TEXT NOT NULL, counter_id INTEGER NOT NULL REFERENCES counters(id),
  UNIQUE(device_id, unmapped_ref, port, counter_id));
-- A block of one series: encoded timestamps (ms) and values, see core/chunk_codec.h.
CREATE TABLE chunks(
  series_id INTEGER NOT NULL, t0 INTEGER NOT NULL, t1 INTEGER NOT NULL, n INTEGER NOT NULL,
  times BLOB NOT NULL, vals BLOB NOT NULL, import_id INTEGER NOT NULL);
CREATE INDEX chunks_by_series ON chunks(series_id, t0);
)sql";

// Version 2: jobs (rank -> host) for straggler analysis.
constexpr std::string_view kV2 = R"sql(
CREATE TABLE jobs(id INTEGER PRIMARY KEY, name TEXT NOT NULL, import_id INTEGER NOT NULL);
CREATE TABLE job_ranks(
  job_id INTEGER NOT NULL, rank INTEGER NOT NULL, host TEXT NOT NULL, device TEXT NOT NULL,
  PRIMARY KEY(job_id, rank)) WITHOUT ROWID;
)sql";

// Version 3: what each port claims to support ("Could be 12X" in iblinkinfo), evidence for
// degraded-link findings; and forwarding tables, one BLOB per switch: byte L is the egress port
// for destination LID L (255 = no route), for path tracing.
constexpr std::string_view kV3 = R"sql(
CREATE TABLE port_hints(
  snapshot_id INTEGER NOT NULL, device_id INTEGER NOT NULL, port TEXT NOT NULL,
  supported_width INTEGER, supported_speed TEXT NOT NULL,
  PRIMARY KEY(snapshot_id, device_id, port)) WITHOUT ROWID;
CREATE TABLE routes(
  snapshot_id INTEGER NOT NULL, device_id INTEGER NOT NULL, egress BLOB NOT NULL,
  PRIMARY KEY(snapshot_id, device_id)) WITHOUT ROWID;
)sql";

// Version 4: annotations (a note pinned to a time range and optionally to ports; IF NOT EXISTS
// because stores written before v4 may already hold the table), probe results between host pairs
// (pingmesh, perftest; stats and path as JSON since each tool has its own figures) and
// collective benchmark runs (nccl-tests), one row per message size.
constexpr std::string_view kV4 = R"sql(
CREATE TABLE IF NOT EXISTS annotations(
  id INTEGER PRIMARY KEY, start REAL NOT NULL, end REAL NOT NULL, note TEXT NOT NULL,
  author TEXT NOT NULL DEFAULT '', created_at REAL NOT NULL, ports TEXT NOT NULL DEFAULT '[]');
CREATE INDEX IF NOT EXISTS annotations_by_start ON annotations(start);
CREATE TABLE probes(
  id INTEGER PRIMARY KEY, import_id INTEGER NOT NULL, tool TEXT NOT NULL, time REAL NOT NULL,
  src TEXT NOT NULL, dst TEXT NOT NULL, sent INTEGER NOT NULL, lost INTEGER NOT NULL,
  latency_us REAL, msg_bytes INTEGER NOT NULL, stats TEXT NOT NULL, path TEXT NOT NULL);
CREATE INDEX probes_by_time ON probes(time);
CREATE TABLE collective_runs(
  id INTEGER PRIMARY KEY, import_id INTEGER NOT NULL, tool TEXT NOT NULL, time REAL NOT NULL,
  hosts TEXT NOT NULL, avg_busbw_gbs REAL);
CREATE TABLE collective_rows(
  run_id INTEGER NOT NULL, size_bytes INTEGER NOT NULL, count INTEGER NOT NULL, type TEXT NOT NULL,
  redop TEXT NOT NULL, time_us REAL, algbw_gbs REAL, busbw_gbs REAL, ip_time_us REAL, ip_algbw_gbs REAL,
  ip_busbw_gbs REAL, wrong INTEGER NOT NULL);
CREATE INDEX collective_rows_by_run ON collective_rows(run_id, size_bytes);
)sql";

// Version 5: each snapshot's fabric as one blob (core/fabric_codec.h), a read cache beside the
// snap_* tables. Snapshots written before v5 have none and are read from the tables.
constexpr std::string_view kV5 = R"sql(
CREATE TABLE snapshot_fabric(snapshot_id INTEGER PRIMARY KEY, format INTEGER NOT NULL, data BLOB NOT NULL);
)sql";

// Version 6: jobs as NCCL set them up: the communicator's size (more than its ranks when init
// hung), the NCCL version, each rank's input line, and rings, trees and connections per channel
// (kind 0 ring neighbour, 1 tree child -> parent, 2 connection with its transport); and why a
// benchmark run failed (empty for a good run).
constexpr std::string_view kV6 = R"sql(
ALTER TABLE jobs ADD COLUMN nccl_version TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN nranks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE job_ranks ADD COLUMN line INTEGER NOT NULL DEFAULT 0;
CREATE TABLE job_edges(
  job_id INTEGER NOT NULL, kind INTEGER NOT NULL, channel INTEGER NOT NULL, src INTEGER NOT NULL,
  dst INTEGER NOT NULL, transport TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX job_edges_by_job ON job_edges(job_id, kind);
ALTER TABLE collective_runs ADD COLUMN failure TEXT NOT NULL DEFAULT '';
)sql";

// Version 7: when a job ran (its file's time), so two runs in one store can be told apart.
constexpr std::string_view kV7 = R"sql(
ALTER TABLE jobs ADD COLUMN time REAL;
)sql";

// Version 8: the series index of the chunks also holds each chunk's end and sample count, so a
// store's time span and sample total (`info`, the analysis window, File > Open) read the index,
// not every chunk row; a chunk ending before a window is also passed over in the index.
constexpr std::string_view kV8 = R"sql(
DROP INDEX chunks_by_series;
CREATE INDEX chunks_by_series ON chunks(series_id, t0, t1, n);
)sql";

// Version 9: chunks may hold run-coded blobs (core/chunk_codec.h), which a FabScope before it
// would misread; the tables are unchanged and older blobs stay as they are.
constexpr std::string_view kV9 = "-- run-coded chunk blobs";

// Version 10: each chunk's peak rate (core/analysis/rates.h peakRate(): the steepest rise per
// second between its consecutive samples; NULL when unknown, as for every chunk written before),
// in the series index too, so the analysis reads every series' peaks from the index alone and
// skips the series that cannot reach a threshold.
constexpr std::string_view kV10 = R"sql(
ALTER TABLE chunks ADD COLUMN peak REAL;
DROP INDEX chunks_by_series;
CREATE INDEX chunks_by_series ON chunks(series_id, t0, t1, n, peak);
)sql";

// Version 11: the series table without its unique index on (device, unmapped ref, port,
// counter). No query reads by it: an import keeps every key in memory (core/store/store.cpp,
// filled again when another connection has committed since) and makes each series once; the
// index's inserts, in an order unlike the rows', were ~3-5 ms of a 20,480-series import.
constexpr std::string_view kV11 = R"sql(
CREATE TABLE series_v11(
  id INTEGER PRIMARY KEY, device_id INTEGER NOT NULL, unmapped_ref TEXT NOT NULL, node_ref TEXT NOT NULL,
  port TEXT NOT NULL, counter_id INTEGER NOT NULL REFERENCES counters(id));
INSERT INTO series_v11(id, device_id, unmapped_ref, node_ref, port, counter_id)
  SELECT id, device_id, unmapped_ref, node_ref, port, counter_id FROM series ORDER BY id;
DROP TABLE series;
ALTER TABLE series_v11 RENAME TO series;
)sql";

// Version 12: what each port's pluggable module reported (ibdiagnet2.cables): identity,
// temperature and its alarm threshold, per-lane power and bias as "v,v,-,v" text ("-" = no
// reading) and the alarm flags that were set, one per line. core/store/port_optics.h.
constexpr std::string_view kV12 = R"sql(
CREATE TABLE port_optics(
  snapshot_id INTEGER NOT NULL, device_id INTEGER NOT NULL, port TEXT NOT NULL,
  vendor TEXT NOT NULL, part_number TEXT NOT NULL, serial TEXT NOT NULL, type TEXT NOT NULL, length TEXT NOT NULL,
  firmware TEXT NOT NULL, temperature_c REAL, temperature_alarm_c REAL, rx_power_dbm TEXT NOT NULL,
  tx_power_dbm TEXT NOT NULL, tx_bias_ma TEXT NOT NULL, alarms TEXT NOT NULL, line INTEGER NOT NULL,
  PRIMARY KEY(snapshot_id, device_id, port)) WITHOUT ROWID;
)sql";

// Version 13: what a diagnostic tool reported about a node or port (ibdiagnet's WARNINGS_ and
// ERRORS_ rows); port '' = the node. core/store/fabric_events.h.
constexpr std::string_view kV13 = R"sql(
CREATE TABLE fabric_events(
  snapshot_id INTEGER NOT NULL, device_id INTEGER NOT NULL, port TEXT NOT NULL, error INTEGER NOT NULL,
  check_name TEXT NOT NULL, name TEXT NOT NULL, summary TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX fabric_events_by_snapshot ON fabric_events(snapshot_id, device_id);
)sql";

// Version 14: which tool reported an event ("ibdiagnet", "ibswinfo"); the rows before are ibdiagnet's.
constexpr std::string_view kV14 = R"sql(
ALTER TABLE fabric_events ADD COLUMN tool TEXT NOT NULL DEFAULT 'ibdiagnet';
)sql";

// Version 15: a snapshot may be a cabling plan (an ibdm topology file, an ibsim net file) rather than a discovered fabric.
constexpr std::string_view kV15 = R"sql(
ALTER TABLE snapshots ADD COLUMN planned INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 16: each port's FEC mode and bit error rates as ibdiagnet read them (ibdiagnet2.net_dump_ext);
// NULL where the file gave no value. core/store/port_ber.h.
constexpr std::string_view kV16 = R"sql(
CREATE TABLE port_ber(
  snapshot_id INTEGER NOT NULL, device_id INTEGER NOT NULL, port TEXT NOT NULL, fec_mode TEXT NOT NULL,
  raw_ber REAL, effective_ber REAL, symbol_ber REAL, symbol_errors INTEGER, effective_errors INTEGER,
  line INTEGER NOT NULL, PRIMARY KEY(snapshot_id, device_id, port)) WITHOUT ROWID;
)sql";

// Version 17: an import is its content and the names its path gave (a host, a job; '' when the
// content names everything), so two hosts' files of the same bytes are two imports. SQLite cannot
// drop the column's UNIQUE: the table is rebuilt, ids kept (chunks and jobs refer to them). The
// names of earlier imports are unknown (NULL): they stay repeats of their content under any name.
constexpr std::string_view kV17 = R"sql(
CREATE TABLE imports_v17(
  id INTEGER PRIMARY KEY, file TEXT NOT NULL, sha256 TEXT NOT NULL, format TEXT NOT NULL,
  rows INTEGER NOT NULL, imported_at REAL NOT NULL, snapshot_id INTEGER, name_key TEXT,
  UNIQUE(sha256, name_key));
INSERT INTO imports_v17(id, file, sha256, format, rows, imported_at, snapshot_id)
  SELECT id, file, sha256, format, rows, imported_at, snapshot_id FROM imports;
DROP TABLE imports;
ALTER TABLE imports_v17 RENAME TO imports;
)sql";

constexpr std::array<std::string_view, 17> kScripts{kV1,  kV2,  kV3,  kV4,  kV5,  kV6,  kV7, kV8,  kV9,
                                                    kV10, kV11, kV12, kV13, kV14, kV15, kV16, kV17};

} // namespace

std::string_view migrationScript(int toVersion) {
    if (toVersion < 1 || toVersion > static_cast<int>(kScripts.size())) return {};
    return kScripts[static_cast<std::size_t>(toVersion - 1)];
}

} // namespace fabscope
