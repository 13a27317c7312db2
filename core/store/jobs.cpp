// Jobs in the store: rank -> host/device (v2) and, from NCCL logs, the communicator's size, NCCL
// version and who talks to whom (v6 job_edges). See core/store.h.
#include "core/store/sqlite_stmt.h"
#include "core/store/store.h"

#include <map>

namespace fabscope {

std::int64_t writeJob(Store& store, const std::string& name, std::int64_t importId, const std::vector<JobRank>& ranks,
                      const JobDetails& details) {
    sql::Stmt job(store.handle(), "INSERT INTO jobs(name, import_id, nccl_version, nranks, time) VALUES(?1, ?2, ?3, ?4, ?5)");
    job.bind(1, name).bind(2, importId).bind(3, details.ncclVersion).bind(4, details.nranks);
    if (details.time) job.bind(5, *details.time);
    job.run();
    const std::int64_t id = sqlite3_last_insert_rowid(store.handle());
    sql::Stmt r(store.handle(), "INSERT OR REPLACE INTO job_ranks(job_id, rank, host, device, line) VALUES(?1, ?2, ?3, ?4, ?5)");
    for (const JobRank& jr : ranks) r.bind(1, id).bind(2, jr.rank).bind(3, jr.host).bind(4, jr.device).bind(5, jr.line).run();
    sql::Stmt e(store.handle(), "INSERT INTO job_edges(job_id, kind, channel, src, dst, transport, line) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    for (const JobEdge& je : details.edges)
        e.bind(1, id).bind(2, static_cast<int>(je.kind)).bind(3, je.channel).bind(4, je.src).bind(5, je.dst).bind(6, je.transport)
            .bind(7, je.line).run();
    return id;
}

std::vector<StoredJob> loadJobs(const Store& store) {
    std::vector<StoredJob> jobs;
    std::map<std::int64_t, std::size_t> at;
    sql::Stmt j(store.handle(), "SELECT j.id, j.name, coalesce(i.file, ''), j.nccl_version, j.nranks, j.time FROM jobs j "
                                "LEFT JOIN imports i ON i.id = j.import_id ORDER BY j.id");
    while (j.step()) {
        StoredJob sj;
        sj.id = j.integer(0);
        sj.name = j.text(1);
        sj.file = j.text(2);
        sj.details.ncclVersion = j.text(3);
        sj.details.nranks = static_cast<int>(j.integer(4));
        if (!j.isNull(5)) sj.details.time = j.real(5);
        at[sj.id] = jobs.size();
        jobs.push_back(std::move(sj));
    }
    sql::Stmt r(store.handle(), "SELECT job_id, rank, host, device, line FROM job_ranks ORDER BY job_id, rank");
    while (r.step())
        if (const auto it = at.find(r.integer(0)); it != at.end())
            jobs[it->second].ranks.push_back({static_cast<int>(r.integer(1)), r.text(2), r.text(3), r.integer(4)});
    sql::Stmt e(store.handle(), "SELECT job_id, kind, channel, src, dst, transport, line FROM job_edges ORDER BY job_id, rowid");
    while (e.step())
        if (const auto it = at.find(e.integer(0)); it != at.end())
            jobs[it->second].details.edges.push_back({static_cast<JobEdge::Kind>(e.integer(1)), static_cast<int>(e.integer(2)),
                                                      static_cast<int>(e.integer(3)), static_cast<int>(e.integer(4)), e.text(5),
                                                      e.integer(6)});
    return jobs;
}

} // namespace fabscope
