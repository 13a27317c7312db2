#include "importers/job_csv_importer.h"

#include "importers/line_reader.h"
#include "importers/nccl_log_importer.h"
#include "importers/user_time.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <vector>

namespace fabscope {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view firstDataLine(std::string_view head) {
    LineReader r(head);
    std::string_view line;
    while (r.next(line)) {
        line = trim(line);
        if (!line.empty() && !line.starts_with('#')) return line;
    }
    return {};
}

bool isHeader(std::string_view line) {
    std::string h;
    for (char c : line)
        if (c != ' ' && c != '\t' && c != '"') h += c;
    return lower(h) == "rank,host,device";
}

} // namespace

int JobCsvImporter::detect(std::string_view head) const {
    if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
    return isHeader(firstDataLine(head)) ? 100 : 0;
}

JobResult JobCsvImporter::read(const ImportInput& in, DiagnosticSink& diag, const ProgressFn& progress) const {
    LineReader reader(in.bytes, &progress);  // without a byte-order mark (Importer::parse)
    std::string_view line;
    JobResult job;
    job.name = jobNameFromFileName(in.file);
    std::set<int> seen;
    bool header = false;
    while (reader.next(line)) {
        line = trim(line);
        if (line.empty()) continue;
        if (line.starts_with('#')) {  // "# job: NAME" names the job, "# time: T" says when it ran
            auto c = trim(line.substr(1));
            if (c.starts_with("job:")) job.name = std::string(trim(c.substr(4)));
            if (c.starts_with("time:")) {
                // Else the file's mtime dates the job, which a copy made later moves.
                job.details.time = readUserTime(trim(c.substr(5)));
                if (!job.details.time)
                    diag.fail(reader.number(), "`# time:` wants UNIX seconds or a UTC time (2023-11-14T22:13:20Z), got `" +
                                                   std::string(trim(c.substr(5))) + "`");
            }
            continue;
        }
        if (!header) {
            if (!isHeader(line)) diag.fail(reader.number(), "expected the header `rank,host,device`");
            header = true;
            continue;
        }
        std::vector<std::string_view> f;
        for (std::string_view rest = line;;) {
            const auto comma = rest.find(',');
            f.push_back(trim(rest.substr(0, comma)));
            if (comma == std::string_view::npos) break;
            rest = rest.substr(comma + 1);
        }
        if (f.size() < 2 || f.size() > 3)
            diag.fail(reader.number(), "expected 3 fields `rank,host,device`, got " + std::to_string(f.size()));
        int rank = -1;
        auto [p, ec] = std::from_chars(f[0].data(), f[0].data() + f[0].size(), rank);
        if (ec != std::errc{} || p != f[0].data() + f[0].size() || rank < 0)
            diag.fail(reader.number(), "rank `" + std::string(f[0]) + "` is not a non-negative integer");
        if (f[1].empty()) diag.fail(reader.number(), "rank " + std::to_string(rank) + " has no host");
        if (!seen.insert(rank).second) diag.fail(reader.number(), "rank " + std::to_string(rank) + " listed twice");
        job.ranks.push_back({rank, std::string(f[1]), std::string(f.size() == 3 ? f[2] : std::string_view{})});
    }
    if (!header) diag.fail(0, "empty job CSV: expected the header `rank,host,device`");
    if (job.ranks.empty()) diag.fail(0, "job CSV without ranks");
    std::sort(job.ranks.begin(), job.ranks.end(), [](const JobRank& a, const JobRank& b) { return a.rank < b.rank; });
    return job;
}

// The file's name names the job unless a `# job:` comment does (read() takes the same rule).
std::string JobCsvImporter::nameFromPath(std::string_view path, std::string_view text) const {
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = trim(text.substr(at, end - at));
        if (line.starts_with('#') && trim(line.substr(1)).starts_with("job:")) return {};
        at = end + 1;
    }
    return jobNameFromFileName(path);
}

} // namespace fabscope
