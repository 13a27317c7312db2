#include "core/store/sample_writer.h"

#include <cstdlib>
#include <string_view>

#include "core/analysis/rates.h"
#include "core/chunk_codec.h"
#include "core/fabric_builder.h"
#include "core/huge_page_allocator.h"
#include "core/store/sqlite_stmt.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <span>

namespace fabscope {

bool SampleWriter::smallBatches() {
    const char* v = std::getenv("FABSCOPE_TEST_SMALL_BATCHES");
    return v && std::string_view(v) == "1";
}

SampleWriter::SampleWriter(Store& store) : store_(store) {
    // Series ids are rowids: those above today's largest are created by this writer.
    sql::Stmt maxId(store.handle(), "SELECT coalesce(max(id), 0) FROM series");
    if (maxId.step()) firstNewSeriesId_ = maxId.integer(0) + 1;
    for (auto& [name, id] : store.deviceNames()) {
        const std::string guid = normaliseGuid(name);
        deviceByName_.emplace(name.starts_with("0x") && !guid.empty() ? guid : name, id);
    }
}

SampleWriter::~SampleWriter() = default;

std::int64_t SampleWriter::resolveDevice(std::string_view node) const {
    if (auto it = deviceByName_.find(std::string(node)); it != deviceByName_.end()) return it->second;
    if (node.starts_with("0x") || node.starts_with("0X")) {
        if (auto it = deviceByName_.find(normaliseGuid(node)); it != deviceByName_.end()) return it->second;
    }
    return 0;
}

SampleWriter::Handle SampleWriter::series(std::string_view node, std::string_view port, const CounterInfo& counter) {
    key_.assign(node);
    key_ += '\x1f';
    key_ += port;
    key_ += '\x1f';
    key_ += counter.name;
    if (auto it = handles_.find(key_); it != handles_.end()) return it->second;
    const std::int64_t device = resolveDevice(node);
    if (device == 0) ++unmapped_;
    const auto h = static_cast<Handle>(seriesIds_.size());
    counterNames_.push_back(counter.name);
    flushed_.push_back(false);
    seriesIds_.push_back(store_.ensureSeries(device, std::string(node), std::string(port), counter.name, counter.unit));
    handles_.emplace(key_, h);
    return h;
}

// Two files of one capture may hold the same counter at the same time (perfquery and
// perfquery -x of one port, with the same `date +%s` lines): one sample is kept per time, the
// 64-bit one: the value that is not a saturated legacy ceiling, else the larger. Returns false
// when nothing collides, leaving the append to the caller. `t` is sorted; `mayHaveStored` is
// false for a series this writer created and has not flushed yet, which skips the query on the
// common path of a fresh import.
bool SampleWriter::mergeWithStored(std::int64_t seriesId, bool mayHaveStored, const std::string& counter,
                                   std::span<const std::int64_t> t, std::span<const double> v) {
    std::vector<std::int64_t> times;
    std::vector<double> values;
    std::vector<std::int64_t> rowids;
    if (mayHaveStored) {
        if (!storedChunks_)
            storedChunks_ = std::make_unique<sql::Stmt>(store_.handle(),
                                                        "SELECT rowid, times, vals FROM chunks WHERE series_id=?1 AND t1>=?2 AND t0<=?3");
        sql::Stmt& q = *storedChunks_;
        q.reset();
        q.bind(1, seriesId).bind(2, t.front()).bind(3, t.back());
        while (q.step()) {
            rowids.push_back(q.integer(0));
            decodeTimes(q.blob(1), times);
            decodeValues(q.blob(2), values);
        }
        q.reset();
    }
    const bool selfRepeat = std::adjacent_find(t.begin(), t.end()) != t.end();
    if (rowids.empty() && !selfRepeat) return false;
    times.insert(times.begin(), t.begin(), t.end());
    values.insert(values.begin(), v.begin(), v.end());
    std::vector<std::size_t> idx(times.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return times[a] < times[b]; });
    std::vector<std::int64_t> mt;
    std::vector<double> mv;
    std::int64_t repeats = 0;
    for (auto i : idx) {
        if (!mt.empty() && mt.back() == times[i]) {
            // The saturated legacy value (2^32-1 and friends) loses; else the larger, never below the 32-bit one.
            const bool keptSaturated = isSaturated(counter, mv.back()), newSaturated = isSaturated(counter, values[i]);
            if (keptSaturated != newSaturated ? keptSaturated : values[i] > mv.back()) mv.back() = values[i];
            ++repeats;
            continue;
        }
        mt.push_back(times[i]);
        mv.push_back(values[i]);
    }
    if (repeats == 0) return false;
    duplicates_ += repeats;
    if (!rowids.empty()) {
        sql::Stmt del(store_.handle(), "DELETE FROM chunks WHERE rowid=?1");
        for (auto id : rowids) del.bind(1, id).run();
    }
    for (std::size_t off = 0; off < mt.size(); off += kChunkSamples) {
        const std::size_t n = std::min(kChunkSamples, mt.size() - off);
        store_.appendChunk(seriesId, std::span(mt).subspan(off, n), std::span(mv).subspan(off, n));
    }
    return true;
}

void SampleWriter::flush() {
    if (pending_.empty()) return;
    const std::span<const Sample> all(pending_);
    write(std::span(&all, 1), pending_.size());
    pending_.clear();
}

void SampleWriter::addBatches(std::span<const std::span<const Sample>> batches) {
    flush();  // what add() gathered comes first
    // Groups of at most flushSamples_ samples, the bound add() keeps (crash tests rely on it).
    std::vector<std::span<const Sample>> group;
    std::size_t inGroup = 0;
    for (std::span<const Sample> b : batches) {
        samples_ += static_cast<std::int64_t>(b.size());
        while (!b.empty()) {
            const std::size_t n = std::min(b.size(), flushSamples_ - inGroup);
            group.push_back(b.first(n));
            inGroup += n;
            b = b.subspan(n);
            if (inGroup == flushSamples_) {
                write(group, inGroup);
                group.clear();
                inGroup = 0;
            }
        }
    }
    if (inGroup > 0) write(group, inGroup);
}

void SampleWriter::write(std::span<const std::span<const Sample>> batches, std::size_t total) {
    // Counting sort by series (stable, so arrival order survives within a series).
    std::vector<std::size_t> start(seriesIds_.size() + 1, 0);
    for (const auto& batch : batches)
        for (const Sample& s : batch) ++start[s.handle + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    // Left uninitialised (every element is written below), on huge pages.
    HugePageAllocator<std::int64_t> timesAlloc;
    HugePageAllocator<double> valuesAlloc;
    const std::unique_ptr<std::int64_t, std::function<void(std::int64_t*)>> timesBuf(
        timesAlloc.allocate(total), [&](std::int64_t* p) { timesAlloc.deallocate(p, total); });
    const std::unique_ptr<double, std::function<void(double*)>> valuesBuf(
        valuesAlloc.allocate(total), [&](double* p) { valuesAlloc.deallocate(p, total); });
    const std::span<std::int64_t> times(timesBuf.get(), total);
    const std::span<double> values(valuesBuf.get(), total);
    {
        std::vector<std::size_t> at(start.begin(), start.end() - 1);
        for (const auto& batch : batches)
            for (const Sample& s : batch) {
                const std::size_t i = at[s.handle]++;
                times[i] = s.timeMs;
                values[i] = s.value;
            }
    }
    for (std::size_t h = 0; h < seriesIds_.size(); ++h) {
        const std::size_t b = start[h], e = start[h + 1];
        if (b == e) continue;
        auto t = times.subspan(b, e - b);
        auto v = values.subspan(b, e - b);
        if (!std::is_sorted(t.begin(), t.end())) {
            std::vector<std::size_t> idx(t.size());
            std::iota(idx.begin(), idx.end(), 0);
            std::stable_sort(idx.begin(), idx.end(), [&](auto x, auto y) { return t[x] < t[y]; });
            std::vector<std::int64_t> ts;
            std::vector<double> vs;
            ts.reserve(idx.size());
            vs.reserve(idx.size());
            for (auto i : idx) {
                ts.push_back(t[i]);
                vs.push_back(v[i]);
            }
            std::copy(ts.begin(), ts.end(), t.begin());
            std::copy(vs.begin(), vs.end(), v.begin());
        }
        const bool mayHaveStored = seriesIds_[h] < firstNewSeriesId_ || flushed_[h];
        flushed_[h] = true;
        if (mergeWithStored(seriesIds_[h], mayHaveStored, counterNames_[h], t, v)) continue;
        for (std::size_t off = 0; off < t.size(); off += kChunkSamples) {
            const std::size_t n = std::min(kChunkSamples, t.size() - off);
            store_.appendChunk(seriesIds_[h], t.subspan(off, n), v.subspan(off, n));
        }
    }
}

} // namespace fabscope
