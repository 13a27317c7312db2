#include "core/store/probes.h"
#include "core/store/probe_presence.h"

#include "core/store/sqlite_stmt.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace fabscope {
namespace {

void bindOptional(sql::Stmt& s, int i, const std::optional<double>& v) {
    if (v) s.bind(i, *v);
    else s.bindNull(i);
}

std::optional<double> optionalReal(const sql::Stmt& s, int col) {
    return s.isNull(col) ? std::nullopt : std::optional<double>(s.real(col));
}

std::string statsJson(const std::vector<std::pair<std::string, double>>& stats) {
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [k, v] : stats) o[k] = v;
    return o.dump();
}

std::vector<std::pair<std::string, double>> statsFromJson(const std::string& text) {
    std::vector<std::pair<std::string, double>> out;
    const auto o = nlohmann::json::parse(text, nullptr, false);
    if (!o.is_object()) return out;
    for (const auto& [k, v] : o.items())
        if (v.is_number()) out.emplace_back(k, v.get<double>());
    return out;
}

std::string stringsJson(const std::vector<std::string>& items) { return nlohmann::json(items).dump(); }

std::vector<std::string> stringsFromJson(const std::string& text) {
    std::vector<std::string> out;
    const auto a = nlohmann::json::parse(text, nullptr, false);
    if (!a.is_array()) return out;
    for (const auto& v : a)
        if (v.is_string()) out.push_back(v.get<std::string>());
    return out;
}

} // namespace

std::optional<double> ProbeResult::stat(const std::string& name) const {
    for (const auto& [k, v] : stats)
        if (k == name) return v;
    return std::nullopt;
}

void writeProbes(Store& store, std::int64_t importId, const std::vector<ProbeResult>& probes) {
    sql::Stmt ins(store.handle(),
                  "INSERT INTO probes(import_id, tool, time, src, dst, sent, lost, latency_us, msg_bytes, stats, path) "
                  "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)");
    for (const auto& p : probes) {
        ins.bind(1, importId).bind(2, p.tool).bind(3, p.time).bind(4, p.src).bind(5, p.dst).bind(6, p.sent).bind(7, p.lost);
        bindOptional(ins, 8, p.latencyUs);
        ins.bind(9, p.msgBytes).bind(10, statsJson(p.stats)).bind(11, p.path.empty() ? std::string() : stringsJson(p.path));
        ins.run();
    }
}

std::int64_t writeCollectiveRun(Store& store, std::int64_t importId, const CollectiveRun& run) {
    sql::Stmt ins(store.handle(),
                  "INSERT INTO collective_runs(import_id, tool, time, hosts, avg_busbw_gbs, failure) VALUES(?1,?2,?3,?4,?5,?6)");
    ins.bind(1, importId).bind(2, run.tool).bind(3, run.time).bind(4, stringsJson(run.hosts));
    bindOptional(ins, 5, run.avgBusbwGBs);
    ins.bind(6, run.failure);
    ins.run();
    const std::int64_t id = sqlite3_last_insert_rowid(store.handle());
    sql::Stmt row(store.handle(), "INSERT INTO collective_rows VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
    for (const auto& r : run.rows) {
        row.bind(1, id).bind(2, r.sizeBytes).bind(3, r.count).bind(4, r.type).bind(5, r.redop);
        bindOptional(row, 6, r.timeUs);
        bindOptional(row, 7, r.algbwGBs);
        bindOptional(row, 8, r.busbwGBs);
        bindOptional(row, 9, r.inPlaceTimeUs);
        bindOptional(row, 10, r.inPlaceAlgbwGBs);
        bindOptional(row, 11, r.inPlaceBusbwGBs);
        row.bind(12, r.wrong);
        row.run();
    }
    return id;
}

bool anyProbeIn(const Store& store, double from, double to) {
    sql::Stmt q(store.handle(), "SELECT 1 FROM probes WHERE time >= ?1 AND time <= ?2 LIMIT 1");
    q.bind(1, from).bind(2, to);
    return q.step();
}

std::vector<ProbeResult> loadProbes(const Store& store, std::optional<double> from, std::optional<double> to) {
    std::vector<ProbeResult> out;
    sql::Stmt q(store.handle(),
                "SELECT tool, time, src, dst, sent, lost, latency_us, msg_bytes, stats, path FROM probes "
                "WHERE time >= ?1 AND time <= ?2 ORDER BY time, src, dst, id");
    q.bind(1, from.value_or(-std::numeric_limits<double>::max())).bind(2, to.value_or(std::numeric_limits<double>::max()));
    while (q.step()) {
        ProbeResult p;
        p.tool = q.text(0);
        p.time = q.real(1);
        p.src = q.text(2);
        p.dst = q.text(3);
        p.sent = q.integer(4);
        p.lost = q.integer(5);
        p.latencyUs = optionalReal(q, 6);
        p.msgBytes = q.integer(7);
        p.stats = statsFromJson(q.text(8));
        p.path = stringsFromJson(q.text(9));
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<CollectiveRun> loadCollectiveRuns(const Store& store) {
    std::vector<CollectiveRun> runs;
    sql::Stmt q(store.handle(), "SELECT id, tool, time, hosts, avg_busbw_gbs, failure FROM collective_runs ORDER BY time, id");
    sql::Stmt rows(store.handle(),
                   "SELECT size_bytes, count, type, redop, time_us, algbw_gbs, busbw_gbs, ip_time_us, ip_algbw_gbs, "
                   "ip_busbw_gbs, wrong FROM collective_rows WHERE run_id = ?1 ORDER BY size_bytes");
    while (q.step()) {
        CollectiveRun run;
        run.id = q.integer(0);
        run.tool = q.text(1);
        run.time = q.real(2);
        run.hosts = stringsFromJson(q.text(3));
        run.avgBusbwGBs = optionalReal(q, 4);
        run.failure = q.text(5);
        rows.bind(1, run.id);
        while (rows.step()) {
            CollectiveRow r;
            r.sizeBytes = rows.integer(0);
            r.count = rows.integer(1);
            r.type = rows.text(2);
            r.redop = rows.text(3);
            r.timeUs = optionalReal(rows, 4);
            r.algbwGBs = optionalReal(rows, 5);
            r.busbwGBs = optionalReal(rows, 6);
            r.inPlaceTimeUs = optionalReal(rows, 7);
            r.inPlaceAlgbwGBs = optionalReal(rows, 8);
            r.inPlaceBusbwGBs = optionalReal(rows, 9);
            r.wrong = rows.integer(10);
            run.rows.push_back(std::move(r));
        }
        rows.reset();
        runs.push_back(std::move(run));
    }
    return runs;
}

std::optional<std::pair<double, double>> probeTimeSpan(const Store& store) {
    sql::Stmt q(store.handle(), "SELECT MIN(t), MAX(t) FROM (SELECT time AS t FROM probes UNION ALL SELECT time FROM collective_runs)");
    if (!q.step() || q.isNull(0)) return std::nullopt;
    return std::pair{q.real(0), q.real(1)};
}

} // namespace fabscope
