#include "importers/long_csv_importer.h"

#include "importers/line_reader.h"

#include <array>
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace fabscope {
namespace {

struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

// Splits one CSV record into exactly 5 fields; handles "quoted, fields" with "" escapes.
bool splitFields(std::string_view line, std::array<std::string_view, 5>& f, std::vector<std::string>& unquoted) {
    // Fast path, one pass: most files quote nothing.
    std::size_t comma[4];
    int n = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ',') {
            if (n == 4) return false;
            comma[n++] = i;
        } else if (c == '"') {
            quoted = true;
            break;
        }
    }
    if (!quoted) {
        if (n != 4) return false;
        f[0] = line.substr(0, comma[0]);
        for (int k = 1; k < 4; ++k) f[static_cast<std::size_t>(k)] = line.substr(comma[k - 1] + 1, comma[k] - comma[k - 1] - 1);
        f[4] = line.substr(comma[3] + 1);
        return true;
    }
    unquoted.clear();
    std::string cur;
    quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted) {
            if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') { cur += '"'; ++i; }
            else if (ch == '"') quoted = false;
            else cur += ch;
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            unquoted.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (quoted) return false;
    unquoted.push_back(std::move(cur));
    if (unquoted.size() != 5) return false;
    for (std::size_t k = 0; k < 5; ++k) f[k] = unquoted[k];
    return true;
}

bool parseDouble(std::string_view s, double& v) {
    // Integers (the common case for timestamps and counters) parse faster as integers.
    if (!s.empty() && s.front() >= '0' && s.front() <= '9') {
        std::int64_t i = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
        if (ec == std::errc{} && p == s.data() + s.size() && i < (std::int64_t{1} << 53)) {
            v = static_cast<double>(i);
            return true;
        }
    }
    s = trim(s);
    if (s.empty()) return false;
    if (s.front() == '+') s.remove_prefix(1);
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc{} && p == s.data() + s.size() && std::isfinite(v);
}

// Key (the "node,port,counter" text of a row) -> series handle and unit scale. Collector dumps
// repeat the same sequence of series at every timestamp, so the series after the previous
// row's is tried first: one memcmp instead of a hash lookup on most rows.
class SeriesKeys {
public:
    struct Entry {
        SampleWriter::Handle handle;
        double scale;
    };
    static constexpr std::uint32_t kNone = UINT32_MAX;

    const Entry* find(std::string_view key) {
        std::uint32_t found = kNone;
        if (last_ != kNone && next_[last_] != kNone && keyOf(next_[last_]) == key) {
            found = next_[last_];
        } else if (auto it = index_.find(key); it != index_.end()) {
            found = it->second;
            if (last_ != kNone) next_[last_] = found;
        }
        if (found == kNone) return nullptr;
        last_ = found;
        return &entries_[found];
    }
    void add(std::string_view key, Entry e) {
        const auto id = static_cast<std::uint32_t>(entries_.size());
        offsets_.push_back(arena_.size());
        arena_.append(key);
        entries_.push_back(e);
        next_.push_back(kNone);
        index_.emplace(std::string(key), id);
        if (last_ != kNone) next_[last_] = id;
        last_ = id;
    }

private:
    std::string_view keyOf(std::uint32_t id) const {
        const std::size_t b = offsets_[id], e = id + 1 < offsets_.size() ? offsets_[id + 1] : arena_.size();
        return std::string_view(arena_).substr(b, e - b);
    }
    std::string arena_;
    std::vector<std::size_t> offsets_;
    std::vector<Entry> entries_;
    std::vector<std::uint32_t> next_;
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> index_;
    std::uint32_t last_ = kNone;
};

} // namespace

int LongCsvImporter::detect(std::string_view head) const {
    const auto firstLine = trim(head.substr(0, head.find('\n')));
    if (firstLine == "timestamp,node,port,counter,value") return 100;
    if (firstLine.starts_with("timestamp,node,port,counter,value")) return 90;
    return 0;
}

std::int64_t LongCsvImporter::read(const ImportInput& in, SampleWriter& out, DiagnosticSink& diag,
                                    const ProgressFn& progress) const {
    LineReader reader(in.bytes, &progress);
    out.reserve(in.bytes.size() / 24);  // a row is rarely shorter than 24 bytes
    std::string_view line;
    std::array<std::string_view, 5> f;
    std::vector<std::string> unquoted;
    SeriesKeys seriesByKey;
    std::unordered_set<std::string> warnedCounters;
    std::int64_t rows = 0;
    bool first = true;
    while (reader.next(line)) {
        if (first) {
            first = false;
            if (line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);  // UTF-8 BOM
            if (trim(line).starts_with("timestamp")) {
                if (trim(line) != "timestamp,node,port,counter,value")
                    diag.fail(reader.number(), "header must be 'timestamp,node,port,counter,value'");
                continue;
            }
        }
        if (trim(line).empty() || line.front() == '#') continue;
        if (!splitFields(line, f, unquoted))
            diag.fail(reader.number(), "expected 5 fields 'timestamp,node,port,counter,value'");
        double ts = 0, value = 0;
        if (!parseDouble(f[0], ts) || ts < 0)
            diag.fail(reader.number(), "bad timestamp '" + std::string(f[0].substr(0, 40)) + "' (UNIX seconds expected)");
        if (ts >= 1e11)  // after the year 5000 in seconds: a millisecond (or finer) clock
            diag.fail(reader.number(), "timestamp " + std::string(f[0].substr(0, 40)) +
                                           " looks like milliseconds; UNIX seconds expected (divide by 1000)");
        if (!parseDouble(f[4], value))
            diag.fail(reader.number(), "bad value '" + std::string(f[4].substr(0, 40)) + "'");
        if (value < 0) diag.fail(reader.number(), "negative counter value " + std::string(f[4].substr(0, 40)));
        if (value > 18446744073709551616.0)  // 2^64: the widest counter a port has
            diag.fail(reader.number(), "counter value " + std::string(f[4].substr(0, 40)) + " is beyond any 64-bit counter");
        const std::string_view node = trim(f[1]), port = trim(f[2]), counter = trim(f[3]);
        if (node.empty() || port.empty() || counter.empty())
            diag.fail(reader.number(), "empty node, port or counter");

        // Key on the raw middle of the line, so repeated series cost one hash lookup.
        const std::string_view key = unquoted.empty()
                                         ? std::string_view(f[1].data(), static_cast<std::size_t>(f[3].data() + f[3].size() - f[1].data()))
                                         : std::string_view{};
        const SeriesKeys::Entry* entry = key.empty() ? nullptr : seriesByKey.find(key);
        SeriesKeys::Entry fresh{};
        if (!entry) {
            auto info = canonicalCounter(counter);
            if (!info) {
                info = CounterInfo{std::string(counter), "", ""};
                if (warnedCounters.insert(std::string(counter)).second)
                    diag.warn(reader.number(), "unknown counter '" + std::string(counter) + "': kept under that name");
            }
            fresh = {out.series(node, port, *info), aliasScale(counter)};
            if (!key.empty()) seriesByKey.add(key, fresh);
            entry = &fresh;
        }
        out.add(entry->handle, std::llround(ts * 1000.0), value * entry->scale);
        unquoted.clear();
        ++rows;
    }
    if (rows == 0) diag.fail(0, "no data rows");
    return rows;
}

} // namespace fabscope
